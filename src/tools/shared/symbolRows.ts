/**
 * A workspace symbol as a row without keys, `[ref, line, column, more]`, under a folderId the
 * answer says once: keys and the folderId repeated in every symbolId were a third of a search and
 * of a call tree on real code. search-symbols, find-callers/find-callees and find-derived-types
 * answer these, each ref written relative to the ref before it (refWriter): a path and container
 * path repeated row after row were a fifth of an outline, a search or a call tree on real code.
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

/** A ref split at its first "#" (an outline's id has no path) and at each "/". */
function splitRef(ref: string): { path: string | undefined; segments: string[] } {
  const hash = ref.indexOf('#');
  return hash < 0 ? { path: undefined, segments: ref.split('/') } : { path: ref.slice(0, hash), segments: ref.slice(hash + 1).split('/') };
}

/**
 * Writes each ref of an answer, in the order the answer prints them, relative to the one before
 * when both are in one document of one scope (a folder): "#" stands for the path before it, and
 * each "/" the ref then starts with for one more segment of it. `a.ts#Class:A/Method:b` after
 * `a.ts#Class:A/Method:a` is `#/Method:b`; an outline's id `Class:A/Method:b` after
 * `Class:A/Method:a` is `/Method:b`. Names never hold a raw "#" or "/" (symbolIds percent-escape
 * them), and a written ref never starts with either, so the two kinds cannot be mistaken.
 */
export function refWriter(): (ref: string, scope?: string) => string {
  let before: { scope: string | undefined; path: string | undefined; segments: string[] } | undefined;
  return (ref, scope) => {
    const here = { scope, ...splitRef(ref) };
    const same = before !== undefined && before.scope === scope && before.path === here.path;
    let kept = 0;
    if (same) while (kept < here.segments.length - 1 && kept < before!.segments.length && before!.segments[kept] === here.segments[kept]) kept++;
    before = here;
    if (!same || (here.path === undefined && kept === 0)) return ref;
    return `${here.path === undefined ? '' : '#'}${'/'.repeat(kept)}${here.segments.slice(kept).join('/')}`;
  };
}

/** Reads back what refWriter wrote, in the same order: each ref whole. */
export function refReader(): (ref: string) => string {
  let before: { path: string | undefined; segments: string[] } | undefined;
  return (written) => {
    const relative = written.startsWith('#') || written.startsWith('/');
    if (relative && !before) throw new Error(`"${written}" is relative, and no ref comes before it`);
    const rest = written.startsWith('#') ? written.slice(1) : written;
    const kept = rest.length - rest.replace(/^\/+/, '').length;
    const here = relative ? { path: before!.path, segments: [...before!.segments.slice(0, kept), ...rest.slice(kept).split('/')] } : splitRef(written);
    if (relative && kept > before!.segments.length) throw new Error(`"${written}" keeps ${kept} segments of a ref that has ${before!.segments.length}`);
    before = here;
    return here.path === undefined ? here.segments.join('/') : `${here.path}#${here.segments.join('/')}`;
  };
}

/** Writes each row's ref relative to the ref of the row written before it (refWriter); a row naming another folder (more.folderId, last) is its own scope. */
export function rowWriter(): <R extends [string, ...unknown[]]>(row: R) => R {
  const write = refWriter();
  return (row) => {
    const more = row[row.length - 1];
    const scope = typeof more === 'object' && more !== null && 'folderId' in more ? String(more.folderId) : undefined;
    return [write(row[0], scope), ...row.slice(1)] as typeof row;
  };
}

/** Rows with their refs written relative, in order. */
export const relativeRows = <R extends [string, ...unknown[]]>(rows: R[]): R[] => rows.map(rowWriter());

/** Reads rows back as symbols, in the order they were written: each symbolId whole. */
export function symbolRowReader(folderId: string | undefined): (row: SymbolRow) => SymbolOutput {
  const whole = refReader();
  return ([ref, line, column, more]) => {
    const { folderId: own = folderId, ...rest } = more ?? {};
    return { symbolId: `${own}:${whole(ref)}`, line, column, ...rest };
  };
}

/** How a relative ref reads, said in every definition whose answer has them. */
export const RELATIVE_REF_TEXT = "#… reuses the ref before's path, #/… also its first segment, #//… two";

/** The same for an outline's ids, which have no path. */
export const RELATIVE_ID_TEXT = "/… reuses the id before's first segment, //… two";

/** How a row reads, for the output schemas' descriptions. */
export const SYMBOL_ROW_TEXT = `[ref, line, column, more]: ref, the symbolId after "<folderId>:" (${RELATIVE_REF_TEXT}); line, column: one-based, of the name; more, when needed: {folderId; name, when ref escapes it}.`;
