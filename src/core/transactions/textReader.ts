/** Two texts compared from given offsets, and a text read as a diff walks it: a string, or a staged text's pieces. */
import type { Segment } from './segments';

/**
 * The updated text as a walk reads it: a string, or a staged text's pieces read without joining
 * them (joining copies the text: 8 MB and tens of milliseconds for a rename's 160 files), where a
 * piece that is original's own text at the same place is known equal without comparing it.
 */
export interface Reader {
  readonly length: number;
  slice(from: number, to?: number): string;
  /** indexOf('\n', from). */
  lineEnd(from: number): number;
  /** commonPrefix(original, this text, max, o, u). */
  prefixWith(original: string, max: number, o: number, u: number): number;
}

export function stringReader(text: string): Reader {
  return {
    length: text.length,
    slice: (from, to) => text.slice(from, to),
    lineEnd: (from) => text.indexOf('\n', from),
    prefixWith: (original, max, o, u) => commonPrefix(original, text, max, o, u),
  };
}

/** A text made of original's ranges and inserted texts (a staged document's segments), read as a Reader. */
export function segmentReader(original: string, segments: readonly Segment[]): Reader {
  const pieces: { at: number; length: number; base: number | undefined; text: string }[] = [];
  let length = 0;
  for (const s of segments) {
    const piece =
      'text' in s
        ? { at: length, length: s.text.length, base: undefined, text: s.text }
        : { at: length, length: s.end - s.start, base: s.start, text: original };
    if (piece.length === 0) continue;
    pieces.push(piece);
    length += piece.length;
  }
  const pieceAt = (offset: number): number => {
    let lo = 0;
    let hi = pieces.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pieces[mid].at + pieces[mid].length <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Where a piece's text starts in its string: original's range, or 0 in an inserted text.
  const from = (k: number): number => pieces[k].base ?? 0;
  return {
    length,
    slice: (start, end = length) => {
      let out = '';
      for (let k = pieceAt(start); k < pieces.length && pieces[k].at < end; k++) {
        const p = pieces[k];
        out += p.text.slice(from(k) + Math.max(0, start - p.at), from(k) + Math.min(p.length, end - p.at));
      }
      return out;
    },
    lineEnd: (start) => {
      for (let k = pieceAt(start); k < pieces.length; k++) {
        const p = pieces[k];
        const nl = p.text.indexOf('\n', from(k) + Math.max(0, start - p.at));
        if (nl >= 0 && nl < from(k) + p.length) return p.at + nl - from(k);
      }
      return -1;
    },
    prefixWith: (other, max, o, u) => {
      let p = 0;
      for (let k = pieceAt(u); p < max && k < pieces.length; k++) {
        const piece = pieces[k];
        const offset = from(k) + (u + p - piece.at);
        const room = Math.min(max - p, piece.length - (u + p - piece.at));
        // Compared against the pieces' own base at the same place: equal, read or not.
        const same = piece.base !== undefined && other === original && offset === o + p;
        const q = same ? room : commonPrefix(other, piece.text, room, o + p, offset);
        p += q;
        if (q < room) break;
      }
      return p;
    },
  };
}

/** Characters compared at once while looking for the first difference (a slice comparison is a memory compare; a loop of charCodeAt was most of a rename's line counts). */
const CHUNK = 2048;

/** The length of the longest common prefix of a from offset i and b from offset j, at most max. */
export function commonPrefix(a: string, b: string, max: number, i = 0, j = 0): number {
  let p = 0;
  while (p + CHUNK <= max && a.slice(i + p, i + p + CHUNK) === b.slice(j + p, j + p + CHUNK)) p += CHUNK;
  while (p < max && a.charCodeAt(i + p) === b.charCodeAt(j + p)) p++;
  return p;
}

/** The length of the longest common suffix of a and b, at most max. */
export function commonSuffix(a: string, b: string, max: number): number {
  let s = 0;
  while (s + CHUNK <= max && a.slice(a.length - s - CHUNK, a.length - s) === b.slice(b.length - s - CHUNK, b.length - s)) s += CHUNK;
  while (s < max && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return s;
}
