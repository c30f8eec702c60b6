/**
 * The one rule for whether a file drifted since it was staged: the manager checks it before the
 * point of no return, and the VS Code side checks it again with what it just read.
 */
import type { CommitFile } from './plan';
import { sha256 } from './segments';

/** What is there now, as read by whoever checks. */
export interface FileNow {
  /** The bytes on disk; undefined when there is no file. */
  bytes: Uint8Array | undefined;
  /** For a move: whether something is at the new path. */
  targetExists?: boolean;
  /** For a move: whether the editor holds unsaved text for the new path (of a file gone from disk). */
  targetUnsaved?: boolean;
  /** The editor's text of the file; undefined when not read (binary, or known to equal the disk). */
  editorText?: string;
}

/** Why the planned file cannot be committed as staged, or undefined when it still holds its base. */
export function drift(f: CommitFile, now: FileNow): string | undefined {
  if (f.kind === 'create') return now.bytes !== undefined ? `${f.path} exists now, but the transaction creates it` : undefined;
  if (f.newAbsPath && now.targetExists) return `${f.newPath ?? f.path} exists now, but the transaction moves ${f.path} there`;
  if (f.newAbsPath && now.targetUnsaved) {
    return `an editor holds unsaved text for ${f.newPath ?? f.path}, where the transaction moves ${f.path}; save or discard it first`;
  }
  const base = f.base;
  if (!base) return undefined;
  if (now.bytes === undefined && base.diskHash !== null) return `${f.path} was deleted after it was staged`;
  if (now.bytes !== undefined && sha256(now.bytes) !== base.diskHash) return `${f.path} changed on disk after it was staged`;
  if (!base.binary && now.editorText !== undefined && now.editorText !== base.text) return `${f.path} changed in the editor after it was staged`;
  return undefined;
}
