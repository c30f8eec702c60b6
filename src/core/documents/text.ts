/** Offsets, lines and columns over document text. Offsets and columns count UTF-16 code units, as VS Code does. */

export interface LinePosition {
  /** Zero-based line. */
  line: number;
  /** Zero-based UTF-16 column. */
  character: number;
}

/** Texts shorter than this are indexed again (cheaper than looking them up). */
const SHARED_MIN_CHARS = 4_096;
/** The shared indexes hold at most this many characters of text, least recently used dropped first. */
const SHARED_MAX_CHARS = 16 * 1024 * 1024;
const shared = new Map<string, LineIndex>();
let sharedChars = 0;

/** Offsets at which each line starts; a line ends at \r\n, \n or \r. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
  return starts;
}

export class LineIndex {
  readonly starts: readonly number[];
  constructor(readonly text: string) {
    this.starts = lineStarts(text);
  }

  /**
   * The index of a text, shared with the calls that read the same text moments before: a call
   * resolves the same large documents again and again (a definition, then its references).
   */
  static of(text: string): LineIndex {
    if (text.length < SHARED_MIN_CHARS) return new LineIndex(text);
    const kept = shared.get(text);
    if (kept) {
      shared.delete(text);
      shared.set(text, kept);
      return kept;
    }
    const made = new LineIndex(text);
    shared.set(text, made);
    sharedChars += text.length;
    for (const [t] of shared) {
      if (sharedChars <= SHARED_MAX_CHARS || shared.size === 1) break;
      shared.delete(t);
      sharedChars -= t.length;
    }
    return made;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  positionAt(offset: number): LinePosition {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - this.starts[low] };
  }

  offsetAt(position: LinePosition): number {
    const line = Math.max(0, Math.min(position.line, this.starts.length - 1));
    return Math.min(this.starts[line] + Math.max(0, position.character), this.lineEnd(line));
  }

  /** Offset just before the line's terminator. */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
    let end = next;
    if (end > this.starts[line] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.starts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.starts[line], this.lineEnd(line));
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** True when the offset falls between the two halves of a surrogate pair (inside an emoji, say). */
export function splitsSurrogatePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  return isHighSurrogate(text.charCodeAt(offset - 1)) && isLowSurrogate(text.charCodeAt(offset));
}

export interface TextMatch {
  start: number;
  length: number;
}

/** Every start of `needle` in `text` (overlapping starts included) whose surroundings match the contexts. */
export function findSelection(text: string, needle: string, contextBefore?: string | null, contextAfter?: string | null): TextMatch[] {
  const matches: TextMatch[] = [];
  if (needle.length === 0) return matches;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (contextBefore && !text.endsWith(contextBefore, at)) continue;
    if (contextAfter && !text.startsWith(contextAfter, at + needle.length)) continue;
    matches.push({ start: at, length: needle.length });
  }
  return matches;
}

export interface NearMiss extends TextMatch {
  /** What differs from the request, in words the model can act on. */
  difference: string;
}

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function whitespaceTolerantPattern(needle: string, flags: string): RegExp {
  const parts = needle.trim().split(/\s+/).map(escapeRegExp);
  return new RegExp(parts.join('\\s+'), flags);
}

