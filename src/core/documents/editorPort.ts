/**
 * What the core needs from the editor, in plain types. src/host/vscodeHost.ts implements it
 * with the VS Code API; unit tests implement it in memory. Offsets are zero-based UTF-16.
 */

import type { CommitPlan } from '../transactions/plan';

/** A file a commit wrote, with sha256 of its bytes before and after (null: no file). */
export interface CommittedFile {
  path: string;
  beforeHash: string | null;
  afterHash: string | null;
}

export type CommitOutcome =
  | { ok: true; files: CommittedFile[] }
  | {
      ok: false;
      code: 'TransactionConflicted' | 'CommitFailed';
      /** Workspace-relative path of the file that changed or failed. */
      path: string;
      message: string;
      /** Every file was put back byte for byte. */
      restored: boolean;
      restoreProblems: string[];
      /** What the person can do when the editor refused for a reason they can deal with (a file not writable, changed on disk). */
      resolution?: string;
    };

export interface HostFolder {
  name: string;
  /** The folder URI as VS Code prints it (file:///...). */
  uri: string;
  /** Absolute file-system path. */
  fsPath: string;
  index: number;
}

export interface HostDocument {
  /** Text as the editor sees it: the unsaved buffer when the file is open and dirty. */
  text: string;
  languageId: string;
  version: number;
  isDirty: boolean;
  /** Whether the text came from an open editor buffer or straight from disk. */
  source: 'buffer' | 'disk';
  eol: 'LF' | 'CRLF';
  /** Set when the file's bytes do not survive the encoding the editor reads it with (a Latin-1 file read as UTF-8): that encoding. */
  lossyEncoding?: string;
  /** Read from disk: the file's stamp then (size, inode, times); the same stamp is the same text. */
  stamp?: string;
}

export interface HostSymbol {
  name: string;
  detail: string;
  kind: string;
  /** Full extent of the symbol, as offsets into the document text. */
  range: { start: number; end: number };
  /** The name part, as offsets. */
  selectionRange: { start: number; end: number };
  children: HostSymbol[];
}

export interface LanguageContribution {
  id: string;
  aliases: string[];
  extensions: string[];
  filenames: string[];
  /** Extensions that contribute the language or activate on it (their language services). */
  providedBy: { extensionId: string; active: boolean }[];
}

/** 'starting': the language's extension is still activating or its server is still loading the project (set by get-solution-structure). */
export type FeatureProbe = 'available' | 'noResult' | 'unavailable' | 'starting';

