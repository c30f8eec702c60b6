import type { Segment } from '../transactions/segments';

/** A base range's image in the staged text; `edited` when staged edits changed its text. */
export interface StagedRange {
  start: number;
  end: number;
  edited: boolean;
}

interface Slice {
  baseStart: number;
  baseEnd: number;
  stagedStart: number;
}

/**
 * Maps offsets between a document's base text (what the language service analyses) and its
 * staged text, through the segments the transaction keeps: unchanged base slices map exactly;
 * a range that staged edits touched maps to the smallest staged range covering its image.
 */
export class StagedOverlay {
  private readonly slices: Slice[] = [];
  private readonly stagedLength: number;

  constructor(
    segments: readonly Segment[],
    private readonly baseLength: number,
  ) {
    let pos = 0;
    for (const s of segments) {
      if ('text' in s) pos += s.text.length;
      else {
        this.slices.push({ baseStart: s.start, baseEnd: s.end, stagedStart: pos });
        pos += s.end - s.start;
      }
    }
    this.stagedLength = pos;
  }

  /** The staged image of base [start, end). */
  toStaged(start: number, end: number): StagedRange {
    const first = this.sliceAt(start, 'start');
    const at = (sl: Slice, offset: number) => sl.stagedStart + (offset - sl.baseStart);
    if (first.slice && end <= first.slice.baseEnd) return { start: at(first.slice, start), end: at(first.slice, end), edited: false };
    const last = this.sliceAt(end, 'end');
    const s = first.slice ? at(first.slice, start) : first.fallback;
    const e = last.slice ? at(last.slice, end) : last.fallback;
    return { start: s, end: Math.max(s, e), edited: true };
  }

  /**
   * The base range of staged [start, end). Text the transaction inserted has none, except that
   * exactly the whole text an edit put in place of base text stands for that text (a renamed
   * name for the old name). Otherwise undefined.
   */
  toBase(start: number, end: number): { start: number; end: number } | undefined {
    const sl = this.slices;
    for (let i = 0; i <= sl.length; i++) {
      const prev = sl[i - 1];
      const next = sl[i];
      const gapStart = prev ? prev.stagedStart + (prev.baseEnd - prev.baseStart) : 0;
      const gapEnd = next ? next.stagedStart : this.stagedLength;
      // The inserted text before slice i replaced base [prev.baseEnd, next.baseStart).
      const baseStart = prev ? prev.baseEnd : 0;
      const baseEnd = next ? next.baseStart : this.baseLength;
      if (start === gapStart && end === gapEnd && gapStart < gapEnd && baseStart < baseEnd) return { start: baseStart, end: baseEnd };
      if (next && next.stagedStart <= start && end <= gapEnd + (next.baseEnd - next.baseStart)) {
        return { start: next.baseStart + (start - next.stagedStart), end: next.baseStart + (end - next.stagedStart) };
      }
      if (next && start < next.stagedStart) return undefined;
    }
    return undefined;
  }

  /**
   * The slice a base offset lies in. At a pure insertion point two slices touch the offset: a
   * range's start takes the later one (after the inserted text), its end the earlier one. Inside
   * replaced base text: no slice, and the replacement's start (for a start) or end (for an end).
   */
  private sliceAt(offset: number, side: 'start' | 'end'): { slice?: Slice; fallback: number } {
    const sl = this.slices;
    // First slice whose baseEnd >= offset.
    let lo = 0;
    let hi = sl.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sl[mid].baseEnd < offset) lo = mid + 1;
      else hi = mid;
    }
    const a = sl[lo];
    const b = sl[lo + 1];
    if (a && a.baseStart <= offset) {
      return { slice: side === 'start' && offset === a.baseEnd && b?.baseStart === offset ? b : a, fallback: 0 };
    }
    // Inside replaced text (or past the end): between slice lo-1 and slice lo.
    const before = sl[lo - 1];
    const beforeEnd = before ? before.stagedStart + (before.baseEnd - before.baseStart) : 0;
    const after = a ? a.stagedStart : this.stagedLength;
    return { fallback: side === 'start' ? beforeEnd : after };
  }
}
