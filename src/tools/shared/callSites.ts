/**
 * Call sites as call answers give them, and the declaration each call belongs to (the rule of
 * src/core/symbols/callers.ts): find-callers names the owner of the calls, find-callees the owner
 * of its sites is the function asked about.
 */
import type { LocationOutput, ToolContext } from '../../core/documents/context';
import type { HostHierarchyItem, HostRange, HostSymbol } from '../../core/documents/editorPort';
import type { JsonSchema } from '../../core/chain/schemas';
import { LineIndex } from '../../core/documents/text';
import { namedOwner, placeOfItem, viaOf } from '../../core/symbols/callers';
import { documentSymbolTree, symbolOutput } from '../../core/symbols/symbols';
import { documentFor, symbolForItem } from './symbolAccess';
import type { AnySymbol, ModuleSymbol } from './symbolAccess';

export const siteSchema: JsonSchema = {
  type: 'array',
  minItems: 3,
  description:
    "A call, in the caller's document, as a row: [line, column, at, {len, via, staged}?]; at is its offset, the call's span {start: at, length: len, else the called function's name length}.",
  items: {
    anyOf: [
      { type: 'integer', minimum: 0 },
      {
        type: 'object',
        properties: {
          len: { type: 'integer', minimum: 0 },
          via: { type: 'string', description: 'The unnamed callbacks and inner functions the call sits in, inside its caller, outermost first, "/"-joined.' },
          staged: { enum: ['edited', 'deleted', 'unmapped'], description: 'Staged view only, as on a location.' },
        },
      },
    ],
  },
};

/** A call site: line, column and offset; its length only when it is not the called function's name's. */
export interface Site {
  line: number;
  column: number;
  at: number;
  len?: number;
  /** The functions between the call's owner and the call (callbacks), outermost first. */
  via?: string;
  /** Staged view only, as on a location. */
  staged?: LocationOutput['staged'];
}

/** A call site as the answer gives it, a row like a reference line: [line, column, at, {len, via, staged}?]. */
export type SiteRow = [number, number, number] | [number, number, number, Pick<Site, 'len' | 'via' | 'staged'>];

const siteRow = ({ line, column, at, ...rest }: Site): SiteRow => (Object.keys(rest).length > 0 ? [line, column, at, rest] : [line, column, at]);

/** A row read back as the site it says. */
export const readSite = (row: SiteRow): Site => ({ line: row[0], column: row[1], at: row[2], ...(row[3] ?? {}) });

/** Where a call is, inside the declaration it belongs to: undefined when directly in its body. */
export type ViaOf = (site: HostRange) => string | undefined;

export async function sitesIn(ctx: ToolContext, absPath: string, ranges: HostRange[], nameLength: number, via: ViaOf): Promise<SiteRow[]> {
  const site = (r: HostRange, line: number, column: number, start: number, length: number, staged?: Site['staged']): SiteRow => {
    const inside = via(r);
    return siteRow({
      line,
      column,
      at: start,
      ...(length !== nameLength ? { len: length } : {}),
      ...(inside ? { via: inside } : {}),
      ...(staged ? { staged } : {}),
    });
  };
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const doc = ctx.view === 'staged' ? await ctx.document({ path: absPath }, undefined, 'site').catch(() => undefined) : undefined;
  if (doc) {
    return sorted.map((r) => {
      const { line, column, span, staged } = ctx.toLocation(doc, r.start, r.end - r.start);
      return site(r, line, column, span.start, span.length, staged);
    });
  }
  const lines = LineIndex.of((await ctx.editor.readDocument(absPath))?.text ?? '');
  return sorted.map((r) => {
    const pos = lines.positionAt(r.start);
    return site(r, pos.line + 1, pos.character + 1, r.start, r.end - r.start);
  });
}

/** The declaration calls inside a provider's item belong to, as answers name it, and the via of a call in it. */
export interface CallOwner {
  symbol: AnySymbol | ModuleSymbol;
  via: ViaOf;
}

const nowhere: ViaOf = () => undefined;

/** The owner of the calls an item holds: the item's outline symbol, or the named one around an anonymous one, or its module. */
export async function callOwner(ctx: ToolContext, item: HostHierarchyItem): Promise<CallOwner> {
  const doc = await documentFor(ctx, item.absPath);
  if (!doc) return { symbol: await symbolForItem(ctx, item), via: nowhere };
  const roots = await documentSymbolTree(ctx, doc).catch(() => [] as HostSymbol[]);
  const place = placeOfItem(roots, item);
  if ('outside' in place) return { symbol: await symbolForItem(ctx, item), via: nowhere };
  const owner = 'module' in place ? undefined : namedOwner(place.symbol);
  return {
    symbol: owner ? symbolOutput(ctx, doc, owner.symbol, owner.containers, roots) : { module: doc.ref.documentId },
    via: (site) => viaOf(roots, owner?.symbol, site),
  };
}
