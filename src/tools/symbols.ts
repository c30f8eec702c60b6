import { defineTool } from '../core/chain/definition';
import type { ResolvedDocument, ToolContext } from '../core/documents/context';
import { ToolError, resolveExternally } from '../core/chain/envelope';
import type { HostSymbol, HostWorkspaceSymbol } from '../core/documents/editorPort';
import { countLanguages, LanguageIndex } from '../core/documents/languages';
import { beforeTimeout, inTime, partialNote, partialProperties, READINESS, starting, whenCovered } from '../core/symbols/readiness';
import type { Coverage, PartialAnswer } from '../core/symbols/readiness';
import { cursorInput, documentSelectorInput, limitParameter } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import type { ToolInput } from '../core/chain/schemaTypes';
import { documentSymbolTree, isLocal, symbolOutput, symbolOutputSchema, symbolSelectorInput, symbolsAt, walkSymbols } from '../core/symbols/symbols';
import { NOT_SOURCES, resolveSymbol } from '../core/symbols/selectors';
import type { SymbolOutput } from '../core/symbols/symbols';
import type { Workspace } from '../core/documents/workspaces';
import { mapConcurrently } from '../core/util/concurrency';
import { hoverSaysLoading, readableHover, signatureOf } from '../core/symbols/signature';
import { commonJsExports } from '../core/symbols/exports';
import { collectionOf, inputSchema, paged, QUERY, queryAnnotations } from './shared/common';
import type { Collection } from './shared/common';

const CATEGORY = 'Code discovery and navigation' as const;

const example = (workflowId: string, step: number, id: string, title: string, request: Record<string, unknown>) => ({
  workflowId,
  workflowTitle: workflowId === 'find-symbols' ? 'Find symbols' : 'Read symbols',
  step,
  id,
  title,
  purpose: title,
  expectedOutcome: 'Symbols with their symbolId, kind and location.',
  request,
});

// ---------------------------------------------------------------- search-symbols

/** What identifies a symbol in a document's list (its tree below and above is not part of it). */
const walkedKey = (h: { symbol: HostSymbol; containers: readonly HostSymbol[] }) => [
  h.symbol.name,
  h.symbol.kind,
  h.symbol.range.start,
  h.symbol.range.end,
  h.containers.length,
];

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

/** What a search row says beside its symbol and place: only what a few symbols have. */
export type SearchExtra = Omit<SymbolOutput, 'symbolId' | 'line' | 'column'> & { folderId?: string };

/**
 * A declaration as search-symbols gives it, a row without keys (keys and the folderId, repeated in
 * every symbolId, were a third of an answer on real code): `[ref, line, column, more]`. ref is the
 * symbolId after "<folderId>:" (the answer's folderId, or more.folderId); more holds SearchExtra.
 */
export type SearchRow = [ref: string, line: number, column: number, more?: SearchExtra];

export type SearchData = { folderId?: string; symbols: Collection<SearchRow>; localsLeftOut?: number; notSearched?: string[] } & Partial<PartialAnswer>;

/** A search answer's rows as symbols again, symbolIds whole. */
export function readSearch(data: Pick<SearchData, 'folderId' | 'symbols'>): SymbolOutput[] {
  return data.symbols.items.map(([ref, line, column, more]) => {
    const { folderId = data.folderId, ...rest } = more ?? {};
    return { symbolId: `${folderId}:${ref}`, line, column, ...rest };
  });
}

/** The folder a symbolId names (before its first colon). */
const folderOf = (symbolId: string): string => symbolId.slice(0, symbolId.indexOf(':'));

function searchRow(symbol: SymbolOutput, folderId: string): SearchRow {
  const { symbolId, line, column, ...rest } = symbol;
  const own = folderOf(symbolId);
  const more: SearchExtra = { ...rest, ...(own !== folderId ? { folderId: own } : {}) };
  return Object.keys(more).length > 0 ? [symbolId.slice(own.length + 1), line, column, more] : [symbolId.slice(own.length + 1), line, column];
}

/**
 * Languages of the folders whose declarations VS Code's symbol search does not cover (JSON, CSS
 * and HTML have document symbols but no workspace symbol provider): an answer without them must
 * not read as "none there". Told once per language and session: the first declaration of the
 * language's sample document, searched by name, is found or not.
 */
