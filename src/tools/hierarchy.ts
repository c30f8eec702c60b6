import { defineTool } from '../core/chain/definition';
import type { ResolvedDocument, ToolContext } from '../core/documents/context';
import { retry, revise, ToolError } from '../core/chain/envelope';
import type { HostCall, HostHierarchyItem, HostSymbol } from '../core/documents/editorPort';
import { inTimeOrNot, partialProperties, READINESS, whenCovered } from '../core/symbols/readiness';
import type { PartialAnswer } from '../core/symbols/readiness';
import { collectionOutput, cursorInput, limitParameter, symbolSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { documentSymbolTree, nameSpan, symbolOutput, symbolOutputSchema, unsupportedFeature, walkSymbols } from '../core/symbols/symbols';
import { resolveSymbol } from '../core/symbols/selectors';
import type { ResolvedSymbol, SymbolOutput, SymbolSelector } from '../core/symbols/symbols';
import { indentationOf } from '../core/documents/text';
import { mapConcurrently } from '../core/util/concurrency';
import { pythonOverloads } from '../core/symbols/overloads';
import { readsHeritage } from '../core/symbols/heritage';
import { providerAnswered, providerAnswers } from '../core/symbols/providers';
import { signatureOf } from '../core/symbols/signature';
import { inputSchema, limited, paged, QUERY, queryAnnotations } from './shared/common';
import type { Collection } from './shared/common';
import { subtypes, supertypes, unique } from './shared/typeHierarchy';
import type { HierarchySource } from './shared/typeHierarchy';
import { anySymbolSchema, compareSymbols, isExternal, isTypeKind, symbolForItem } from './shared/symbolAccess';
import type { AnySymbol, ModuleSymbol } from './shared/symbolAccess';
import { callOwner, siteSchema, sitesIn } from './shared/callSites';
import type { SiteRow } from './shared/callSites';
import { unexpandedNote } from '../core/symbols/callers';

const CALLABLE = new Set(['Function', 'Method', 'Constructor']);

export { readSite } from './shared/callSites';
export type { Site, SiteRow } from './shared/callSites';

/** One example per tool: the symbol selected by its name in a file. */
const example = (tool: string, title: string, file: string, name: string, outcome: string, contextBefore?: string) => [
  {
    workflowId: `explore-${tool}`,
    workflowTitle: `${title} of a symbol`,
    step: 1,
    id: `${tool}-by-name`,
    title,
    purpose: `${title} of ${name}.`,
    expectedOutcome: outcome,
    request: { symbol: { location: { selection: { document: { path: file }, selectedText: name, ...(contextBefore ? { contextBefore } : {}) } } } },
  },
];

const single = (target: ResolvedSymbol, ctx: ToolContext): SymbolOutput => symbolOutput(ctx, target.document, target.symbol, target.containers);

// ---------------------------------------------------------------- calls

/** A calling or called function with its call sites; `calls`, when asked for deeper levels, its own callers or callees. */
export interface CallItem {
  symbol: AnySymbol | ModuleSymbol;
  callSites: SiteRow[];
  calls?: Collection<CallItem>;
}

/** What find-callers and find-callees answer: each calling or called function with its call sites. */
export type CallsData = { symbol: SymbolOutput; calls: Collection<CallItem>; unexpanded?: number } & Partial<PartialAnswer>;

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
  const level = async (edges: HostCall[], from: HostHierarchyItem, levelsLeft: number, path: ReadonlySet<string>): Promise<Collection<CallItem>> => {
    const fromOwner = direction === 'outgoing' ? await callOwner(ctx, from) : undefined;
    const built = await mapConcurrently(edges, 8, async (edge) => {
      // The call's span is the called function's name: the target's for callers, the edge's for callees.
      const called = direction === 'incoming' ? from.name : edge.item.name;
      const owner = fromOwner ?? (await callOwner(ctx, edge.item));
      const symbol = fromOwner ? await symbolForItem(ctx, edge.item) : owner.symbol;
      return { item: { symbol, callSites: await sitesIn(ctx, edge.fromPath, edge.fromRanges, called.length, owner.via) } as CallItem, edge };
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
  return { symbol: single(target, ctx), calls: items, ...(unexpanded > 0 ? { unexpanded } : {}), ...(partial ?? (late > 0 ? unexpandedNote(late) : {})) };
}

/** Edges whose calls belong to one declaration (callbacks of one function) as one item, their sites in order; the first edge is expanded. */
function mergeOwners<T extends { item: CallItem }>(built: T[]): T[] {
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
    calls: collectionOutput(what, {
      type: 'object',
      properties: {
        symbol: {
          ...anySymbolSchema,
          properties: {
            ...(anySymbolSchema.properties as Record<string, JsonSchema>),
            module: { type: 'string', description: "Calls at a document's top level: its documentId (no symbolId)." },
          },
        },
        callSites: { type: 'array', items: siteSchema, description: "Call positions, in the caller's document." },
        calls: { type: 'object', description: `depth > 1: ${nested}; none at the last level, for library functions, on recursion.` },
      },
      required: ['symbol', 'callSites'],
    }),
    unexpanded: {
      type: 'integer',
      minimum: 1,
      description: `Items left without calls: over ${MAX_CALL_EXPANSIONS} expansions, near the timeout (then complete: false), or none prepared there.`,
    },
    ...partialProperties,
  },
  required: ['symbol', 'calls'],
});

const depthParameter = { type: 'integer', minimum: 1, maximum: MAX_CALL_DEPTH, default: 1 } as const;

export const findCallers = defineTool({
  name: 'find-callers',
  title: 'Find Callers',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    "Callers of a symbol, with call sites [line, column, offset]; follows imports and aliases. A caller is the innermost named function, method, class or const holding one, else {module}; a site's via: callbacks between. depth 2-3: callers' callers in calls.",
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
  description:
    "Functions and methods a symbol calls, each with the call sites [line, column, offset] in the symbol's body. depth 2-3: each callee's callees in its calls.",
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

// ---------------------------------------------------------------- types

/**
 * A language whose base lists are not read (core/symbols/heritage.ts) has a type hierarchy only
 * if its provider prepares one: at the type asked (`at`), else at another declaration of the
 * document. None: UnsupportedLanguageFeature, before any "not a type" (a CSS rule is a Class to
 * its symbol provider, a JSON object a Module).
 */
async function requireTypeHierarchy(ctx: ToolContext, target: ResolvedSymbol, at: HostSymbol): Promise<void> {
  const doc = target.document;
  if (readsHeritage(doc.host.languageId)) return;
  const prepares = async (offset: number) => ((await ctx.editor.typeHierarchy(doc.absolutePath, offset, 'supertypes')).roots ?? []).length > 0;
  if (await prepares(at.selectionRange.start)) return providerAnswered(ctx, doc, 'typeHierarchy');
  if ((await providerAnswers(ctx, doc, 'typeHierarchy', prepares, { except: at.selectionRange.start, prefer: (s) => isTypeKind(s.kind) })) !== true) {
    throw unsupportedFeature(doc, 'type hierarchy', true);
  }
}

function requireType(target: ResolvedSymbol): void {
  if (!isTypeKind(target.symbol.kind)) {
    throw new ToolError('InvalidRequest', `${target.symbol.kind} ${target.symbol.name} is not a type.`, revise('Select a class, interface, struct or enum.'));
  }
}

const sourceSchema: JsonSchema = {
  enum: ['typeHierarchy', 'declarations'],
  description: "typeHierarchy: the language's provider; declarations: base lists resolved by definitions and references.",
};

export type TypeHierarchyData = {
  symbol: SymbolOutput;
  supertypes: Collection<AnySymbol>;
  subtypes: Collection<AnySymbol>;
  source: HierarchySource;
} & Partial<PartialAnswer>;

export const getTypeHierarchy = defineTool({
  name: 'get-type-hierarchy',
  title: 'Get Type Hierarchy',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    'Direct supertypes (base classes, implemented interfaces) and direct subtypes of a type; find-derived-types gives all descendants. typesLimit bounds each list.',
  inputSchema: inputSchema({ symbol: symbolSelectorInput, typesLimit: limitParameter('types'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      symbol: symbolOutputSchema,
      supertypes: collectionOutput('Direct supertypes.', anySymbolSchema),
      subtypes: collectionOutput('Direct subtypes.', anySymbolSchema),
      source: sourceSchema,
      ...partialProperties,
    },
    required: ['symbol', 'supertypes', 'subtypes', 'source'],
  },
  annotations: queryAnnotations('Get Type Hierarchy'),
  examples: example(
    'get-type-hierarchy',
    'Base and derived types',
    'src/services.ts',
    'WelcomeService',
    'Its direct base types and direct subtypes, each as a symbol.',
  ),
  async run(input, ctx): Promise<TypeHierarchyData> {
    const target = await resolveSymbol(ctx, input.symbol);
    await requireTypeHierarchy(ctx, target, target.symbol);
    requireType(target);
    const { answer, partial } = await whenCovered(
      ctx,
      target.document,
      'supertypes or subtypes',
      async () => ({ up: await supertypes(ctx, target), down: await subtypes(ctx, target) }),
      ({ up, down }) => up.items.length + down.items.length === 0,
    );
    const { up, down } = answer;
    return {
      symbol: single(target, ctx),
      supertypes: paged(ctx, 'supertypes', up.items, input.typesLimit),
      subtypes: paged(ctx, 'subtypes', down.items, input.typesLimit),
      source: up.source === 'typeHierarchy' && down.source === 'typeHierarchy' ? 'typeHierarchy' : 'declarations',
      ...partial,
    };
  },
});

const MAX_VISITED = 500;

/** Every type below a type, breadth first, with its depth (1 = direct). */
async function descendants(
  ctx: ToolContext,
  root: ResolvedSymbol,
): Promise<{ items: (SymbolOutput & { depth: number })[]; external: AnySymbol[]; source: HierarchySource; complete: boolean }> {
  const seen = new Set<string>([root.symbolId]);
  const items: (SymbolOutput & { depth: number })[] = [];
  const external: AnySymbol[] = [];
  let frontier: ResolvedSymbol[] = [root];
  let source: HierarchySource = 'typeHierarchy';
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: ResolvedSymbol[] = [];
    for (const t of frontier) {
      const down = await subtypes(ctx, t);
      if (down.source === 'declarations') source = 'declarations';
      for (const s of down.items) {
        if (isExternal(s)) {
          external.push(s);
          continue;
        }
        if (seen.has(s.symbolId)) continue;
        seen.add(s.symbolId);
        if (seen.size > MAX_VISITED) return { items, external, source, complete: false };
        items.push({ ...s, depth });
        next.push(await resolveSymbol(ctx, { symbolId: s.symbolId }));
      }
    }
    frontier = next;
  }
  return { items, external, source, complete: true };
}

export type DerivedTypesData = {
  symbol: SymbolOutput;
  derivedTypes: Collection<SymbolOutput & { depth: number }>;
  source: HierarchySource;
} & Partial<PartialAnswer>;

export const findDerivedTypes = defineTool({
  name: 'find-derived-types',
  title: 'Find Derived Types',
  category: 'Code discovery and navigation',
  ...QUERY,
  description: 'Every type that derives from or implements a type, directly or not, with its depth (1 = direct), breadth first.',
  inputSchema: inputSchema({ symbol: symbolSelectorInput, typesLimit: limitParameter('types'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      symbol: symbolOutputSchema,
      derivedTypes: collectionOutput('By depth, then path and position.', {
        ...symbolOutputSchema,
        properties: { ...(symbolOutputSchema.properties as object), depth: { type: 'integer', minimum: 1 } },
      }),
      source: sourceSchema,
      ...partialProperties,
    },
    required: ['symbol', 'derivedTypes', 'source'],
  },
  annotations: queryAnnotations('Find Derived Types'),
  examples: example('find-derived-types', 'Derived types', 'src/greeter.ts', 'Greeter', 'Every type below Greeter with its depth.', 'class '),
  async run(input, ctx): Promise<DerivedTypesData> {
    const target = await resolveSymbol(ctx, input.symbol);
    await requireTypeHierarchy(ctx, target, target.symbol);
    requireType(target);
    const { answer: found, partial } = await whenCovered(
      ctx,
      target.document,
      'derived types',
      () => descendants(ctx, target),
      (d) => d.items.length + d.external.length === 0,
    );
    const sorted = [...found.items].sort((a, b) => a.depth - b.depth || compareSymbols(a, b));
    const page = paged(ctx, 'derivedTypes', sorted, input.typesLimit);
    return { symbol: single(target, ctx), derivedTypes: { ...page, hasMore: page.hasMore || !found.complete }, source: found.source, ...partial };
  },
});

async function overridesOf(ctx: ToolContext, target: ResolvedSymbol, owner: ResolvedSymbol): Promise<SymbolOutput[]> {
  const found: SymbolOutput[] = [];
  for (const derived of (await descendants(ctx, owner)).items) {
    const d = await resolveSymbol(ctx, { symbolId: derived.symbolId });
    const roots = await documentSymbolTree(ctx, d.document);
    for (const member of d.symbol.children.filter((c) => c.name === target.symbol.name)) {
      found.push(symbolOutput(ctx, d.document, member, [...d.containers, d.symbol], roots));
    }
  }
  const impls = await ctx.editor.locationsAt('implementation', target.document.absolutePath, target.symbol.selectionRange.start);
  for (const t of impls ?? []) {
    const s = await symbolForItem(ctx, { name: target.symbol.name, kind: target.symbol.kind, absPath: t.absPath, selectionRange: t.range });
    if (!isExternal(s) && s.symbolId !== target.symbolId && s.name === target.symbol.name) found.push(s);
  }
  return found;
}

export type OverridesData = { symbol: SymbolOutput; overrides: Collection<SymbolOutput> } & Partial<PartialAnswer>;

export const findOverrides = defineTool({
  name: 'find-overrides',
  title: 'Find Overrides',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    "Members that override or implement a member (method, property) in derived types, found through its container's derived types and the implementation provider.",
  inputSchema: inputSchema({ symbol: symbolSelectorInput, overridesLimit: limitParameter('overrides'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: { symbol: symbolOutputSchema, overrides: collectionOutput('By path and position.', symbolOutputSchema), ...partialProperties },
    required: ['symbol', 'overrides'],
  },
  annotations: queryAnnotations('Find Overrides'),
  examples: example('find-overrides', 'Overrides', 'src/greeter.ts', 'greet', 'Every override of Greeter.greet in derived classes.', '  '),
  async run(input, ctx): Promise<OverridesData> {
    const target = await resolveSymbol(ctx, input.symbol);
    const container = target.containers[target.containers.length - 1];
    await requireTypeHierarchy(ctx, target, container ?? target.symbol);
    if (!container || !isTypeKind(container.kind)) {
      throw new ToolError(
        'InvalidRequest',
        `${target.symbol.kind} ${target.symbol.name} is not a member of a type.`,
        revise('Select a method or property declared in a class or interface.'),
      );
    }
    const owner = await resolveSymbol(ctx, { symbolId: target.symbolId.replace(/\/[^/]*$/, '') });
    const { answer: found, partial } = await whenCovered(
      ctx,
      target.document,
      'overrides',
      () => overridesOf(ctx, target, owner),
      (list) => list.length === 0,
    );
    return { symbol: single(target, ctx), overrides: paged(ctx, 'overrides', unique(found), input.overridesLimit), ...partial };
  },
});

/** A name without the parameter list some languages' symbol providers append (C#: "Pad(int)"). */
const baseName = (name: string): string => name.replace(/\s*\(.*\)$/s, '');

export interface OverloadsData {
  symbol: SymbolOutput;
  overloads: Collection<SymbolOutput & { signature: string }>;
}

/**
 * Python: the @overload declarations and the implementation, read from the text (the symbol
 * provider names an overloaded function once), each as a symbol of the target's kind; the target
 * alone when none carries @overload.
 */
function pythonOverloadSymbols(doc: ResolvedDocument, target: ResolvedSymbol, container: HostSymbol | undefined): HostSymbol[] {
  const text = doc.host.text;
  const nameLine = doc.lines.positionAt(target.symbol.selectionRange.start).line;
  const indent = indentationOf(doc.lines.lineText(nameLine));
  const found = pythonOverloads(text, target.symbol.name, container ? container.range.start : 0, container ? container.range.end : text.length, indent);
  if (found.length === 0) return [target.symbol];
  return found.map((d) => ({
    name: target.symbol.name,
    kind: target.symbol.kind,
    detail: '',
    range: { start: d.start, end: d.nameEnd },
    selectionRange: { start: d.nameStart, end: d.nameEnd },
    children: [],
  }));
}

export const findOverloads = defineTool({
  name: 'find-overloads',
  title: 'Find Overloads',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    'Every overload of a function or method: the declarations of its name and kind in the same container (overload signatures and the implementation each count; itself included; Python: @overload defs and the implementation), with signatures.',
  inputSchema: inputSchema({ symbol: symbolSelectorInput, overloadsLimit: limitParameter('overloads'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      symbol: symbolOutputSchema,
      overloads: collectionOutput('In declaration order.', {
        ...symbolOutputSchema,
        properties: { ...(symbolOutputSchema.properties as object), signature: { type: 'string' } },
      }),
    },
    required: ['symbol', 'overloads'],
  },
  annotations: queryAnnotations('Find Overloads'),
  examples: example(
    'find-overloads',
    'Overloads',
    'src/util.ts',
    'formatName',
    'Each overload signature of formatName (and its implementation) with its signature text.',
  ),
  async run(input, ctx): Promise<OverloadsData> {
    const target = await resolveSymbol(ctx, input.symbol);
    const doc = target.document;
    const roots = await documentSymbolTree(ctx, doc);
    const container = target.containers[target.containers.length - 1];
    let siblings = (container ? container.children : roots).filter((s) => baseName(s.name) === baseName(target.symbol.name) && s.kind === target.symbol.kind);
    if (doc.host.languageId === 'python') siblings = pythonOverloadSymbols(doc, target, container);
    const items = siblings.map((s) => {
      const name = nameSpan(doc.host.text, s);
      const out = symbolOutput(ctx, doc, s, target.containers, roots);
      const { line, column } = ctx.toLocation(doc, name.start, name.end - name.start);
      return { ...out, line, column, signature: signatureOf(doc, { ...s, selectionRange: name }) };
    });
    return { symbol: single(target, ctx), overloads: paged(ctx, 'overloads', items, input.overloadsLimit) };
  },
});

export interface PartialDeclarationsData {
  symbol: SymbolOutput;
  declarations: Collection<AnySymbol>;
}

export const getPartialDeclarations = defineTool({
  name: 'get-partial-declarations',
  title: 'Get Partial Declarations',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    'All declarations of a symbol declared in parts (merged TypeScript interfaces and namespaces, C# partial classes...), from the declaration and definition providers; one item: declared once.',
  inputSchema: inputSchema({ symbol: symbolSelectorInput, declarationsLimit: limitParameter('declarations'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: { symbol: symbolOutputSchema, declarations: collectionOutput('By path and position.', anySymbolSchema) },
    required: ['symbol', 'declarations'],
  },
  annotations: queryAnnotations('Get Partial Declarations'),
  examples: example('get-partial-declarations', 'Declarations', 'src/greeter.ts', 'Greeting', 'Each declaration of the Greeting interface.', 'interface '),
  async run(input, ctx): Promise<PartialDeclarationsData> {
    const target = await resolveSymbol(ctx, input.symbol);
    const doc = target.document;
    const at = target.symbol.selectionRange.start;
    const [declarations, definitions] = await Promise.all([
      ctx.editor.locationsAt('declaration', doc.absolutePath, at),
      ctx.editor.locationsAt('definition', doc.absolutePath, at),
    ]);
    if (declarations === undefined && definitions === undefined) throw unsupportedFeature(doc, 'declaration');
    const items: AnySymbol[] = [];
    for (const t of [...(declarations ?? []), ...(definitions ?? [])]) {
      items.push(await symbolForItem(ctx, { name: target.symbol.name, kind: target.symbol.kind, absPath: t.absPath, selectionRange: t.range }));
    }
    // Neither provider answers at the declaration (JSON, HTML): the symbol provider's declaration is its one declaration.
    if (items.length === 0) items.push(single(target, ctx));
    return { symbol: single(target, ctx), declarations: paged(ctx, 'declarations', unique(items), input.declarationsLimit) };
  },
});
