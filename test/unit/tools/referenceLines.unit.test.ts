import * as assert from 'node:assert/strict';
import { containerLabel, decodeLines, encodeLine, isAnonymous, lineWindow, readLines, referencesListed } from '../../../src/tools/references';
import type { ReferenceLine, ReferencesData } from '../../../src/tools/references';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';

describe('find-references: what a reference line costs', () => {
  it('lineWindow keeps a short line whole and cuts a long one around the reference, marking each cut', () => {
    assert.equal(lineWindow('return chainC(2);', 7), 'return chainC(2);');
    const long = `const x = ${'a'.repeat(80)} + target(1) + ${'b'.repeat(80)};`;
    const at = long.indexOf('target');
    const cut = lineWindow(long, at);
    assert.ok(cut.startsWith('…') && cut.endsWith('…'), cut);
    assert.equal(cut.length, 102);
    assert.ok(cut.includes('target(1)'), 'the reference is inside the window');
    assert.equal(lineWindow(long, 0), `${long.slice(0, 100)}…`, 'a reference at the start: cut at the end only');
    assert.equal(lineWindow(long, long.length - 2), `…${long.slice(long.length - 100)}`, 'at the end: cut at the start only');
  });

  it('a line is a row without keys, [line, text, in, ...at, {other fields}], and reads back as the line it was', () => {
    const lines: ReferenceLine[] = [
      { line: 1, import: [9] },
      { line: 4, text: 'return f(x);', in: 'Widget.run', at: [40] },
      { line: 4, in: 'Widget.run.inner', at: [44] },
      { line: 7, text: 'x = f(f(1));', at: [90], write: [80], len: [3, 1, 1] },
      { line: 9, text: 'import("./f");', in: '', import: [120], edited: [120] },
      { line: 12, text: 'class F {', decl: [150] },
    ];
    const rows = lines.map(encodeLine);
    assert.deepEqual(rows, [
      [1, { import: [9] }],
      [4, 'return f(x);', 'Widget.run', 40],
      [4, null, 'Widget.run.inner', 44],
      [7, 'x = f(f(1));', 90, { write: [80], len: [3, 1, 1] }],
      [9, 'import("./f");', '', { import: [120], edited: [120] }],
      [12, 'class F {', { decl: [150] }],
    ]);
    assert.deepEqual(decodeLines({ lines: rows }), lines);
    assert.deepEqual(
      readLines({ lines: rows }).map((l) => [l.text, l.in]),
      [
        [undefined, undefined],
        ['return f(x);', 'Widget.run'],
        ['return f(x);', 'Widget.run.inner'],
        ['x = f(f(1));', 'Widget.run.inner'],
        [undefined, undefined],
        ['class F {', undefined],
      ],
      'a row without text has the text of the row before (an import line none); without in, the container of the row before',
    );
    const bytes = (x: unknown) => JSON.stringify(x).length;
    assert.ok(bytes(rows) < 0.75 * bytes(lines), `${bytes(rows)} B as rows, ${bytes(lines)} B as objects`);
  });

  it('containerLabel keeps a short path whole and the innermost names of a long one, marking the cut', () => {
    assert.equal(containerLabel(['Editor', 'commands']), 'Editor.commands');
    const deep = ['ExtensionManager', 'createNodeViewsForAllExtensions', 'resolveStorageForNode', 'check'];
    assert.equal(containerLabel(deep), '….resolveStorageForNode.check');
    const long = 'x'.repeat(80);
    assert.equal(containerLabel(['suite', long]), `${'x'.repeat(38)}…`);
    for (const label of [containerLabel(deep), containerLabel(['suite', long])]) assert.ok(label.length <= 40, label);
  });

  it("anonymous callbacks and a function's locals are no container: the named symbols around them are", async () => {
    assert.equal(isAnonymous("it('undoes') callback"), true);
    assert.equal(isAnonymous('<function>'), true);
    assert.equal(isAnonymous('callbackRegistry'), false);
    const host = new FakeHost();
    const DECL = 'export class Widget {}\n';
    const TEST =
      "describe('w', () => {\n  it('makes one', () => {\n    new Widget();\n  });\n});\nfunction helper() {\n  const made = [\n    new Widget(),\n  ];\n}\n";
    const folder = host.addFolder('app', { 'src/widget.ts': DECL, 'src/widget.test.ts': TEST });
    const declPath = host.abs(folder, 'src/widget.ts');
    const testPath = host.abs(folder, 'src/widget.test.ts');
    host.setSymbols(declPath, symbolsIn(DECL, [{ name: 'Widget', kind: 'Class', from: 'export class' }]));
    const describeEnd = TEST.indexOf('function helper');
    const itEnd = TEST.indexOf('  });\n});') + 5;
    const helperStart = describeEnd;
    host.setSymbols(testPath, [
      {
        name: "describe('w') callback",
        kind: 'Function',
        detail: '',
        range: { start: 0, end: describeEnd - 1 },
        selectionRange: { start: 0, end: 8 },
        children: [
          {
            name: "it('makes one') callback",
            kind: 'Function',
            detail: '',
            range: { start: TEST.indexOf('it('), end: itEnd },
            selectionRange: { start: TEST.indexOf('it('), end: TEST.indexOf('it(') + 2 },
            children: [],
          },
        ],
      },
      {
        name: 'helper',
        kind: 'Function',
        detail: '',
        range: { start: helperStart, end: TEST.length - 1 },
        selectionRange: { start: helperStart + 9, end: helperStart + 15 },
        children: [
          {
            name: 'made',
            kind: 'Variable',
            detail: '',
            range: { start: TEST.indexOf('made'), end: TEST.indexOf('];') + 1 },
            selectionRange: { start: TEST.indexOf('made'), end: TEST.indexOf('made') + 4 },
            children: [],
          },
        ],
      },
    ]);
    host.openDocument(declPath);
    host.openDocument(testPath);
    const first = TEST.indexOf('Widget');
    const second = TEST.indexOf('Widget', first + 1);
    host.navigation.locations = () => [
      { absPath: declPath, range: { start: 13, end: 19 } },
      { absPath: testPath, range: { start: first, end: first + 6 } },
      { absPath: testPath, range: { start: second, end: second + 6 } },
    ];
    const h = await createHarness({ host });
    const d = (
      await h.ok<ReferencesData>('find-references', { symbol: { location: { selection: { document: { path: 'src/widget.ts' }, selectedText: 'Widget' } } } })
    ).data;
    const lines = d.documents.items.find((x) => x.path === 'src/widget.test.ts')?.lines;
    assert.deepEqual(lines, [
      [3, 'new Widget();', first],
      [8, 'new Widget(),', 'helper', second],
    ]);
  });

  it('an import or re-export line gives its offsets under import, without its text; other lines keep theirs', async () => {
    const host = new FakeHost();
    const DECL = 'export class Widget {}\n';
    const USE = "import { Widget } from './widget';\nexport { Widget as W } from './widget';\nconst w = new Widget();\n";
    const folder = host.addFolder('app', { 'src/widget.ts': DECL, 'src/use.ts': USE });
    const declPath = host.abs(folder, 'src/widget.ts');
    const usePath = host.abs(folder, 'src/use.ts');
    host.setSymbols(declPath, symbolsIn(DECL, [{ name: 'Widget', kind: 'Class', from: 'export class' }]));
    host.setSymbols(usePath, []);
    host.openDocument(declPath);
    host.openDocument(usePath);
    const at = (from: number) => USE.indexOf('Widget', from);
    const offsets = [at(0), at(USE.indexOf('export')), at(USE.indexOf('new'))];
    host.navigation.locations = () => [
      { absPath: declPath, range: { start: 13, end: 19 } },
      ...offsets.map((start) => ({ absPath: usePath, range: { start, end: start + 6 } })),
    ];
    const h = await createHarness({ host });
    const d = (
      await h.ok<ReferencesData>('find-references', { symbol: { location: { selection: { document: { path: 'src/widget.ts' }, selectedText: 'Widget' } } } })
    ).data;
    const use = d.documents.items.find((x) => x.path === 'src/use.ts');
    assert.deepEqual(use?.lines, [
      [1, { import: [offsets[0]] }],
      [2, { import: [offsets[1]] }],
      [3, 'const w = new Widget();', offsets[2]],
    ]);
    assert.equal(referencesListed(d), 4, 'imports count as references');
  });
});