async function languagesNotSearched(ctx: ToolContext, folders: readonly Workspace[], found: readonly HostWorkspaceSymbol[]): Promise<string[]> {
  const index = new LanguageIndex(ctx.editor.languages());
  const answered = new Set(found.map((s) => index.languageOf(s.absPath)));
  const out = new Set<string>();
  for (const w of folders) {
    for (const c of countLanguages((await w.files()).paths, index)) {
      if (!answered.has(c.languageId) && !out.has(c.languageId) && !(await searchable(ctx, w, c.languageId, c.sample, index))) out.add(c.languageId);
    }
  }
  return [...out].sort();
}

async function searchable(ctx: ToolContext, w: Workspace, languageId: string, sample: string, index: LanguageIndex): Promise<boolean> {
  const caches = ctx.services.caches;
  if (caches.featuresAnswered.has(`${languageId}\0workspaceSymbols`)) return true;
  if (caches.workspaceSymbolsAbsent.has(languageId)) return false;
  const doc = await ctx.document({ path: sample }, { workspaceId: w.id }, 'sample').catch(() => undefined);
  // A language without declarations (or whose service is starting) has none to leave out.
  const roots = doc ? await documentSymbolTree(ctx, doc).catch(() => undefined) : undefined;
  const first = roots ? [...walkSymbols(roots)].find((x) => /[\p{L}\p{N}]/u.test(x.symbol.name)) : undefined;
  if (!doc || !first) return true;
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
  category: CATEGORY,
  ...QUERY,
  description:
    'Finds declarations whose name matches query across the workspace (language services\' symbol search: fuzzy, case-insensitive, exact names first), a row each: [ref, line, column]; symbolId is folderId + ":" + ref. Locals (what bodies declare) left out and counted unless includeLocals. Better than grep.',
  inputSchema: searchInput,
  dataSchema: {
    type: 'object',
    properties: {
      folderId: { type: 'string', description: 'symbolId = "<folderId>:" + ref (more.folderId when a row gives its own).' },
      symbols: collectionOf({
        type: 'array',
        description:
          'A row per declaration, best match first, positions fixed: [ref, line, column, more]. ref: the symbolId after "<folderId>:" ("<path>#Kind:name", "/" nests). ' +
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
  examples: [example('find-symbols', 1, 'search-symbols-name', 'Find a class by name', { query: 'Greeter' })],
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
    symbols: { ...page, items: page.items.map((x) => searchRow(x, folderId ?? '')) },
    ...(localsLeftOut > 0 ? { localsLeftOut } : {}),
    ...(notSearched.length > 0 ? { notSearched } : {}),
    ...(loading ? partialNote(loading) : {}),
  };
}

// ---------------------------------------------------------------- get-document-outline

/** What an outline row says beside its id and place: only what a few symbols have. */
export type OutlineExtra = Omit<SymbolOutput, 'symbolId' | 'line' | 'column'>;

/**
 * A declaration as the outline gives it, a row without keys (keys and the document's id, repeated
 * in every symbolId, were 60% of an outline on real code): `[id, line, column, detail, more]`.
 * id is the symbolId after "<documentId>#"; detail is null when the service gives none; more
 * holds OutlineExtra. Trailing nulls are cut, so a row is 3 to 5 long.
 */
export type OutlineRow = [id: string, line: number, column: number, detail?: string | null, more?: OutlineExtra | null];

export interface OutlineData {
  documentId: string;
  symbols: Collection<OutlineRow>;
  localsLeftOut?: number;
}

/** An outline's rows as symbols again: symbolId whole, depth counted from the id's containers. */
export function readOutline(data: Pick<OutlineData, 'documentId' | 'symbols'>): (SymbolOutput & { depth: number; detail?: string })[] {
  return data.symbols.items.map(([id, line, column, detail, more]) => ({
    symbolId: `${data.documentId}#${id}`,
    line,
    column,
    depth: id.split('/').length - 1,
    ...(typeof detail === 'string' ? { detail } : {}),
    ...(more ?? {}),
  }));
}

function outlineRow(symbol: SymbolOutput, documentId: string, detail: string): OutlineRow {
  const { symbolId, line, column, ...more } = symbol;
  // The symbolId names the answer's document (symbolOutput builds it on doc.ref.documentId).
  const row: OutlineRow = [symbolId.slice(documentId.length + 1), line, column, detail || null, Object.keys(more).length > 0 ? more : null];
  while (row.length > 3 && row[row.length - 1] === null) row.pop();
  return row;
}

export const getDocumentOutline = defineTool({
  name: 'get-document-outline',
  title: 'Get Document Outline',
  category: CATEGORY,
  ...QUERY,
  description:
    'A document\'s declarations (classes, functions, members, headings), depth first, a row each: [id, line, column, detail]; symbolId is documentId + "#" + id (Kind:name, "/" nests). Cheaper than reading it. Locals (what bodies declare) left out and counted unless includeLocals.',
  inputSchema: inputSchema(
    {
      document: documentSelectorInput,
      maxDepth: { type: ['integer', 'null'], minimum: 0, maximum: 50 },
      symbolsLimit: limitParameter('symbols'),
      includeLocals: { type: 'boolean', default: false },
      cursor: cursorInput,
    },
    ['document'],
    { workspace: false, view: true },
  ),
  dataSchema: {
    type: 'object',
    properties: {
      documentId: { type: 'string', description: '<folderId>:<path> (its path and project are derivable).' },
      symbols: collectionOf({
        type: 'array',
        description:
          'A row per declaration, depth first, positions fixed: [id, line, column, detail, more], trailing nulls cut. ' +
          'id: the symbolId after "<documentId>#" (symbolId = documentId + "#" + id; each "/" is one level deeper). ' +
          "line, column: one-based, of the name. detail: the service's detail, or null. more: {name: when the id percent-escapes it; documentId: when the name is in another document (a staged move)}.",
        items: { type: ['string', 'integer', 'null', 'object'] },
      }),
      localsLeftOut: { type: 'integer', minimum: 1, description: 'Locals left out (not in totalCount).' },
    },
    required: ['documentId', 'symbols'],
  },
  annotations: queryAnnotations('Get Document Outline'),
  examples: [example('find-symbols', 2, 'outline-file', 'Outline a file', { document: { path: 'src/greeter.ts' } })],
  async run(input, ctx): Promise<OutlineData> {
    const doc = await ctx.document(input.document);
    const roots = await documentSymbolTree(ctx, doc);
    const deep = [...walkSymbols(roots)].filter((h) => input.maxDepth === undefined || input.maxDepth === null || h.containers.length <= input.maxDepth);
    const all = input.includeLocals ? deep : deep.filter((h) => !isLocal(h.symbol, h.containers));
    const localsLeftOut = deep.length - all.length;
    const page = paged(ctx, 'symbols', all, input.symbolsLimit, { paths: [doc.relativePath], key: walkedKey });
    return {
      documentId: doc.ref.documentId,
      symbols: {
        ...page,
        items: page.items.map((h) => outlineRow(symbolOutput(ctx, doc, h.symbol, h.containers, roots), doc.ref.documentId, h.symbol.detail)),
      },
      ...(localsLeftOut > 0 ? { localsLeftOut } : {}),
    };
  },
});

// ---------------------------------------------------------------- resolve-symbol / get-symbol-info

interface ResolvedSymbolData extends SymbolOutput {
  containers: string[];
  detail?: string;
}

function describeSymbol(ctx: ToolContext, doc: ResolvedDocument, symbol: HostSymbol, containers: HostSymbol[]): ResolvedSymbolData {
  const out: ResolvedSymbolData = { ...symbolOutput(ctx, doc, symbol, containers), containers: containers.map((c) => c.name) };
  if (symbol.detail) out.detail = symbol.detail;
  return out;
}

const resolvedSymbolSchema: JsonSchema = {
  ...symbolOutputSchema,
  properties: { ...(symbolOutputSchema.properties as object), containers: { type: 'array', items: { type: 'string' } }, detail: { type: 'string' } },
};

export const resolveSymbolTool = defineTool({
  name: 'resolve-symbol',
  title: 'Resolve Symbol',
  category: CATEGORY,
  ...QUERY,
  description:
    'The symbol declared at a location (a span, or a selection in a name): its symbolId for the other symbol tools, kind, containers and name location. Also tells whether a symbolId still resolves after edits.',
  inputSchema: inputSchema({ symbol: symbolSelectorInput }, ['symbol'], { workspace: false, view: true }),
  dataSchema: resolvedSymbolSchema,
  annotations: queryAnnotations('Resolve Symbol'),
  examples: [
    example('find-symbols', 3, 'resolve-selection', 'Resolve a selected name', {
      symbol: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'Greeter', contextBefore: 'class ' } } },
    }),
  ],
  async run(input, ctx): Promise<ResolvedSymbolData> {
    const r = await resolveSymbol(ctx, input.symbol);
    return describeSymbol(ctx, r.document, r.symbol, r.containers);
  },
});

