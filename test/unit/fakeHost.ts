/**
 * An in-memory WorkbenchHost for unit tests and benchmarks: folders, files on "disk", open
 * editor buffers that may differ from disk, simulated symbolic links, configurable document
 * symbols and feature probes. Nothing touches the real file system.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FeatureProbe, HostDocument, HostFolder, HostSymbol, LanguageContribution, WorkbenchHost } from '../../src/core/host';
import { LanguageIndex } from '../../src/core/languages';

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

export class FakeHost implements WorkbenchHost {
  readonly version: string;
  readonly editorVersion: string;
  trusted: boolean;
  latencyMs: number;
  languageContributions: LanguageContribution[];
  /** Every host method called, in order, with its first argument (benchmarks and assertions). */
  readonly calls: { method: string; arg?: string }[] = [];

  private readonly folderList: HostFolder[] = [];
  private readonly disk = new Map<string, DiskFile>();
  private readonly directories = new Set<string>();
  private readonly buffers = new Map<string, OpenBuffer>();
  private readonly links = new Map<string, string>();
  private readonly symbols = new Map<string, HostSymbol[] | undefined>();
  private readonly probes = new Map<string, Record<string, FeatureProbe>>();
  private readonly listeners = new Set<ChangeListener>();
  private diskVersion = 0;

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

  // ------------------------------------------------------------ WorkbenchHost

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
      return { text: buffer.text, languageId: buffer.languageId ?? this.languageOf(key), version: buffer.version, isDirty: buffer.isDirty, source: 'buffer', eol: detectEol(buffer.text) };
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
