import { realpathSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { executeProvider, tryProvider } from './providerCommands';
import { findOpen, openDocumentList } from './openDocuments';
import type { OpenDocument } from './openDocuments';
import type { WordScanner, WordScanResult } from './wordScan';
import { PROBED_DECLARATIONS } from '../core/symbols/providers';
import type { CommitOutcome, FeatureProbe, HostDocument, HostFolder, HostSymbol, LanguageContribution, EditorPort } from '../core/documents/editorPort';
import type { CommitPlan } from '../core/transactions/plan';
import { offsetTouchingNoWord } from '../core/documents/text';
import { commitPlan } from './commit';
import type { HostCodeAction, HostDocumentEdits, HostFormattingOptions, HostOutcome, HostRange, HostWorkspaceEdit } from '../core/documents/editorPort';
import * as semantic from './semanticEdits';
import * as navigation from './navigationHost';
import * as symbolHost from './symbolHost';
import type { HostHighlight, HostWorkspaceSymbol } from '../core/documents/editorPort';
import type { HostCall, HostDocumentDiagnostics, HostHierarchy, HostHierarchyItem, HostLocationFeature, HostTarget } from '../core/documents/editorPort';
import { toPosix } from '../core/documents/paths';
import * as path from 'node:path';
import { DiskSources } from './textSource';
import { watchDiagnostics } from './diagnosticsWatch';
import type { LanguageReporting } from './diagnosticsWatch';
import type { DiagnosticsWatch, WatchedFile } from '../core/documents/editorPort';
import type { TextSource } from './textSource';

/** Folders whose files are never project sources. */
export const EXCLUDED_FOLDERS =
  '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**,**/.vscode-test/**,**/bin/**,**/obj/**,**/target/**,**/__pycache__/**,**/.venv/**}';

const MAX_TEXT_DOCUMENT_BYTES = 50 * 1024 * 1024;

function toFolder(f: vscode.WorkspaceFolder): HostFolder {
  return { name: f.name, uri: f.uri.toString(), fsPath: f.uri.fsPath, index: f.index };
}

/**
 * An open document's text by version: getText() joins its lines anew on every call (milliseconds
 * for a large file), and one call reads the same documents several times.
 */
const texts = new WeakMap<TextSource, { version: number; text: string }>();

function textOf(doc: TextSource): string {
  const kept = texts.get(doc);
  if (kept && kept.version === doc.version) return kept.text;
  const text = doc.getText();
  texts.set(doc, { version: doc.version, text });
  return text;
}

function toHostDocument(doc: TextSource, wasOpen: boolean): HostDocument {
  return {
    text: textOf(doc),
    languageId: doc.languageId,
    version: doc.version,
    isDirty: doc.isDirty,
    source: wasOpen ? 'buffer' : 'disk',
    eol: doc.eol === vscode.EndOfLine.CRLF ? 'CRLF' : 'LF',
    ...(doc.stamp !== undefined && !wasOpen ? { stamp: doc.stamp } : {}),
  };
}

function toHostSymbol(doc: vscode.TextDocument, s: vscode.DocumentSymbol): HostSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: vscode.SymbolKind[s.kind] ?? String(s.kind),
    range: { start: doc.offsetAt(s.range.start), end: doc.offsetAt(s.range.end) },
    selectionRange: { start: doc.offsetAt(s.selectionRange.start), end: doc.offsetAt(s.selectionRange.end) },
    children: [...s.children].sort((a, b) => a.range.start.compareTo(b.range.start)).map((c) => toHostSymbol(doc, c)),
  };
}

const probe = (result: unknown): FeatureProbe => {
  if (result === undefined || result === null) return 'unavailable';
  if (Array.isArray(result)) return result.length > 0 ? 'available' : 'noResult';
  return 'available';
};

/**
 * Whether a rename provider answers for a document. vscode.prepareRename cannot say: without a
 * provider VS Code answers the word at the position. A rename that a provider refuses, answers, or
 * says it has no result for shows it is there; without one VS Code returns an empty edit. First at
 * a spot touching no word, which TypeScript refuses before looking for references; then, for a
 * provider that gave an empty edit there, at a symbol's name.
 */
