import * as assert from 'node:assert/strict';
import {
  findNearMisses,
  findSelection,
  LineIndex,
  lineStarts,
  offsetTouchingNoWord,
  reindentLines,
  splitsSurrogatePair,
  unitBelow,
  wordAt,
} from '../../../../src/core/documents/text';

describe('text: lineStarts and LineIndex', () => {
  it('splits LF, CRLF and lone CR line endings', () => {
    assert.deepEqual(lineStarts('a\nbc\nd'), [0, 2, 5]);
    assert.deepEqual(lineStarts('a\r\nbc\r\nd'), [0, 3, 7]);
    assert.deepEqual(lineStarts('a\rbc\rd'), [0, 2, 5]);
    assert.deepEqual(lineStarts('a\r\n\rb\n'), [0, 3, 4, 6]);
  });

  it('has one empty line for empty text and a trailing empty line after a final newline', () => {
    assert.deepEqual(lineStarts(''), [0]);
    const empty = new LineIndex('');
    assert.equal(empty.lineCount, 1);
    assert.equal(empty.lineText(0), '');
    assert.deepEqual(empty.positionAt(0), { line: 0, character: 0 });
    assert.equal(empty.offsetAt({ line: 3, character: 7 }), 0);
    const trailing = new LineIndex('x\r\n');
    assert.equal(trailing.lineCount, 2);
    assert.equal(trailing.lineText(1), '');
  });

  it('gives each line its text without the terminator, including a last line without newline', () => {
    const index = new LineIndex('one\r\ntwo\nthree\rfour');
    assert.equal(index.lineCount, 4);
    assert.deepEqual(
      [0, 1, 2, 3].map((l) => index.lineText(l)),
      ['one', 'two', 'three', 'four'],
    );
    assert.equal(index.lineEnd(0), 3);
    assert.equal(index.lineEnd(3), 'one\r\ntwo\nthree\rfour'.length);
  });

  it('round-trips every offset through positionAt/offsetAt (LF, CRLF, CR)', () => {
    for (const text of ['ab\ncd\n\nef', 'ab\r\ncd\r\n\r\nef', 'ab\rcd\r\ref', 'x']) {
      const index = new LineIndex(text);
      for (let offset = 0; offset <= text.length; offset++) {
        // An offset between \r and \n is not a position of its own: it maps to the end of the line.
        if (text[offset - 1] === '\r' && text[offset] === '\n') continue;
        const position = index.positionAt(offset);
        assert.equal(index.offsetAt(position), offset, `offset ${offset} of ${JSON.stringify(text)} -> ${JSON.stringify(position)}`);
      }
    }
  });

  it('puts a position right after CRLF at the start of the next line', () => {
    const index = new LineIndex('ab\r\ncd');
    assert.deepEqual(index.positionAt(4), { line: 1, character: 0 });
    assert.deepEqual(index.positionAt(2), { line: 0, character: 2 });
    assert.equal(index.offsetAt({ line: 1, character: 1 }), 5);
  });

  it('clamps offsets and columns instead of running into the next line', () => {
    const index = new LineIndex('ab\ncd');
    assert.deepEqual(index.positionAt(-5), { line: 0, character: 0 });
    assert.deepEqual(index.positionAt(99), { line: 1, character: 2 });
    assert.equal(index.offsetAt({ line: 0, character: 50 }), 2);
    assert.equal(index.offsetAt({ line: 9, character: 0 }), 3);
  });

  it('counts columns in UTF-16 code units after an emoji and counts a tab as one unit', () => {
    const text = 'x\n\t\t😀 = y;';
    const index = new LineIndex(text);
    const eq = text.indexOf('=');
    // two tabs (2) + surrogate pair (2) + space (1)
    assert.deepEqual(index.positionAt(eq), { line: 1, character: 5 });
    assert.equal(index.offsetAt({ line: 1, character: 5 }), eq);
  });
});

