/**
 * The indentation an editor detects from a file's text (VS Code's `editor.detectIndentation`,
 * on by default): language services that format inserted code (a refactoring, a quick fix, the
 * formatter) are told the file's own indentation, not the 4-space default, which would
 * re-indent a 2-space file.
 */
export interface Indentation {
  tabSize: number;
  insertSpaces: boolean;
}

/** Even sizes first: with equal evidence, 2 wins over 3, and 4 over 5. */
const SIZES = [2, 4, 6, 8, 3, 5, 7];
const LINES_READ = 10_000;

/**
 * Counts how far each line's indentation moves from the previous content line's: the most
 * frequent step is one level. A step of 1 (a JSDoc ` * ` line) or one that aligns a
 * continuation under the previous line (after a trailing comma) is no level. More lines
 * indented with tabs than with spaces means tabs. Without evidence, the defaults stand.
 */
export function guessIndentation(text: string, defaults: Indentation): Indentation {
  const steps = new Array<number>(9).fill(0);
  let tabLines = 0;
  let spaceLines = 0;
  let previous: { tabs: number; spaces: number; text: string } | undefined;
  let read = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (++read > LINES_READ) break;
    const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (indent.length === line.length) continue;
    const tabs = indent.split('\t').length - 1;
    const spaces = indent.length - tabs;
    if (tabs > 0) tabLines++;
    else if (spaces > 1) spaceLines++;
    // Mixed indentation says nothing about the size of a level.
    const mixed = tabs > 0 && spaces > 0;
    if (previous && !mixed && previous.tabs === tabs) {
      const step = Math.abs(spaces - previous.spaces);
      // `const a = 1,\n      b = 2;`: the second line lines up under the first, it is not a level deeper.
      if (step > 0 && previous.text.trimEnd().endsWith(',') && previous.text[tabs + spaces - 1] === ' ') continue;
      if (step <= 8) steps[step]++;
    }
    if (!mixed) previous = { tabs, spaces, text: line };
  }
  const insertSpaces = tabLines === spaceLines ? defaults.insertSpaces : spaceLines > tabLines;
  if (!insertSpaces) return { tabSize: defaults.tabSize, insertSpaces };
  let tabSize = defaults.tabSize;
  let best = 0;
  for (const size of SIZES) {
    if (steps[size] > best) {
      best = steps[size];
      tabSize = size;
    }
  }
  // Two-space files nest deeply enough to show 4-space steps too (a closing line two levels out).
  if (tabSize === 4 && steps[2] > 0 && steps[2] >= (steps[4] * 2) / 3) tabSize = 2;
  return { tabSize, insertSpaces };
}
