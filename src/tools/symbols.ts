import { defineTool } from '../core/chain/definition';
import type { ResolvedDocument, ToolContext } from '../core/documents/context';
import type { HostSymbol } from '../core/documents/editorPort';
import { partialProperties, READINESS, whenCovered } from '../core/symbols/readiness';
import type { PartialAnswer } from '../core/symbols/readiness';
import { cursorInput, documentSelectorInput, limitParameter } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { documentSymbolTree, isLocal, symbolOutput, symbolOutputSchema, symbolSelectorInput, walkSymbols } from '../core/symbols/symbols';
import { resolveSymbol } from '../core/symbols/selectors';
import type { SymbolOutput } from '../core/symbols/symbols';
import { hoverSaysLoading, readableHover, signatureOf } from '../core/symbols/signature';
import { commonJsExports } from '../core/symbols/exports';
import { collectionOf, inputSchema, paged, QUERY, queryAnnotations } from './shared/common';
import { refReader, relativeRows, RELATIVE_ID_TEXT } from './shared/symbolRows';
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

/** What identifies a symbol in a document's list (its tree below and above is not part of it). */
const walkedKey = (h: { symbol: HostSymbol; containers: readonly HostSymbol[] }) => [
  h.symbol.name,
  h.symbol.kind,
  h.symbol.range.start,
  h.symbol.range.end,
  h.containers.length,
];

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
  const whole = refReader();
  return data.symbols.items.map(([written, line, column, detail, more]) => {
    const id = whole(written);
    return {
      symbolId: `${data.documentId}#${id}`,
      line,
      column,
      depth: id.split('/').length - 1,
      ...(typeof detail === 'string' ? { detail } : {}),
      ...(more ?? {}),
    };
  });
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
  description: `A document's declarations (classes, functions, members, headings), depth first, a row each: [id, line, column, detail]; symbolId is documentId + "#" + id (Kind:name, "/" nests; ${RELATIVE_ID_TEXT}). Cheaper than reading it. Locals (what bodies declare) left out and counted unless includeLocals.`,
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
          `id: the symbolId after "<documentId>#" (symbolId = documentId + "#" + id; each "/" is one level deeper; ${RELATIVE_ID_TEXT}). ` +
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
    const deep = walkSymbols(roots).filter((h) => input.maxDepth === undefined || input.maxDepth === null || h.containers.length <= input.maxDepth);
    const all = input.includeLocals ? deep : deep.filter((h) => !isLocal(h.symbol, h.containers));
    const localsLeftOut = deep.length - all.length;
    const page = paged(ctx, 'symbols', all, input.symbolsLimit, { paths: [doc.relativePath], key: walkedKey });
    return {
      documentId: doc.ref.documentId,
      symbols: {
        ...page,
        items: relativeRows(page.items.map((h) => outlineRow(symbolOutput(ctx, doc, h.symbol, h.containers, roots), doc.ref.documentId, h.symbol.detail))),
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
