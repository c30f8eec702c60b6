import { defineTool } from '../core/chain/definition';
import type { ResolvedDocument, ToolContext } from '../core/documents/context';
import { ToolError, resolveExternally } from '../core/chain/envelope';
import type { HostSymbol, HostWorkspaceSymbol } from '../core/documents/editorPort';
import { LanguageIndex } from '../core/documents/languages';
import { beforeTimeout, inTime, partialNote, partialProperties, starting } from '../core/symbols/readiness';
import type { Coverage, PartialAnswer } from '../core/symbols/readiness';
import { cursorInput, limitParameter } from '../core/chain/schemas';
import type { ToolInput } from '../core/chain/schemaTypes';
import { documentSymbolTree, isLocal, symbolOutput, symbolsAt, walkSymbols } from '../core/symbols/symbols';
import { NOT_SOURCES } from '../core/symbols/selectors';
import type { SymbolOutput } from '../core/symbols/symbols';
import type { Workspace } from '../core/documents/workspaces';
import { mapConcurrently } from '../core/util/concurrency';
import { collectionOf, inputSchema, paged, QUERY, queryAnnotations } from './shared/common';
import type { Collection } from './shared/common';
import { folderOf, relativeRows, RELATIVE_REF_TEXT, symbolRow, symbolRowReader } from './shared/symbolRows';
import type { SymbolRow } from './shared/symbolRows';

const searchInput = inputSchema(
  {
    query: { type: 'string', minLength: 1, maxLength: 256 },
    symbolsLimit: limitParameter('symbols'),
    includeLocals: { type: 'boolean', default: false },
    cursor: cursorInput,
  },
  ['query'],
  { view: true },
);

/** Documents whose symbol trees search-symbols asks for at once. */
const SEARCH_DOCUMENTS_AT_ONCE = 8;

/** Each declaration a SymbolRow under the answer's folderId. */
export type SearchData = { folderId?: string; symbols: Collection<SymbolRow>; localsLeftOut?: number; notSearched?: string[] } & Partial<PartialAnswer>;

/** A search answer's rows as symbols again, symbolIds whole. */
export function readSearch(data: Pick<SearchData, 'folderId' | 'symbols'>): SymbolOutput[] {
  return data.symbols.items.map(symbolRowReader(data.folderId));
}

/** How many of a language's documents search-symbols looks in for a declaration to probe the language's symbol search with. */
const SEARCH_PROBE_SAMPLES = 4;

/**
 * Languages of the folders whose declarations VS Code's symbol search does not cover (JSON, CSS
 * and HTML have document symbols but no workspace symbol provider): an answer without them must
 * not read as "none there". Told once per language and session: a declaration of one of the
 * language's documents, searched by name, is found or not.
 */
async function languagesNotSearched(ctx: ToolContext, folders: readonly Workspace[], found: readonly HostWorkspaceSymbol[]): Promise<string[]> {
  const index = new LanguageIndex(ctx.editor.languages());
  const answered = new Set(found.map((s) => index.languageOf(s.absPath)));
  const out = new Set<string>();
  for (const w of folders) {
    const samples = new Map<string, string[]>();
    for (const p of (await w.files()).paths) {
      const languageId = index.languageOf(p);
      if (!languageId || answered.has(languageId) || out.has(languageId)) continue;
      const some = samples.get(languageId) ?? [];
      if (some.length < SEARCH_PROBE_SAMPLES) samples.set(languageId, [...some, p]);
    }
    for (const [languageId, some] of samples) if (!(await searchable(ctx, w, languageId, some, index))) out.add(languageId);
  }
  return [...out].sort();
}

/**
 * Whether the language's symbol search finds a declaration of its documents. The samples are first
 * asked without waiting: a sample without declarations ({} in a tsconfig.json, a comment-only
 * __init__.py) must not hold the search for the wait a starting service is given. Only when none
 * answers does the longest sample that could name a declaration get that wait.
 */
