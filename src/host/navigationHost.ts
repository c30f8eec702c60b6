/**
 * Locations, call and type hierarchies and diagnostics through VS Code's commands and API,
 * converted to the plain types of EditorPort: offsets into each file's current text.
 */
import * as vscode from 'vscode';
import { tryProvider } from './providerCommands';
import type { SourceReader, TextSource } from './textSource';
import type {
  HostCall,
  HostDiagnostic,
  HostDocumentDiagnostics,
  HostHierarchy,
  HostHierarchyItem,
  HostLocationFeature,
  HostRange,
  HostTarget,
} from '../core/documents/editorPort';

/** Reads a file as the editor shows it, without necessarily opening it (src/host/textSource.ts). */
export type Opener = SourceReader;

const SEVERITY: HostDiagnostic['severity'][] = ['Error', 'Warning', 'Information', 'Hint'];

const COMMANDS: Record<HostLocationFeature, string> = {
  definition: 'vscode.executeDefinitionProvider',
  declaration: 'vscode.executeDeclarationProvider',
  implementation: 'vscode.executeImplementationProvider',
  references: 'vscode.executeReferenceProvider',
  typeDefinition: 'vscode.executeTypeDefinitionProvider',
};

/** Opens each target file once per request to turn positions into offsets. */
class Documents {
  private readonly cache = new Map<string, Promise<TextSource | undefined>>();

  constructor(private readonly open: Opener) {}

  get(uri: vscode.Uri): Promise<TextSource | undefined> {
    if (uri.scheme !== 'file') return Promise.resolve(undefined);
    let doc = this.cache.get(uri.fsPath);
    if (!doc) this.cache.set(uri.fsPath, (doc = this.open(uri.fsPath)));
    return doc;
  }

  async range(uri: vscode.Uri, range: vscode.Range): Promise<HostRange | undefined> {
    const doc = await this.get(uri);
    return doc ? { start: doc.offsetAt(range.start), end: doc.offsetAt(range.end) } : undefined;
  }
}

export async function locationsAt(doc: vscode.TextDocument, offset: number, feature: HostLocationFeature, open: Opener): Promise<HostTarget[] | undefined> {
  const position = doc.positionAt(offset);
  const result = await tryProvider<(vscode.Location | vscode.LocationLink)[]>(COMMANDS[feature], doc.uri, position);
  if (!result) return undefined;
  const docs = new Documents(open);
  const targets: HostTarget[] = [];
  for (const l of result) {
    const uri = 'targetUri' in l ? l.targetUri : l.uri;
    const range = 'targetUri' in l ? (l.targetSelectionRange ?? l.targetRange) : l.range;
    const converted = await docs.range(uri, range);
    if (converted) targets.push({ absPath: uri.fsPath, range: converted });
  }
  return targets;
}

async function toItem(docs: Documents, item: vscode.CallHierarchyItem | vscode.TypeHierarchyItem): Promise<HostHierarchyItem | undefined> {
  const range = await docs.range(item.uri, item.range);
  const selectionRange = await docs.range(item.uri, item.selectionRange);
  if (!range || !selectionRange) return undefined;
  return {
    name: item.name,
    kind: vscode.SymbolKind[item.kind] ?? String(item.kind),
    detail: item.detail ?? '',
    absPath: item.uri.fsPath,
    range,
    selectionRange,
  };
}

