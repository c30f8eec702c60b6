/**
 * What the core needs from the editor, in plain types. src/host/vscodeHost.ts implements it
 * with the VS Code API; unit tests implement it in memory. Offsets are zero-based UTF-16.
 */

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

export type FeatureProbe = 'available' | 'noResult' | 'unavailable';

export interface WorkbenchHost {
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
  documentSymbols(absPath: string): Promise<HostSymbol[] | undefined>;
  languages(): LanguageContribution[];
  /** Text documents the editor has open (file scheme), with their unsaved state. */
  openDocuments(): { absPath: string; languageId: string; isDirty: boolean }[];
  /** Asks the language services of a document a few cheap questions to see which answer. */
  probeLanguageFeatures(absPath: string): Promise<Record<string, FeatureProbe>>;
}
