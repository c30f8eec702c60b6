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

/**
 * Whether a language service's edit of base range [start, end) overlaps a staged change of base
 * range [region.start, region.end). Two replacements overlap when they share a character; an
 * insertion (an empty range), new or staged, only when it falls strictly inside the other's range.
 * Edits that merely meet are placed side by side (stagedOffset).
 */
export function overlaps(edit: { start: number; end: number }, region: { start: number; end: number }): boolean {
  if (edit.start === edit.end) return region.start < edit.start && edit.start < region.end;
  if (region.start === region.end) return edit.start < region.start && region.start < edit.end;
  return edit.start < region.end && region.start < edit.end;
}

/**
 * The staged offset of a base offset where a language service's edit starts or ends (overlapping
 * none of the changedRegions), placing it beside the staged text it meets: after a change ending
 * where it starts (so an insertion at a staged insertion's point comes after it, in staging order),
 * before a change starting where it starts or ends (an insertion at the start of a replaced range
 * comes before its new text). A staged insertion glued to a replacement starting at the same
 * point reads as part of that replacement. Undefined strictly inside a replaced range.
 */
export function stagedOffset(regions: readonly BaseRegion[], offset: number, edge: 'start' | 'end'): number | undefined {
  let shift = 0;
  for (const r of regions) {
    if (r.start > offset) break;
    if (r.end < offset) {
      shift += r.text.length - (r.end - r.start);
      continue;
    }
    if (r.start < offset && offset < r.end) return undefined;
    return r.start + shift + (edge === 'start' && r.end === offset ? r.text.length : 0);
  }
  return offset + shift;
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
