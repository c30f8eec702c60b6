/**
 * An in-memory EditorPort for unit tests and benchmarks: folders, files on "disk", open
 * editor buffers that may differ from disk, simulated symbolic links, configurable document
 * symbols and feature probes. Nothing touches the real file system.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  CommitOutcome,
  FeatureProbe,
  HostDocument,
  HostFolder,
  HostSymbol,
  LanguageContribution,
  EditorPort,
} from '../../../src/core/documents/editorPort';
import type { CommitPlan } from '../../../src/core/transactions/plan';
import { sha256 } from '../../../src/core/transactions/segments';
import type {
  HostCodeAction,
  HostDocumentEdits,
  HostFileOperation,
  HostFormattingOptions,
  HostOutcome,
  HostRange,
  HostTextEdit,
  HostWorkspaceEdit,
} from '../../../src/core/documents/editorPort';
import type {
  HostCall,
  HostDiagnostic,
  HostDocumentDiagnostics,
  HostHierarchy,
  HostHierarchyItem,
  HostLocationFeature,
  HostTarget,
} from '../../../src/core/documents/editorPort';
import type { DiagnosticsWatch, HostHighlight, HostWorkspaceSymbol, WatchedFile } from '../../../src/core/documents/editorPort';
import { LanguageIndex } from '../../../src/core/documents/languages';

/** Absolute root under which fake folders are placed by default. */
export const FAKE_ROOT = path.resolve('/awb-fake');

/** Folder names whose files listFiles leaves out, as the real host's exclude glob does. */
export const NOISE_FOLDERS = ['node_modules', '.git', 'out', 'dist', '.vscode-test', 'bin', 'obj', 'target', '__pycache__', '.venv'];

/** The features the real host probes, in its order. */
export const PROBED_FEATURES = ['documentSymbols', 'foldingRanges', 'hover', 'definition', 'references', 'rename', 'semanticTokens', 'formatting'];

export const DEFAULT_LANGUAGES: readonly LanguageContribution[] = [
  {
    id: 'typescript',
    aliases: ['TypeScript', 'ts'],
    extensions: ['.ts', '.tsx'],
    filenames: [],
    providedBy: [{ extensionId: 'vscode.typescript-language-features', active: true }],
  },
  {
    id: 'javascript',
    aliases: ['JavaScript', 'js'],
    extensions: ['.js'],
    filenames: [],
    providedBy: [{ extensionId: 'vscode.typescript-language-features', active: true }],
  },
  {
    id: 'json',
    aliases: ['JSON', 'json'],
    extensions: ['.json'],
    filenames: [],
    providedBy: [{ extensionId: 'vscode.json-language-features', active: false }],
  },
  {
    id: 'jsonc',
    aliases: ['JSON with Comments'],
    extensions: ['.jsonc'],
    filenames: ['tsconfig.json'],
    providedBy: [{ extensionId: 'vscode.json-language-features', active: false }],
  },
  {
    id: 'markdown',
    aliases: ['Markdown', 'md'],
    extensions: ['.md'],
    filenames: [],
    providedBy: [{ extensionId: 'vscode.markdown-language-features', active: false }],
  },
];

/** Text edits per absolute path, as offsets into each document's current text (buffer first). */
export type FakeEdits = Record<string, HostTextEdit[]>;

/** A code action a fake provider answers: its edit as FakeEdits (converted like the real host does). */
export type FakeCodeAction = Omit<HostCodeAction, 'edit' | 'diagnostics'> & {
  diagnostics?: HostCodeAction['diagnostics'];
  edits?: FakeEdits;
  fileOperations?: HostFileOperation[];
};

/** Fake language services for the semantic mutations; a missing one answers "unsupported". */
export interface FakeSemantics {
  /** The provider's prepare-rename check, run before rename (a refusal stops it); none: the rename is asked directly. */
  prepareRename?: (absPath: string, offset: number, text: string) => HostOutcome<{ range: HostRange; placeholder: string }>;
  /** Edits for a rename, or a string: the provider's rejection. */
  rename?: (absPath: string, offset: number, newName: string) => FakeEdits | string;
  format?: (absPath: string, text: string, options: HostFormattingOptions, range?: HostRange) => HostTextEdit[];
  codeActions?: (absPath: string, range: HostRange, kind?: string) => FakeCodeAction[];
}

