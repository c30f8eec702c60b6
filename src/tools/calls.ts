/** find-callers and find-callees: the call hierarchy, each call attributed to the declaration it belongs to. */
import { defineTool } from '../core/chain/definition';
import type { ToolContext } from '../core/documents/context';
import { retry, revise, ToolError } from '../core/chain/envelope';
import type { HostCall, HostHierarchyItem, HostSymbol } from '../core/documents/editorPort';
import { inTimeOrNot, partialProperties, READINESS, whenCovered } from '../core/symbols/readiness';
import type { PartialAnswer } from '../core/symbols/readiness';
import { collectionOutput, cursorInput, limitParameter, symbolSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { documentSymbolTree, symbolOutputSchema, unsupportedFeature, walkSymbols } from '../core/symbols/symbols';
import { resolveSymbol } from '../core/symbols/selectors';
import type { ResolvedSymbol, SymbolOutput, SymbolSelector } from '../core/symbols/symbols';
import { mapConcurrently } from '../core/util/concurrency';
import { utf8Bytes } from '../core/chain/bounding';
import { providerAnswered, providerAnswers } from '../core/symbols/providers';
import { inputSchema, limited, paged, QUERY, queryAnnotations } from './shared/common';
import type { Collection } from './shared/common';
import { compareSymbols, isExternal, symbolForItem } from './shared/symbolAccess';
import type { AnySymbol, ExternalSymbol, ModuleSymbol } from './shared/symbolAccess';
import { folderOf, RELATIVE_REF_TEXT, rowWriter, symbolRow, SYMBOL_ROW_TEXT, symbolRowReader } from './shared/symbolRows';
import type { SymbolRow } from './shared/symbolRows';
import { callOwner, siteSchema, sitesIn } from './shared/callSites';
import type { SiteRow } from './shared/callSites';
import { unexpandedNote } from '../core/symbols/callers';

import { single, symbolExample as example } from './shared/symbolTool';

const CALLABLE = new Set(['Function', 'Method', 'Constructor']);

// ---------------------------------------------------------------- calls

/** A calling or called function with its call sites; `calls`, when asked for deeper levels, its own callers or callees. */
interface BuiltItem {
  symbol: AnySymbol | ModuleSymbol;
  callSites: SiteRow[];
  calls?: Collection<BuiltItem>;
}

/**
 * A call item as answered, a row without keys: [symbol, callSites, calls, leftOut]. symbol: a
 * workspace symbol as a SymbolRow under the answer's folderId, a library's or a module's as it is;
 * calls (depth > 1): its own callers or callees as rows, absent when not expanded; leftOut: how
 * many of those were not listed (callersLimit), absent when none. Keys and a nested collection per
 * caller were a fifth of a call tree on real code.
 */
export type CallRow = [symbol: SymbolRow | ExternalSymbol | ModuleSymbol, callSites: SiteRow[], calls?: CallRow[], leftOut?: number];

/** A call item read back (readCalls): every symbol an object, symbolIds whole. */
export interface ReadCallItem {
  symbol: AnySymbol | ModuleSymbol;
  callSites: SiteRow[];
  calls?: Collection<ReadCallItem>;
}

/** What find-callers and find-callees answer: each calling or called function with its call sites. */
export type CallsData = { symbol: SymbolOutput; folderId: string; calls: Collection<CallRow>; unexpanded?: number } & Partial<PartialAnswer>;

/** The rows of a call tree, each workspace symbol's ref relative to the one printed before it (rowWriter), depth first. */
function callRows(items: readonly BuiltItem[], folderId: string, write = rowWriter()): CallRow[] {
  return items.map(({ symbol, callSites, calls }): CallRow => {
    const s = 'symbolId' in symbol ? write(symbolRow(symbol, folderId)) : symbol;
    if (!calls) return [s, callSites];
    const nested = callRows(calls.items, folderId, write);
    const leftOut = calls.totalCount - calls.items.length;
    return leftOut > 0 ? [s, callSites, nested, leftOut] : [s, callSites, nested];
  });
}

/** Room the rest of a call answer (the queried symbol, envelope, snapshot, cursor, note) may take beside its rows. */
const ANSWER_RESERVE_BYTES = 1024;

/**
 * Cuts deeper levels, the last first, until the rows fit `budget` bytes: the output bounding can
 * only drop whole rows, and one caller's subtree must never leave a page without it. Each cut
 * level's leftOut then counts what went. Answers whether anything was cut.
 */
function fitNested(top: readonly BuiltItem[], folderId: string, budget: number): boolean {
  const size = () => utf8Bytes(JSON.stringify(callRows(top, folderId)));
  let excess = size() - budget;
  if (excess <= 0) return false;
  const nested: Collection<BuiltItem>[] = [];
  const walk = (items: readonly BuiltItem[]): void => {
    for (const i of items) {
      if (!i.calls) continue;
      nested.push(i.calls);
      walk(i.calls.items);
    }
  };
  walk(top);
  for (let n = nested.length - 1; n >= 0 && excess > 0; n--) {
    const level = nested[n];
    const kept = [...level.items];
    // A row and its comma go with each item; the level's leftOut grows by a few digits, measured again below.
    while (kept.length > 0 && excess > 0) excess -= utf8Bytes(JSON.stringify(callRows([kept.pop()!], folderId))) - 1;
    level.items = kept;
    if (excess <= 0) excess = size() - budget;
  }
  return true;
}

/** A call answer's items as objects again (symbols whole, each nested level a collection), at every level. */
export function readCalls(data: Pick<CallsData, 'folderId' | 'calls'>): Collection<ReadCallItem> {
  const readRow = symbolRowReader(data.folderId);
  const read = ([symbol, callSites, calls, leftOut = 0]: CallRow): ReadCallItem => ({
    symbol: Array.isArray(symbol) ? readRow(symbol) : symbol,
    callSites,
    ...(calls ? { calls: { items: calls.map(read), hasMore: leftOut > 0, totalCount: calls.length + leftOut } } : {}),
  });
  return { ...data.calls, items: data.calls.items.map(read) };
}

/** Levels a call answer may nest, and the call hierarchy queries one answer may spend on them. */
export const MAX_CALL_DEPTH = 3;
export const MAX_CALL_EXPANSIONS = 100;

const itemKey = (i: Pick<HostHierarchyItem, 'absPath' | 'selectionRange'>) => `${i.absPath}#${i.selectionRange.start}`;

async function calls(
  ctx: ToolContext,
  selector: SymbolSelector,
  direction: 'incoming' | 'outgoing',
  limit: number | null | undefined,
  depth: number | undefined,
): Promise<CallsData> {
  const target = await resolveSymbol(ctx, selector);
  const doc = target.document;
  const { answer: h, partial } = await whenCovered(
    ctx,
    doc,
    direction === 'incoming' ? 'callers' : 'callees',
    () => ctx.editor.callHierarchy(doc.absolutePath, target.symbol.selectionRange.start, direction),
    (answer) => answer.edges.length === 0,
  );
  if (h.roots === undefined) throw unsupportedFeature(doc, 'call hierarchy');
  if (h.roots.length === 0) await nothingPrepared(ctx, target);
  providerAnswered(ctx, doc, 'callHierarchy');
  let budget = MAX_CALL_EXPANSIONS;
  let unexpanded = 0;
  let late = 0;
  // One level: the edges as items in path order, each expanded while levels and budget remain (never into a function on its own path: recursion).
  // `from` holds the calls of an outgoing level; an incoming level's calls are in each caller.
  const level = async (edges: HostCall[], from: HostHierarchyItem, levelsLeft: number, path: ReadonlySet<string>): Promise<Collection<BuiltItem>> => {
    const fromOwner = direction === 'outgoing' ? await callOwner(ctx, from) : undefined;
    const built = await mapConcurrently(edges, 8, async (edge) => {
      // The call's span is the called function's name: the target's for callers, the edge's for callees.
      const called = direction === 'incoming' ? from.name : edge.item.name;
      const owner = fromOwner ?? (await callOwner(ctx, edge.item));
      const symbol = fromOwner ? await symbolForItem(ctx, edge.item) : owner.symbol;
      return { item: { symbol, callSites: await sitesIn(ctx, edge.fromPath, edge.fromRanges, called.length, owner.via) } as BuiltItem, edge };
    });
    built.sort((a, b) => compareSymbols(a.item.symbol, b.item.symbol));
    const merged = mergeOwners(built);
    // Only the first level continues by cursor; a deeper one is re-asked on its caller.
    const page = path === roots ? paged(ctx, 'calls', merged, limit, { key: (b) => b.item }) : limited(merged, limit);
    if (levelsLeft > 0) {
      await mapConcurrently(page.items, 4, async ({ item, edge }) => {
        if (isExternal(item.symbol) || 'module' in item.symbol || path.has(itemKey(edge.item))) return;
        if (budget <= 0) return void unexpanded++;
        // Near the call's timeout (or cancelled), the levels found so far are answered, said to be partial, rather than a Timeout.
        if (ctx.cancelled || ctx.remainingMs() < READINESS.marginMs) return void (unexpanded++, late++);
        budget--;
        const next = await inTimeOrNot(ctx, ctx.editor.callHierarchy(edge.item.absPath, edge.item.selectionRange.start, direction));
        if (!next) return void (unexpanded++, late++);
        if (!next.roots?.length) return void unexpanded++;
        item.calls = await level(next.edges, edge.item, levelsLeft - 1, new Set([...path, itemKey(edge.item)]));
      });
    }
    return { ...page, items: page.items.map((b) => b.item) };
  };
  // depth is validated against depthParameter's bounds before the tool runs.
  const [root] = h.roots;
  const roots = new Set(h.roots.map(itemKey));
  const items = await level(h.edges, { ...root, name: target.symbol.name }, (depth ?? 1) - 1, roots);
  const symbol = single(target, ctx);
  const folderId = folderOf(symbol.symbolId);
  const cut = fitNested(items.items, folderId, ctx.maxOutputBytes - ANSWER_RESERVE_BYTES);
  const said: Partial<PartialAnswer> = partial ?? (late > 0 ? unexpandedNote(late) : {});
  const cutNote = 'Deeper levels were cut to fit the output limit (leftOut counts what each lost): ask about one of them for the rest.';
  return {
    symbol,
    folderId,
    calls: { ...items, items: callRows(items.items, folderId) },
    ...(unexpanded > 0 ? { unexpanded } : {}),
    ...said,
    ...(cut ? { note: said.note ? `${said.note} ${cutNote}` : cutNote } : {}),
  };
}

/** Edges whose calls belong to one declaration (callbacks of one function) as one item, their sites in order; the first edge is expanded. */
function mergeOwners<T extends { item: BuiltItem }>(built: T[]): T[] {
  const byId = new Map<string, T>();
  const out: T[] = [];
  for (const b of built) {
    const id = 'symbolId' in b.item.symbol ? b.item.symbol.symbolId : undefined;
    const first = id === undefined ? undefined : byId.get(id);
    if (!first) {
      if (id !== undefined) byId.set(id, b);
      out.push(b);
      continue;
    }
    first.item.callSites = [...first.item.callSites, ...b.item.callSites].sort((x, y) => x[2] - y[2]);
  }
  return out;
}

/**
 * Why the call hierarchy prepared nothing at a symbol's name. VS Code answers an empty list both
 * when no provider is registered and when the provider has nothing there, so other callables of
 * the same document tell the two apart; a language whose extension is still activating is starting.
 */
async function nothingPrepared(ctx: ToolContext, target: ResolvedSymbol): Promise<never> {
  const doc = target.document;
  const where = `${target.symbol.kind} ${target.symbol.name} (${doc.relativePath} line ${doc.lines.positionAt(target.symbol.selectionRange.start).line + 1})`;
  if (!CALLABLE.has(target.symbol.kind)) {
    // Nothing callable here; whether the language has a call hierarchy at all, its other declarations say (JSON, CSS, HTML and Markdown have none).
    const prepares = async (offset: number) => ((await ctx.editor.callHierarchy(doc.absolutePath, offset, 'outgoing')).roots ?? []).length > 0;
    const exists = await providerAnswers(ctx, doc, 'callHierarchy', prepares, {
      except: target.symbol.selectionRange.start,
      prefer: (s) => CALLABLE.has(s.kind),
    });
    if (exists === false) throw unsupportedFeature(doc, 'call hierarchy', true);
    throw new ToolError(
      'InvalidRequest',
      `${target.symbol.kind} ${target.symbol.name} is not callable: the call hierarchy has nothing there.`,
      revise('Select a function, method or constructor.'),
    );
  }
  const others: HostSymbol[] = [];
  for (const { symbol } of walkSymbols(await documentSymbolTree(ctx, doc))) {
    if (CALLABLE.has(symbol.kind) && symbol.selectionRange.start !== target.symbol.selectionRange.start && others.length < 5) others.push(symbol);
  }
  for (const s of others) {
    if (((await ctx.editor.callHierarchy(doc.absolutePath, s.selectionRange.start, 'outgoing')).roots ?? []).length > 0) {
      throw new ToolError(
        'SymbolNotFound',
        `The ${doc.host.languageId} call hierarchy provider answers for other functions of ${doc.relativePath} but has no item for ${where}.`,
        revise('Select the name of the function where it is declared or implemented, or use find-references.'),
      );
    }
  }
  const activating = (ctx.editor.languages().find((l) => l.id === doc.host.languageId)?.providedBy ?? []).filter((p) => !p.active);
  if (activating.length > 0) {
    throw new ToolError(
      'LanguageServiceStarting',
      `The ${doc.host.languageId} language service is still starting (${activating.map((p) => p.extensionId).join(', ')} activating): no call hierarchy for ${where} yet. This is not an empty result.`,
      retry(`Ask again in ${READINESS.retryAfterSeconds} seconds.`),
      { languageId: doc.host.languageId, retryAfterSeconds: READINESS.retryAfterSeconds },
    );
  }
  if (others.length === 0) {
    throw new ToolError(
      'SymbolNotFound',
      `The call hierarchy has no item for ${where}, and ${doc.relativePath} has no other function to tell whether a ${doc.host.languageId} call hierarchy provider exists.`,
      revise('Use find-references on the function instead.'),
    );
  }
  throw unsupportedFeature(doc, 'call hierarchy');
}

const callData = (what: string, nested: string): JsonSchema => ({
  type: 'object',
  properties: {
    symbol: symbolOutputSchema,
    folderId: { type: 'string', description: 'symbolId = "<folderId>:" + ref (more.folderId when a row gives its own).' },
    calls: collectionOutput(what, {
      type: 'array',
      description: `A row [symbol, callSites, calls, leftOut]; calls (depth > 1): ${nested}, rows alike, absent at the last level, for library functions, on recursion; leftOut: how many of those the limit left out.`,
      minItems: 2,
      maxItems: 4,
      // Not a tuple schema (items as an array): draft 2020-12, which MCP clients may validate with, reads items differently.
      items: {
        anyOf: [
          {
            type: ['array', 'object'],
            description: `symbol: in the workspace a row ${SYMBOL_ROW_TEXT} Else {module: documentId} (top-level calls) or {name, kind, external: {path, line}} (library).`,
          },
          { type: 'array', items: siteSchema, description: "callSites: call positions, in the caller's document." },
          { type: 'integer', minimum: 1, description: 'leftOut' },
        ],
      },
    }),
    unexpanded: {
      type: 'integer',
      minimum: 1,
      description: `Items left without calls: over ${MAX_CALL_EXPANSIONS} expansions, near the timeout (then complete: false), or none prepared there.`,
    },
    ...partialProperties,
  },
  required: ['symbol', 'folderId', 'calls'],
});

const depthParameter = { type: 'integer', minimum: 1, maximum: MAX_CALL_DEPTH, default: 1 } as const;

export const findCallers = defineTool({
  name: 'find-callers',
  title: 'Find Callers',
  category: 'Code discovery and navigation',
  ...QUERY,
  description: `Caller rows [symbol, callSites, calls, leftOut]: symbol, innermost named function, method, class, const: [ref, line, column] (symbolId = folderId:ref; ${RELATIVE_REF_TEXT}) or {module}; callSites [line, column, offset, {via: callbacks}?]; calls: its callers (depth>1); leftOut: count cut.`,
  inputSchema: inputSchema({ symbol: symbolSelectorInput, callersLimit: limitParameter('callers'), depth: depthParameter, cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: callData('Callers, by path and position.', "the caller's callers"),
  annotations: queryAnnotations('Find Callers'),
  examples: example('find-callers', 'Callers', 'src/util.ts', 'formatName', 'Each calling function (Greeter.greet) with its call sites.'),
  run: (input, ctx) => calls(ctx, input.symbol, 'incoming', input.callersLimit, input.depth),
});

export const findCallees = defineTool({
  name: 'find-callees',
  title: 'Find Callees',
  category: 'Code discovery and navigation',
  ...QUERY,
  description: `Callees as rows [symbol, callSites, calls, leftOut]: symbol, a function or method called, [ref, line, column] (symbolId = folderId:ref; ${RELATIVE_REF_TEXT}; a library's an object); callSites [line, column, offset] in the symbol's body; calls: its callees (depth 2-3); leftOut: count cut.`,
  inputSchema: inputSchema({ symbol: symbolSelectorInput, calleesLimit: limitParameter('callees'), depth: depthParameter, cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: callData('Callees, by path and position (library symbols last).', "the callee's callees"),
  annotations: queryAnnotations('Find Callees'),
  examples: example(
    'find-callees',
    'Callees',
    'src/services.ts',
    'welcomeAll',
    'Each called function (greetAll, then library functions) with its call sites in welcomeAll.',
  ),
  run: (input, ctx) => calls(ctx, input.symbol, 'outgoing', input.calleesLimit, input.depth),
});
