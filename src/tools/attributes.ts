import { attributesOf, attributeSyntax } from '../core/symbols/attributes';
import type { AttributeArgument, ParsedAttribute } from '../core/symbols/attributes';
import type { DocumentRef } from '../core/documents/workspaces';
import type { LocationOutput, ToolContext } from '../core/documents/context';
import { defineTool } from '../core/chain/definition';
import { resolveExternally, ToolError } from '../core/chain/envelope';
import { collectionOutput, cursorInput, limitParameter, roslynLocationOutput, symbolSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { lastSegmentOf } from '../core/symbols/symbols';
import { resolveSymbol } from '../core/symbols/selectors';
import type { ResolvedSymbol } from '../core/symbols/symbols';
import { inputSchema, paged, QUERY, queryAnnotations } from './shared/common';
import { supertypes } from './shared/typeHierarchy';
import { isExternal, isTypeKind, symbolForItem } from './shared/symbolAccess';

/** A location as roslyn-workbench-mcp's get-symbol-attributes gives it: the document as documentId, path and projectId, and the snapshot. */
type RoslynLocation = Omit<LocationOutput, 'documentId'> & { document: DocumentRef };

function roslynLocation(location: LocationOutput, document: DocumentRef): RoslynLocation {
  const { documentId: _id, ...rest } = location;
  return { document, ...rest };
}

export interface AttributeType {
  displayName: string;
  kind: string;
  documentationCommentId: string | null;
}

export interface AttributeItem {
  name: string;
  type: AttributeType | null;
  inherited: boolean;
  constructorArguments: AttributeArgument[];
  namedArguments: AttributeArgument[];
  /** C# attribute target (return, field, ...). */
  target?: string;
  /** One-based line of the attribute in the document of the symbol it is written on. */
  line: number;
  /** For an inherited attribute: the symbolId of the base type or overridden member it is written on. */
  declaredOn?: string;
}

export interface AttributesData {
  symbol: { displayName: string; kind: string; documentationCommentId: string; location: RoslynLocation };
  attributes: { items: AttributeItem[]; hasMore: boolean; totalCount: number };
}

const argumentSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: ['string', 'null'], description: 'The argument name for named arguments.' },
    type: { type: ['string', 'null'], description: 'The literal kind (string, number, boolean, null, array, object, type) when the text shows it.' },
    value: { type: ['string', 'null'], description: 'The argument as written, whitespace compacted.' },
  },
};

/** How far inheritance is followed: roslyn-workbench-mcp sets no depth and follows the hierarchy to its root; at most 50 base types bounds the work. */
const MAX_BASES = 50;

async function typeOf(ctx: ToolContext, target: ResolvedSymbol, attribute: ParsedAttribute): Promise<AttributeType | null> {
  const targets = await ctx.editor.locationsAt('definition', target.document.absolutePath, attribute.nameOffset);
  const first = targets?.[0];
  if (!first) return null;
  const s = await symbolForItem(ctx, {
    name: attribute.name.replace(/<.*$/, '').split('.').pop() ?? attribute.name,
    kind: 'Unknown',
    absPath: first.absPath,
    selectionRange: first.range,
  });
  if (isExternal(s)) return { displayName: s.name, kind: s.kind, documentationCommentId: null };
  const last = lastSegmentOf(s.symbolId);
  return { displayName: s.name ?? last?.name ?? '', kind: last?.kind ?? 'Unknown', documentationCommentId: s.symbolId };
}

async function itemsOf(ctx: ToolContext, target: ResolvedSymbol, inherited: boolean): Promise<AttributeItem[]> {
  const doc = target.document;
  const parsed = attributesOf(doc.host.text, target.symbol.range.start, target.symbol.selectionRange.start, doc.host.languageId);
  const items: AttributeItem[] = [];
  for (const a of parsed) {
    const item: AttributeItem = {
      name: a.name,
      type: await typeOf(ctx, target, a),
      inherited,
      constructorArguments: a.positional,
      namedArguments: a.named,
      line: ctx.toLocation(doc, a.start, 0).line,
    };
    if (a.target !== null) item.target = a.target;
    if (inherited) item.declaredOn = target.symbolId;
    items.push(item);
  }
  return items;
}

/** Base types, nearest first, never through interfaces (as roslyn-workbench-mcp does). */
async function baseTypes(ctx: ToolContext, type: ResolvedSymbol): Promise<ResolvedSymbol[]> {
  const bases: ResolvedSymbol[] = [];
  const seen = new Set<string>([type.symbolId]);
  let frontier = [type];
  while (frontier.length > 0 && bases.length < MAX_BASES) {
    const next: ResolvedSymbol[] = [];
    for (const t of frontier) {
      for (const s of (await supertypes(ctx, t)).items) {
        if (isExternal(s) || lastSegmentOf(s.symbolId)?.kind === 'Interface' || seen.has(s.symbolId)) continue;
        seen.add(s.symbolId);
        const resolved = await resolveSymbol(ctx, { symbolId: s.symbolId });
        if (resolved.symbol.kind === 'Interface') continue;
        bases.push(resolved);
        next.push(resolved);
      }
    }
    frontier = next;
  }
  return bases;
}

