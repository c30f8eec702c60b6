import { diffArrays } from 'diff';
import { commonPrefix, commonSuffix, stringReader } from './textReader';
import type { Reader } from './textReader';

/** One hunk in unified-diff form (roslyn-workbench-mcp's transaction-preview shape). Line numbers follow `diff -u`: a zero count names the line before. */
export interface DiffHunk {
  originalStartLine: number;
  originalLineCount: number;
  updatedStartLine: number;
  updatedLineCount: number;
  /** Lines prefixed with ' ', '-' or '+' (a '\r' of a CRLF line is kept), and '\ No newline at end of file' markers. */
  lines: string[];
}

export interface LineCounts {
  addedLines: number;
  removedLines: number;
  /** Lines replaced in place: per block of adjacent removals and additions, the smaller of the two. */
  changedLines: number;
}

export const NO_NEWLINE_MARKER = '\\ No newline at end of file';

/** Splits text into lines that keep their terminator ('\n' or '\r\n'); the last one may have none. */
export function splitLinesKeepEnds(text: string): string[] {
  if (text === '') return [];
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      if (start < text.length) lines.push(text.slice(start));
      return lines;
    }
    lines.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
}

type Op = { kind: ' ' | '-' | '+'; oldIndex: number; newIndex: number; line: string };

type Run = [kind: Op['kind'], count: number];

/** The edit script walkScript finds, as runs of kept, removed and added lines. */
function runsOf(oldLines: string[], newLines: string[], reach?: Reach): Run[] {
  const runs: Run[] = [];
  walkScript(oldLines, newLines, (kind, count) => runs.push([kind, count]), reach);
  return runs;
}

/**
 * How far a walk's resync searches looked: the highest line index of either text a candidate could
 * read, and whether a search found no point at all (its region then ran to the end of the lines it
 * was given). A walk of a slice told the same as the whole texts would when it read nothing past the
 * slice, every search found its point, and it ended in step.
 */
interface Reach {
  old: number;
  new: number;
  lost: boolean;
}

/** Runs told as one op a line, with each line's index in either text. */
function opsOf(oldLines: readonly string[], newLines: readonly string[], runs: readonly Run[]): Op[] {
  const ops: Op[] = [];
  let o = 0;
  let n = 0;
  for (const [kind, count] of runs) {
    for (let i = 0; i < count; i++) {
      if (kind === ' ') ops.push({ kind, oldIndex: o, newIndex: n++, line: oldLines[o++] });
      else if (kind === '-') ops.push({ kind, oldIndex: o, newIndex: n, line: oldLines[o++] });
      else ops.push({ kind, oldIndex: o, newIndex: n, line: newLines[n++] });
    }
  }
  return ops;
}

/**
 * The line-level edit script, told as runs of kept, removed and added lines to `emit` (counting
 * needs no op per kept line: a rename's line counts walk 160 files). Both texts are walked in step
 * while their lines agree; where they part, the nearest point where RESYNC lines agree again closes
 * the changed region, and only that region is diffed (minimal Myers, via `minimalRegion`).
 * Scattered edits in a long file then cost about one pass over it instead of Myers' O(N·D). A
 * region with no nearby resync point (a large rewrite) takes the rest of the texts, diffed with
 * patience anchors and Myers.
 */
function walkScript(oldLines: string[], newLines: string[], emit: (kind: Op['kind'], count: number) => void, reach?: Reach): void {
  let o = 0;
  let n = 0;
  const run = (kind: Op['kind'], count: number): void => {
    if (count <= 0) return;
    emit(kind, count);
    if (kind !== '+') o += count;
    if (kind !== '-') n += count;
  };
  while (o < oldLines.length && n < newLines.length) {
    if (oldLines[o] === newLines[n]) {
      let same = 1;
      while (o + same < oldLines.length && n + same < newLines.length && oldLines[o + same] === newLines[n + same]) same++;
      run(' ', same);
      continue;
    }
    const sync = resync(oldLines, newLines, o, n, reach);
    const oldEnd = sync ? sync[0] : oldLines.length;
    const newEnd = sync ? sync[1] : newLines.length;
    for (const [kind, count] of minimalRegion(oldLines.slice(o, oldEnd), newLines.slice(n, newEnd))) run(kind, count);
  }
  run('-', oldLines.length - o);
  run('+', newLines.length - n);
}

