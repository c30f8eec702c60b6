/**
 * A workspace symbol as a row without keys, `[ref, line, column, more]`, under a folderId the
 * answer says once: keys and the folderId repeated in every symbolId were a third of a search and
 * of a call tree on real code. search-symbols and find-callers/find-callees answer these.
 */
import type { SymbolOutput } from '../../core/symbols/symbols';

/** What a row says beside its symbol and place: only what a few symbols have (folderId: when not the answer's). */
export type RowExtra = Omit<SymbolOutput, 'symbolId' | 'line' | 'column'> & { folderId?: string };

/** ref: the symbolId after "<folderId>:" ("<path>#Kind:name"); line and column one-based, of the name. */
export type SymbolRow = [ref: string, line: number, column: number, more?: RowExtra];

/** The folder a symbolId names (before its first colon). */
export const folderOf = (symbolId: string): string => symbolId.slice(0, symbolId.indexOf(':'));

export function symbolRow(symbol: SymbolOutput, folderId: string): SymbolRow {
  const { symbolId, line, column, ...rest } = symbol;
  const own = folderOf(symbolId);
  const more: RowExtra = { ...rest, ...(own !== folderId ? { folderId: own } : {}) };
  const ref = symbolId.slice(own.length + 1);
  return Object.keys(more).length > 0 ? [ref, line, column, more] : [ref, line, column];
}

/** A row as a symbol again, its symbolId whole. */
export function readSymbolRow([ref, line, column, more]: SymbolRow, folderId: string | undefined): SymbolOutput {
  const { folderId: own = folderId, ...rest } = more ?? {};
  return { symbolId: `${own}:${ref}`, line, column, ...rest };
}

/** How a row reads, for the output schemas' descriptions. */
export const SYMBOL_ROW_TEXT =
  '[ref, line, column, more]: ref, the symbolId after "<folderId>:"; line, column: one-based, of the name; more, when needed: {folderId; name, when ref escapes it}.';
