import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diffTexts, diffTextsWhole, formatUnifiedDiff, lineCounts, splitLinesKeepEnds } from '../../../../src/core/transactions/diff';
import { segmentReader } from '../../../../src/core/transactions/textReader';
import { applyOffsetEdits, replaceSegments } from '../../../../src/core/transactions/segments';
import type { Segment } from '../../../../src/core/transactions/segments';
import type { DiffHunk } from '../../../../src/core/transactions/diff';
import { hunkWordText, WORD_CONTEXT_CHARS } from '../../../../src/core/transactions/wordDiff';

/** GNU diff's +/- line counts for two texts. */
function gnuCounts(dir: string, original: string, updated: string): { added: number; removed: number } {
  fs.writeFileSync(path.join(dir, 'a'), original);
  fs.writeFileSync(path.join(dir, 'b'), updated);
  const r = spawnSync('diff', ['-U0', path.join(dir, 'a'), path.join(dir, 'b')], { encoding: 'utf8' });
  const lines = r.stdout.split('\n');
  return {
    added: lines.filter((l) => l.startsWith('+') && !l.startsWith('+++ ')).length,
    removed: lines.filter((l) => l.startsWith('-') && !l.startsWith('--- ')).length,
  };
}

/** Applies our hunks with GNU patch to the original and returns the result. */
function patched(dir: string, original: string, updated: string, contextLines: number): string {
  const file = path.join(dir, 'target');
  fs.writeFileSync(file, original);
  const { hunks } = diffTexts(original, updated, contextLines);
  const patchFile = path.join(dir, 'change.patch');
  fs.writeFileSync(patchFile, formatUnifiedDiff(hunks));
  execFileSync('patch', ['--quiet', '--force', '--no-backup-if-mismatch', file, patchFile]);
  return fs.readFileSync(file, 'utf8');
}

