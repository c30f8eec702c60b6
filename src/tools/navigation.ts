import { defineTool } from '../core/chain/definition';
import { partialProperties, whenCovered } from '../core/symbols/readiness';
import type { PartialAnswer } from '../core/symbols/readiness';
import type { LocationOutput, ResolvedDocument, ToolContext } from '../core/documents/context';
import type { HostLocationFeature, HostSymbol, HostTarget } from '../core/documents/editorPort';
import { cursorInput, limitParameter, locationSelectorInput } from '../core/chain/schemas';
import { listDigest } from '../core/chain/paging';
import type { JsonSchema } from '../core/chain/schemas';
import { documentSymbolTree, symbolOutput, symbolOutputSchema, symbolSelectorInput, symbolsAt, unsupportedFeature } from '../core/symbols/symbols';
import { resolveSymbol } from '../core/symbols/selectors';
import type { SymbolOutput } from '../core/symbols/symbols';
import { providerAnswered, requireLocationProvider } from '../core/symbols/providers';
import { collectionOf, dedupeTargets, inputSchema, QUERY, queryAnnotations } from './shared/common';
import type { Collection } from './shared/common';

const CATEGORY = 'Code discovery and navigation' as const;

/** A target: its location, left out when it is exactly the name of the symbol declared there; that symbol when there is one. */
export type TargetOutput = { symbol: SymbolOutput; location?: LocationOutput } | { location: LocationOutput; symbol?: undefined };

const targetSchema: JsonSchema = {
  type: 'object',
  description: "symbol: the one declared at the target; location: the target, left out when it is that symbol's name.",
  properties: { location: { type: 'object' }, symbol: symbolOutputSchema },
};

/** Resolves targets to documents of the open folders (others are left out and counted). */
async function targetOutputs(ctx: ToolContext, targets: readonly HostTarget[]): Promise<{ items: TargetOutput[]; outside: number }> {
  const items: TargetOutput[] = [];
  let outside = 0;
  for (const t of targets) {
    let doc: ResolvedDocument;
    try {
      doc = await ctx.document({ path: t.absPath }, undefined, 'target');
    } catch {
      outside++;
      continue;
    }
    const roots = await documentSymbolTree(ctx, doc).catch(() => [] as HostSymbol[]);
    const hit = symbolsAt(roots, t.range.start, t.range.end);
    const named = hit.byName ? hit.match[0] : undefined;
    const symbol = named ? symbolOutput(ctx, doc, named.symbol, named.containers, roots) : undefined;
    const onName = named !== undefined && named.symbol.selectionRange.start === t.range.start && named.symbol.selectionRange.end === t.range.end;
    const location = ctx.toLocation(doc, t.range.start, t.range.end - t.range.start);
    items.push(symbol ? (onName ? { symbol } : { symbol, location }) : { location });
  }
  return { items, outside };
}

// ---------------------------------------------------------------- go-to-definition

const FEATURE_NAMES: Record<HostLocationFeature, string> = {
  definition: 'definition',
  typeDefinition: 'type definition',
  declaration: 'declaration',
  implementation: 'implementation',
  references: 'reference',
};

export type DefinitionData = { targets: TargetOutput[]; outsideWorkspace: number } & Partial<PartialAnswer>;

