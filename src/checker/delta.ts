import type { CheckedDiagnostic } from './protocol';

/** What the delta reads of a diagnostic: where it is (1-based) and what it says. */
export interface Positioned {
  path: string;
  line: number;
  column: number;
  code?: number | string;
  message: string;
}

/** One document's diagnostics in both views, each positioned in its own text. */
export interface DocumentDiagnostics<D extends Positioned = CheckedDiagnostic> {
  path: string;
  /** In the current (unstaged) text; empty for a document the transaction creates. */
  base: readonly D[];
  /** In the staged text; empty for a document the transaction deletes. */
  staged: readonly D[];
  /** Both texts, when known, tell which duplicate moved where; without them lines are compared as they are. */
  baseText?: string;
  stagedText?: string;
}

export interface Delta<D extends Positioned = CheckedDiagnostic> {
  /** Positions in the staged text. */
  introduced: D[];
  /** Positions in the current text. */
  resolved: D[];
}

const identity = (line: number): number | undefined => line;

/**
 * Where a current line is in the staged text, for lines outside the changed region (common first
 * and last lines); undefined for a line inside it. One region covers what a typical edit does.
 */
export function lineMapping(baseText: string, stagedText: string): (baseLine: number) => number | undefined {
  const a = baseText.split(/\r?\n/);
  const b = stagedText.split(/\r?\n/);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const shift = b.length - a.length;
  return (line) => (line <= prefix ? line : line > a.length - suffix ? line + shift : undefined);
}

const keyOf = (d: Positioned) => `${d.code ?? ''}\u0000${d.message}`;

/**
 * What a transaction introduces and resolves. Diagnostics are matched per document by (code,
 * message) as multisets, never by position: an edit above a diagnostic moves it without changing
 * it. Where a key occurs more often in one view, the instances left unmatched are the ones that
 * differ: pairs are made closest first, a current line mapped into the staged text. The same
 * matching serves any language service's diagnostics around a commit (host/diagnosticsWatch.ts).
 */
export function diagnosticsDelta<D extends Positioned>(
  documents: readonly DocumentDiagnostics<D>[],
  /**
   * Whether two messages say the same in other words: a diagnostic left unmatched in each view, at
   * the same place with the same code and such messages, is the same one (the checker: a union's
   * members printed in another order, as a type checker prints them in the order it created them).
   */
  sameMessage?: (a: string, b: string) => boolean,
): Delta<D> {
  const introduced: D[] = [];
  const resolved: D[] = [];
  for (const doc of documents) {
    const introducedHere: D[] = [];
    const resolvedHere: D[] = [];
    const map = doc.baseText !== undefined && doc.stagedText !== undefined ? lineMapping(doc.baseText, doc.stagedText) : identity;
    const groups = new Map<string, { base: D[]; staged: D[] }>();
    const group = (d: D) => {
      const key = keyOf(d);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { base: [], staged: [] }));
      return g;
    };
    for (const d of doc.base) group(d).base.push(d);
    for (const d of doc.staged) group(d).staged.push(d);
    for (const { base, staged } of groups.values()) {
      if (base.length === 0 || staged.length === 0) {
        resolvedHere.push(...base);
        introducedHere.push(...staged);
        continue;
      }
      const pairs: { b: number; s: number; cost: number }[] = [];
      base.forEach((bd, b) =>
        staged.forEach((sd, s) => {
          const mapped = map(bd.line);
          // A line inside the changed region pairs after every line outside it.
          const cost = mapped === undefined ? 1e9 + Math.abs(bd.line - sd.line) : Math.abs(mapped - sd.line) * 1e4 + Math.abs(bd.column - sd.column);
          pairs.push({ b, s, cost });
        }),
      );
      pairs.sort((x, y) => x.cost - y.cost || x.s - y.s || x.b - y.b);
      const usedBase = new Set<number>();
      const usedStaged = new Set<number>();
      for (const p of pairs) {
        if (usedBase.has(p.b) || usedStaged.has(p.s)) continue;
        usedBase.add(p.b);
        usedStaged.add(p.s);
      }
      base.forEach((d, i) => usedBase.has(i) || resolvedHere.push(d));
      staged.forEach((d, i) => usedStaged.has(i) || introducedHere.push(d));
    }
    const reworded = new Set<D>();
    if (sameMessage) {
      for (const sd of introducedHere) {
        const bd = resolvedHere.find(
          (b) => !reworded.has(b) && b.code === sd.code && map(b.line) === sd.line && b.column === sd.column && sameMessage(b.message, sd.message),
        );
        if (bd) reworded.add(bd).add(sd);
      }
    }
    resolved.push(...resolvedHere.filter((d) => !reworded.has(d)));
    introduced.push(...introducedHere.filter((d) => !reworded.has(d)));
  }
  const order = (x: D, y: D) => (x.path < y.path ? -1 : x.path > y.path ? 1 : x.line - y.line || x.column - y.column);
  return { introduced: introduced.sort(order), resolved: resolved.sort(order) };
}