const CASES: { name: string; original: string; updated: string }[] = [
  { name: 'LF, one line changed', original: 'a\nb\nc\nd\ne\nf\ng\nh\n', updated: 'a\nb\nc\nD\ne\nf\ng\nh\n' },
  { name: 'CRLF lines', original: 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n', updated: 'one\r\n2\r\nthree\r\nfour\r\nfive\r\nsix\r\n' },
  { name: 'no final newline, last line changed', original: 'x\ny\nz', updated: 'x\ny\nZ' },
  { name: 'final newline added', original: 'x\ny\nz', updated: 'x\ny\nz\n' },
  { name: 'final newline removed', original: 'x\ny\nz\n', updated: 'x\ny\nz' },
  { name: 'non-BMP characters', original: 'const a = "😀";\nconst b = "𝄞";\nconst c = 1;\n', updated: 'const a = "😀😀";\nconst b = "𝄞";\nconst c = "🎉";\n' },
  { name: 'CRLF without final newline and emoji', original: 'α\r\n😀 β\r\nγ\r\nδ', updated: 'α\r\n😀 β!\r\nγ\r\nδ\r\nε' },
  { name: 'empty to text', original: '', updated: 'new\nfile\n' },
  { name: 'text to empty', original: 'gone\nfile\n', updated: '' },
  {
    name: 'insert at start and delete at end',
    original: '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n',
    updated: '0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n',
  },
];

/** The lines a hunk removes ('-') or adds ('+'), joined as they read. */
const sideOf = (h: DiffHunk, sign: '-' | '+'): string =>
  h.lines
    .filter((l) => l.startsWith(sign))
    .map((l) => l.slice(1))
    .join('\n');

/** A seeded sequence of whole numbers below n (the same edits every run). */
function seeded(seed: number): (n: number) => number {
  return (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
}

function scattered(lines: number, changes: number, seed: number): { original: string; updated: string } {
  let s = seed;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const base = Array.from({ length: lines }, (_, i) => `line ${i} ${i % 7 === 0 ? '' : 'x'.repeat(i % 13)}`);
  const next = [...base];
  for (let k = 0; k < changes; k++) {
    const at = Math.floor(rnd() * next.length);
    const r = rnd();
    if (r < 0.4) next[at] += ' // changed';
    else if (r < 0.7) next.splice(at, 1);
    else next.splice(at, 0, `inserted ${k} 😀`);
  }
  return { original: base.join('\r\n') + '\r\n', updated: next.join('\r\n') };
}

describe('diff (unified hunks against GNU patch and diff)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-diff-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const all = [...CASES, { name: 'scattered changes in 2,000 CRLF lines', ...scattered(2000, 60, 7) }];
  for (const c of all) {
    for (const contextLines of [0, 3, 10]) {
      it(`${c.name}, contextLines ${contextLines}: patch gives the staged text and counts equal GNU diff's`, () => {
        assert.equal(patched(dir, c.original, c.updated, contextLines), c.updated);
        const ours = diffTexts(c.original, c.updated, contextLines);
        const gnu = gnuCounts(dir, c.original, c.updated);
        assert.deepEqual({ added: ours.addedLines, removed: ours.removedLines }, gnu);
        for (const h of ours.hunks) {
          const old = h.lines.filter((l) => l[0] === ' ' || l[0] === '-').length;
          const neu = h.lines.filter((l) => l[0] === ' ' || l[0] === '+').length;
          assert.equal(h.originalLineCount, old);
          assert.equal(h.updatedLineCount, neu);
        }
      });
    }
  }

  it('keeps the \\r of CRLF lines and marks a missing final newline', () => {
    const { hunks } = diffTexts('a\r\nb', 'a\r\nc', 1);
    assert.deepEqual(hunks, [
      {
        originalStartLine: 1,
        originalLineCount: 2,
        updatedStartLine: 1,
        updatedLineCount: 2,
        lines: [' a\r', '-b', '\\ No newline at end of file', '+c', '\\ No newline at end of file'],
      },
    ]);
  });

  it('shows exactly contextLines unchanged lines before and after a change', () => {
    const original = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const updated = original.replace('line 10\n', 'LINE 10\n');
    for (const contextLines of [0, 1, 3, 10]) {
      const [hunk] = diffTexts(original, updated, contextLines).hunks;
      const before = Array.from({ length: contextLines }, (_, k) => ` line ${10 - contextLines + k}`);
      const after = Array.from({ length: Math.min(contextLines, 9) }, (_, k) => ` line ${11 + k}`);
      assert.deepEqual(hunk.lines, [...before, '-line 10', '+LINE 10', ...after], `contextLines ${contextLines}`);
      assert.equal(hunk.originalStartLine, 11 - contextLines);
    }
  });

  it('counts changed lines as replacements in place', () => {
    assert.deepEqual(lineCounts('a\nb\nc\n', 'a\nB\nC\nD\n'), { addedLines: 3, removedLines: 2, changedLines: 2 });
    assert.deepEqual(lineCounts('same\n', 'same\n'), { addedLines: 0, removedLines: 0, changedLines: 0 });
  });

  it('counts without walking the lines both texts share as the whole diff counts, over thousands of edits of real files', () => {
    const random = seeded(7);
    const dir = path.join('node_modules', 'rxjs', 'src', 'internal', 'operators');
    const texts = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const long = texts.join('');
    const edits: ((t: string) => string)[] = [
      (t) => t.replace(/\bsubscriber\b/g, 'sink'),
      (t) => {
        const lines = t.split('\n');
        lines.splice(random(lines.length + 1), random(4), ...Array.from({ length: random(4) }, () => `added ${random(3)}`));
        return lines.join('\n');
      },
      (t) => `// head\n${t}`,
      (t) => `${t}// tail\n`,
      (t) => t.replace(/\n$/, ''),
      (t) => t.replace(/\n/g, () => (random(40) === 0 ? '\n\n' : '\n')),
      (t) => {
        // A block moved far down: resync must look past the margin's reach to pair it.
        const lines = t.split('\n');
        const at = random(lines.length);
        const block = lines.splice(at, 5);
        lines.splice(Math.min(lines.length, at + 300 + random(300)), 0, ...block);
        return lines.join('\n');
      },
    ];
    let compared = 0;
    for (const original of [...texts, long, long.replace(/\n/g, '\r\n')]) {
      for (let k = 0; k < 12; k++) {
        let updated = original;
        for (let e = 0, n = 1 + random(3); e < n; e++) updated = edits[random(edits.length)](updated);
        const { addedLines, removedLines, changedLines } = diffTextsWhole(original, updated);
        assert.deepEqual(lineCounts(original, updated), { addedLines, removedLines, changedLines }, `text ${compared}`);
        compared++;
      }
    }
    assert.ok(compared > 1000, `${compared} pairs`);
  });

  it('counts changes far apart in a long file as the whole diff does: each group walked alone, in step again between them', () => {
    const { base, edit } = farApart(11, 6000);
    const original = base.join('\n') + '\n';
    for (let round = 0; round < 60; round++) {
      const { lines, at } = edit();
      const updated = lines.join('\n');
      const { addedLines, removedLines, changedLines } = diffTexts(original, updated);
      assert.deepEqual(lineCounts(original, updated), { addedLines, removedLines, changedLines }, `round ${round}: lines ${at.join(', ')}`);
    }
    // An empty first line changed: the difference at offset 0 is on line 1.
    assert.deepEqual(lineCounts('\nabc\n', 'x\nabc\n'), { addedLines: 1, removedLines: 1, changedLines: 1 });
  });

  it('diffs a long file a group of changes at a time: the same hunks as walking it whole, at any context, CRLF and a last line without its newline', () => {
    const { base, edit } = farApart(23, 5000);
    for (let round = 0; round < 48; round++) {
      const eol = round % 4 === 3 ? '\r\n' : '\n';
      const { lines, at } = edit();
      const original = base.join(eol) + (round % 3 === 0 ? '' : eol);
      const updated = lines.join(eol) + (round % 5 === 0 ? '' : eol);
      for (const context of [0, 3, 40, 101]) {
        assert.deepEqual(
          diffTexts(original, updated, context),
          diffTextsWhole(original, updated, context),
          `round ${round}, context ${context}: lines ${at.join(', ')}`,
        );
      }
    }
    const long = base.join('\n') + '\n';
    assert.deepEqual(diffTexts(long, long), { addedLines: 0, removedLines: 0, changedLines: 0, hunks: [] });
    const edge = `${long}last`;
    assert.deepEqual(diffTexts(long, edge), diffTextsWhole(long, edge), 'a line added at the end, without its newline');
    assert.deepEqual(diffTexts(edge, long), diffTextsWhole(edge, long));
  });

  it('walks a group again with the wide margin when its walk looks past the lines after its last change', () => {
    // Each change below makes the walk's resync search further than the few lines a group is first cut at.
    const base = Array.from({ length: 3000 }, (_, i) => (i % 7 === 3 ? '}' : `const v${i} = f(${i});`));
    const cases: [string, (lines: string[]) => void][] = [
      ['five lines moved twelve down', (l) => l.splice(1012, 0, ...l.splice(1000, 5))],
      ['a block moved 300 lines down', (l) => l.splice(1300, 0, ...l.splice(1000, 9))],
      ['repeated lines around an edit', (l) => l.splice(1000, 4, '}', '}', '}', 'x', '}', '}')],
      ['twenty lines deleted and ten of them re-inserted after eight', (l) => l.splice(1028, 0, ...l.splice(1000, 20).slice(0, 10))],
      ['changes nine lines apart, again and again', (l) => l.forEach((_, i) => i % 9 === 0 && (l[i] = `${l[i]} // ${i}`))],
      ['a change in the last line', (l) => (l[l.length - 1] = 'last')],
    ];
    for (const [name, change] of cases) {
      for (const eol of ['\n', '\r\n']) {
        const lines = [...base];
        change(lines);
        const original = base.join(eol) + eol;
        const updated = lines.join(eol) + eol;
        const whole = diffTextsWhole(original, updated, 3);
        assert.deepEqual(
          lineCounts(original, updated),
          { addedLines: whole.addedLines, removedLines: whole.removedLines, changedLines: whole.changedLines },
          name,
        );
        for (const context of [0, 3, 12]) {
          assert.deepEqual(diffTexts(original, updated, context), diffTextsWhole(original, updated, context), `${name}, context ${context}`);
        }
      }
    }
  });

  it('counts and diffs as the whole walk where most lines repeat, so a walk resyncs on lines far from a change', () => {
    const random = seeded(1);
    const common = ['}', '', '  return x;', '{', '}', '}'];
    for (let round = 0; round < 60; round++) {
      const base = Array.from({ length: 3000 }, (_, i) => (random(2) === 0 ? common[random(common.length)] : `const v${i} = f(${i});`));
      const lines = [...base];
      const at = Array.from({ length: 1 + random(3) }, () => random(lines.length)).sort((a, b) => b - a);
      for (const i of at) {
        const kind = random(5);
        if (kind === 0) lines[i] += ' // renamed';
        else if (kind === 1) lines.splice(i, 1 + random(12));
        else if (kind === 2) lines.splice(i, 0, ...Array.from({ length: 1 + random(12) }, () => common[random(common.length)]));
        else if (kind === 3) lines[i] = common[random(common.length)];
        else lines.splice(Math.min(lines.length, i + 5 + random(20)), 0, ...lines.splice(i, 1 + random(6)));
      }
      const original = base.join('\n') + '\n';
      const updated = lines.join('\n') + '\n';
      const whole = diffTextsWhole(original, updated, 3);
      const counts = { addedLines: whole.addedLines, removedLines: whole.removedLines, changedLines: whole.changedLines };
      assert.deepEqual(lineCounts(original, updated), counts, `round ${round}: lines ${at.join(', ')}`);
      assert.deepEqual(diffTexts(original, updated, 3), whole, `round ${round}: lines ${at.join(', ')}`);
    }
  });

  it('diffs short texts (a few hundred lines, over 4 KB) a group of changes at a time as walking them whole, any edit, any context', () => {
    const random = seeded(7);
    const common = ['}', '', '  return x;', '{'];
    for (let round = 0; round < 200; round++) {
      const size = 60 + random(400);
      const base = Array.from({ length: size }, (_, i) => (random(3) === 0 ? common[random(common.length)] : `const v${i} = f(${i});`));
      const lines = [...base];
      const at = Array.from({ length: 1 + random(4) }, () => random(lines.length)).sort((a, b) => b - a);
      for (const i of at) {
        const kind = random(4);
        if (kind === 0) lines[i] += ' // renamed';
        else if (kind === 1) lines.splice(i, 1 + random(8));
        else if (kind === 2) lines.splice(i, 0, ...Array.from({ length: 1 + random(8) }, () => common[random(common.length)]));
        else lines.splice(Math.min(lines.length, i + 3 + random(10)), 0, ...lines.splice(i, 1 + random(4)));
      }
      const eol = round % 4 === 3 ? '\r\n' : '\n';
      const original = base.join(eol) + (round % 3 === 0 ? '' : eol);
      const updated = lines.join(eol) + (round % 5 === 0 ? '' : eol);
      for (const context of [0, 3]) {
        assert.deepEqual(diffTexts(original, updated, context), diffTextsWhole(original, updated, context), `round ${round}, context ${context}`);
      }
    }
  });

  it('counts and diffs a staged text read through its segments as the joined text, and reads it as the string reads (random rounds of edits)', () => {
    const random = seeded(3);
    const dir = path.join('node_modules', 'rxjs', 'src', 'internal', 'operators');
    const all = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const texts = all.slice(0, 40);
    const pieces = ['subscriber', 'x', '\n', '\r\n', '}\n', '', 'sink'];
    let compared = 0;
    // Texts over 4 KB are diffed a group of changes at a time, the others whole.
    for (const original of [...texts, texts.join(''), all.join(''), all.join('').replace(/\n/g, '\r\n'), '', 'one line, no break']) {
      for (let k = 0; k < 6; k++) {
        let text = original;
        let segments: readonly Segment[] = original === '' ? [] : [{ start: 0, end: original.length }];
        // One to three revisions, each edits of the staged text applied as StateBuilder applies them.
        for (let r = 0, n = 1 + random(3); r < n; r++) {
          const edits: { start: number; end: number; newText: string }[] = [];
          for (let at = random(50); at <= text.length; at += 1 + random(Math.max(2, text.length >> 2))) {
            const end = Math.min(text.length, at + random(12));
            edits.push({ start: at, end, newText: Array.from({ length: random(3) }, () => pieces[random(pieces.length)]).join('') });
            at = end;
          }
          for (let i = edits.length - 1; i >= 0; i--) segments = replaceSegments(segments, edits[i].start, edits[i].end, edits[i].newText);
          text = applyOffsetEdits(text, edits);
        }
        const reader = segmentReader(original, segments);
        assert.equal(reader.length, text.length);
        assert.equal(reader.slice(0), text);
        for (let probe = 0; probe < 5; probe++) {
          const a = random(text.length + 1);
          const b = a + random(200);
          assert.equal(reader.slice(a, b), text.slice(a, b));
          assert.equal(reader.lineEnd(a), text.indexOf('\n', a));
        }
        assert.deepEqual(lineCounts(original, reader), lineCounts(original, text), `text ${compared}`);
        assert.deepEqual(diffTexts(original, reader, 3), diffTexts(original, text, 3), `text ${compared}: hunks`);
        compared++;
      }
    }
    assert.ok(compared > 250, `${compared} texts`);
  });

  it('counts a change at either edge of the blocks the shared head and tail are compared in', () => {
    const original = Array.from({ length: 700 }, (_, i) => `line ${i}`.padEnd(11, '.')).join('\n') + '\n';
    for (const at of [0, 1, 2047, 2048, 2049, 4095, 4096, 4097, original.length - 2049, original.length - 2048, original.length - 2, original.length - 1]) {
      const updated = original.slice(0, at) + (original[at] === 'x' ? 'y' : 'x') + original.slice(at + 1);
      const { addedLines, removedLines, changedLines } = diffTexts(original, updated);
      assert.deepEqual(lineCounts(original, updated), { addedLines, removedLines, changedLines }, `changed at ${at}`);
      // And when one text is a chunk or more longer than the other.
      const longer = original.slice(0, at) + 'z'.repeat(2048) + original.slice(at);
      assert.deepEqual(
        lineCounts(original, longer),
        (({ addedLines: a, removedLines: r, changedLines: c }) => ({ addedLines: a, removedLines: r, changedLines: c }))(diffTexts(original, longer)),
        `inserted at ${at}`,
      );
    }
  });

  it('merges hunks closer than twice the context, as diff -u does', () => {
    const original = Array.from({ length: 30 }, (_, i) => `${i}`).join('\n') + '\n';
    const updated = original.replace('\n5\n', '\nfive\n').replace('\n11\n', '\neleven\n');
    assert.equal(diffTexts(original, updated, 3).hunks.length, 1, 'gap of 5 lines <= 6 merges');
    assert.equal(diffTexts(original, updated, 2).hunks.length, 2, 'gap of 5 lines > 4 splits');
  });

  it('splits lines keeping their terminators', () => {
    assert.deepEqual(splitLinesKeepEnds('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
    assert.deepEqual(splitLinesKeepEnds(''), []);
  });
});

/** One side of a word-diff hunk's body: a line marked whole belongs to its side only; in the others, the other side's marks are dropped and this side's unwrapped. */
function side(body: string, keep: 'old' | 'new'): string {
  const wholeOld = /^\[-((?:(?!-\]).)*)-\]$/;
  const wholeNew = /^\{\+((?:(?!\+\}).)*)\+\}$/;
  const [dropped, kept] = keep === 'old' ? [/\{\+.*?\+\}/g, /\[-(.*?)-\]/g] : [/\[-.*?-\]/g, /\{\+(.*?)\+\}/g];
  return body
    .split('\n')
    .filter((line) => !(keep === 'old' ? wholeNew : wholeOld).test(line))
    .map((line) => line.replace(dropped, '').replace(kept, '$1'))
    .join('\n');
}

describe('word diff (git diff --word-diff=plain)', () => {
  const words = (original: string, updated: string, contextLines = 0) => diffTexts(original, updated, contextLines).hunks.map(hunkWordText);

  it('shows a renamed identifier once, in its line', () => {
    assert.deepEqual(
      words("import { isFunction } from './util';\nx\nreturn isFunction(a);\n", "import { isCallable } from './util';\nx\nreturn isCallable(a);\n"),
      ["@@ -1 +1 @@\nimport { [-isFunction-]{+isCallable+} } from './util';", '@@ -3 +3 @@\nreturn [-isFunction-]{+isCallable+}(a);'],
    );
  });

  it('marks added and removed lines whole, and lines whose breaks change, and keeps context lines plain', () => {
    assert.deepEqual(words('a\nb\nc\n', 'a\nb\nnew\n\nc\n', 1), ['@@ -2,2 +2,4 @@\nb\n{+new+}\n{++}\nc']);
    assert.deepEqual(words('a\nb\nc\n', 'a\nc\n'), ['@@ -2 +1,0 @@\n[-b-]']);
    assert.deepEqual(words('one two\nthree\n', 'one 2\nthree four\n'), ['@@ -1,2 +1,2 @@\none [-two-]{+2+}\nthree{+ four+}']);
    assert.deepEqual(words('a b\n', 'a\nb\n'), ['@@ -1 +1,2 @@\n[-a b-]\n{+a+}\n{+b+}'], 'a split line');
  });

  it('says a change of the last line break the unified way', () => {
    assert.deepEqual(words('a\nb', 'a\nb\n'), ['@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+b']);
  });

  it('marks a long rewrite by whole lines', () => {
    const original = Array.from({ length: 1500 }, (_, i) => `old ${i}`).join('\n') + '\n';
    const updated = Array.from({ length: 1500 }, (_, i) => `new ${i}`).join('\n') + '\n';
    const [hunk] = words(original, updated);
    const body = hunk.split('\n').slice(1);
    assert.deepEqual([body.length, body[0], body[1500]], [3000, '[-old 0-]', '{+new 0+}']);
  });

  it('cuts a long line around its changes, keeping the change whole', () => {
    // A line of minified code, 200,000 characters, that uses the renamed name three times.
    const filler = (n: number) => 'a.b(c,d);'.repeat(n);
    const line = `${filler(4000)}isFunction(x)${filler(7000)}isFunction.call(y)${filler(50)}isFunction`;
    const [hunk] = words(`${line}\n`, `${line.replace(/isFunction/g, 'isCallable')}\n`);
    const kept = WORD_CONTEXT_CHARS;
    const renamed = '[-isFunction-]{+isCallable+}';
    const between = (text: string) => `${text.slice(0, kept)}…${text.slice(-kept)}`;
    const expected = `@@ -1 +1 @@\n…${filler(4000).slice(-kept)}${renamed}${between(`(x)${filler(7000)}`)}${renamed}${between(`.call(y)${filler(50)}`)}${renamed}`;
    // Compared by hand: a failure must not print the 200,000-character line.
    assert.ok(hunk === expected, `got ${hunk.length} characters: ${hunk.slice(0, 300)}`);
  });

  it('splits no token or surrogate pair where the two sides part', () => {
    assert.deepEqual(words('let fooBar = 1;\n', 'let fooBaz = 1;\n'), ['@@ -1 +1 @@\nlet [-fooBar-]{+fooBaz+} = 1;']);
    assert.deepEqual(words('x \u{1D4B3} y\n', 'x \u{1D4B4} y\n'), ['@@ -1 +1 @@\nx [-\u{1D4B3}-]{+\u{1D4B4}+} y']);
    assert.deepEqual(words('x \u{1D4B3}a y\n', 'x \u{1D4B3}b y\n'), ['@@ -1 +1 @@\nx [-\u{1D4B3}a-]{+\u{1D4B3}b+} y']);
    assert.deepEqual(words('a  b\n', 'a   b\n'), ['@@ -1 +1 @@\na[-  -]{+   +}b']);
  });

  it('marks a rewritten line too long to tokenize whole', () => {
    const [hunk] = words(`${'x'.repeat(600_000)} old\n`, `${'y'.repeat(600_000)} new\n`);
    assert.ok(hunk === `@@ -1 +1 @@\n[-${'x'.repeat(600_000)} old-]\n{+${'y'.repeat(600_000)} new+}`, hunk.slice(0, 300));
  });

  it("cuts unchanged text in a changed line to the context beside its changes, showing only each side's text in order (random edits)", () => {
    const random = seeded(11);
    const vocabulary = ['foo', 'bar', 'baz(', ')', ' ', '.', 'x1', '\t', 'é', '\u{1D4B3}', ';', '…'];
    const line = (n: number) => Array.from({ length: n }, () => vocabulary[random(vocabulary.length)]).join('');
    const inOrder = (shown: string, text: string) => {
      let at = 0;
      for (const piece of shown.split('…').filter((p) => p !== '')) {
        const found = text.indexOf(piece, at);
        assert.ok(found >= 0, `${JSON.stringify(piece)} not in order in ${JSON.stringify(text.slice(0, 200))}`);
        at = found + piece.length;
      }
    };
    for (let round = 0; round < 150; round++) {
      const lines = Array.from({ length: 1 + random(3) }, () => line(random(120)));
      const changed = lines.map((l) => (random(2) === 0 ? l.replace(/bar/g, () => vocabulary[random(vocabulary.length)]) : l));
      for (const h of diffTexts(lines.join('\n') + '\n', changed.join('\n') + '\n', 0).hunks) {
        const body = hunkWordText(h).split('\n').slice(1).join('\n');
        inOrder(side(body, 'old'), sideOf(h, '-'));
        inOrder(side(body, 'new'), sideOf(h, '+'));
        // Within a changed line, no unchanged stretch is longer than the context kept on both sides of a change.
        for (const shown of body.split('\n').filter((l) => /\[-|\{\+/.test(l))) {
          const unchanged = shown.split(/\[-.*?-\]|\{\+.*?\+\}/);
          assert.ok(
            unchanged.every((u) => u.length <= 2 * WORD_CONTEXT_CHARS + 1),
            shown,
          );
        }
      }
    }
  });

  it('gives back both sides of every changed block exactly (random edits)', () => {
    const random = seeded(7);
    const vocabulary = ['foo', 'bar', 'baz(', ')', ' ', '  ', '.', 'x1', '', '\t', 'é', ';'];
    const line = () => Array.from({ length: random(6) }, () => vocabulary[random(vocabulary.length)]).join('');
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 1 + random(12) }, line);
      const changed = lines.map((l) => (random(3) === 0 ? line() : l));
      if (random(4) === 0) changed.splice(random(changed.length + 1), 0, line());
      if (random(4) === 0) changed.splice(random(changed.length), 1);
      const original = lines.join('\n') + '\n';
      const updated = changed.join('\n') + '\n';
      for (const h of diffTexts(original, updated, 0).hunks) {
        const body = hunkWordText(h).split('\n').slice(1).join('\n');
        assert.equal(side(body, 'old'), sideOf(h, '-'), `old side of ${JSON.stringify(h.lines)} from ${JSON.stringify(body)}`);
        assert.equal(side(body, 'new'), sideOf(h, '+'), `new side of ${JSON.stringify(h.lines)} from ${JSON.stringify(body)}`);
      }
    }
  });
});