const RESYNC_LINES = 3;
const RESYNC_SEARCH = 400;

/** The nearest (fewest lines skipped on both sides) point after (o, n) where RESYNC_LINES lines agree. */
function resync(oldLines: readonly string[], newLines: readonly string[], o: number, n: number, reach?: Reach): [number, number] | undefined {
  const agreeAt = (a: number, b: number): boolean => {
    for (let k = 0; k < RESYNC_LINES; k++) {
      const x = oldLines[a + k];
      const y = newLines[b + k];
      // Past the end of both texts counts as agreeing, so a change at the very end resolves.
      if (x === undefined && y === undefined) return true;
      if (x !== y) return false;
    }
    return true;
  };
  for (let skipped = 1; skipped <= RESYNC_SEARCH; skipped++) {
    for (let da = 0; da <= skipped; da++) {
      const a = o + da;
      const b = n + skipped - da;
      if (reach) {
        // Counted whether or not the candidate is read: one outside the lines given is one the whole texts might have.
        reach.old = Math.max(reach.old, a + RESYNC_LINES - 1);
        reach.new = Math.max(reach.new, b + RESYNC_LINES - 1);
      }
      if (a > oldLines.length || b > newLines.length) continue;
      if (agreeAt(a, b)) return [a, b];
    }
  }
  if (reach) reach.lost = true;
  return undefined;
}

/** A minimal edit script of one changed region, as runs of kept, removed and added lines. */
function minimalRegion(oldLines: string[], newLines: string[]): [Op['kind'], number][] {
  if (oldLines.length === 0 || newLines.length === 0) {
    return [
      ['-', oldLines.length],
      ['+', newLines.length],
    ];
  }
  // One line replaced (every line of a rename): what Myers answers, without building its tables.
  if (oldLines.length === 1 && newLines.length === 1 && oldLines[0] !== newLines[0]) {
    return [
      ['-', 1],
      ['+', 1],
    ];
  }
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const oldIds = oldLines.map(idOf);
  const newIds = newLines.map(idOf);
  const runs: [Op['kind'], number][] = [];
  const gap = (oldFrom: number, oldTo: number, newFrom: number, newTo: number): void => {
    if (oldFrom === oldTo || newFrom === newTo) {
      runs.push(['-', oldTo - oldFrom], ['+', newTo - newFrom]);
      return;
    }
    for (const part of diffArrays(oldIds.slice(oldFrom, oldTo), newIds.slice(newFrom, newTo))) {
      runs.push([part.removed ? '-' : part.added ? '+' : ' ', part.value.length]);
    }
  };
  let oldAt = 0;
  let newAt = 0;
  for (const [oi, ni] of patienceAnchors(oldIds, newIds)) {
    gap(oldAt, oi, newAt, ni);
    runs.push([' ', 1]);
    oldAt = oi + 1;
    newAt = ni + 1;
  }
  gap(oldAt, oldIds.length, newAt, newIds.length);
  return runs;
}

