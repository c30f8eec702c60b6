/**
 * Staged text as a piece table: segments that are either a range of the base text or new text.
 * Staging edits, mapping a language service's buffer offsets onto staged text and finding the
 * regions a commit changes all work on segments, never on whole-text copies.
 */
import { createHash } from 'node:crypto';
import type { OffsetEdit } from './plan';

export type Segment = { start: number; end: number } | { text: string };

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

export function normalize(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if ('text' in s) {
      if (s.text === '') continue;
      if (last && 'text' in last) out[out.length - 1] = { text: last.text + s.text };
      else out.push(s);
    } else {
      if (s.start === s.end) continue;
      if (last && !('text' in last) && last.end === s.start) out[out.length - 1] = { start: last.start, end: s.end };
      else out.push(s);
    }
  }
  return out;
}

export const segLength = (s: Segment): number => ('text' in s ? s.text.length : s.end - s.start);

/** Replaces [start, end) of the staged text (offsets into it) in the segment list. */
export function replaceSegments(segments: readonly Segment[], start: number, end: number, text: string): Segment[] {
  const out: Segment[] = [];
  let pos = 0;
  let placed = false;
  for (const s of segments) {
    const len = segLength(s);
    const sStart = pos;
    const sEnd = pos + len;
    pos = sEnd;
    if (sEnd <= start) {
      out.push(s);
      continue;
    }
    if (!placed) {
      if (sStart < start) out.push(sliceSegment(s, 0, start - sStart));
      out.push({ text });
      placed = true;
    }
    if (sEnd > end) out.push(sliceSegment(s, Math.max(0, end - sStart), len));
  }
  if (!placed) out.push({ text });
  return normalize(out);
}

export function sliceSegment(s: Segment, from: number, to: number): Segment {
  if ('text' in s) return { text: s.text.slice(from, to) };
  return { start: s.start + from, end: s.start + to };
}

export interface BaseRegion {
  start: number;
  end: number;
  text: string;
}

/** The changes from base text to staged text, as replacements of base ranges (ascending, non-overlapping). */
export function changedRegions(doc: { readonly segments: readonly Segment[] }, baseLength: number): BaseRegion[] {
  const regions: BaseRegion[] = [];
  let cursor = 0;
  let pending = '';
  for (const s of doc.segments) {
    if ('text' in s) {
      pending += s.text;
      continue;
    }
    if (s.start > cursor || pending !== '') regions.push({ start: cursor, end: s.start, text: pending });
    cursor = s.end;
    pending = '';
  }
  if (cursor < baseLength || pending !== '') regions.push({ start: cursor, end: baseLength, text: pending });
  return regions;
}

export function overlaps(edit: { start: number; end: number }, region: { start: number; end: number }): boolean {
  if (edit.start === edit.end || region.start === region.end) {
    // An insertion touching a change could land on either side of it: never guess.
    return edit.start <= region.end && region.start <= edit.end;
  }
  return edit.start < region.end && region.start < edit.end;
}

/** Staged offset of a base offset that lies in an unchanged base slice. */
export function mapBaseOffset(segments: readonly Segment[], offset: number, preferEnd: boolean): number | undefined {
  let pos = 0;
  for (const s of segments) {
    const len = segLength(s);
    if (!('text' in s)) {
      const inside = preferEnd ? s.start < offset && offset <= s.end : s.start <= offset && offset < s.end;
      if (inside) return pos + (offset - s.start);
    }
    pos += len;
  }
  // An offset at the very end of the base text after an unchanged last slice, or an empty document.
  if (segments.length === 0 && offset === 0) return 0;
  let end = 0;
  for (const s of segments) {
    end += segLength(s);
  }
  const last = segments[segments.length - 1];
  if (last && !('text' in last) && last.end === offset) return end;
  return undefined;
}

/** Applies ascending, non-overlapping edits. */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): string {
  let out = '';
  let cursor = 0;
  for (const e of edits) {
    out += text.slice(cursor, e.start) + e.newText;
    cursor = e.end;
  }
  return out + text.slice(cursor);
}