export interface EditorPort {
  readonly version: string;
  readonly editorVersion: string;
  folders(): HostFolder[];
  isTrusted(): boolean;
  /** Reads a document through the editor (buffer first). Undefined when it does not exist or is not text. */
  readDocument(absPath: string): Promise<HostDocument | undefined>;
  /** Resolves symlinks; undefined when the path does not exist. */
  realPath(absPath: string): Promise<string | undefined>;
  /** Workspace-relative paths (forward slashes) of files under a folder, minus the usual noise folders. */
  listFiles(folder: HostFolder, limit: number): Promise<{ paths: string[]; hasMore: boolean }>;
  readFileText(absPath: string, maxBytes: number): Promise<string | undefined>;
  /** The bytes on disk; undefined when there is no such file. */
  readFileBytes(absPath: string): Promise<Uint8Array | undefined>;
  /**
   * The whole-word starts of name (wholeWords) in files as readDocument would read them from disk,
   * found off the host's thread, with the stamp of what was scanned (readDocument's stamp: the text
   * is not sent over); 'none' where there is none. Files it cannot read that way (open in the
   * editor, not plain UTF-8) are left out, for the caller to read.
   */
  scanWords?(
    name: string,
    files: readonly { absPath: string; languageId: string }[],
  ): Promise<ReadonlyMap<string, { starts: readonly number[]; stamp: string } | 'none'>>;
  /** Reads the files scanWords would read, ahead of a scan and in the background, so that the scan finds them read. */
  readWordsAhead?(files: readonly { absPath: string; languageId: string }[]): Promise<void>;
  /** readDocument and readFileBytes together; a host may read a file nobody has open once for both. */
  readDocumentAndBytes?(absPath: string): Promise<{ doc: HostDocument | undefined; bytes: Uint8Array | undefined }>;
  /**
   * Applies a checked commit plan as one workspace edit, saves, and verifies that every file
   * holds its staged text byte for byte (its line endings and encoding kept). On any failure
   * every file is put back as it was before.
   */
  commitFiles(plan: CommitPlan): Promise<CommitOutcome>;
  documentSymbols(absPath: string): Promise<HostSymbol[] | undefined>;
  languages(): LanguageContribution[];
  /** Text documents the editor has open (file scheme), with their unsaved state; the host may return the same array while none opens or closes. */
  openDocuments(): readonly { readonly absPath: string; readonly languageId: string; readonly isDirty: boolean }[];
  /** Asks the language services of a document a few cheap questions to see which answer. */
  probeLanguageFeatures(absPath: string): Promise<Record<string, FeatureProbe>>;
  /**
   * The rename providers' edit for renaming the symbol at an offset, computed on the current buffers, as
   * VS Code's rename runs it: their prepare-rename check first (a refusal is its reason, no edits asked), then the edit.
   */
  renameEdits(absPath: string, offset: number, newName: string): Promise<HostOutcome<{ edit: HostWorkspaceEdit }>>;
  /** The formatter's edits for a whole document or a range, with the editor's formatting options for that file. */
  formatEdits(absPath: string, range?: HostRange): Promise<HostOutcome<{ edit: HostDocumentEdits; options: HostFormattingOptions }>>;
  /** Code actions at a range (optionally of one kind and its sub-kinds), with their edits resolved. */
  codeActions(absPath: string, range: HostRange, kind?: string): Promise<HostOutcome<{ actions: HostCodeAction[] }>>;
  /** definition/declaration/implementation/references at an offset; undefined when the request fails (no provider). */
  locationsAt(feature: HostLocationFeature, absPath: string, offset: number): Promise<HostTarget[] | undefined>;
  /** Call hierarchy at an offset: the items prepared there and their incoming or outgoing calls. */
  callHierarchy(absPath: string, offset: number, direction: 'incoming' | 'outgoing'): Promise<HostHierarchy<HostCall>>;
  /** Type hierarchy at an offset: the items prepared there and their direct supertypes or subtypes. */
  typeHierarchy(absPath: string, offset: number, direction: 'supertypes' | 'subtypes'): Promise<HostHierarchy<HostHierarchyItem>>;
  /** The diagnostics the editor holds now, for the given documents or (without) every document that has some. */
  diagnostics(absPaths?: string[]): Promise<HostDocumentDiagnostics[]>;
  /**
   * Opens documents so their language services check them, and waits (at most timeoutMs) until
   * each has reported diagnostics and they stayed quiet for a moment. Says which reported.
   */
  settleDiagnostics(absPaths: string[], timeoutMs: number): Promise<{ reported: string[]; alreadyOpen: string[]; silent: string[] }>;
  /**
   * Takes the diagnostics of documents about to be written (opening them, waiting at most
   * timeoutMs for their services to report), then compares them with what the services report
   * after the write: a language service's own check of a commit.
   */
  watchDiagnostics(files: readonly WatchedFile[], timeoutMs: number): Promise<DiagnosticsWatch>;
  /** The workspace symbol providers' answer to a query; undefined when the request fails (no provider). */
  workspaceSymbols(query: string): Promise<HostWorkspaceSymbol[] | undefined>;
  /** Document highlights at an offset (occurrences in the same file, with read/write where the provider says). */
  documentHighlights(absPath: string, offset: number): Promise<HostHighlight[] | undefined>;
  /** Hover contents at an offset, as markdown/plain strings; undefined when the request fails. */
  hover(absPath: string, offset: number): Promise<string[] | undefined>;
}

// ---- symbols: workspace symbols, highlights ----