/** Pairs (oldIndex, newIndex) of lines unique on both sides, the longest run increasing on both. */
function patienceAnchors(oldIds: readonly number[], newIds: readonly number[]): [number, number][] {
  const count = (ids: readonly number[]): Map<number, number> => {
    const seen = new Map<number, number>();
    ids.forEach((id, i) => seen.set(id, seen.has(id) ? -1 : i));
    return seen;
  };
  const inOld = count(oldIds);
  const inNew = count(newIds);
  const pairs: [number, number][] = [];
  oldIds.forEach((id, oi) => {
    const ni = inNew.get(id);
    if (inOld.get(id) === oi && ni !== undefined && ni >= 0) pairs.push([oi, ni]);
  });
  // Longest increasing subsequence of newIndex (pairs are already in old order): patience sorting.
  const tails: number[] = [];
  const previous: number[] = new Array<number>(pairs.length);
  for (let p = 0; p < pairs.length; p++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < pairs[p][1]) lo = mid + 1;
      else hi = mid;
    }
    previous[p] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = p;
  }
  const run: [number, number][] = [];
  for (let p = tails.length > 0 ? tails[tails.length - 1] : -1; p >= 0; p = previous[p]) run.push(pairs[p]);
  return run.reverse();
}

/** Counts runs of kept, removed and added lines: a kept line closes a block, whose paired removals and additions are changed lines. */
function lineCounter(): { add: (kind: Op['kind'], count: number) => void; result: () => LineCounts } {
  const counts = { addedLines: 0, removedLines: 0, changedLines: 0 };
  let blockAdded = 0;
  let blockRemoved = 0;
  const close = (): void => {
    counts.changedLines += Math.min(blockAdded, blockRemoved);
    blockAdded = blockRemoved = 0;
  };
  return {
    add: (kind, count) => {
      if (kind === '+') {
        counts.addedLines += count;
        blockAdded += count;
      } else if (kind === '-') {
        counts.removedLines += count;
        blockRemoved += count;
      } else close();
    },
    result: () => {
      close();
      return { ...counts };
    },
  };
}

export interface TextDiff extends LineCounts {
  hunks: DiffHunk[];
}

/**
 * The unified diff between two texts, with `contextLines` of context around each change; hunks
 * closer than 2 × contextLines merge, as `diff -u` does. Written out after `--- a` / `+++ b`
 * headers (lines joined with '\n'), the hunks apply with GNU patch and give `updated` exactly.
 * Long texts are walked a group of changes at a time, as lineCounts counts them: a stretch of lines
 * both share between groups is not split (a rename's review diffs 160 files, some of 28,000 lines).
 */
export function diffTexts(original: string, updated: string | Reader, contextLines = 3): TextDiff {
  if (contextLines > PIECEWISE_CONTEXT_MAX || original.length + updated.length < PIECEWISE_MIN_CHARS) {
    return diffTextsWhole(original, typeof updated === 'string' ? updated : updated.slice(0), contextLines);
  }
  const reader = typeof updated === 'string' ? stringReader(updated) : updated;
  const ops: (Op | Gap)[] = [];
  let oldLine = 0;
  let newLine = 0;
  const walked = (oldLines: string[], newLines: string[], runs: readonly Run[]): void => {
    for (const op of opsOf(oldLines, newLines, runs)) ops.push({ ...op, oldIndex: op.oldIndex + oldLine, newIndex: op.newIndex + newLine });
    oldLine += oldLines.length;
    newLine += newLines.length;
  };
  walkInGroups(
    original,
    reader,
    {
      // The last contextLines of the shared lines as lines (a hunk's context), the rest as one gap.
      shared: (from, to) => {
        // Counted, and only the last contextLines line starts kept: a stretch can be most of a 28,000-line file.
        const last: number[] = [];
        let count = 0;
        for (let at = from; at < to; at = original.indexOf('\n', at) + 1 || to) {
          if (contextLines > 0) last[count % contextLines] = at;
          count++;
        }
        const shown = Math.min(contextLines, count);
        if (count > shown) ops.push({ kind: '~', count: count - shown });
        for (let i = count - shown; i < count; i++) {
          const line = original.slice(last[i % contextLines], i + 1 < count ? last[(i + 1) % contextLines] : to);
          ops.push({ kind: ' ', oldIndex: oldLine + i, newIndex: newLine + i, line });
        }
        oldLine += count;
        newLine += count;
      },
      group: walked,
      rest: (restOld, restNew) => {
        const oldLines = splitLinesKeepEnds(restOld);
        const newLines = splitLinesKeepEnds(restNew);
        walked(oldLines, newLines, runsOf(oldLines, newLines));
      },
    },
    // A group's last kept lines are its last hunk's context after the change.
    Math.max(NEAR_MARGIN_LINES, contextLines),
    contextLines,
  );
  // The walk covered both texts whole: it counted their lines (counting them again was a third of a rename's review).
  return hunksOf(ops, oldLine - 1, newLine - 1, contextLines);
}

