/**
 * What a commit does, as plain data: the editor port (documents/editorPort.ts) carries it to the
 * VS Code side, which applies, saves and verifies it.
 */
import * as path from 'node:path';

/** A replacement by zero-based UTF-16 offsets. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** What a document was when the transaction first touched it. */
export interface DocumentBase {
  path: string;
  /** Buffer text ('' for a file that is not text). */
  text: string;
  /** sha256 of the bytes on disk; null when the file is not on disk (an unsaved new buffer). */
  diskHash: string | null;
  binary: boolean;
  eol: 'LF' | 'CRLF';
  languageId: string;
}

/** What a commit must do to one file, with what it must find first. */
export interface CommitFile {
  kind: 'create' | 'delete' | 'rename' | 'modify';
  /** Absolute path before the commit (for create: the new file). */
  absPath: string;
  /** Workspace-relative path, for messages. */
  path: string;
  newAbsPath?: string;
  newPath?: string;
  /** Expected buffer text and disk bytes hash (null: not on disk); absent for create. */
  base?: DocumentBase;
  /** Edits on the base buffer text (modify, rename with changes). */
  edits?: OffsetEdit[];
  /** The staged text (create, modify, rename). */
  text?: string;
}

export interface CommitPlan {
  transactionId: string;
  workspaceId: string;
  folder: string;
  files: CommitFile[];
}

/** A staged path's absolute path, for hosts. */
export const stagedAbsolutePath = (folder: string, relativePath: string): string => path.join(folder, ...relativePath.split('/'));