function allMatches(text: string, pattern: RegExp, limit: number): TextMatch[] {
  const found: TextMatch[] = [];
  for (const m of text.matchAll(pattern)) {
    if (m[0].length === 0) continue;
    found.push({ start: m.index ?? 0, length: m[0].length });
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * Explains why a selection matched nothing: the same text with other contexts, other
 * whitespace or line endings, or other letter case. Deterministic, nearest kinds first.
 */
export function findNearMisses(text: string, needle: string, contextBefore?: string | null, contextAfter?: string | null, limit = 5): NearMiss[] {
  const misses: NearMiss[] = [];
  const seen = new Set<string>();
  const add = (match: TextMatch, difference: string): void => {
    const key = `${match.start}:${match.length}`;
    if (seen.has(key) || misses.length >= limit) return;
    seen.add(key);
    misses.push({ ...match, difference });
  };

  if (contextBefore || contextAfter) {
    for (const m of findSelection(text, needle)) {
      const beforeOk = !contextBefore || text.endsWith(contextBefore, m.start);
      const afterOk = !contextAfter || text.startsWith(contextAfter, m.start + m.length);
      const which = [beforeOk ? '' : 'contextBefore', afterOk ? '' : 'contextAfter'].filter(Boolean).join(' and ');
      add(m, `selectedText matches here but ${which} does not`);
    }
  }
  if (needle.trim().length > 0) {
    for (const m of allMatches(text, whitespaceTolerantPattern(needle, 'g'), limit)) {
      add(m, 'same text with different whitespace or line endings');
    }
    for (const m of allMatches(text, whitespaceTolerantPattern(needle, 'gi'), limit)) {
      add(m, 'same text with different letter case');
    }
  }
  if (misses.length === 0) {
    // Fall back to the longest line of the selection, so a partly stale selection still points somewhere.
    const lines = needle
      .split(/\r\n|\r|\n/)
      .map((l) => l.trim())
      .filter((l) => l.length >= 3);
    lines.sort((a, b) => b.length - a.length);
    const probe = lines[0];
    if (probe && probe !== needle) {
      for (const m of findSelection(text, probe).slice(0, limit)) add(m, `only the line "${probe.slice(0, 80)}" of the selection matches here`);
    }
  }
  return misses;
}

/** The leading spaces and tabs of a line. */
export const indentationOf = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';

/**
 * The lines of `text` (one final line break, and whitespace after it, dropped), with their
 * common indentation replaced by `indent`; blank lines become empty. Relative indentation is kept,
 * in levels of `unit` when given: a text indented with spaces goes into a block indented with tabs
 * with tabs (Python reads a block that mixes them by tab width, and may refuse it).
 */
export function reindentLines(text: string, indent: string, unit?: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1].trim() === '') lines.pop();
  let common: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const own = indentationOf(line);
    if (common === undefined) common = own;
    let n = 0;
    while (n < common.length && n < own.length && common[n] === own[n]) n++;
    common = common.slice(0, n);
  }
  const relative = lines.map((line) => (line.trim() === '' ? '' : line.slice(common?.length ?? 0)));
  const from = unit === undefined ? undefined : indentUnit(relative.join('\n'));
  const inUnit = (rest: string): string => {
    if (from === undefined || unit === undefined || from === unit) return rest;
    let at = 0;
    let levels = 0;
    while (rest.startsWith(from, at)) {
      at += from.length;
      levels++;
    }
    return unit.repeat(levels) + rest.slice(at);
  };
  return relative.map((rest) => (rest === '' ? '' : indent + inUnit(rest)));
}

/**
 * The unit to indent a block's inner levels with, below a line indented `indent`: a tab where that
 * line's indentation is tabs, else the file's unit (undefined, keep the text's own, where the file
 * indents with tabs but this line with spaces).
 */
export function unitBelow(indent: string, source: string): string | undefined {
  if (indent.startsWith('\t')) return '\t';
  const unit = indentUnit(source);
  return indent.length > 0 && unit === '\t' ? undefined : unit;
}

/** One level of indentation as the text uses it: a tab, or the smallest indentation in spaces; undefined when no line is indented. */
export function indentUnit(text: string): string | undefined {
  let spaces = Number.POSITIVE_INFINITY;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') continue;
    const own = indentationOf(line);
    if (own.startsWith('\t')) return '\t';
    if (own.length > 0) spaces = Math.min(spaces, own.length);
  }
  return Number.isFinite(spaces) ? ' '.repeat(spaces) : undefined;
}

const WORD_CHARACTER = /[\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}$]/u;

/** Every occurrence of `word` not inside a longer word (WORD_CHARACTER on neither side). */
export const wholeWordPattern = (word: string): RegExp => new RegExp(`(?<!${WORD_CHARACTER.source})${escapeRegExp(word)}(?!${WORD_CHARACTER.source})`, 'gu');

/** The identifier around an offset (letters, digits, marks, connectors such as _, and $), as editors pick a word. */
export function wordAt(text: string, offset: number): string {
  let start = offset;
  let end = offset;
  while (start > 0 && WORD_CHARACTER.test(text[start - 1])) start--;
  while (end < text.length && WORD_CHARACTER.test(text[end])) end++;
  return text.slice(start, end);
}

/** The first offset that touches no word: the characters on both sides of it are not word characters. */
export function offsetTouchingNoWord(text: string): number | undefined {
  for (let i = 0; i < text.length; i++) {
    if (!WORD_CHARACTER.test(text[i]) && (i === 0 || !WORD_CHARACTER.test(text[i - 1]))) return i;
  }
  return undefined;
}