/**
 * Texts shorter than this (both together, in characters) are walked whole. Short: splitting a text
 * of a few hundred lines and walking all of them cost a rename's review of 160 files more than its
 * 28,000-line ones did (4 of its 12 ms on effect).
 */
const PIECEWISE_MIN_CHARS = 4 * 1024;
/** Wider context could join hunks across a stretch walked as one gap: then the texts are walked whole. */
const PIECEWISE_CONTEXT_MAX = 100;

/** Kept lines of a diff that no hunk shows, counted only. */
type Gap = { kind: '~'; count: number };

/** diffTexts with both texts walked whole: what the walk by groups is tested against. */
export function diffTextsWhole(original: string, updated: string, contextLines = 3): TextDiff {
  const oldLines = splitLinesKeepEnds(original);
  const newLines = splitLinesKeepEnds(updated);
  return hunksOf(opsOf(oldLines, newLines, runsOf(oldLines, newLines)), oldLines.length - 1, newLines.length - 1, contextLines);
}

/** The counts and hunks of an edit script; lastOld and lastNew: the last line's index in each text (a line without its newline is marked there). */
function hunksOf(ops: readonly (Op | Gap)[], lastOld: number, lastNew: number, contextLines: number): TextDiff {
  const counter = lineCounter();
  for (const op of ops) counter.add(op.kind === '~' ? ' ' : op.kind, op.kind === '~' ? op.count : 1);
  const counts = counter.result();
  const hunks: DiffHunk[] = [];
  const changeAt: number[] = [];
  ops.forEach((op, i) => {
    if (op.kind !== ' ' && op.kind !== '~') changeAt.push(i);
  });
  let i = 0;
  while (i < changeAt.length) {
    let first = changeAt[i];
    let last = first;
    while (i + 1 < changeAt.length && changeAt[i + 1] - last - 1 <= 2 * contextLines) last = changeAt[++i];
    i++;
    first = Math.max(0, first - contextLines);
    last = Math.min(ops.length - 1, last + contextLines);
    const slice = ops.slice(first, last + 1).filter((op): op is Op => op.kind !== '~');
    const lines: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (const op of slice) {
      if (op.kind !== '+') oldCount++;
      if (op.kind !== '-') newCount++;
      const isLastOld = op.kind !== '+' && op.oldIndex === lastOld;
      const isLastNew = op.kind !== '-' && op.newIndex === lastNew;
      const noNewline = !op.line.endsWith('\n') && (isLastOld || isLastNew);
      lines.push(op.kind + (op.line.endsWith('\n') ? op.line.slice(0, -1) : op.line));
      if (noNewline) lines.push(NO_NEWLINE_MARKER);
    }
    const start = slice[0];
    hunks.push({
      originalStartLine: oldCount === 0 ? start.oldIndex : start.oldIndex + 1,
      originalLineCount: oldCount,
      updatedStartLine: newCount === 0 ? start.newIndex : start.newIndex + 1,
      updatedLineCount: newCount,
      lines,
    });
  }
  return { ...counts, hunks };
}

/**
 * Only the counts (no hunks), as diffTexts counts them. The lines both texts begin with are not
 * split or walked (the walk would pair them one by one), nor those they end with beyond a margin
 * the resync search can never reach from a changed line; nor, between changes, a long stretch of
 * lines that agree: a staged rename counts 160 files, some of 28,000 lines edited at both ends.
 */