/** Fake navigation providers and diagnostics; a missing provider fails as when no extension provides it. */
export interface FakeNavigation {
  locations?: (feature: HostLocationFeature, absPath: string, offset: number) => HostTarget[] | undefined;
  callHierarchy?: (absPath: string, offset: number, direction: 'incoming' | 'outgoing') => HostHierarchy<HostCall>;
  typeHierarchy?: (absPath: string, offset: number, direction: 'supertypes' | 'subtypes') => HostHierarchy<HostHierarchyItem>;
  /** Diagnostics per absolute path. */
  diagnostics?: Record<string, HostDiagnostic[]>;
  /** Languages whose service reports diagnostics for a document once it is opened. */
  diagnosticLanguages?: string[];
}

/** Fake workspace symbol, highlight and hover providers; a missing one fails as when no extension provides it. */
export interface FakeSymbolProviders {
  workspaceSymbols?: (query: string) => HostWorkspaceSymbol[] | undefined;
  highlights?: (absPath: string, offset: number) => HostHighlight[] | undefined;
  hover?: (absPath: string, offset: number) => string[] | undefined;
}

export type ChangeKind = 'content' | 'created' | 'deleted';
export type ChangeListener = (absPath: string, kind: ChangeKind) => void;

interface DiskFile {
  text: string;
  binary: boolean;
}

interface OpenBuffer {
  text: string;
  isDirty: boolean;
  version: number;
  languageId?: string;
}

export interface FakeHostOptions {
  version?: string;
  editorVersion?: string;
  trusted?: boolean;
  languages?: readonly LanguageContribution[];
  /** Milliseconds every asynchronous method waits before answering (benchmarks). */
  latencyMs?: number;
}

/** The line-ending style VS Code picks for a text: the first line break it finds. */
export function detectEol(text: string): 'LF' | 'CRLF' {
  const m = /\r\n|\n/.exec(text);
  return m !== null && m[0] === '\r\n' ? 'CRLF' : 'LF';
}

export class FakeHost implements EditorPort {
  readonly version: string;
  readonly editorVersion: string;
  trusted: boolean;
  latencyMs: number;
  languageContributions: LanguageContribution[];
  /** Every host method called, in order, with its first argument (benchmarks and assertions). */
  readonly calls: { method: string; arg?: string }[] = [];
  /** A host that reads files ahead for the word scan (the VS Code host's worker); none by default. */
  readWordsAhead?: (files: readonly { absPath: string; languageId: string }[]) => Promise<void>;

  private readonly folderList: HostFolder[] = [];
  private readonly disk = new Map<string, DiskFile>();
  private readonly directories = new Set<string>();
  private readonly buffers = new Map<string, OpenBuffer>();
  private readonly links = new Map<string, string>();
  private readonly symbols = new Map<string, HostSymbol[] | undefined>();
  private readonly probes = new Map<string, Record<string, FeatureProbe>>();
  /** The fake rename, formatting and code action providers (tests assign them). */
  semantics: FakeSemantics = {};
  /** The fake navigation providers and diagnostics (tests assign them). */
  navigation: FakeNavigation = {};
  /** The fake workspace symbol, highlight and hover providers (tests assign them). */
  symbolProviders: FakeSymbolProviders = {};
  /** The editor's formatting options for every file. */
  formattingOptions: HostFormattingOptions = { tabSize: 4, insertSpaces: true };
  private readonly listeners = new Set<ChangeListener>();
  private diskVersion = 0;
  /** Makes the next commit fail at a file (absolute path): while applying its edit, or while saving it. */
  /** `resolution`: the save fails for a reason the person can deal with, as the real host reports a file that is not writable. */
  commitFault: { absPath: string; phase: 'apply' | 'save'; resolution?: string } | undefined;
  /** Called just before a commit applies its edit (tests change files here to race it). */
  beforeCommitApply: (() => void) | undefined;