type SymbolInfoData = ResolvedSymbolData & { signature: string; hover: string[]; memberCount: number } & Partial<PartialAnswer>;

export const getSymbolInfo = defineTool({
  name: 'get-symbol-info',
  title: 'Get Symbol Info',
  category: CATEGORY,
  ...QUERY,
  description:
    "Describes a symbol without reading its file: kind, containers, declaration signature, member count and the language service's hover (type and doc comment).",
  inputSchema: inputSchema({ symbol: symbolSelectorInput }, ['symbol'], { workspace: false, view: true }),
  dataSchema: {
    ...resolvedSymbolSchema,
    properties: {
      ...(resolvedSymbolSchema.properties as object),
      signature: { type: 'string' },
      hover: { type: 'array', items: { type: 'string' }, description: 'Markdown; links to editor commands reduced to their text.' },
      memberCount: { type: 'integer' },
      ...partialProperties,
    },
  },
  annotations: queryAnnotations('Get Symbol Info'),
  examples: [
    example('read-symbols', 1, 'symbol-info', 'Describe a method', {
      symbol: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'greet(name: string)' } } },
    }),
  ],
  async run(input, ctx): Promise<SymbolInfoData> {
    const r = await resolveSymbol(ctx, input.symbol);
    const ask = async () => readableHover((await ctx.editor.hover(r.document.absolutePath, r.symbol.selectionRange.start)) ?? []);
    let hover = await ask();
    let partial: PartialAnswer | undefined;
    // TypeScript's hover says "(loading...)" until its project has loaded: asked again once the service covers it.
    if (hoverSaysLoading(hover)) ({ answer: hover, partial } = await whenCovered(ctx, r.document, 'hover', ask, () => false));
    if (hoverSaysLoading(hover)) {
      partial ??= {
        complete: false,
        note: `Partial: the ${r.document.host.languageId} hover says it is still loading. Ask again in ${READINESS.retryAfterSeconds} seconds.`,
      };
    }
    return {
      ...describeSymbol(ctx, r.document, r.symbol, r.containers),
      signature: signatureOf(r.document, r.symbol),
      hover,
      memberCount: r.symbol.children.length,
      ...partial,
    };
  },
});

