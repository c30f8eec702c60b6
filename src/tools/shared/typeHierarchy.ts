/**
 * Direct supertypes and subtypes of a type: from the language's type hierarchy provider, or
 * where it has none (TypeScript), from declaration base lists resolved through definitions and references.
 */
import type { ToolContext } from '../../core/documents/context';
import type { HostHierarchyItem } from '../../core/documents/editorPort';
import { inHeritage, heritageNames } from '../../core/symbols/heritage';
import { documentSymbolTree, symbolOutput, unsupportedFeature, walkSymbols } from '../../core/symbols/symbols';
import type { ResolvedSymbol } from '../../core/symbols/symbols';
import { compareSymbols, documentFor, isExternal, isTypeKind, symbolForItem } from './symbolAccess';
import type { AnySymbol } from './symbolAccess';

const key = (s: AnySymbol): string => (isExternal(s) ? `${s.external.path}:${s.external.line}:${s.name}` : s.symbolId);

export function unique<T extends AnySymbol>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((s) => !seen.has(key(s)) && seen.add(key(s)) !== undefined).sort(compareSymbols);
}

export type HierarchySource = 'typeHierarchy' | 'declarations';

const hierarchyItem = (item: HostHierarchyItem) => item;

/**
 * Direct supertypes. The language's type hierarchy provider when it has one; otherwise (as
 * for TypeScript) the names of the declaration's base list, each resolved by the definition provider.
 */
export async function supertypes(ctx: ToolContext, target: ResolvedSymbol): Promise<{ items: AnySymbol[]; source: HierarchySource }> {
  const doc = target.document;
  const h = await ctx.editor.typeHierarchy(doc.absolutePath, target.symbol.selectionRange.start, 'supertypes');
  if (h.roots && h.roots.length > 0) {
    return { items: unique(await Promise.all(h.edges.map((e) => symbolForItem(ctx, hierarchyItem(e))))), source: 'typeHierarchy' };
  }
  const items: AnySymbol[] = [];
  for (const n of heritageNames(doc.host.text, target.symbol.selectionRange.end, target.symbol.range.end)) {
    const targets = await ctx.editor.locationsAt('definition', doc.absolutePath, n.offset);
    if (targets === undefined) throw unsupportedFeature(doc, 'type hierarchy');
    for (const t of targets) {
      items.push(await symbolForItem(ctx, { name: n.name.split('.').pop() ?? n.name, kind: 'Unknown', absPath: t.absPath, selectionRange: t.range }));
    }
  }
  return { items: unique(items), source: 'declarations' };
}

/** Direct subtypes: the provider's, or the types whose base list references the type. */
export async function subtypes(ctx: ToolContext, target: ResolvedSymbol): Promise<{ items: AnySymbol[]; source: HierarchySource }> {
  const doc = target.document;
  const h = await ctx.editor.typeHierarchy(doc.absolutePath, target.symbol.selectionRange.start, 'subtypes');
  if (h.roots && h.roots.length > 0) return { items: unique(await Promise.all(h.edges.map((e) => symbolForItem(ctx, e)))), source: 'typeHierarchy' };
  const refs = await ctx.editor.locationsAt('references', doc.absolutePath, target.symbol.selectionRange.start);
  if (refs === undefined) throw unsupportedFeature(doc, 'type hierarchy');
  const items: AnySymbol[] = [];
  for (const r of refs) {
    const d = await documentFor(ctx, r.absPath);
    if (!d) continue;
    const roots = await documentSymbolTree(ctx, d).catch(() => undefined);
    if (!roots) continue;
    for (const { symbol, containers } of walkSymbols(roots)) {
      if (
        isTypeKind(symbol.kind) &&
        symbol.range.start <= r.range.start &&
        r.range.end <= symbol.range.end &&
        inHeritage(d.host.text, symbol.selectionRange.end, symbol.range.end, r.range.start)
      ) {
        items.push(symbolOutput(ctx, d, symbol, containers, roots));
      }
    }
  }
  return { items: unique(items), source: 'declarations' };
}