  constructor(options: FakeHostOptions = {}) {
    this.version = options.version ?? '0.0.0-test';
    this.editorVersion = options.editorVersion ?? '1.100.0-fake';
    this.trusted = options.trusted ?? true;
    this.latencyMs = options.latencyMs ?? 0;
    this.languageContributions = (options.languages ?? DEFAULT_LANGUAGES).map((c) => structuredClone(c));
  }

  // ------------------------------------------------------------ building the workspace

  /**
   * Opens a workspace folder (appended in editor order) and writes its files.
   * `fsPath` defaults to FAKE_ROOT/<name>.
   */
  addFolder(name: string, files: Record<string, string> = {}, fsPath?: string): HostFolder {
    const absolute = path.resolve(fsPath ?? path.join(FAKE_ROOT, name));
    const folder: HostFolder = { name, uri: pathToFileURL(absolute).toString(), fsPath: absolute, index: this.folderList.length };
    this.folderList.push(folder);
    this.directories.add(absolute);
    for (const [relative, text] of Object.entries(files)) this.writeFile(this.abs(folder, relative), text, { notify: false });
    return folder;
  }

  /** Closes a folder; the remaining folders are re-indexed as VS Code does. */
  removeFolder(folder: HostFolder): void {
    const at = this.folderList.findIndex((f) => f.fsPath === folder.fsPath);
    if (at >= 0) this.folderList.splice(at, 1);
    this.folderList.forEach((f, i) => (f.index = i));
  }

  /** Absolute path of a workspace-relative path (forward slashes) in a folder. */
  abs(folder: HostFolder, relativePath: string): string {
    return path.join(folder.fsPath, ...relativePath.split('/'));
  }

  /** Writes a file on disk (creating or changing it) and reports the change unless told not to. */
  writeFile(absPath: string, text: string, options: { binary?: boolean; notify?: boolean } = {}): void {
    const key = path.resolve(absPath);
    const existed = this.disk.has(key);
    this.disk.set(key, { text, binary: options.binary ?? false });
    this.diskVersion++;
    if (options.notify !== false) this.emit(key, existed ? 'content' : 'created');
  }

  deleteFile(absPath: string): void {
    const key = path.resolve(absPath);
    if (this.disk.delete(key)) this.emit(key, 'deleted');
  }

  /** An empty directory (directories that hold files exist implicitly). */
  mkdir(absPath: string): void {
    this.directories.add(path.resolve(absPath));
  }

  diskText(absPath: string): string | undefined {
    return this.disk.get(path.resolve(absPath))?.text;
  }

  /**
   * Opens a document in the editor. Without `text` the buffer shows the disk text (clean);
   * with a different `text` it is a dirty buffer whose content differs from disk.
   */
  openDocument(absPath: string, text?: string, languageId?: string): void {
    const key = path.resolve(absPath);
    const onDisk = this.disk.get(key)?.text;
    const bufferText = text ?? onDisk ?? '';
    this.buffers.set(key, { text: bufferText, isDirty: onDisk === undefined ? true : bufferText !== onDisk, version: 1, languageId });
  }

  /** Types into an open buffer (opening it first); the buffer becomes dirty and the change is reported. */
  editBuffer(absPath: string, text: string): void {
    const key = path.resolve(absPath);
    if (!this.buffers.has(key)) this.openDocument(key);
    const buffer = this.buffers.get(key) as OpenBuffer;
    buffer.text = text;
    buffer.version++;
    buffer.isDirty = text !== this.disk.get(key)?.text;
    this.emit(key, 'content');
  }

  /** Saves an open buffer to disk. */
  saveDocument(absPath: string): void {
    const key = path.resolve(absPath);
    const buffer = this.buffers.get(key);
    if (!buffer) return;
    this.writeFile(key, buffer.text);
    buffer.isDirty = false;
  }

