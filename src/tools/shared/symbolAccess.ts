/**
 * Turning a provider's answer (a hierarchy item or a target range, possibly outside the
 * workspace) into the symbol shape of src/core/symbols/symbols.ts, for the hierarchy, attribute and
 * diagnostics tools.
 */
import * as path from 'node:path';
import type { ResolvedDocument, ToolContext } from '../../core/documents/context';
import type { HostHierarchyItem, HostSymbol } from '../../core/documents/editorPort';
import { isInside, toPosix } from '../../core/documents/paths';
import type { JsonSchema } from '../../core/chain/schemas';
import { documentIdOfSymbol, documentSymbolTree, symbolOutput, symbolOutputSchema } from '../../core/symbols/symbols';
import { placeOfItem } from '../../core/symbols/callers';
import type { SymbolOutput } from '../../core/symbols/symbols';
import type { WorkspaceSelector } from '../../core/documents/workspaces';

/** A symbol a provider named outside the workspace (a library's declaration file): where it is, without a selector. */
export interface ExternalSymbol {
  name: string;
  kind: string;
  external: { path: string; line: number };
}

export type AnySymbol = SymbolOutput | ExternalSymbol;

/** A document's top level as the owner of calls (core/symbols/callers.ts): its documentId, no symbolId. */
export interface ModuleSymbol {
  module: string;
}

export const anySymbolSchema: JsonSchema = {
  type: 'object',
  properties: {
    ...(symbolOutputSchema.properties as Record<string, JsonSchema>),
    kind: { type: 'string', description: 'Only with external.' },
    external: {
      type: 'object',
      description: 'Outside the workspace (no symbolId; name and kind given).',
      properties: { path: { type: 'string' }, line: { type: 'integer' } },
    },
  },
};

const TYPE_KINDS = new Set(['Class', 'Interface', 'Struct', 'Enum']);
export const isTypeKind = (kind: string): boolean => TYPE_KINDS.has(kind);

export const isExternal = (s: AnySymbol | ModuleSymbol): s is ExternalSymbol => 'external' in s;

/**
 * A provider's item (or a target range) as a symbol of the workspace: the document symbol whose
 * name holds the item's name range. Outside the workspace, an ExternalSymbol.
 */
export async function symbolForItem(
  ctx: ToolContext,
  item: Pick<HostHierarchyItem, 'name' | 'kind' | 'absPath' | 'selectionRange'>,
  workspace?: WorkspaceSelector | null,
): Promise<AnySymbol> {
  const doc = await documentFor(ctx, item.absPath, workspace);
  if (doc) {
    const roots = await documentSymbolTree(ctx, doc).catch(() => [] as HostSymbol[]);
    const place = placeOfItem(roots, { kind: '', selectionRange: item.selectionRange });
    if ('symbol' in place) return symbolOutput(ctx, doc, place.symbol.symbol, place.symbol.containers, roots);
    // Not a symbol of the outline (a local function, an arrow function): named by its place.
    const synthetic: HostSymbol = {
      name: item.name,
      kind: item.kind,
      detail: '',
      range: item.selectionRange,
      selectionRange: item.selectionRange,
      children: [],
    };
    return symbolOutput(ctx, doc, synthetic, [], [synthetic]);
  }
  const text = await ctx.editor.readDocument(item.absPath);
  const line = text ? text.text.slice(0, item.selectionRange.start).split('\n').length : 1;
  return { name: item.name, kind: item.kind, external: { path: toPosix(item.absPath), line } };
}

/** The workspace document at an absolute path, or undefined when it lies outside the workspace. */
export async function documentFor(ctx: ToolContext, absPath: string, workspace?: WorkspaceSelector | null): Promise<ResolvedDocument | undefined> {
  const folder = ctx.registry.all().find((w) => isInside(w.fsPath, absPath));
  if (!folder) return undefined;
  try {
    return await ctx.document({ path: toPosix(path.relative(folder.fsPath, absPath)) }, workspace ?? { workspaceId: folder.id });
  } catch {
    return undefined;
  }
}

/** Deterministic order for symbols: path, then offset (a module first, external ones last, by path and line). */
export function compareSymbols(a: AnySymbol | ModuleSymbol, b: AnySymbol | ModuleSymbol): number {
  const key = (s: AnySymbol | ModuleSymbol): [number, string, number] =>
    isExternal(s) ? [1, s.external.path, s.external.line] : 'module' in s ? [0, s.module, 0] : [0, documentIdOfSymbol(s.symbolId), s.line * 1e6 + s.column];
  const [ea, pa, oa] = key(a);
  const [eb, pb, ob] = key(b);
  return ea - eb || (pa < pb ? -1 : pa > pb ? 1 : 0) || oa - ob;
}
