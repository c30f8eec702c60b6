import { wholeWordPattern } from '../documents/text';
import { NO_NEWLINE_MARKER } from './diff';
import type { DiffHunk } from './diff';

/** A changed line of a rename's review: its number in the staged text, and its staged text. */
export type RenameRow = [line: number, text: string];

/** Longer changed lines are left to the word diff, which cuts them around their changes. */
export const RENAME_ROW_MAX_CHARS = 500;

/**
 * A rename's changes in one document as rows, when each changed line is its staged text with every
 * whole-word `to` made `from` again (so it held no `to` before): then the row's text says the
 * change whole (an import path or a comment that still spells `from` was left alone), and the
 * `[-from-]{+to+}` of a word diff at each occurrence says nothing more. undefined when any change
 * is something else (a line added or removed, a shorthand written out, an earlier edit of the
 * transaction, the last line break), or a changed line is longer than RENAME_ROW_MAX_CHARS.
 */
export function renameRows(hunks: readonly DiffHunk[], from: string, to: string): RenameRow[] | undefined {
  const toWord = wholeWordPattern(to);
  const rows: RenameRow[] = [];
  for (const h of hunks) {
    let line = h.updatedStartLine;
    let removed: string[] = [];
    let added: string[] = [];
    const flush = (): boolean => {
      if (removed.length !== added.length) return false;
      for (let i = 0; i < added.length; i++) {
        const before = removed[i].replace(/\r$/u, '');
        const after = added[i].replace(/\r$/u, '');
        if (after.length > RENAME_ROW_MAX_CHARS || after.replace(toWord, () => from) !== before) return false;
        rows.push([line++, after]);
      }
      removed = [];
      added = [];
      return true;
    };
    // Which sides end without a line break: the rename left it alone only if both or neither do.
    const noNewline = { '-': false, '+': false, ' ': false };
    let side: keyof typeof noNewline = ' ';
    for (const l of h.lines) {
      if (l === NO_NEWLINE_MARKER) {
        noNewline[side] = true;
        continue;
      }
      side = l[0] as keyof typeof noNewline;
      if (l[0] === '-') removed.push(l.slice(1));
      else if (l[0] === '+') added.push(l.slice(1));
      else {
        if (!flush()) return undefined;
        line++;
      }
    }
    if (!flush() || noNewline['-'] !== noNewline['+']) return undefined;
  }
  return rows.length > 0 ? rows : undefined;
}