  closeDocument(absPath: string): void {
    this.buffers.delete(path.resolve(absPath));
  }

  /** Makes `linkPath` a symbolic link to `targetPath` (a file or a directory, possibly outside every folder). */
  symlink(linkPath: string, targetPath: string): void {
    this.links.set(path.resolve(linkPath), path.resolve(targetPath));
  }

  /** What the document symbol provider answers for a file; undefined means no provider (the request fails). */
  setSymbols(absPath: string, symbols: HostSymbol[] | undefined): void {
    this.symbols.set(path.resolve(absPath), symbols);
  }

  /** What probeLanguageFeatures answers for documents of a language. */
  setFeatureProbes(languageId: string, probes: Record<string, FeatureProbe>): void {
    this.probes.set(languageId, probes);
  }

  /** Subscribes to document changes (disk writes, deletions and buffer edits). */
  onDidChange(listener: ChangeListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(absPath: string, kind: ChangeKind): void {
    for (const listener of [...this.listeners]) listener(absPath, kind);
  }

  private record(method: string, arg?: string): Promise<void> {
    this.calls.push({ method, arg });
    return this.latencyMs > 0 ? new Promise((resolve) => setTimeout(resolve, this.latencyMs)) : Promise.resolve();
  }

  /** Follows simulated symbolic links on every path prefix. */
  private resolveLinks(absPath: string): string {
    let current = path.resolve(absPath);
    for (let hops = 0; hops < 40; hops++) {
      let changed = false;
      for (const [link, target] of this.links) {
        if (current === link || current.startsWith(link + path.sep)) {
          current = target + current.slice(link.length);
          changed = true;
          break;
        }
      }
      if (!changed) return current;
    }
    throw new Error(`Too many levels of symbolic links: ${absPath}`);
  }

  private isDirectory(absPath: string): boolean {
    if (this.directories.has(absPath)) return true;
    const prefix = absPath.endsWith(path.sep) ? absPath : absPath + path.sep;
    for (const key of this.disk.keys()) if (key.startsWith(prefix)) return true;
    for (const dir of this.directories) if (dir.startsWith(prefix)) return true;
    return false;
  }

  private languageOf(absPath: string): string {
    return new LanguageIndex(this.languageContributions).languageOf(absPath.split(path.sep).join('/')) ?? 'plaintext';
  }

  // ------------------------------------------------------------ EditorPort

  folders(): HostFolder[] {
    return this.folderList.map((f) => ({ ...f }));
  }

  isTrusted(): boolean {
    return this.trusted;
  }

  async readDocument(absPath: string): Promise<HostDocument | undefined> {
    await this.record('readDocument', absPath);
    const key = path.resolve(absPath);
    const buffer = this.buffers.get(key);
    if (buffer) {
      return {
        text: buffer.text,
        languageId: buffer.languageId ?? this.languageOf(key),
        version: buffer.version,
        isDirty: buffer.isDirty,
        source: 'buffer',
        eol: detectEol(buffer.text),
      };
    }
    const file = this.disk.get(this.resolveLinks(key));
    if (!file || file.binary) return undefined;
    return { text: file.text, languageId: this.languageOf(key), version: 1, isDirty: false, source: 'disk', eol: detectEol(file.text) };
  }

  async realPath(absPath: string): Promise<string | undefined> {
    await this.record('realPath', absPath);
    const resolved = this.resolveLinks(absPath);
    return this.disk.has(resolved) || this.isDirectory(resolved) ? resolved : undefined;
  }

  async listFiles(folder: HostFolder, limit: number): Promise<{ paths: string[]; hasMore: boolean }> {
    await this.record('listFiles', folder.fsPath);
    const prefix = folder.fsPath + path.sep;
    const paths: string[] = [];
    for (const key of this.disk.keys()) {
      if (!key.startsWith(prefix)) continue;
      const relative = key.slice(prefix.length).split(path.sep);
      if (relative.slice(0, -1).some((segment) => NOISE_FOLDERS.includes(segment))) continue;
      paths.push(relative.join('/'));
    }
    return { paths: paths.slice(0, limit), hasMore: paths.length > limit };
  }

  async readFileText(absPath: string, maxBytes: number): Promise<string | undefined> {
    await this.record('readFileText', absPath);
    const file = this.disk.get(this.resolveLinks(absPath));
    if (!file) return undefined;
    return Buffer.from(file.text, 'utf8').subarray(0, maxBytes).toString('utf8');
  }

  async documentSymbols(absPath: string): Promise<HostSymbol[] | undefined> {
    await this.record('documentSymbols', absPath);
    const key = path.resolve(absPath);
    return this.symbols.has(key) ? structuredClone(this.symbols.get(key)) : undefined;
  }

  languages(): LanguageContribution[] {
    return this.languageContributions.map((c) => structuredClone(c));
  }

  openDocuments(): { absPath: string; languageId: string; isDirty: boolean }[] {
    return [...this.buffers].map(([absPath, b]) => ({ absPath, languageId: b.languageId ?? this.languageOf(absPath), isDirty: b.isDirty }));
  }

  async probeLanguageFeatures(absPath: string): Promise<Record<string, FeatureProbe>> {
    await this.record('probeLanguageFeatures', absPath);
    const doc = await this.readDocument(absPath);
    if (!doc) return {};
    const configured = this.probes.get(doc.languageId);
    if (configured) return { ...configured };
    const symbols = this.symbols.get(path.resolve(absPath));
    const result: Record<string, FeatureProbe> = {};
    for (const feature of PROBED_FEATURES) result[feature] = 'unavailable';
    result.documentSymbols = symbols === undefined ? 'unavailable' : symbols.length > 0 ? 'available' : 'noResult';
    return result;
  }

  /** The text a language service sees now (buffer first, then disk), synchronously, for fake providers. */
  currentText(absPath: string): string | undefined {
    const key = path.resolve(absPath);
    return this.buffers.get(key)?.text ?? this.disk.get(this.resolveLinks(key))?.text;
  }

  private async fakeEdit(edits: FakeEdits, operations: HostFileOperation[] = []): Promise<HostWorkspaceEdit> {
    // As the real host: "create, ignore if it exists" of an existing file is a no-op and is left out.
    const fileOperations = operations.filter((o) => !(o.kind === 'create' && o.ignoreIfExists && !o.overwrite && this.currentText(o.absPath) !== undefined));
    const created = new Set(fileOperations.filter((o) => o.kind === 'create').map((o) => path.resolve(o.absPath)));
    const documents: HostDocumentEdits[] = [];
    for (const [absPath, list] of Object.entries(edits)) {
      const key = path.resolve(absPath);
      const doc = created.has(key) ? undefined : await this.readDocument(key);
      if (!created.has(key) && !doc) throw new Error(`fake edit names a missing document ${key}`);
      documents.push({ absPath: key, edits: [...list].sort((a, b) => a.start - b.start), version: doc?.version ?? 0, baseText: doc?.text ?? '' });
    }
    documents.sort((a, b) => a.absPath.localeCompare(b.absPath));
    return { documents, fileOperations };
  }

  /** As VS Code's rename command: the prepare check first, then the provider's edits (recorded as renameProvider). */
  async renameEdits(absPath: string, offset: number, newName: string): Promise<HostOutcome<{ edit: HostWorkspaceEdit }>> {
    await this.record('renameEdits', absPath);
    const doc = await this.readDocument(absPath);
    if (!doc) return { ok: false, reason: `${absPath} is not a text document.` };
    if (!this.semantics.rename) return { ok: false, reason: `No rename provider for ${doc.languageId} documents answered with edits.`, unsupported: true };
    const prepared = this.semantics.prepareRename?.(path.resolve(absPath), offset, doc.text);
    if (prepared && !prepared.ok) return prepared;
    await this.record('renameProvider', absPath);
    const result = this.semantics.rename(path.resolve(absPath), offset, newName);
    if (typeof result === 'string') return { ok: false, reason: result };
    return { ok: true, edit: await this.fakeEdit(result) };
  }

  async formatEdits(absPath: string, range?: HostRange): Promise<HostOutcome<{ edit: HostDocumentEdits; options: HostFormattingOptions }>> {
    await this.record('formatEdits', absPath);
    const doc = await this.readDocument(absPath);
    if (!doc) return { ok: false, reason: `${absPath} is not a text document.` };
    if (!this.semantics.format) return { ok: false, reason: `No formatter for ${doc.languageId} documents answered.`, unsupported: true };
    const options = { ...this.formattingOptions };
    const edits = this.semantics.format(path.resolve(absPath), doc.text, options, range);
    return {
      ok: true,
      edit: { absPath: path.resolve(absPath), edits: [...edits].sort((a, b) => a.start - b.start), version: doc.version, baseText: doc.text },
      options,
    };
  }

  async codeActions(absPath: string, range: HostRange, kind?: string): Promise<HostOutcome<{ actions: HostCodeAction[] }>> {
    await this.record('codeActions', absPath);
    if (!this.semantics.codeActions) return { ok: false, reason: 'No code action provider answered.', unsupported: true };
    const actions: HostCodeAction[] = [];
    for (const a of this.semantics.codeActions(path.resolve(absPath), range, kind)) {
      const { edits, fileOperations, diagnostics, ...rest } = a;
      const action: HostCodeAction = { ...structuredClone(rest), diagnostics: structuredClone(diagnostics ?? []) };
      if (edits || fileOperations) action.edit = await this.fakeEdit(edits ?? {}, fileOperations);
      actions.push(action);
    }
    return { ok: true, actions };
  }

  async workspaceSymbols(query: string): Promise<HostWorkspaceSymbol[] | undefined> {
    await this.record('workspaceSymbols', query);
    return structuredClone(this.symbolProviders.workspaceSymbols?.(query));
  }

  async documentHighlights(absPath: string, offset: number): Promise<HostHighlight[] | undefined> {
    await this.record('documentHighlights', absPath);
    return structuredClone(this.symbolProviders.highlights?.(path.resolve(absPath), offset));
  }

  async hover(absPath: string, offset: number): Promise<string[] | undefined> {
    await this.record('hover', absPath);
    return structuredClone(this.symbolProviders.hover?.(path.resolve(absPath), offset));
  }

  async locationsAt(feature: HostLocationFeature, absPath: string, offset: number): Promise<HostTarget[] | undefined> {
    await this.record(`locationsAt:${feature}`, absPath);
    return structuredClone(this.navigation.locations?.(feature, path.resolve(absPath), offset));
  }

  async callHierarchy(absPath: string, offset: number, direction: 'incoming' | 'outgoing'): Promise<HostHierarchy<HostCall>> {
    await this.record('callHierarchy', absPath);
    return structuredClone(this.navigation.callHierarchy?.(path.resolve(absPath), offset, direction) ?? { roots: undefined, edges: [] });
  }

  async typeHierarchy(absPath: string, offset: number, direction: 'supertypes' | 'subtypes'): Promise<HostHierarchy<HostHierarchyItem>> {
    await this.record('typeHierarchy', absPath);
    return structuredClone(this.navigation.typeHierarchy?.(path.resolve(absPath), offset, direction) ?? { roots: undefined, edges: [] });
  }

  async diagnostics(absPaths?: string[]): Promise<HostDocumentDiagnostics[]> {
    await this.record('diagnostics');
    const all = this.navigation.diagnostics ?? {};
    const keys = absPaths ? absPaths.map((p) => path.resolve(p)) : Object.keys(all).filter((k) => all[k].length > 0);
    return keys.map((absPath) => ({ absPath, diagnostics: structuredClone(all[absPath] ?? []) }));
  }

  async settleDiagnostics(absPaths: string[], _timeoutMs: number): Promise<{ reported: string[]; alreadyOpen: string[]; silent: string[] }> {
    await this.record('settleDiagnostics');
    const result = { reported: [] as string[], alreadyOpen: [] as string[], silent: [] as string[] };
    for (const p of absPaths) {
      const key = path.resolve(p);
      if (this.buffers.has(key)) result.alreadyOpen.push(p);
      else if ((this.navigation.diagnosticLanguages ?? []).includes(this.languageOf(key))) result.reported.push(p);
      else result.silent.push(p);
    }
    return result;
  }

  /** Nothing reports diagnostics here: every written document is silent (the real watch is tested in VS Code). */
  async watchDiagnostics(files: readonly WatchedFile[], _timeoutMs: number): Promise<DiagnosticsWatch> {
    await this.record('watchDiagnostics');
    const silent = files.flatMap((f) => (f.after ? [f.after] : []));
    return { settle: () => Promise.resolve({ introduced: [], resolved: [], silent }), dispose: () => undefined };
  }

  /** Files whose bytes the editor's encoding would not keep (tests set them): the encoding, by path. */
  readonly lossyEncodings = new Map<string, string>();

  async readDocumentAndBytes(absPath: string): Promise<{ doc: HostDocument | undefined; bytes: Uint8Array | undefined }> {
    const doc = await this.readDocument(absPath);
    const lossyEncoding = this.lossyEncodings.get(path.resolve(absPath));
    return { doc: doc && lossyEncoding ? { ...doc, lossyEncoding } : doc, bytes: await this.readFileBytes(absPath) };
  }

  async readFileBytes(absPath: string): Promise<Uint8Array | undefined> {
    await this.record('readFileBytes', absPath);
    const file = this.disk.get(this.resolveLinks(absPath));
    return file ? Buffer.from(file.text, 'utf8') : undefined;
  }

  /** The in-memory commit: the same checks, order and restore as the real host, with injectable faults. */
  async commitFiles(plan: CommitPlan): Promise<CommitOutcome> {
    await this.record('commitFiles', plan.folder);
    const keys = new Set<string>();
    for (const f of plan.files) {
      keys.add(path.resolve(f.absPath));
      if (f.newAbsPath) keys.add(path.resolve(f.newAbsPath));
    }
    const diskBefore = new Map([...keys].map((k) => [k, this.disk.get(k)] as const));
    const buffersBefore = new Map([...keys].map((k) => [k, this.buffers.get(k) ? { ...(this.buffers.get(k) as OpenBuffer) } : undefined] as const));
    for (const f of plan.files) {
      const key = path.resolve(f.absPath);
      if (f.base && !f.base.binary) {
        const current = this.buffers.get(key)?.text ?? this.disk.get(key)?.text;
        if (current !== f.base.text) {
          return {
            ok: false,
            code: 'TransactionConflicted',
            path: f.path,
            message: `${f.path} changed since it was staged.`,
            restored: true,
            restoreProblems: [],
          };
        }
      }
    }
    this.beforeCommitApply?.();
    let failedPath = '';
    try {
      for (const f of plan.files) {
        failedPath = f.path;
        const key = path.resolve(f.absPath);
        if (this.commitFault?.phase === 'apply' && path.resolve(this.commitFault.absPath) === key) throw new Error('injected failure while applying');
        if (f.kind === 'delete') {
          this.deleteFile(key);
          this.buffers.delete(key);
        } else if (f.kind === 'create') {
          if (this.disk.has(key)) throw new Error(`${f.path} exists`);
          this.writeFile(key, f.text ?? '');
        } else {
          const buffer = this.buffers.get(key);
          const text = f.text ?? '';
          let target = key;
          if (f.kind === 'rename' && f.newAbsPath) {
            target = path.resolve(f.newAbsPath);
            if (this.disk.has(target)) throw new Error(`${f.newPath} exists`);
            const old = this.disk.get(key);
            this.disk.delete(key);
            this.emit(key, 'deleted');
            if (old) this.writeFile(target, old.text);
            this.buffers.delete(key);
          }
          this.buffers.set(target, { text, isDirty: true, version: (buffer?.version ?? 1) + 1, languageId: buffer?.languageId });
          this.emit(target, 'content');
        }
      }
      for (const f of plan.files) {
        if (f.kind !== 'modify' && f.kind !== 'rename') continue;
        const target = path.resolve(f.newAbsPath ?? f.absPath);
        failedPath = f.newPath ?? f.path;
        if (this.commitFault?.phase === 'save' && path.resolve(this.commitFault.absPath) === target) throw new Error('injected failure while saving');
        this.saveDocument(target);
      }
      const files = plan.files.map((f) => {
        const before = diskBefore.get(path.resolve(f.absPath));
        const after = this.disk.get(path.resolve(f.newAbsPath ?? f.absPath));
        if (f.kind !== 'delete' && after?.text !== f.text) throw new Error(`${f.path} does not hold the staged text after saving`);
        return {
          path: f.newPath ?? f.path,
          beforeHash: before ? sha256(before.text) : null,
          afterHash: f.kind === 'delete' || !after ? null : sha256(after.text),
        };
      });
      this.commitFault = undefined;
      return { ok: true, files };
    } catch (error) {
      const resolution = this.commitFault?.resolution;
      this.commitFault = undefined;
      for (const [key, file] of diskBefore) {
        if (file) this.writeFile(key, file.text, { binary: file.binary });
        else this.deleteFile(key);
      }
      for (const [key, buffer] of buffersBefore) {
        if (buffer) this.buffers.set(key, buffer);
        else this.buffers.delete(key);
      }
      return {
        ok: false,
        code: 'CommitFailed',
        path: failedPath,
        message: error instanceof Error ? error.message : String(error),
        restored: true,
        restoreProblems: [],
        ...(resolution ? { resolution } : {}),
      };
    }
  }

  /** How many times a host method was called (optionally for one argument). */
  callCount(method: string, arg?: string): number {
    return this.calls.filter((c) => c.method === method && (arg === undefined || c.arg === arg)).length;
  }

  /** A counter that grows with every disk write, for tests that want to see writes happen. */
  get diskWrites(): number {
    return this.diskVersion;
  }
}

// ------------------------------------------------------------ symbols

export interface SymbolSpec {
  name: string;
  kind: string;
  detail?: string;
  /** Text at which the symbol's full range starts: its first occurrence inside the parent (or the document). */
  from: string;
  /** Text at which the range ends (inclusive): its first occurrence after `from`. Defaults to the end of the parent. */
  to?: string;
  children?: SymbolSpec[];
}

/**
 * Builds a HostSymbol tree from text markers instead of hand-counted offsets. The name range
 * is the first occurrence of `name` from the start of the symbol.
 */
export function symbolsIn(text: string, specs: readonly SymbolSpec[], within: { start: number; end: number } = { start: 0, end: text.length }): HostSymbol[] {
  return specs.map((spec) => {
    const start = text.indexOf(spec.from, within.start);
    if (start < 0 || start >= within.end) throw new Error(`symbolsIn: "${spec.from}" not found for ${spec.name}`);
    let end = within.end;
    if (spec.to !== undefined) {
      const at = text.indexOf(spec.to, start + spec.from.length);
      if (at < 0 || at + spec.to.length > within.end) throw new Error(`symbolsIn: "${spec.to}" not found after ${spec.name}`);
      end = at + spec.to.length;
    }
    const nameAt = text.indexOf(spec.name, start);
    if (nameAt < 0 || nameAt + spec.name.length > end) throw new Error(`symbolsIn: name ${spec.name} not inside its range`);
    return {
      name: spec.name,
      detail: spec.detail ?? '',
      kind: spec.kind,
      range: { start, end },
      selectionRange: { start: nameAt, end: nameAt + spec.name.length },
      children: symbolsIn(text, spec.children ?? [], { start, end }),
    };
  });
}