async function searchable(ctx: ToolContext, w: Workspace, languageId: string, samples: readonly string[], index: LanguageIndex): Promise<boolean> {
  const caches = ctx.services.caches;
  if (caches.featuresAnswered.has(`${languageId}\0workspaceSymbols`)) return true;
  if (caches.workspaceSymbolsAbsent.has(languageId)) return false;
  const named = (roots: HostSymbol[] | undefined) => (roots ? walkSymbols(roots).find((x) => /[\p{L}\p{N}]/u.test(x.symbol.name)) : undefined);
  const docs: ResolvedDocument[] = [];
  let first: ReturnType<typeof named>;
  for (const sample of samples) {
    const doc = await ctx.document({ path: sample }, { workspaceId: w.id }, 'sample').catch(() => undefined);
    // A name is text of its document: one without a letter or digit declares nothing to search for.
    if (!doc || !/[\p{L}\p{N}]/u.test(doc.host.text)) continue;
    docs.push(doc);
    first = named(await documentSymbolTree(ctx, doc, 0).catch(() => undefined));
    if (first) break;
  }
  // None answered at once: the service may be starting, so the longest candidate (the likeliest to declare something) gets its wait.
  const longest = docs.reduce<ResolvedDocument | undefined>((a, d) => (a && a.host.text.length >= d.host.text.length ? a : d), undefined);
  if (!first && longest) first = named(await documentSymbolTree(ctx, longest).catch(() => undefined));
  // A language without declarations (or whose service is starting) has none to leave out.
  if (!first) return true;
  if (((await ctx.editor.workspaceSymbols(first.symbol.name)) ?? []).some((s) => index.languageOf(s.absPath) === languageId)) {
    caches.featuresAnswered.add(`${languageId}\0workspaceSymbols`);
    return true;
  }
  if ((ctx.editor.languages().find((l) => l.id === languageId)?.providedBy ?? []).every((p) => p.active)) caches.workspaceSymbolsAbsent.add(languageId);
  return false;
}

export const searchSymbols = defineTool({
  name: 'search-symbols',
  title: 'Search Symbols',
  category: 'Code discovery and navigation',
  ...QUERY,
  description: `Finds declarations whose name matches query across the workspace (language services' symbol search: fuzzy, case-insensitive, exact names first), a row each: [ref, line, column]; symbolId is folderId + ":" + ref (${RELATIVE_REF_TEXT}). Locals (what bodies declare) left out and counted unless includeLocals. Better than grep.`,
  inputSchema: searchInput,
  dataSchema: {
    type: 'object',
    properties: {
      folderId: { type: 'string', description: 'symbolId = "<folderId>:" + ref (more.folderId when a row gives its own).' },
      symbols: collectionOf({
        type: 'array',
        description:
          `A row per declaration, best match first, positions fixed: [ref, line, column, more]. ref: the symbolId after "<folderId>:" ("<path>#Kind:name", "/" nests; ${RELATIVE_REF_TEXT}). ` +
          'line, column: one-based, of the name. more, only when needed: {folderId: another folder; name: when ref percent-escapes it}.',
        items: { type: ['string', 'integer', 'object'] },
      }),
      localsLeftOut: { type: 'integer', minimum: 1, description: 'Matching locals left out (not in totalCount).' },
      notSearched: {
        type: 'array',
        items: { type: 'string' },
        description:
          "Languages of the folders whose services offer no symbol search: their declarations are not in this answer (get-document-outline lists a document's).",
      },
      ...partialProperties,
    },
    required: ['symbols'],
  },
  annotations: queryAnnotations('Search Symbols'),
  examples: [
    {
      workflowId: 'find-symbols',
      workflowTitle: 'Find symbols',
      step: 1,
      id: 'search-symbols-name',
      title: 'Find a class by name',
      purpose: 'Find a class by name',
      expectedOutcome: 'Symbols with their symbolId, kind and location.',
      request: { query: 'Greeter' },
    },
  ],
  async run(input, ctx): Promise<SearchData> {
    const scope = input.workspace ? ctx.workspace(input.workspace) : undefined;
    const coverage: Coverage[] = [];
    for (const w of scope ? [scope] : ctx.registry.all()) coverage.push(...(await ctx.services.readiness.folderCoverage(ctx, w)));
    const loading = coverage.find((c): c is Extract<Coverage, { state: 'loading' }> => c.state === 'loading');
    const settling = coverage.find((c): c is Extract<Coverage, { state: 'loaded' }> => c.state === 'loaded' && c.settling);
    const answer = () => searchAnswer(input, ctx, scope, loading);
    const what = `declarations matching "${input.query}"`;
    if (loading) return inTime(ctx, loading, what, answer);
    return settling ? beforeTimeout(ctx, settling.languageId, what, answer()) : answer();
  },
});