// ---------------------------------------------------------------- get-symbol-members

interface MemberItem extends SymbolOutput {
  signature: string;
}

export interface MembersData {
  symbol: SymbolOutput;
  members: Collection<MemberItem>;
}

export const getSymbolMembers = defineTool({
  name: 'get-symbol-members',
  title: 'Get Symbol Members',
  category: CATEGORY,
  ...QUERY,
  description:
    "Lists the members a symbol declares (a class's methods, properties...) in document order, with symbolId, kind, signature and location; not inherited ones (get-type-hierarchy).",
  inputSchema: inputSchema({ symbol: symbolSelectorInput, membersLimit: limitParameter('members'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      symbol: symbolOutputSchema,
      members: collectionOf({ ...symbolOutputSchema, properties: { ...(symbolOutputSchema.properties as object), signature: { type: 'string' } } }),
    },
    required: ['symbol', 'members'],
  },
  annotations: queryAnnotations('Get Symbol Members'),
  examples: [
    example('read-symbols', 2, 'members', 'List the members of a class', {
      symbol: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'Greeter', contextBefore: 'class ' } } },
    }),
  ],
  async run(input, ctx): Promise<MembersData> {
    const r = await resolveSymbol(ctx, input.symbol);
    const page = paged(ctx, 'members', r.symbol.children, input.membersLimit, {
      paths: [r.document.relativePath],
      key: (m) => walkedKey({ symbol: m, containers: [] }),
    });
    const path = [...r.containers, r.symbol];
    return {
      symbol: symbolOutput(ctx, r.document, r.symbol, r.containers),
      members: { ...page, items: page.items.map((m) => ({ ...symbolOutput(ctx, r.document, m, path), signature: signatureOf(r.document, m) })) },
    };
  },
});