export interface HostWorkspaceSymbol {
  name: string;
  kind: string;
  containerName: string;
  absPath: string;
  /** Zero-based line/character (UTF-16) of the range the provider gives; the core turns it into offsets for the documents it keeps. */
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface HostHighlight {
  range: HostRange;
  kind: 'text' | 'read' | 'write';
}

// ---- semantic edits (rename, format, code actions), converted from vscode.WorkspaceEdit ----

/** Offsets into a document text, end exclusive. */
export interface HostRange {
  start: number;
  end: number;
}

/** A language-service answer, or why there is none (`unsupported` when no provider exists; `interrupted` when the editor lost the document while it was asked, and again once reopened). */
export type HostOutcome<T> = ({ ok: true } & T) | { ok: false; reason: string; unsupported?: boolean; interrupted?: boolean };

/** One replacement, as offsets into the text it was computed on. */
export interface HostTextEdit {
  start: number;
  length: number;
  newText: string;
}

/** The text edits of one document (sorted, not overlapping) and the buffer state they were computed on. */
export interface HostDocumentEdits {
  absPath: string;
  edits: HostTextEdit[];
  /** Editor version of the buffer the offsets refer to (0 for a file the same edit creates). */
  version: number;
  /** The full text the offsets refer to ('' for a file the same edit creates). */
  baseText: string;
}

export type HostFileOperation =
  | { kind: 'create'; absPath: string; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: 'delete'; absPath: string; recursive: boolean; ignoreIfNotExists: boolean }
  | { kind: 'rename'; absPath: string; newAbsPath: string; overwrite: boolean };

/** A vscode.WorkspaceEdit in plain types. File operations keep their order; text edits are grouped per document. */
export interface HostWorkspaceEdit {
  documents: HostDocumentEdits[];
  fileOperations: HostFileOperation[];
  /** VS Code's edit could not be read whole: its file operations, if any, are missing. */
  fileOperationsUnread?: boolean;
}

export interface HostFormattingOptions {
  tabSize: number;
  insertSpaces: boolean;
}

export interface HostDiagnostic {
  message: string;
  severity: 'Error' | 'Warning' | 'Information' | 'Hint';
  code?: string;
  source?: string;
  range: HostRange;
}

export interface HostCodeAction {
  title: string;
  /** Hierarchical kind such as quickfix, refactor.extract.function, source.organizeImports. */
  kind?: string;
  isPreferred: boolean;
  /** Why the action cannot be applied now, when the provider says so. */
  disabled?: string;
  diagnostics: HostDiagnostic[];
  edit?: HostWorkspaceEdit;
  /** A command the action runs (after its edit, when it has one); it is never run by staging. */
  command?: { command: string; title: string };
}

// ---- navigation: locations, call and type hierarchies, diagnostics ----

export type HostLocationFeature = 'definition' | 'declaration' | 'implementation' | 'references' | 'typeDefinition';

/** A range in some file (offsets into that file's text). */
export interface HostTarget {
  absPath: string;
  range: HostRange;
}

export interface HostHierarchyItem {
  name: string;
  kind: string;
  detail: string;
  absPath: string;
  range: HostRange;
  selectionRange: HostRange;
}

/** A call edge: `item` is the caller (incoming) or the callee (outgoing); fromRanges are the call sites (in the caller's file). */
export interface HostCall {
  item: HostHierarchyItem;
  fromRanges: HostRange[];
  /** The file fromRanges refer to. */
  fromPath: string;
}

/** undefined `roots`: the request failed (no provider); [] roots: nothing to prepare at that offset. */
export interface HostHierarchy<T> {
  roots: HostHierarchyItem[] | undefined;
  edges: T[];
}

/** A document a commit writes: its path before (null: created) and after (null: deleted). */
export interface WatchedFile {
  before: string | null;
  after: string | null;
}

/** A diagnostic a language service reported, 1-based, in the text of its side of the write. */
export interface ReportedDiagnostic {
  /** Absolute. */
  path: string;
  line: number;
  column: number;
  code?: string;
  message: string;
  severity: HostDiagnostic['severity'];
  source?: string;
}

export interface DiagnosticsAroundWrite {
  introduced: ReportedDiagnostic[];
  resolved: ReportedDiagnostic[];
  /** Written documents no language service reported on within the wait (none checks them, or they are clean and the service says nothing). */
  silent: string[];
}

export interface DiagnosticsWatch {
  /** After the write: waits (at most timeoutMs) for each written document's service to report and go quiet, then compares. */
  settle(timeoutMs: number): Promise<DiagnosticsAroundWrite>;
  dispose(): void;
}

export interface HostDocumentDiagnostics {
  absPath: string;
  diagnostics: HostDiagnostic[];
}