export async function callHierarchy(
  doc: vscode.TextDocument,
  offset: number,
  direction: 'incoming' | 'outgoing',
  open: Opener,
): Promise<HostHierarchy<HostCall>> {
  const prepared = await tryProvider<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', doc.uri, doc.positionAt(offset));
  if (!prepared) return { roots: undefined, edges: [] };
  const docs = new Documents(open);
  const roots: HostHierarchyItem[] = [];
  const edges: HostCall[] = [];
  for (const root of prepared) {
    const item = await toItem(docs, root);
    if (item) roots.push(item);
    if (direction === 'incoming') {
      for (const call of (await tryProvider<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', root)) ?? []) {
        const from = await toItem(docs, call.from);
        if (!from) continue;
        const ranges = await Promise.all(call.fromRanges.map((r) => docs.range(call.from.uri, r)));
        edges.push({ item: from, fromPath: call.from.uri.fsPath, fromRanges: ranges.filter((r): r is HostRange => r !== undefined) });
      }
    } else {
      for (const call of (await tryProvider<vscode.CallHierarchyOutgoingCall[]>('vscode.provideOutgoingCalls', root)) ?? []) {
        const to = await toItem(docs, call.to);
        if (!to) continue;
        const ranges = await Promise.all(call.fromRanges.map((r) => docs.range(root.uri, r)));
        edges.push({ item: to, fromPath: root.uri.fsPath, fromRanges: ranges.filter((r): r is HostRange => r !== undefined) });
      }
    }
  }
  return { roots, edges };
}

export async function typeHierarchy(
  doc: vscode.TextDocument,
  offset: number,
  direction: 'supertypes' | 'subtypes',
  open: Opener,
): Promise<HostHierarchy<HostHierarchyItem>> {
  const prepared = await tryProvider<vscode.TypeHierarchyItem[]>('vscode.prepareTypeHierarchy', doc.uri, doc.positionAt(offset));
  if (!prepared) return { roots: undefined, edges: [] };
  const docs = new Documents(open);
  const roots: HostHierarchyItem[] = [];
  const edges: HostHierarchyItem[] = [];
  for (const root of prepared) {
    const item = await toItem(docs, root);
    if (item) roots.push(item);
    const related = await tryProvider<vscode.TypeHierarchyItem[]>(direction === 'supertypes' ? 'vscode.provideSupertypes' : 'vscode.provideSubtypes', root);
    for (const r of related ?? []) {
      const converted = await toItem(docs, r);
      if (converted) edges.push(converted);
    }
  }
  return { roots, edges };
}

function toDiagnostic(doc: TextSource, d: vscode.Diagnostic): HostDiagnostic {
  const diagnostic: HostDiagnostic = {
    message: d.message,
    severity: SEVERITY[d.severity] ?? 'Error',
    range: { start: doc.offsetAt(d.range.start), end: doc.offsetAt(d.range.end) },
  };
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  if (code !== undefined) diagnostic.code = String(code);
  if (d.source) diagnostic.source = d.source;
  return diagnostic;
}

export async function diagnostics(absPaths: string[] | undefined, open: Opener): Promise<HostDocumentDiagnostics[]> {
  const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = absPaths
    ? absPaths.map((p) => [vscode.Uri.file(p), vscode.languages.getDiagnostics(vscode.Uri.file(p))])
    : vscode.languages.getDiagnostics().filter(([uri, list]) => uri.scheme === 'file' && list.length > 0);
  const docs = new Documents(open);
  const result: HostDocumentDiagnostics[] = [];
  for (const [uri, list] of entries) {
    const doc = list.length > 0 ? await docs.get(uri) : undefined;
    result.push({ absPath: uri.fsPath, diagnostics: doc ? list.map((d) => toDiagnostic(doc, d)) : [] });
  }
  return result;
}

/** How long a document's diagnostics must stay unchanged before they count as settled. */
const QUIET_MS = 750;

/** Documents shown in an editor tab: language services check those (TypeScript checks only them). */
export function inTabs(): Set<string> {
  const paths = new Set<string>();
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file') paths.add(tab.input.uri.fsPath);
  }
  return paths;
}

export async function settleDiagnostics(
  absPaths: string[],
  timeoutMs: number,
  open: (absPath: string) => Promise<vscode.TextDocument | undefined>,
): Promise<{ reported: string[]; alreadyOpen: string[]; silent: string[] }> {
  const wasOpen = inTabs();
  const lastReport = new Map<string, number>();
  const waiting = new Set(absPaths.filter((p) => !wasOpen.has(p)));
  const languageOf = new Map<string, string>();
  let lastEvent = Date.now();
  const subscription = vscode.languages.onDidChangeDiagnostics((e) => {
    for (const uri of e.uris) {
      if (uri.scheme === 'file' && waiting.has(uri.fsPath)) lastReport.set(uri.fsPath, (lastEvent = Date.now()));
    }
  });
  // Some services (TypeScript) send nothing for a document they find clean: once another document
  // of the same language has reported and all is quiet, a silent one counts as checked.
  const cleanByPeer = (p: string, now: number): boolean =>
    now - lastEvent >= QUIET_MS && [...lastReport.keys()].some((q) => q !== p && languageOf.get(q) === languageOf.get(p));
  try {
    for (const p of waiting) {
      const doc = await open(p);
      if (doc) languageOf.set(p, doc.languageId);
      // Opened in a tab, without taking focus: a document opened only in memory is not checked by every language service.
      if (doc) await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = Date.now();
      const settled = [...waiting].every((p) => {
        const at = lastReport.get(p);
        return (at !== undefined && now - at >= QUIET_MS) || cleanByPeer(p, now);
      });
      if (settled || now >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    subscription.dispose();
  }
  const now = Date.now();
  const checked = (p: string) => lastReport.has(p) || cleanByPeer(p, now);
  return {
    reported: absPaths.filter((p) => !wasOpen.has(p) && checked(p)),
    alreadyOpen: absPaths.filter((p) => wasOpen.has(p)),
    silent: absPaths.filter((p) => !wasOpen.has(p) && !checked(p)),
  };
}