export const goToDefinition = defineTool({
  name: 'go-to-definition',
  title: 'Go to Definition',
  category: CATEGORY,
  ...QUERY,
  description:
    'Follows a usage (location) to its definition, as F12 does: exact across files and imports, unlike a text search. target: definition (default), typeDefinition or declaration. Each target has its location and, when it declares one, its symbol.',
  inputSchema: inputSchema(
    { location: locationSelectorInput, target: { type: 'string', enum: ['definition', 'typeDefinition', 'declaration'] } },
    ['location'],
    { workspace: false, view: true },
  ),
  dataSchema: {
    type: 'object',
    properties: {
      targets: { type: 'array', items: targetSchema },
      outsideWorkspace: { type: 'integer', description: 'Targets outside the open folders (library files), left out.' },
      ...partialProperties,
    },
    required: ['targets', 'outsideWorkspace'],
  },
  annotations: queryAnnotations('Go to Definition'),
  examples: [
    {
      workflowId: 'navigate',
      workflowTitle: 'Navigate code',
      step: 1,
      id: 'definition-of-usage',
      title: 'Jump from a call to its definition',
      purpose: 'Find where a called function is defined.',
      expectedOutcome: 'The definition location and its symbolId.',
      request: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'formatName(name)' } } },
    },
  ],
  async run(input, ctx): Promise<DefinitionData> {
    const at = await ctx.location(input.location);
    const feature = input.target ?? 'definition';
    // While loading, TypeScript's syntax server answers definitions without following imports into other files.
    const { answer: found, partial } = await whenCovered(
      ctx,
      at.document,
      'definition',
      async () => {
        const list = await ctx.editor.locationsAt(feature, at.document.absolutePath, at.start);
        if (list === undefined) throw unsupportedFeature(at.document, FEATURE_NAMES[feature]);
        return list;
      },
      (list) => list.length === 0,
    );
    if (found.length > 0) providerAnswered(ctx, at.document, feature);
    else await requireLocationProvider(ctx, at.document, feature, FEATURE_NAMES[feature], at.start);
    const { items, outside } = await targetOutputs(ctx, dedupeTargets(found));
    return { targets: items, outsideWorkspace: outside, ...partial };
  },
});

// ---------------------------------------------------------------- find-implementations

export type ImplementationsData = { symbol: SymbolOutput; implementations: Collection<TargetOutput> } & Partial<PartialAnswer>;

const IMPLEMENTABLE = new Set(['Class', 'Interface', 'Struct', 'Method', 'Function', 'Constructor']);
export const findImplementations = defineTool({
  name: 'find-implementations',
  title: 'Find Implementations',
  category: CATEGORY,
  ...QUERY,
  description:
    'Finds what implements an interface, abstract class or method (implementing classes, concrete overrides), following inheritance as a text search cannot; each with location and symbol.',
  inputSchema: inputSchema({ symbol: symbolSelectorInput, implementationsLimit: limitParameter('implementations'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: { symbol: symbolOutputSchema, implementations: collectionOf(targetSchema), ...partialProperties },
    required: ['symbol', 'implementations'],
  },
  annotations: queryAnnotations('Find Implementations'),
  examples: [
    {
      workflowId: 'navigate',
      workflowTitle: 'Navigate code',
      step: 2,
      id: 'implementations',
      title: 'Who implements an interface',
      purpose: 'List the classes implementing an interface.',
      expectedOutcome: 'Implementing classes with symbolIds.',
      request: { symbol: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'Greeting', contextBefore: 'interface ' } } } },
    },
  ],
  async run(input, ctx): Promise<ImplementationsData> {
    const r = await resolveSymbol(ctx, input.symbol);
    const own = (t: HostTarget) => t.absPath === r.document.absolutePath && t.range.start === r.symbol.selectionRange.start;
    let answered = false;
    const { answer: all, partial } = await whenCovered(
      ctx,
      r.document,
      'implementations',
      async () => {
        const found = await ctx.editor.locationsAt('implementation', r.document.absolutePath, r.symbol.selectionRange.start);
        if (found === undefined) throw unsupportedFeature(r.document, 'implementation');
        answered = found.length > 0;
        return dedupeTargets(found.filter((t) => !own(t)));
      },
      (list) => list.length === 0,
    );
    if (answered) providerAnswered(ctx, r.document, 'implementation');
    else await requireLocationProvider(ctx, r.document, 'implementation', 'implementation', r.symbol.selectionRange.start, (s) => IMPLEMENTABLE.has(s.kind));
    const ends: number[] = [];
    const items: TargetOutput[] = [];
    let end = 0;
    const start = ctx.pageStart('implementations', all, {
      digest: listDigest(all.map((t) => [t.absPath, t.range.start, t.range.end])),
      // A target outside the folders gives no item: the items received cover the targets up to the last one's.
      consumed: (received) => (received.length >= items.length ? Math.min(end, all.length) - start : received.length > 0 ? ends[received.length - 1] : 0),
    });
    end = start + (input.implementationsLimit ?? 50);
    for (const [i, t] of all.slice(start, end).entries()) {
      const out = await targetOutputs(ctx, [t]);
      items.push(...out.items);
      if (out.items.length > 0) ends.push(i + 1);
    }
    return {
      symbol: symbolOutput(ctx, r.document, r.symbol, r.containers),
      implementations: { items, hasMore: all.length > end, totalCount: all.length },
      ...partial,
    };
  },
});
