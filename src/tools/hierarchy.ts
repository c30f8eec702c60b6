/** The type hierarchy tools: supertypes and subtypes, derived types, overrides, overloads and partial declarations. */
import { defineTool } from '../core/chain/definition';
import type { ResolvedDocument, ToolContext } from '../core/documents/context';
import { revise, ToolError } from '../core/chain/envelope';
import type { HostSymbol } from '../core/documents/editorPort';
import { inTimeOrNot, partialProperties, READINESS, whenCovered } from '../core/symbols/readiness';
import type { PartialAnswer } from '../core/symbols/readiness';
import { collectionOutput, cursorInput, limitParameter, symbolSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { documentSymbolTree, nameSpan, symbolOutput, symbolOutputSchema, unsupportedFeature } from '../core/symbols/symbols';
import { resolveSymbol } from '../core/symbols/selectors';
import type { ResolvedSymbol, SymbolOutput } from '../core/symbols/symbols';
import { indentationOf } from '../core/documents/text';
import { pythonOverloads } from '../core/symbols/overloads';
import { readsHeritage } from '../core/symbols/heritage';
import { providerAnswered, providerAnswers } from '../core/symbols/providers';
import { signatureOf } from '../core/symbols/signature';
import { inputSchema, paged, QUERY, queryAnnotations } from './shared/common';
import type { Collection } from './shared/common';
import { subtypes, supertypes, unique } from './shared/typeHierarchy';
import type { HierarchySource } from './shared/typeHierarchy';
import { anySymbolSchema, compareSymbols, isExternal, isTypeKind, symbolForItem } from './shared/symbolAccess';
import type { AnySymbol } from './shared/symbolAccess';
import { folderOf, relativeRows, RELATIVE_REF_TEXT, symbolRow, SYMBOL_ROW_TEXT, symbolRowReader } from './shared/symbolRows';
import type { RowExtra } from './shared/symbolRows';

import { single, symbolExample as example } from './shared/symbolTool';

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

/** The types below a type found so far; `late`: the walk stopped where the call's time ran short. */
interface Descendants {
  items: (SymbolOutput & { depth: number })[];
  external: AnySymbol[];
  source: HierarchySource;
  complete: boolean;
  late?: { depth: number };
}

/**
 * Every type below a type, breadth first, with its depth (1 = direct). Near the call's timeout the
 * walk stops and answers what it found: a type most of a large project derives from (effect's
 * Pipeable) takes a subtypes query per type found, longer than a call may run.
 */
async function descendants(ctx: ToolContext, root: ResolvedSymbol): Promise<Descendants> {
  const seen = new Set<string>([root.symbolId]);
  const items: (SymbolOutput & { depth: number })[] = [];
  const external: AnySymbol[] = [];
  let frontier: ResolvedSymbol[] = [root];
  let source: HierarchySource = 'typeHierarchy';
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: ResolvedSymbol[] = [];
    for (const t of frontier) {
      const down = ctx.cancelled || ctx.remainingMs() < READINESS.marginMs ? undefined : await inTimeOrNot(ctx, subtypes(ctx, t));
      if (!down) return { items, external, source, complete: false, late: { depth } };
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

/** A derived type as a row without keys: [ref, line, column, depth, more], the symbol's row with its depth before what only some have. */
export type DerivedRow = [ref: string, line: number, column: number, depth: number, more?: RowExtra];

export type DerivedTypesData = {
  symbol: SymbolOutput;
  folderId: string;
  derivedTypes: Collection<DerivedRow>;
  source: HierarchySource;
} & Partial<PartialAnswer>;

function derivedRow(s: SymbolOutput & { depth: number }, folderId: string): DerivedRow {
  const { depth, ...symbol } = s;
  const [ref, line, column, more] = symbolRow(symbol, folderId);
  return more ? [ref, line, column, depth, more] : [ref, line, column, depth];
}

/** A derived types answer's rows as symbols again (symbolIds whole), each with its depth. */
export function readDerived(data: Pick<DerivedTypesData, 'folderId' | 'derivedTypes'>): (SymbolOutput & { depth: number })[] {
  const read = symbolRowReader(data.folderId);
  return data.derivedTypes.items.map(([ref, line, column, depth, more]) => ({ ...read(more ? [ref, line, column, more] : [ref, line, column]), depth }));
}

export const findDerivedTypes = defineTool({
  name: 'find-derived-types',
  title: 'Find Derived Types',
  category: 'Code discovery and navigation',
  ...QUERY,
  description: `Every type that derives from or implements a type, directly or not, breadth first, a row each: [ref, line, column, depth] (symbolId = folderId:ref; ${RELATIVE_REF_TEXT}; depth 1 = direct).`,
  inputSchema: inputSchema({ symbol: symbolSelectorInput, typesLimit: limitParameter('types'), cursor: cursorInput }, ['symbol'], {
    workspace: false,
    view: true,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      symbol: symbolOutputSchema,
      folderId: { type: 'string', description: 'symbolId = "<folderId>:" + ref (more.folderId when a row gives its own).' },
      derivedTypes: collectionOutput('By depth, then path and position.', {
        type: 'array',
        description: `A row [ref, line, column, depth, more]: depth 1 for a direct subtype; the rest as in a symbol row ${SYMBOL_ROW_TEXT}`,
        minItems: 4,
        maxItems: 5,
        items: { type: ['string', 'integer', 'object'] },
      }),
      source: sourceSchema,
      ...partialProperties,
    },
    required: ['symbol', 'folderId', 'derivedTypes', 'source'],
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
    const symbol = single(target, ctx);
    const said = partial ?? lateNote(found);
    const folderId = folderOf(symbol.symbolId);
    return {
      symbol,
      folderId,
      // Cut by time, the walk is not continued by cursor: it would run short again at the same place.
      derivedTypes: { ...page, items: relativeRows(page.items.map((s) => derivedRow(s, folderId))), hasMore: page.hasMore || (!found.complete && !found.late) },
      source: found.source,
      ...said,
    };
  },
});

/** Said by an answer whose walk of derived types ran short of time (undefined when it did not). */
const lateNote = (walk: Descendants): PartialAnswer | undefined =>
  walk.late && {
    complete: false,
    note: `Partial: the walk of derived types ran short of time at depth ${walk.late.depth}, after ${walk.items.length} types. Ask again (a busy or loading service answers sooner later), or ask about a type listed for those below it.`,
  };

async function overridesOf(ctx: ToolContext, target: ResolvedSymbol, owner: ResolvedSymbol): Promise<{ found: SymbolOutput[]; walk: Descendants }> {
  const found: SymbolOutput[] = [];
  const walk = await descendants(ctx, owner);
  for (const derived of walk.items) {
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
  return { found, walk };
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
    const { answer, partial } = await whenCovered(
      ctx,
      target.document,
      'overrides',
      () => overridesOf(ctx, target, owner),
      ({ found }) => found.length === 0,
    );
    const said = partial ?? lateNote(answer.walk);
    return { symbol: single(target, ctx), overrides: paged(ctx, 'overrides', unique(answer.found), input.overridesLimit), ...said };
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
