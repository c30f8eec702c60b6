import * as assert from 'node:assert/strict';
import { diffTexts } from '../../../../src/core/transactions/diff';
import { RENAME_ROW_MAX_CHARS, renameRows } from '../../../../src/core/transactions/renameRows';
import type { RenameRow } from '../../../../src/core/transactions/renameRows';

const rows = (before: string, after: string, from: string, to: string, contextLines = 0) => renameRows(diffTexts(before, after, contextLines).hunks, from, to);

/** The original text back from the staged text and the rows: each row's whole-word `to` made `from` again. */
function original(after: string, found: RenameRow[], from: string, to: string): string {
  const lines = after.split('\n');
  const word = new RegExp(`(?<![\\p{L}\\p{N}\\p{Mn}\\p{Mc}\\p{Pc}$])${to.replace(/\$/g, '\\$')}(?![\\p{L}\\p{N}\\p{Mn}\\p{Mc}\\p{Pc}$])`, 'gu');
  for (const [line, text] of found) {
    assert.equal(lines[line - 1], text, `row ${line} is the staged line`);
    lines[line - 1] = text.replace(word, from);
  }
  return lines.join('\n');
}

describe("a rename's review as rows (renameRows)", () => {
  const before = [
    "import { isFunction } from './util';",
    'const a = 1;',
    'if (isFunction(x) && isFunction(y)) {',
    '  run(isFunction);',
    '}',
    'const isFunctional = true; // isFunction',
  ].join('\n');

  it('lists each changed line once with its staged number and text, and the original follows from them', () => {
    const after = before.replace(/\bisFunction\b/g, 'isCallable');
    const found = rows(before, after, 'isFunction', 'isCallable');
    assert.deepEqual(found, [
      [1, "import { isCallable } from './util';"],
      [3, 'if (isCallable(x) && isCallable(y)) {'],
      [4, '  run(isCallable);'],
      [6, 'const isFunctional = true; // isCallable'],
    ]);
    assert.equal(original(after, found!, 'isFunction', 'isCallable'), before);
  });

  it('shows an occurrence the rename left alone as it is (an import path, a comment), and a line it did not change not at all', () => {
    const after = before
      .replace(/\bisFunction\b/g, 'isCallable')
      .replace('&& isCallable(y)', '&& isFunction(y)')
      .replace('// isCallable', '// isFunction');
    const found = rows(before, after, 'isFunction', 'isCallable');
    assert.deepEqual(found, [
      [1, "import { isCallable } from './util';"],
      [3, 'if (isCallable(x) && isFunction(y)) {'],
      [4, '  run(isCallable);'],
    ]);
    assert.equal(original(after, found!, 'isFunction', 'isCallable'), before);
    const path = rows("import { isFunction } from './util/isFunction';", "import { isCallable } from './util/isFunction';", 'isFunction', 'isCallable');
    assert.deepEqual(path, [[1, "import { isCallable } from './util/isFunction';"]]);
  });

  it('numbers rows in the staged text, context lines or not', () => {
    const after = before.replace(/\bisFunction\b/g, 'isCallable');
    assert.deepEqual(rows(before, after, 'isFunction', 'isCallable', 3), rows(before, after, 'isFunction', 'isCallable'));
  });

  it('is undefined where a change is more than the rename: the word diff must say it', () => {
    const renamed = before.replace(/\bisFunction\b/g, 'isCallable');
    // The old name written out differently beside the rename: a shorthand's name kept as its key.
    assert.equal(rows('f(isFunction, isFunction)', 'f(isFunction: isCallable)', 'isFunction', 'isCallable'), undefined);
    // A shorthand written out.
    assert.equal(rows('const o = { isFunction };', 'const o = { isFunction: isCallable };', 'isFunction', 'isCallable'), undefined);
    // Another line edited, and a line added.
    assert.equal(rows(before, renamed.replace('const a = 1;', 'const a = 2;'), 'isFunction', 'isCallable'), undefined);
    assert.equal(rows(before, `${renamed}\nexport {};`, 'isFunction', 'isCallable'), undefined);
    // The last line break changed.
    assert.equal(rows('f(isFunction)\n', 'f(isCallable)', 'isFunction', 'isCallable'), undefined);
  });

  it('is undefined when the new name was already on a changed line: the row could not say which were renamed', () => {
    assert.equal(rows('a(isFunction, isCallable)', 'a(isCallable, isCallable)', 'isFunction', 'isCallable'), undefined);
    // Not whole words: a longer name that holds the new one is no obstacle.
    assert.deepEqual(rows('a(isFunction, isCallableX)', 'a(isCallable, isCallableX)', 'isFunction', 'isCallable'), [[1, 'a(isCallable, isCallableX)']]);
  });

  it('takes names with $ and non-ASCII letters as whole words, and leaves the CR of a CRLF line out of the row', () => {
    assert.deepEqual(rows('$el.x = $elX;\r\nnext();\r\n', '$node.x = $elX;\r\nnext();\r\n', '$el', '$node'), [[1, '$node.x = $elX;']]);
    assert.deepEqual(rows('größe(größeX)', 'size(größeX)', 'größe', 'size'), [[1, 'size(größeX)']]);
    assert.equal(rows('xgröße(1)', 'xsize(1)', 'größe', 'size'), undefined, 'größe inside a longer word is no occurrence');
  });

  it('leaves a changed line longer than the limit to the word diff, which cuts it', () => {
    const long = `f(isFunction, "${'x'.repeat(RENAME_ROW_MAX_CHARS)}")`;
    assert.equal(rows(long, long.replace('isFunction', 'isCallable'), 'isFunction', 'isCallable'), undefined);
  });

  it('is undefined when nothing changed', () => {
    assert.equal(rows(before, before, 'isFunction', 'isCallable'), undefined);
  });
});