describe('text: LineIndex.of shares the index of a large text', () => {
  const large = (seed: string, lines: number) => Array.from({ length: lines }, (_, i) => `${seed} line ${i}`).join('\n');

  it('gives the same index for the same text, even as another string of equal content, and a fresh one for other text', () => {
    const text = large('a', 2_000);
    const first = LineIndex.of(text);
    assert.equal(LineIndex.of(text), first);
    assert.equal(LineIndex.of(text.split('\n').join('\n')), first, 'an equal text read again shares it');
    const other = LineIndex.of(large('b', 2_000));
    assert.notEqual(other, first);
    assert.deepEqual(other.positionAt(other.text.indexOf('line 1999')), { line: 1999, character: 2 });
    assert.deepEqual(first.starts, lineStarts(text));
  });

  it('indexes small texts anew, and keeps at most 16 M characters of large ones (least recently used dropped first)', () => {
    assert.notEqual(LineIndex.of('a\nb'), LineIndex.of('a\nb'));
    const big = (c: string) => c.repeat(6 * 1024 * 1024);
    const [x, y, z] = ['x', 'y', 'z'].map(big);
    const ix = LineIndex.of(x);
    const iy = LineIndex.of(y);
    assert.equal(LineIndex.of(x), ix, 'x is used again: now the most recent');
    LineIndex.of(z);
    assert.equal(LineIndex.of(x), ix, 'x stays: y was the least recently used');
    assert.notEqual(LineIndex.of(y), iy, 'y was dropped and is indexed anew');
  });
});

describe('text: splitsSurrogatePair', () => {
  const text = 'a😀b';
  it('is true only between the two halves', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((o) => splitsSurrogatePair(text, o)),
      [false, false, true, false, false],
    );
  });
  it('is false at the ends and for lone surrogates', () => {
    assert.equal(splitsSurrogatePair('😀', 0), false);
    assert.equal(splitsSurrogatePair('😀', 2), false);
    assert.equal(splitsSurrogatePair('\ud83dx', 1), false);
  });
});

describe('text: findSelection', () => {
  const text = 'let a = 1;\nlet b = 1;\nlet a = 2;\n';

  it('finds every occurrence without context', () => {
    assert.deepEqual(findSelection(text, 'let a'), [
      { start: 0, length: 5 },
      { start: 22, length: 5 },
    ]);
  });

  it('narrows with contextAfter and with contextBefore', () => {
    assert.deepEqual(findSelection(text, 'let a', null, ' = 2'), [{ start: 22, length: 5 }]);
    assert.deepEqual(findSelection(text, '1', 'b = '), [{ start: 19, length: 1 }]);
    assert.deepEqual(findSelection(text, '1', 'a = ', ';\nlet b'), [{ start: 8, length: 1 }]);
    assert.deepEqual(findSelection(text, '1', 'a = ', ';\nlet a'), []);
  });

  it('includes overlapping matches', () => {
    assert.deepEqual(
      findSelection('aaaa', 'aa').map((m) => m.start),
      [0, 1, 2],
    );
  });

  it('matches nothing for an empty needle or absent text', () => {
    assert.deepEqual(findSelection(text, ''), []);
    assert.deepEqual(findSelection(text, 'let c'), []);
  });

  it('compares context at the exact boundary (context must touch the selection)', () => {
    assert.deepEqual(findSelection('x = 1', '1', 'x ='), []);
    assert.deepEqual(findSelection('x = 1', '1', 'x = '), [{ start: 4, length: 1 }]);
  });
});