async function probeRename(doc: vscode.TextDocument, at: vscode.Position): Promise<FeatureProbe> {
  const spot = offsetTouchingNoWord(doc.getText());
  for (const position of spot === undefined ? [at] : [doc.positionAt(spot), at]) {
    try {
      const edit = await executeProvider<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', doc.uri, position, 'probe');
      if (edit && edit.size > 0) return 'available';
    } catch {
      return 'available';
    }
  }
  return 'unavailable';
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const BOMS = [Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];
const withoutBom = (b: Uint8Array): Buffer => {
  const buffer = Buffer.from(b);
  const bom = BOMS.find((m) => buffer.subarray(0, m.length).equals(m));
  return bom ? buffer.subarray(bom.length) : buffer;
};

/**
 * The encoding the editor reads a file with, when the file's bytes do not survive it: decoded and
 * encoded again they differ (VS Code shows undecodable bytes as U+FFFD and would save those).
 */
async function lossyEncoding(absPath: string, bytes: Uint8Array): Promise<string | undefined> {
  const uri = vscode.Uri.file(absPath);
  const encoding = findOpen(absPath)?.encoding ?? vscode.workspace.getConfiguration('files', uri).get<string>('encoding', 'utf8');
  if (encoding === 'utf8' || encoding === 'utf8bom') {
    try {
      strictUtf8.decode(bytes);
      return undefined;
    } catch {
      return encoding;
    }
  }
  try {
    const back = await vscode.workspace.encode(await vscode.workspace.decode(bytes, { encoding }), { encoding });
    return withoutBom(back).equals(withoutBom(bytes)) ? undefined : encoding;
  } catch {
    return encoding;
  }
}

/** A language as the installed extensions declare it, with the extensions that activate on it. */
interface Contribution {
  id: string;
  aliases: string[];
  extensions: string[];
  filenames: string[];
  providers: vscode.Extension<unknown>[];
}

/** The languages the installed extensions declare. */
function readContributions(): Contribution[] {
  const byId = new Map<string, Contribution>();
  const entry = (id: string) => {
    let e = byId.get(id);
    if (!e) byId.set(id, (e = { id, aliases: [], extensions: [], filenames: [], providers: [] }));
    return e;
  };
  for (const ext of vscode.extensions.all) {
    const pkg = ext.packageJSON as {
      contributes?: { languages?: { id: string; aliases?: string[]; extensions?: string[]; filenames?: string[] }[] };
      activationEvents?: string[];
    };
    for (const lang of pkg.contributes?.languages ?? []) {
      const e = entry(lang.id);
      e.aliases.push(...(lang.aliases ?? []));
      e.extensions.push(...(lang.extensions ?? []));
      e.filenames.push(...(lang.filenames ?? []));
    }
    for (const event of pkg.activationEvents ?? []) {
      const m = /^onLanguage:(.+)$/.exec(event);
      if (m) {
        const e = entry(m[1]);
        if (!e.providers.includes(ext)) e.providers.push(ext);
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** The EditorPort the core runs on, implemented with the VS Code API. */
export class VsCodeHost implements EditorPort {
  /** words: where scanWords scans (a worker thread); without it scanWords leaves every file to the caller. */
  constructor(
    readonly version: string,
    private readonly words?: WordScanner,
  ) {}

  get editorVersion(): string {
    return vscode.version;
  }

  folders(): HostFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map(toFolder);
  }

  isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  private readonly disk = new DiskSources(() => this.languages());

  /** The open document, else the file as read from disk without opening it, else the document opened (textSource.ts). */
  private async source(absPath: string): Promise<TextSource | undefined> {
    return findOpen(absPath) ?? (await this.disk.read(absPath, MAX_TEXT_DOCUMENT_BYTES)) ?? (await this.open(absPath));
  }

  private async open(absPath: string): Promise<vscode.TextDocument | undefined> {
    const existing = findOpen(absPath);
    if (existing) return existing;
    try {
      const stat = await fs.stat(absPath);
      if (!stat.isFile() || stat.size > MAX_TEXT_DOCUMENT_BYTES) return undefined;
      return await vscode.workspace.openTextDocument(vscode.Uri.file(absPath));
    } catch {
      return undefined;
    }
  }

  scanWords(name: string, files: readonly { absPath: string; languageId: string }[]): Promise<WordScanResult> {
    const plain = this.scannable(files);
    if (!this.words || plain.length === 0) return Promise.resolve(new Map());
    return this.words.scan(name, plain, MAX_TEXT_DOCUMENT_BYTES);
  }

  async readWordsAhead(files: readonly { absPath: string; languageId: string }[]): Promise<void> {
    const plain = this.scannable(files);
    if (this.words && plain.length > 0) await this.words.readAhead(plain, MAX_TEXT_DOCUMENT_BYTES);
  }

  /** What the word scan's worker reads: files nobody has open that DiskSources read as plain UTF-8. */
  private scannable(files: readonly { absPath: string; languageId: string }[]): [absPath: string, languageId: string][] {
    return files.filter((f) => findOpen(f.absPath) === undefined && this.disk.readsPlainly(f.absPath)).map((f) => [f.absPath, f.languageId]);
  }

  async readDocument(absPath: string): Promise<HostDocument | undefined> {
    const wasOpen = findOpen(absPath) !== undefined;
    const doc = await this.source(absPath);
    return doc ? toHostDocument(doc, wasOpen) : undefined;
  }

  /** A file nobody has open is read once: its text is decoded from the bytes that are hashed. */
  async readDocumentAndBytes(absPath: string): Promise<{ doc: HostDocument | undefined; bytes: Uint8Array | undefined }> {
    // A file read moments ago (the rename being staged was converted on it) comes from DiskSources' recent reads.
    const open = findOpen(absPath);
    const read = await this.disk.readWithBytes(absPath, MAX_TEXT_DOCUMENT_BYTES);
    if (!open && read.source) return { doc: toHostDocument(read.source, false), bytes: read.bytes };
    const doc = await this.readDocument(absPath);
    const bytes = read.bytes ?? (await this.readFileBytes(absPath));
    // Bytes DiskSources decoded as strict UTF-8 lose nothing in a document opened as UTF-8.
    const decoded = read.source !== undefined && read.bytes === bytes && (open?.encoding === 'utf8' || open?.encoding === 'utf8bom');
    const lossy = doc && bytes && !decoded ? await lossyEncoding(absPath, bytes) : undefined;
    return { doc: doc && lossy ? { ...doc, lossyEncoding: lossy } : doc, bytes };
  }

  async realPath(absPath: string): Promise<string | undefined> {
    try {
      // One system call (the async form costs a thread-pool round trip; a reference list resolves dozens).
      return realpathSync.native(absPath);
    } catch {
      return undefined;
    }
  }

  async listFiles(folder: HostFolder, limit: number): Promise<{ paths: string[]; hasMore: boolean }> {
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.parse(folder.uri), '**/*'), EXCLUDED_FOLDERS, limit + 1);
    const paths = uris.map((u) => toPosix(path.relative(folder.fsPath, u.fsPath)));
    return { paths: paths.slice(0, limit), hasMore: paths.length > limit };
  }

  async readFileText(absPath: string, maxBytes: number): Promise<string | undefined> {
    try {
      const handle = await fs.open(absPath, 'r');
      try {
        const buffer = Buffer.alloc(maxBytes);
        const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
  }

  async readFileBytes(absPath: string): Promise<Uint8Array | undefined> {
    try {
      return await fs.readFile(absPath);
    } catch {
      return undefined;
    }
  }

  commitFiles(plan: CommitPlan): Promise<CommitOutcome> {
    return commitPlan(plan);
  }

  async documentSymbols(absPath: string): Promise<HostSymbol[] | undefined> {
    const doc = await this.open(absPath);
    if (!doc) return undefined;
    const result = await tryProvider<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>('vscode.executeDocumentSymbolProvider', doc.uri);
    if (!result) return undefined;
    const symbols = result.filter((s): s is vscode.DocumentSymbol => 'children' in s);
    return symbols.sort((a, b) => a.range.start.compareTo(b.range.start)).map((s) => toHostSymbol(doc, s));
  }

  /** What the installed extensions contribute, read again only when extensions change (a call asks per document). */
  private contributions: Contribution[] | undefined;
  private contributionsWatch: vscode.Disposable | undefined;

  languages(): LanguageContribution[] {
    this.contributionsWatch ??= vscode.extensions.onDidChange(() => (this.contributions = undefined));
    this.contributions ??= readContributions();
    // Whether a provider is active changes without an event: asked each time.
    return this.contributions.map((c) => ({
      id: c.id,
      aliases: c.aliases,
      extensions: c.extensions,
      filenames: c.filenames,
      providedBy: c.providers.map((ext) => ({ extensionId: ext.id, active: ext.isActive })),
    }));
  }

  openDocuments(): readonly OpenDocument[] {
    return openDocumentList();
  }

  private noDocument(absPath: string): { ok: false; reason: string } {
    return { ok: false, reason: `${absPath} is not a text document the editor can open.` };
  }

  async renameEdits(absPath: string, offset: number, newName: string): Promise<HostOutcome<{ edit: HostWorkspaceEdit }>> {
    const doc = await this.open(absPath);
    return doc ? semantic.renameEdits(doc, offset, newName, (p) => this.source(p)) : this.noDocument(absPath);
  }

  async formatEdits(absPath: string, range?: HostRange): Promise<HostOutcome<{ edit: HostDocumentEdits; options: HostFormattingOptions }>> {
    const doc = await this.open(absPath);
    return doc ? semantic.formatEdits(doc, range) : this.noDocument(absPath);
  }

  async codeActions(absPath: string, range: HostRange, kind?: string): Promise<HostOutcome<{ actions: HostCodeAction[] }>> {
    const doc = await this.open(absPath);
    return doc ? semantic.codeActions(doc, range, kind, (p) => this.source(p)) : this.noDocument(absPath);
  }

  async locationsAt(feature: HostLocationFeature, absPath: string, offset: number): Promise<HostTarget[] | undefined> {
    const doc = await this.open(absPath);
    return doc ? navigation.locationsAt(doc, offset, feature, (p) => this.source(p)) : undefined;
  }

  workspaceSymbols(query: string): Promise<HostWorkspaceSymbol[] | undefined> {
    return symbolHost.workspaceSymbols(query);
  }

  async documentHighlights(absPath: string, offset: number): Promise<HostHighlight[] | undefined> {
    const doc = await this.open(absPath);
    return doc ? symbolHost.documentHighlights(doc, offset) : undefined;
  }

  async hover(absPath: string, offset: number): Promise<string[] | undefined> {
    const doc = await this.open(absPath);
    return doc ? symbolHost.hover(doc, offset) : undefined;
  }

  async callHierarchy(absPath: string, offset: number, direction: 'incoming' | 'outgoing'): Promise<HostHierarchy<HostCall>> {
    const doc = await this.open(absPath);
    return doc ? navigation.callHierarchy(doc, offset, direction, (p) => this.source(p)) : { roots: undefined, edges: [] };
  }

  async typeHierarchy(absPath: string, offset: number, direction: 'supertypes' | 'subtypes'): Promise<HostHierarchy<HostHierarchyItem>> {
    const doc = await this.open(absPath);
    return doc ? navigation.typeHierarchy(doc, offset, direction, (p) => this.source(p)) : { roots: undefined, edges: [] };
  }

  diagnostics(absPaths?: string[]): Promise<HostDocumentDiagnostics[]> {
    return navigation.diagnostics(absPaths, (p) => this.source(p));
  }

  settleDiagnostics(absPaths: string[], timeoutMs: number): Promise<{ reported: string[]; alreadyOpen: string[]; silent: string[] }> {
    return navigation.settleDiagnostics(absPaths, timeoutMs, (p) => this.open(p));
  }

  /** Which languages' services have reported diagnostics in this window, or stayed silent through a wait (diagnosticsWatch.ts). */
  private readonly languageReporting: LanguageReporting = new Map();

  watchDiagnostics(files: readonly WatchedFile[], timeoutMs: number): Promise<DiagnosticsWatch> {
    return watchDiagnostics(files, timeoutMs, (p) => this.open(p), this.languageReporting);
  }

  async probeLanguageFeatures(absPath: string): Promise<Record<string, FeatureProbe>> {
    const doc = await this.open(absPath);
    if (!doc) return {};
    const uri = doc.uri;
    const symbols = await tryProvider<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri);
    // Up to PROBED_DECLARATIONS declarations, depth first, as the tools ask (core/symbols/providers.ts): a provider answers at some of them.
    const declared: vscode.Position[] = [];
    const walk = (level: readonly vscode.DocumentSymbol[]) => {
      for (const s of level) {
        if (declared.length < PROBED_DECLARATIONS && 'selectionRange' in s) declared.push(s.selectionRange.start);
        walk(s.children ?? []);
      }
    };
    walk(symbols ?? []);
    const at = declared[0] ?? new vscode.Position(0, 0);
    /** The first non-empty answer of a location command at the declarations; [] when none answers. */
    const anywhere = async (command: string): Promise<unknown[] | undefined> => {
      let last: unknown[] | undefined;
      for (const position of declared.length > 0 ? declared : [at]) {
        last = await tryProvider<unknown[]>(command, uri, position);
        if (last && last.length > 0) return last;
      }
      return last;
    };
    const [folding, hover, definition, references, rename, legend, formatting] = await Promise.all([
      tryProvider<unknown[]>('vscode.executeFoldingRangeProvider', uri),
      tryProvider<unknown[]>('vscode.executeHoverProvider', uri, at),
      anywhere('vscode.executeDefinitionProvider'),
      anywhere('vscode.executeReferenceProvider'),
      probeRename(doc, at),
      tryProvider<unknown>('vscode.provideDocumentSemanticTokensLegend', uri),
      tryProvider<unknown[]>('vscode.executeFormatDocumentProvider', uri, { tabSize: 2, insertSpaces: true }),
    ]);
    return {
      documentSymbols: probe(symbols),
      foldingRanges: probe(folding),
      hover: probe(hover),
      definition: probe(definition),
      references: probe(references),
      rename,
      semanticTokens: probe(legend),
      formatting: probe(formatting),
    };
  }
}