// ---------------------------------------------------------------- get-api-surface

interface ApiItem extends SymbolOutput {
  signature: string;
  depth: number;
}

/** Whether a declaration is visible outside its file/class, judged from its own text (language-neutral rules). */
function isPublic(doc: ResolvedDocument, symbol: HostSymbol, topLevel: boolean, commonJs: Set<string> | undefined): boolean {
  const signature = signatureOf(doc, symbol);
  const script = SCRIPT_LANGUAGES.has(doc.host.languageId);
  // #name is private in a class (TS/JS); a Markdown heading's name starts with # too.
  if (/^(private|protected|internal)\b/.test(signature) || (script && symbol.name.startsWith('#'))) return false;
  if (script && topLevel) return /^(export|declare)\b/.test(signature) || (commonJs?.has(symbol.name) ?? false);
  if (doc.host.languageId === 'python') return !symbol.name.startsWith('_') || /^__\w+__$/.test(symbol.name);
  return true;
}

const SCRIPT_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

export interface ApiSurfaceData {
  documentId: string;
  symbols: Collection<ApiItem>;
}

export const getApiSurface = defineTool({
  name: 'get-api-surface',
  title: 'Get API Surface',
  category: CATEGORY,
  ...QUERY,
  description:
    'Lists what a document exposes: exported top-level declarations (export or module.exports; Python names without _) and their non-private members, with signatures and symbolIds. Judged from declaration text, not type checking.',
  inputSchema: inputSchema({ document: documentSelectorInput, symbolsLimit: limitParameter('symbols'), cursor: cursorInput }, ['document'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      documentId: { type: 'string', description: '<folderId>:<path> (its path and project are derivable).' },
      symbols: collectionOf({
        ...symbolOutputSchema,
        properties: { ...(symbolOutputSchema.properties as object), signature: { type: 'string' }, depth: { type: 'integer' } },
      }),
    },
    required: ['documentId', 'symbols'],
  },
  annotations: queryAnnotations('Get API Surface'),
  examples: [example('read-symbols', 3, 'api-surface', 'What a module exports', { document: { path: 'src/greeter.ts' } })],
  async run(input, ctx): Promise<ApiSurfaceData> {
    const doc = await ctx.document(input.document);
    const roots = await documentSymbolTree(ctx, doc);
    const all: { symbol: HostSymbol; containers: HostSymbol[] }[] = [];
    // A JavaScript module without export declarations exposes what module.exports names (CommonJS).
    const commonJs = doc.host.languageId.startsWith('javascript') && !/^\s*export\b/m.test(doc.host.text) ? commonJsExports(doc.host.text) : undefined;
    for (const top of roots) {
      if (!isPublic(doc, top, true, commonJs)) continue;
      all.push({ symbol: top, containers: [] });
      for (const member of top.children) {
        if (isPublic(doc, member, false, commonJs) && !['Variable', 'Constant'].includes(member.kind) && member.kind !== 'Function') {
          all.push({ symbol: member, containers: [top] });
        }
      }
    }
    const page = paged(ctx, 'symbols', all, input.symbolsLimit, { paths: [doc.relativePath], key: walkedKey });
    return {
      documentId: doc.ref.documentId,
      symbols: {
        ...page,
        items: page.items.map((h) => ({
          ...symbolOutput(ctx, doc, h.symbol, h.containers, roots),
          signature: signatureOf(doc, h.symbol),
          depth: h.containers.length,
        })),
      },
    };
  },
});
