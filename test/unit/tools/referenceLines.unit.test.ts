import * as assert from 'node:assert/strict';
import { containerLabel, isAnonymous, lineWindow, referencesListed } from '../../../src/tools/references';
import type { ReferencesData } from '../../../src/tools/references';
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
      { line: 3, text: 'new Widget();', at: [first] },
      { line: 8, text: 'new Widget(),', in: 'helper', at: [second] },
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
      { line: 1, import: [offsets[0]] },
      { line: 2, import: [offsets[1]] },
      { line: 3, text: 'const w = new Widget();', at: [offsets[2]] },
    ]);
    assert.equal(referencesListed(d), 4, 'imports count as references');
  });
});