describe('text: findNearMisses', () => {
  it('reports a whitespace difference (tabs and spaces)', () => {
    const text = 'function  add(a,\tb) {}';
    const misses = findNearMisses(text, 'function add(a, b)');
    assert.equal(misses.length, 1);
    assert.equal(misses[0].start, 0);
    assert.equal(text.slice(misses[0].start, misses[0].start + misses[0].length), 'function  add(a,\tb)');
    assert.match(misses[0].difference, /whitespace/);
  });

  it('reports a line-ending difference (LF selection in a CRLF document)', () => {
    const text = 'head\r\nif (x) {\r\n  y();\r\n}\r\n';
    const misses = findNearMisses(text, 'if (x) {\n  y();\n}');
    assert.equal(misses.length, 1);
    assert.equal(misses[0].start, 6);
    assert.equal(text.slice(misses[0].start, misses[0].start + misses[0].length), 'if (x) {\r\n  y();\r\n}');
    assert.match(misses[0].difference, /line endings/);
  });

  it('reports a letter case difference', () => {
    const text = 'const userName = 1;';
    const misses = findNearMisses(text, 'USERNAME');
    assert.equal(misses.length, 1);
    assert.deepEqual({ start: misses[0].start, length: misses[0].length }, { start: 6, length: 8 });
    assert.match(misses[0].difference, /letter case/);
  });

  it('reports where the text matches but a context does not, naming which one', () => {
    const text = 'a = 1; b = 1;';
    const misses = findNearMisses(text, '1', 'c = ', null);
    assert.deepEqual(
      misses.map((m) => m.start),
      [4, 11],
    );
    assert.ok(misses.every((m) => /contextBefore/.test(m.difference) && !/contextAfter/.test(m.difference)));
    const after = findNearMisses(text, '1', 'b = ', '!');
    assert.equal(after.length, 2);
    assert.match(after.find((m) => m.start === 11)?.difference ?? '', /but contextAfter does not/);
    assert.match(after.find((m) => m.start === 4)?.difference ?? '', /contextBefore and contextAfter/);
  });

  it('falls back to the longest line of a partly stale selection', () => {
    const text = 'class A {\n  computeTotal(items) {\n    return 0;\n  }\n}\n';
    const stale = 'computeTotal(items) {\n    return sum(items);';
    const misses = findNearMisses(text, stale);
    assert.equal(misses.length, 1);
    assert.equal(misses[0].start, text.indexOf('computeTotal(items) {'));
    assert.equal(misses[0].length, 'computeTotal(items) {'.length);
    assert.match(misses[0].difference, /only the line "computeTotal\(items\) \{"/);
  });

  it('finds nothing when nothing is similar, and respects the limit', () => {
    assert.deepEqual(findNearMisses('abc', 'zzz'), []);
    const many = 'Foo foo FOO fOo FoO foO'.replace(/ /g, '\n');
    assert.equal(findNearMisses(many, 'fOO', null, null, 3).length, 3);
  });

  it('is deterministic: misses come in document order within a kind', () => {
    const text = 'X  y\nX y2\nX\ty';
    const misses = findNearMisses(text, 'X   y');
    assert.deepEqual(
      misses.map((m) => m.start),
      [0, 5, 10],
    );
  });
});

describe('text: wordAt and offsetTouchingNoWord', () => {
  it('picks the identifier around an offset, with $, _ and non-ASCII letters', () => {
    const text = 'const $café_2 = formatName(x);';
    assert.equal(wordAt(text, text.indexOf('$')), '$café_2');
    assert.equal(wordAt(text, text.indexOf('_2') + 2), '$café_2', 'at its end');
    assert.equal(wordAt(text, text.indexOf('Name')), 'formatName');
    assert.equal(wordAt(text, text.indexOf('= ') + 1), '', 'between two non-word characters');
  });

  it('finds the first offset with no word character on either side', () => {
    assert.equal(offsetTouchingNoWord('import { a } from "b";'), 7, 'the brace after a space, not the space after import');
    assert.equal(offsetTouchingNoWord('// note'), 0);
    assert.equal(offsetTouchingNoWord('word'), undefined);
  });
});

describe('text: reindentLines and unitBelow', () => {
  it('puts the common indentation at the given one and keeps relative levels, in the given unit', () => {
    const text = '    def added(self):\n        if x:\n            return 4\n';
    assert.deepEqual(reindentLines(text, '\t'), ['\tdef added(self):', '\t    if x:', '\t        return 4']);
    assert.deepEqual(reindentLines(text, '\t', '\t'), ['\tdef added(self):', '\t\tif x:', '\t\t\treturn 4']);
    assert.deepEqual(reindentLines('a:\n\tb\n\n\t\tc', '  ', '  '), ['  a:', '    b', '', '      c']);
    // Already in the unit, or nothing indented relative to the first line: unchanged.
    assert.deepEqual(reindentLines('x = 1\nreturn x', '\t\t', '\t'), ['\t\tx = 1', '\t\treturn x']);
    // A level that is not a whole number of the text's unit keeps its remainder.
    assert.deepEqual(reindentLines('a\n    b\n      c', '', '\t'), ['a', '\tb', '\t  c']);
  });

  it('indents below a tab-indented line with tabs, below a space-indented one as the file does', () => {
    const mixed = 'class A:\n\tdef f(self):\n\t\treturn 1\n\ndef g():\n    return 2\n';
    assert.equal(unitBelow('\t', mixed), '\t');
    assert.equal(unitBelow('    ', mixed), undefined, 'spaces in a file that also uses tabs: the text keeps its own');
    assert.equal(unitBelow('', 'def g():\n  return 2\n'), '  ');
    assert.equal(unitBelow('', 'x = 1\n'), undefined);
  });
});
