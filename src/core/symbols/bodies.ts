/**
 * Where a declaration's body is, read from the source text: between braces (C-like languages), or
 * the indented block after the header's colon (Python). Symbol providers give a declaration's
 * range and its name, never its body, so the text says where the body starts.
 */
import { indentationOf, LineIndex } from '../documents/text';

/** Languages whose blocks are indented lines after a header ending in `:`, not braces. */
const INDENTED_BODY_LANGUAGES = new Set(['python']);

export const hasIndentedBodies = (languageId: string): boolean => INDENTED_BODY_LANGUAGES.has(languageId);

export interface IndentedBody {
  /** Offset of the header's colon. */
  colon: number;
  /**
   * The body as it stands: from the start of its first line (block) or from after the colon
   * (inline, `def f(x): return x`), to the end of its last statement.
   */
  start: number;
  end: number;
  inline: boolean;
  /** The indentation of the body's statements; undefined for an inline body. */
  indent: string | undefined;
}

/** Skips a Python string literal (prefixes, triple quotes) at p; returns the offset after it, or p when none starts there. */
function skipPythonString(text: string, p: number): number {
  const prefix = /^[rRbBuUfF]{0,2}(?=["'])/.exec(text.slice(p, p + 3));
  if (!prefix) return p;
  let q = p + prefix[0].length;
  const quote = text[q];
  if (text.startsWith(quote.repeat(3), q)) {
    const close = text.indexOf(quote.repeat(3), q + 3);
    return close < 0 ? text.length : close + 3;
  }
  for (q++; q < text.length && text[q] !== quote && text[q] !== '\n'; q++) if (text[q] === '\\') q++;
  return q + 1;
}

/**
 * The colon that ends a Python compound statement's header starting before `from` (a `def` or
 * `class` name's end): the first `:` outside brackets, strings and comments. Undefined when the
 * header does not end before `limit`.
 */
export function pythonHeaderColon(text: string, from: number, limit: number): number | undefined {
  let depth = 0;
  for (let p = from; p < limit; p++) {
    const c = text[p];
    if (c === '#') {
      const nl = text.indexOf('\n', p);
      if (nl < 0) return undefined;
      p = nl;
    } else if (
      c === '"' ||
      c === "'" ||
      (/[rRbBuUfF]/.test(c) && !/[\p{L}\p{N}_]/u.test(text[p - 1] ?? '') && /^[rRbBuUfF]{1,2}["']/.test(text.slice(p, p + 3)))
    ) {
      p = skipPythonString(text, p) - 1;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === ':' && depth === 0) return p;
  }
  return undefined;
}

/**
 * The body of a Python `def` or `class` whose name ends at nameEnd and whose range ends at
 * rangeEnd (its last statement). Undefined when the text there is not such a declaration.
 */
export function indentedBody(text: string, nameStart: number, nameEnd: number, rangeEnd: number): IndentedBody | undefined {
  const lineStart = text.lastIndexOf('\n', nameStart - 1) + 1;
  if (!/(?:^|[\s;])(?:async[ \t]+)?(?:def|class)[ \t]+$/.test(text.slice(lineStart, nameStart))) return undefined;
  let end = rangeEnd;
  while (end > nameEnd && /\s/.test(text[end - 1])) end--;
  const colon = pythonHeaderColon(text, nameEnd, end);
  if (colon === undefined) return undefined;
  const lineEnd = text.indexOf('\n', colon);
  const rest = text.slice(colon + 1, lineEnd < 0 ? text.length : lineEnd);
  if (rest.trim() !== '' && !rest.trim().startsWith('#')) return { colon, start: colon + 1, end, inline: true, indent: undefined };
  if (lineEnd < 0 || lineEnd >= end) return undefined;
  const lines = LineIndex.of(text);
  const first = lines.positionAt(lineEnd + 1).line;
  const last = lines.positionAt(end).line;
  // The statements' indentation: the first line that is neither blank nor only a comment (comments may sit anywhere).
  let indent: string | undefined;
  for (let l = first; l <= last && indent === undefined; l++) {
    const line = lines.lineText(l);
    if (line.trim() !== '' && !line.trim().startsWith('#')) indent = indentationOf(line);
  }
  return { colon, start: lines.starts[first], end, inline: false, indent };
}

/** Languages whose symbols are elements: the body is the content between the start and the end tag. */
const ELEMENT_LANGUAGES = new Set(['html', 'xml']);
/** Languages whose symbols are headings: the body is the section's lines under the heading. */
const SECTION_LANGUAGES = new Set(['markdown']);

export const hasElementBodies = (languageId: string): boolean => ELEMENT_LANGUAGES.has(languageId);
export const hasSectionBodies = (languageId: string): boolean => SECTION_LANGUAGES.has(languageId);

/**
 * The content of an element whose range (start tag to end tag) is [rangeStart, rangeEnd): from
 * after the start tag's `>` (quoted attribute values skipped) to the `</` of its end tag.
 * Undefined for a void or self-closing element, or a range that is no element.
 */
export function elementBody(text: string, rangeStart: number, rangeEnd: number): { start: number; end: number } | undefined {
  if (text[rangeStart] !== '<') return undefined;
  let p = rangeStart + 1;
  for (; p < rangeEnd && text[p] !== '>'; p++) {
    if (text[p] === '"' || text[p] === "'") {
      const close = text.indexOf(text[p], p + 1);
      if (close < 0 || close >= rangeEnd) return undefined;
      p = close;
    }
  }
  if (p >= rangeEnd || text[p - 1] === '/') return undefined;
  let end = rangeEnd;
  while (end > p && /\s/.test(text[end - 1])) end--;
  const closing = text.lastIndexOf('</', end);
  if (closing <= p || !/^<\/[^\s>]+\s*>$/.test(text.slice(closing, end))) return undefined;
  return { start: p + 1, end: closing };
}

/**
 * The lines under a heading whose name starts at nameStart, up to its section's end (rangeEnd,
 * trailing blank lines left where they are): from the end of the heading's line. Its subsections
 * are part of it, as a class's members are part of its body.
 */
export function sectionBody(text: string, nameStart: number, rangeEnd: number): { start: number; end: number } {
  const lineEnd = text.indexOf('\n', nameStart);
  const start = lineEnd < 0 || lineEnd >= rangeEnd ? Math.min(rangeEnd, text.length) : lineEnd - (text[lineEnd - 1] === '\r' ? 1 : 0);
  let end = rangeEnd;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return { start, end };
}