export const getSymbolAttributes = defineTool({
  name: 'get-symbol-attributes',
  title: 'Get Symbol Attributes',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    'Attributes, decorators or annotations on a symbol: type, positional and named arguments as written. includeInherited adds those of base classes or overridden members.',
  inputSchema: inputSchema(
    { symbol: symbolSelectorInput, includeInherited: { type: 'boolean' }, attributesLimit: limitParameter('attributes'), cursor: cursorInput },
    ['symbol'],
    {
      workspace: false,
      view: true,
    },
  ),
  dataSchema: {
    type: 'object',
    properties: {
      symbol: {
        type: 'object',
        properties: {
          displayName: { type: 'string' },
          kind: { type: 'string' },
          documentationCommentId: { type: 'string', description: 'The symbolId.' },
          location: roslynLocationOutput,
        },
        required: ['displayName', 'kind', 'documentationCommentId', 'location'],
      },
      attributes: collectionOutput('Own attributes first (in source order), then inherited ones, nearest base first.', {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'As written (dotted names and type arguments kept).' },
          type: {
            type: ['object', 'null'],
            description: "The declaration of the attribute's name, from the definition provider; null when it gives none.",
            properties: {
              displayName: { type: 'string' },
              kind: { type: 'string' },
              documentationCommentId: { type: ['string', 'null'], description: 'Its symbolId; null outside the workspace.' },
            },
            required: ['displayName', 'kind'],
          },
          inherited: { type: 'boolean' },
          constructorArguments: { type: 'array', items: argumentSchema },
          namedArguments: { type: 'array', items: argumentSchema },
          target: { type: 'string' },
          line: { type: 'integer', minimum: 1 },
          declaredOn: { type: 'string', description: 'symbolId of the base type or overridden member an inherited attribute is written on.' },
        },
        required: ['name', 'type', 'inherited', 'constructorArguments', 'namedArguments', 'line'],
      }),
    },
    required: ['symbol', 'attributes'],
  },
  annotations: queryAnnotations('Get Symbol Attributes'),
  roslynWorkbenchDifferences:
    'Input: symbol.symbolId replaces documentationCommentId, and symbol.project and workspace are left out (a documentId or symbolId names its folder; a path in several folders answers DocumentAmbiguous). ' +
    'Data: symbol.documentationCommentId holds the symbolId. Attributes are read from the source text before the declaration (no language service reports them), so values are the arguments as written, not evaluated constants; ' +
    "an argument's type is the literal kind the text shows, or null. In TypeScript/JavaScript the properties of one options object written last (@Component({ selector: 'x' })) are the named arguments. " +
    "type is the declaration the definition provider gives for the attribute's name (kind is its SymbolKind, e.g. Function for a decorator factory); nullableAnnotation is not reported. " +
    'includeInherited follows base classes (never interfaces) and the members the symbol overrides, through the type hierarchy provider or, when the language has none, the base list resolved by the definition provider; there is no AllowMultiple/Inherited metadata outside .NET, so every base attribute is listed, nearest base first. ' +
    'Extra fields: target (C# attribute target), line, declaredOn (where an inherited attribute is written). Languages without attribute syntax answer UnsupportedLanguageFeature.',
  examples: [
    {
      workflowId: 'inspect-metadata',
      workflowTitle: 'Inspect declaration metadata',
      step: 1,
      id: 'attributes-of-class',
      title: 'Decorators of a class, inherited included',
      purpose: 'See which decorators configure a component, including those of its base classes.',
      expectedOutcome: 'Each decorator with its resolved declaration and its arguments; inherited ones marked.',
      request: { symbol: { location: { selection: { document: { path: 'src/services.ts' }, selectedText: 'WelcomeService' } } }, includeInherited: true },
    },
  ],
  async run(input, ctx): Promise<AttributesData> {
    const target = await resolveSymbol(ctx, input.symbol);
    const doc = target.document;
    if (!attributeSyntax(doc.host.languageId)) {
      throw new ToolError(
        'UnsupportedLanguageFeature',
        `Attributes are not known for language "${doc.host.languageId}" (${doc.relativePath}): Agent Workbench reads C#-style [Attr], Rust/PHP #[attr] and @decorator syntax. This is not an empty result.`,
        resolveExternally('Read the declaration with get-code-context instead.'),
      );
    }
    const items = await itemsOf(ctx, target, false);
    if (input.includeInherited) {
      const container = target.containers[target.containers.length - 1];
      if (isTypeKind(target.symbol.kind)) {
        for (const base of await baseTypes(ctx, target)) items.push(...(await itemsOf(ctx, base, true)));
      } else if (container && isTypeKind(container.kind)) {
        const owner = await resolveSymbol(ctx, { symbolId: target.symbolId.replace(/\/[^/]*$/, '') });
        for (const base of await baseTypes(ctx, owner)) {
          const member = base.symbol.children.find((c) => c.name === target.symbol.name);
          if (!member) continue;
          const overridden = await resolveSymbol(ctx, {
            location: {
              span: {
                document: { documentId: base.document.ref.documentId },
                range: { start: member.selectionRange.start, length: member.selectionRange.end - member.selectionRange.start },
              },
            },
          });
          items.push(...(await itemsOf(ctx, overridden, true)));
        }
      }
    }
    return {
      symbol: {
        displayName: target.symbol.name,
        kind: target.symbol.kind,
        documentationCommentId: target.symbolId,
        location: roslynLocation(
          ctx.toLocation(doc, target.symbol.selectionRange.start, target.symbol.selectionRange.end - target.symbol.selectionRange.start, true),
          doc.staged?.state === 'mapped' ? doc.staged.ref : doc.ref,
        ),
      },
      attributes: paged(ctx, 'attributes', items, input.attributesLimit),
    };
  },
});
