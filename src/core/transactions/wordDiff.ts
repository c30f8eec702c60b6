/**
 * Word diffs: a hunk as `git diff --word-diff=plain` prints it, each changed line once with what
 * it removes as [-…-] and adds as {+…+}; long lines cut around their changes.
 */
import { diffArrays } from 'diff';
import { hunkHeader, NO_NEWLINE_MARKER } from './diff';
import { commonPrefix, commonSuffix } from './textReader';
import type { DiffHunk } from './diff';
import { cutAround, splitsPair } from '../util/wording';

/** What a word diff compares: runs of letters, digits, `_` and `$`, runs of blanks, and any other character alone. */
const WORD_TOKEN = /[\p{L}\p{N}_$]+|[ \t]+|\n|[^]/gu;
/**
 * Above this many tokens in a changed block, its lines are marked whole (a token diff of a rewrite
 * costs more than it tells), unless at most LONG_BLOCK_MAX_EDITS tokens change (a rename in a long line).
 */
const WORD_DIFF_MAX_TOKENS = 4000;
const LONG_BLOCK_MAX_EDITS = 200;
/** Above this many characters between the head and tail a block's sides share, it is marked whole without tokenizing it. */
const WORD_DIFF_MAX_CHARS = 1024 * 1024;
/** Unchanged text kept on each side of a change within a line; the rest of a longer line is cut ("…" marks each cut). */
export const WORD_CONTEXT_CHARS = 80;

const WORD_CHAR = /[\p{L}\p{N}_$]/u;
const BLANK_CHAR = /[ \t]/;

/** The character class WORD_TOKEN joins into one token: word, blank, or none (each such character is a token alone). */
function tokenClass(text: string, at: number): 'word' | 'blank' | undefined {
  if (at < 0 || at >= text.length) return undefined;
  const c = String.fromCodePoint(text.codePointAt(at) as number);
  return WORD_CHAR.test(c) ? 'word' : BLANK_CHAR.test(c) ? 'blank' : undefined;
}

/** Whether a token of WORD_TOKEN can end at offset (not inside a surrogate pair or a run of one class). */
function tokenBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  if (splitsPair(text, at)) return false;
  const before = tokenClass(text, at - 1 - (splitsPair(text, at - 1) ? 1 : 0));
  return before === undefined || before !== tokenClass(text, at);
}

type WordPart = { kind: ' ' | '-' | '+'; text: string };

/**
 * The token diff of two sides of a block: the head and tail they share (cut back to token
 * boundaries, so a token is never split) are kept as they are and only what lies between is
 * tokenized and diffed; a rename in a line of a megabyte costs a comparison, not a token list of it.
 * Undefined: too long a middle to diff (then the lines are marked whole).
 */
function wordParts(oldText: string, newText: string): WordPart[] | undefined {
  const max = Math.min(oldText.length, newText.length);
  let head = commonPrefix(oldText, newText, max);
  while (head > 0 && !(tokenBoundary(oldText, head) && tokenBoundary(newText, head))) head--;
  let tail = commonSuffix(oldText, newText, max - head);
  const tailAt = (text: string) => text.length - tail;
  while (tail > 0 && !(tokenBoundary(oldText, tailAt(oldText)) && tokenBoundary(newText, tailAt(newText)))) tail--;
  const oldMiddle = oldText.slice(head, oldText.length - tail);
  const newMiddle = newText.slice(head, newText.length - tail);
  if (oldMiddle.length + newMiddle.length > WORD_DIFF_MAX_CHARS) return undefined;
  const oldTokens = oldMiddle.match(WORD_TOKEN) ?? [];
  const newTokens = newMiddle.match(WORD_TOKEN) ?? [];
  const long = oldTokens.length + newTokens.length > WORD_DIFF_MAX_TOKENS;
  const changes = long ? diffArrays(oldTokens, newTokens, { maxEditLength: LONG_BLOCK_MAX_EDITS }) : diffArrays(oldTokens, newTokens);
  if (!changes) return undefined;
  const parts: WordPart[] = changes.map((p) => ({ kind: p.removed ? '-' : p.added ? '+' : ' ', text: p.value.join('') }));
  if (head > 0) parts.unshift({ kind: ' ', text: oldText.slice(0, head) });
  if (tail > 0) parts.push({ kind: ' ', text: oldText.slice(oldText.length - tail) });
  return parts;
}

/**
 * Unchanged text longer than the context a change needs, cut: within a line, WORD_CONTEXT_CHARS
 * are kept next to each change and "…" stands for the rest (a line of minified code shows where
 * it changed, not its megabyte); whole unchanged lines between changes are kept.
 */
function cutContext(text: string, changeBefore: boolean, changeAfter: boolean): string {
  const lines = text.split('\n');
  const keep = WORD_CONTEXT_CHARS;
  const cutEnd = (line: string) => cutAround(line, 0, keep, 0).text;
  const cutStart = (line: string) => cutAround(line, line.length, keep, keep).text;
  if (lines.length === 1) {
    const [line] = lines;
    // Between two changes: its head and its tail, one "…" for what lies between.
    if (changeBefore && changeAfter) return line.length > 2 * keep + 1 ? `${cutEnd(line)}${cutStart(line).slice(1)}` : line;
    return changeBefore ? cutEnd(line) : changeAfter ? cutStart(line) : line;
  }
  const last = lines.length - 1;
  if (changeBefore) lines[0] = cutEnd(lines[0]);
  if (changeAfter) lines[last] = cutStart(lines[last]);
  return lines.join('\n');
}

function markBlock(removed: string[], added: string[]): string {
  const whole = (lines: string[], open: string, close: string) => lines.map((l) => open + l + close);
  const byLines = () => [...whole(removed, '[-', '-]'), ...whole(added, '{+', '+}')].join('\n');
  // A line that is empty on one side would read as a line of the other side only: such a block is marked by lines.
  if (removed.includes('') || added.includes('')) return byLines();
  const parts = wordParts(removed.join('\n'), added.join('\n'));
  // So would a change that adds or removes a line break.
  if (!parts || parts.some((p) => p.kind !== ' ' && p.text.includes('\n'))) return byLines();
  return parts.map((p, i) => (p.kind === '-' ? `[-${p.text}-]` : p.kind === '+' ? `{+${p.text}+}` : cutContext(p.text, i > 0, i < parts.length - 1))).join('');
}

/**
 * One hunk as `git diff --word-diff=plain` prints it: the @@ header, context lines as they are,
 * and each block of changed lines once, with what it removes as [-…-] and adds as {+…+}. A
 * rename's line is then one line, not two.
 */
export function hunkWordText(h: DiffHunk): string {
  const out = [hunkHeader(h)];
  let block: string[] = [];
  const flush = () => {
    const removed = block.filter((l) => l[0] === '-').map((l) => l.slice(1));
    const added = block.filter((l) => l[0] === '+').map((l) => l.slice(1));
    // A block that changes the last line break says so the unified way.
    if (block.includes(NO_NEWLINE_MARKER) || (removed.length === added.length && removed.join('\n') === added.join('\n'))) out.push(...block);
    else if (block.length > 0) out.push(markBlock(removed, added));
    block = [];
  };
  for (const line of h.lines) {
    if (line[0] === '-' || line[0] === '+' || line === NO_NEWLINE_MARKER) block.push(line);
    else {
      flush();
      out.push(line.slice(1));
    }
  }
  flush();
  return out.join('\n');
}