/**
 * A long file's lines, code and lines that repeat (braces, blank lines tempt the resync to a wrong
 * place), and edits of it: a few changes far apart (a line edited, removed, inserted, replaced, two
 * made one), drawn from a seeded sequence.
 */
function farApart(seed: number, length: number): { base: string[]; edit: () => { lines: string[]; at: number[] } } {
  const random = seeded(seed);
  const common = ['}', '', '  return x;', '{'];
  const base = Array.from({ length }, (_, i) => (random(3) === 0 ? common[random(common.length)] : `const v${i} = f(${i});`));
  const edit = () => {
    const lines = [...base];
    // From the end, so each index still names the line it was drawn for.
    const at = Array.from({ length: 1 + random(6) }, () => random(lines.length)).sort((a, b) => b - a);
    for (const i of at) {
      const kind = random(5);
      if (kind === 0) lines[i] = `${lines[i]} // renamed`;
      else if (kind === 1) lines.splice(i, 1 + random(3));
      else if (kind === 2) lines.splice(i, 0, ...Array.from({ length: 1 + random(3) }, () => common[random(common.length)]));
      else if (kind === 3) lines[i] = common[random(common.length)];
      else lines.splice(i, 2, `moved ${i}`);
    }
    return { lines, at };
  };
  return { base, edit };
}