async function searchAnswer(
  input: ToolInput<typeof searchInput>,
  ctx: ToolContext,
  scope: Workspace | undefined,
  loading: Extract<Coverage, { state: 'loading' }> | undefined,
): Promise<SearchData> {
  const found = await ctx.editor.workspaceSymbols(input.query);
  if (found === undefined) {
    throw new ToolError(
      'UnsupportedLanguageFeature',
      'No workspace symbol provider answered: no installed language extension offers workspace symbol search.',
      resolveExternally('Install a language extension for the workspace languages, or use get-document-outline on a file.'),
    );
  }
  const q = input.query.toLowerCase();
  const rank = (name: string) =>
    name === input.query ? 0 : name.toLowerCase() === q ? 1 : name.toLowerCase().startsWith(q) ? 2 : name.toLowerCase().includes(q) ? 3 : 4;
  const folders = scope ? [scope] : ctx.registry.all();
  const inside = found
    .map((s) => ({
      s,
      folder: folders.find((w) => s.absPath.startsWith(w.fsPath + (w.fsPath.endsWith('/') ? '' : '/')) || s.absPath.startsWith(w.fsPath + '\\')),
    }))
    .filter((x) => x.folder !== undefined && !NOT_SOURCES.test(x.s.absPath.slice((x.folder?.fsPath.length ?? 0) + 1).replace(/\\/g, '/')));
  // Deterministic: rank, then path, then position.
  inside.sort(
    (a, b) =>
      rank(a.s.name) - rank(b.s.name) ||
      (a.s.absPath < b.s.absPath ? -1 : a.s.absPath > b.s.absPath ? 1 : 0) ||
      a.s.start.line - b.s.start.line ||
      a.s.start.character - b.s.start.character,
  );
  if (loading && inside.length === 0) {
    throw starting(loading, `no declaration matching "${input.query}" in the open files, and the files nobody has open are not searched yet`);
  }
  // Every match is placed in its document's symbol tree (kept per text), so locals can be told and counted.
  const placed = await mapConcurrently(inside, SEARCH_DOCUMENTS_AT_ONCE, async ({ s }) => {
    const doc = await ctx.document({ path: s.absPath }, input.workspace, 'symbols');
    const roots = await documentSymbolTree(ctx, doc).catch(() => [] as HostSymbol[]);
    const start = doc.lines.offsetAt(s.start);
    const hit = symbolsAt(roots, start, start).match.find((m) => m.symbol.name === s.name) ?? symbolsAt(roots, start, start).match[0];
    if (hit) return { output: symbolOutput(ctx, doc, hit.symbol, hit.containers, roots), local: isLocal(hit.symbol, hit.containers) };
    // The document's symbol tree does not have it: still a declaration the provider found, named by its own span.
    const end = doc.lines.offsetAt(s.end);
    const synthetic: HostSymbol = { name: s.name, kind: s.kind, detail: '', range: { start, end }, selectionRange: { start, end }, children: [] };
    return { output: symbolOutput(ctx, doc, synthetic, [], [synthetic]), local: false };
  });
  const kept = placed.filter((p) => input.includeLocals || !p.local).map((p) => p.output);
  const localsLeftOut = placed.length - kept.length;
  // While a service loads, its own language may be missing from the answer too: the answer is partial already.
  const notSearched = loading ? [] : await languagesNotSearched(ctx, folders, found);
  const page = paged(ctx, 'symbols', kept, input.symbolsLimit);
  const folderId = page.items.length > 0 ? folderOf(page.items[0].symbolId) : undefined;
  return {
    ...(folderId !== undefined ? { folderId } : {}),
    symbols: { ...page, items: relativeRows(page.items.map((x) => symbolRow(x, folderId ?? ''))) },
    ...(localsLeftOut > 0 ? { localsLeftOut } : {}),
    ...(notSearched.length > 0 ? { notSearched } : {}),
    ...(loading ? partialNote(loading) : {}),
  };
}