export function lineCounts(original: string, updated: string | Reader): LineCounts {
  if (original === updated) return { addedLines: 0, removedLines: 0, changedLines: 0 };
  const counter = lineCounter();
  walkInGroups(original, typeof updated === 'string' ? stringReader(updated) : updated, {
    shared: () => undefined,
    group: (_old, _new, runs) => runs.forEach(([kind, count]) => counter.add(kind, count)),
    rest: (restOld, restNew) => countRest(restOld, restNew, counter.add),
  });
  return counter.result();
}

/**
 * Two texts told a group of changes at a time, in order: `shared`, a stretch of lines both begin
 * with or share between groups (offsets into original; not split); `group`, a group walked alone
 * with `margin` agreeing lines after its last change (else MARGIN_LINES), kept only when its walk
 * ends in step with every line it looked at inside it (the whole walk would have told the same);
 * `rest`, the texts from a group that could not be cut off to their ends.
 */
function walkInGroups(
  original: string,
  updated: Reader,
  visit: {
    shared(from: number, to: number): void;
    group(oldLines: string[], newLines: string[], runs: readonly Run[]): void;
    rest(original: string, updated: string): void;
  },
  margin = NEAR_MARGIN_LINES,
  tail = 1,
): void {
  // Before o and u (line starts, the texts in step there) all is told.
  let o = 0;
  let u = 0;
  for (;;) {
    const p = updated.prefixWith(original, Math.min(original.length - o, updated.length - u), o, u);
    if (o + p === original.length && u + p === updated.length) return visit.shared(o, original.length);
    // The line holding the difference (o is a line start; lastIndexOf would read a negative start as 0).
    const startO = p === 0 ? o : original.lastIndexOf('\n', o + p - 1) + 1;
    visit.shared(o, startO);
    u += startO - o;
    o = startO;
    const group =
      walkGroup(original, updated, o, u, margin, tail) ?? (margin < MARGIN_LINES ? walkGroup(original, updated, o, u, MARGIN_LINES, tail) : undefined);
    if (!group) return visit.rest(original.slice(o), updated.slice(u));
    visit.group(group.oldLines, group.newLines, group.runs);
    [o, u] = group.end;
  }
}

/**
 * The group of changes from (o, u) with `margin` agreeing lines after its last change, walked; undefined
 * when that walk may differ from the whole texts' (it read past the group or ended out of step), or
 * ends with fewer than `tail` kept lines (a hunk's context after its last change).
 * Most groups (a rename's changed lines) resync within a line or two: walking each with 410 lines
 * after it, enough for any search, was most of a rename's line counts.
 */
function walkGroup(
  original: string,
  updated: Reader,
  o: number,
  u: number,
  margin: number,
  tail: number,
): { oldLines: string[]; newLines: string[]; runs: Run[]; end: [number, number] } | undefined {
  const end = changesEnd(original, updated, o, u, margin);
  if (!end) return undefined;
  const oldLines = splitLinesKeepEnds(original.slice(o, end[0]));
  const newLines = splitLinesKeepEnds(updated.slice(u, end[1]));
  const reach: Reach = { old: -1, new: -1, lost: false };
  const runs = runsOf(oldLines, newLines, reach);
  const [lastKind, lastCount] = runs[runs.length - 1] ?? ['-', 0];
  const inside = !reach.lost && reach.old < oldLines.length && reach.new < newLines.length;
  return lastKind === ' ' && lastCount >= tail && inside ? { oldLines, newLines, runs, end } : undefined;
}

/**
 * Where a group of changes ends, from its first difference at (o, u): after each changed line the
 * texts are taken to be in step again (a rename changes lines in place); a run of more than
 * MARGIN_LINES agreeing lines there ends the group MARGIN_LINES into it. Undefined: no such run
 * before the texts end (or they do not get in step again).
 */
