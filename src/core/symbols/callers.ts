/**
 * Which declaration a call belongs to, one rule for every call answer: the innermost *named*
 * declaration around it (a function, method, accessor, class, or a constant or class field
 * holding a function, as a reader names it), else the module. Anonymous functions (TypeScript's
 * "operate() callback", "<function>") are no owner: a provider item that is one gives way to the
 * named declaration around it. The functions between the owner and the call (callbacks, nested
 * functions a provider does not own calls by) are kept per call as `via`, their outline names
 * joined by "/"; locals are passed through, not named (a function's locals are no place to go).
 *
 * TypeScript's call hierarchy already attributes calls this way; the rule is applied here so that
 * an answer says the same whichever provider gave the items.
 */
import type { HostHierarchyItem, HostRange, HostSymbol } from '../documents/editorPort';
import { symbolWithName } from './symbols';
import type { PartialAnswer } from './readiness';

/** A function without a name of its own: TypeScript names one by its call ("it('runs') callback") or "<function>". */
export const isAnonymous = (name: string): boolean => / callback$/.test(name) || name === '<function>';

/** A symbol of the outline with its containers, outermost first. */
export interface Placed {
  symbol: HostSymbol;
  containers: HostSymbol[];
}

/** Where a provider's item is in its document's outline: a declaration, the module's top level, or not in the outline. */
export type ItemPlace = { symbol: Placed } | { module: true } | { outside: true };

/** An item with no name span, of kind Module or File: the document's top level (TypeScript names it by the file's path). */
export const isModuleItem = (item: Pick<HostHierarchyItem, 'kind' | 'selectionRange'>): boolean =>
  (item.kind === 'Module' || item.kind === 'File') && item.selectionRange.start === item.selectionRange.end;

/**
 * The outline symbol an item names: the one whose name holds the item's name range, or whose whole
 * range starts there (some providers point at a declaration by its whole range: TypeScript, for later overloads).
 */
export function placeOfItem(roots: readonly HostSymbol[], item: Pick<HostHierarchyItem, 'kind' | 'selectionRange'>): ItemPlace {
  if (isModuleItem(item)) return { module: true };
  const { start, end } = item.selectionRange;
  const found = symbolWithName(roots, start, end);
  if (!found) return { outside: true };
  const onName = found.symbol.selectionRange.start <= start && end <= found.symbol.selectionRange.end;
  const wholeDeclaration = found.symbol.range.start === start && end <= found.symbol.range.end;
  return onName || wholeDeclaration ? { symbol: found } : { outside: true };
}

/** The owner of calls made inside a placed symbol: itself when named, else the innermost named container (none: the module). */
export function namedOwner(placed: Placed): Placed | undefined {
  const path = [...placed.containers, placed.symbol];
  while (path.length > 0 && isAnonymous(path[path.length - 1].name)) path.pop();
  const symbol = path.pop();
  return symbol ? { symbol, containers: path } : undefined;
}

const FUNCTION_KINDS = new Set(['Function', 'Method', 'Constructor']);

/**
 * The functions of the outline between an owner (undefined: the module) and a call inside it,
 * outermost first, joined by "/"; undefined when none is (the call is in the owner's own body).
 */
export function viaOf(roots: readonly HostSymbol[], owner: HostSymbol | undefined, site: HostRange): string | undefined {
  const names: string[] = [];
  let level = owner ? owner.children : roots;
  for (;;) {
    // By range only: an anonymous function's selection range is its whole range (TypeScript's outline).
    const next = level.find((s) => s.range.start <= site.start && site.end <= s.range.end);
    if (!next) break;
    if (isAnonymous(next.name) || FUNCTION_KINDS.has(next.kind)) names.push(next.name);
    level = next.children;
  }
  return names.length > 0 ? names.join('/') : undefined;
}

/** What a call answer adds when callers or callees were left unexpanded because the call's time ran short. */
export function unexpandedNote(count: number): PartialAnswer {
  return {
    complete: false,
    note: `Partial: ${count === 1 ? '1 item was' : `${count} items were`} left without calls when the call's time ran short (unexpanded counts them). Ask again, or ask about one of them.`,
  };
}