function changesEnd(original: string, updated: Reader, o: number, u: number, margin: number): [number, number] | undefined {
  for (;;) {
    const nextO = original.indexOf('\n', o) + 1;
    const nextU = updated.lineEnd(u) + 1;
    if (nextO === 0 || nextU === 0) return undefined;
    // Compared only as far as `margin` lines first: the rest of a long stretch both share is compared once, by walkInGroups.
    let marginEnd = nextO;
    let found = 0;
    for (; found < margin; found++) {
      const nl = original.indexOf('\n', marginEnd);
      if (nl < 0) break;
      marginEnd = nl + 1;
    }
    const limit = Math.min(marginEnd - nextO, updated.length - nextU);
    let run = updated.prefixWith(original, limit, nextO, nextU);
    if (run === limit && found === margin && limit === marginEnd - nextO) return [marginEnd, nextU + limit];
    if (run === limit) run = updated.prefixWith(original, Math.min(original.length - nextO, updated.length - nextU), nextO, nextU);
    let cut = nextO;
    let lines = 0;
    while (lines < margin && cut < nextO + run) {
      const nl = original.indexOf('\n', cut);
      if (nl < 0 || nl >= nextO + run) break;
      cut = nl + 1;
      lines++;
    }
    if (lines === margin) return [cut, nextU + (cut - nextO)];
    if (nextO + run === original.length || nextU + run === updated.length) return undefined;
    o = nextO + run;
    u = nextU + run;
  }
}

/** The counts of two texts whose first lines may agree, walked from the first difference to the margin after the last. */
function countRest(original: string, updated: string, add: (kind: Op['kind'], count: number) => void): void {
  const max = Math.min(original.length, updated.length);
  const p = commonPrefix(original, updated, max);
  const start = p === 0 ? 0 : original.lastIndexOf('\n', p - 1) + 1;
  const s = commonSuffix(original, updated, max - start);
  // The common tail after its first line break (a break both texts have), then MARGIN_LINES of it kept.
  let cut = original.indexOf('\n', original.length - s) + 1 || original.length;
  for (let kept = 0; kept < MARGIN_LINES && cut < original.length; kept++) cut = original.indexOf('\n', cut) + 1 || original.length;
  const tail = original.length - cut;
  const reach: Reach = { old: -1, new: -1, lost: false };
  const oldLines = splitLinesKeepEnds(original.slice(start, cut));
  const newLines = splitLinesKeepEnds(updated.slice(start, updated.length - tail));
  const runs = runsOf(oldLines, newLines, reach);
  // The tail left off is walked in step only when the walk ends in step having read nothing past it; else the whole rest is walked.
  const inStep = tail === 0 || (runs[runs.length - 1]?.[0] === ' ' && !reach.lost && reach.old < oldLines.length && reach.new < newLines.length);
  for (const [kind, count] of inStep ? runs : runsOf(splitLinesKeepEnds(original.slice(start)), splitLinesKeepEnds(updated.slice(start)))) add(kind, count);
}

/** More lines than a resync search looks ahead (RESYNC_SEARCH skipped, RESYNC_LINES compared). */
const MARGIN_LINES = 410;
/** Agreeing lines after a group's last change tried first (a group that needs more is walked again with MARGIN_LINES). */
const NEAR_MARGIN_LINES = 8;

/** Hunks written out as a unified diff, as GNU patch reads it. */
export function formatUnifiedDiff(hunks: readonly DiffHunk[], oldName = 'a', newName = 'b'): string {
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  for (const h of hunks) {
    out.push(`@@ -${h.originalStartLine},${h.originalLineCount} +${h.updatedStartLine},${h.updatedLineCount} @@`, ...h.lines);
  }
  return out.join('\n') + '\n';
}

/** The @@ header of a hunk as `diff -u` prints it (a count of 1 left out). */
export function hunkHeader(h: DiffHunk): string {
  const range = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);
  return `@@ -${range(h.originalStartLine, h.originalLineCount)} +${range(h.updatedStartLine, h.updatedLineCount)} @@`;
}

/** One hunk as `diff -u` prints it: the @@ header, then its lines. */
export function hunkText(h: DiffHunk): string {
  return [hunkHeader(h), ...h.lines].join('\n');
}
