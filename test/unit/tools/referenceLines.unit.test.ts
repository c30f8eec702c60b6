import * as assert from 'node:assert/strict';
import { containerLabel, decodeLines, encodeLine, isAnonymous, lineWindow, readLines, REFERENCE_ROW, referencesListed } from '../../../src/tools/references';
import type { ReferenceLine, ReferencesData } from '../../../src/tools/references';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import { DoorNaming } from '../../../src/core/chain/doors';
import { languageModelToolContribution } from '../../../src/core/chain/manifest';
import type { JsonSchema } from '../../../src/core/chain/schemas';
import { ALL_TOOLS } from '../../../src/tools';
import { dedupeTargets } from '../../../src/tools/shared/common';
import type { HostTarget } from '../../../src/core/documents/editorPort';

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

  it('a line is a row without keys, each position always one field, [line, at, text, in, {other fields}], and reads back as the line it was', () => {
    const lines: ReferenceLine[] = [
      { line: 1, import: [9] },
      { line: 4, text: 'return f(x);', in: 'Widget.run', at: [40] },
      { line: 4, in: 'Widget.run.inner', at: [44] },
      { line: 7, text: 'x = f(f(1));', at: [90], write: [80], len: [3, 1, 1] },
      { line: 9, in: '', import: [120], edited: [120] },
      { line: 12, text: 'class F {', decl: [150] },
    ];
    const rows = lines.map(encodeLine);
    assert.deepEqual(rows, [
      [1, [9], ''],
      [4, [40], 'return f(x);', 'Widget.run'],
      [4, [44], null, 'Widget.run.inner'],
      [7, [90], 'x = f(f(1));', null, { write: [80], len: [3, 1, 1] }],
      [9, [120], '', '', { edited: [120] }],
      [12, [], 'class F {', null, { decl: [150] }],
    ]);
    for (const row of rows) {
      REFERENCE_ROW.forEach((_name, i) => {
        const v = row[i];
        const expected = [['number'], ['array'], ['string', 'null'], ['string', 'null'], ['object', 'null']][i];
        if (i < row.length) assert.ok(expected.includes(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v), `${JSON.stringify(row)} position ${i}`);
      });
      assert.notEqual(row[row.length - 1], null, 'trailing nulls are cut');
    }
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
    assert.ok(bytes(rows) < bytes(lines), `${bytes(rows)} B as rows, ${bytes(lines)} B as objects`);
    // Most rows on real code read the symbol on a line of their own: there keys would cost a third more.
    const reads: ReferenceLine[] = [
      { line: 3, text: 'return f(x);', at: [40] },
      { line: 8, text: 'const y = f(1) + f(2);', at: [70, 77] },
      { line: 11, text: 'f(y);', in: 'main', at: [120] },
    ];
    assert.ok(bytes(reads.map(encodeLine)) < 0.75 * bytes(reads), `${bytes(reads.map(encodeLine))} B as rows, ${bytes(reads)} B as objects`);
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
      [3, [first], 'new Widget();'],
      [8, [second], 'new Widget(),', 'helper'],
    ]);
  });

  it('an import or re-export line gives no text ("") and its offsets are its imports; other lines keep theirs', async () => {
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
      [1, [offsets[0]], ''],
      [2, [offsets[1]], ''],
      [3, [offsets[2]], 'const w = new Widget();'],
    ]);
    assert.equal(referencesListed(d), 4, 'imports count as references');
  });

  it('an answer reads with only what the definitions say: the row layout and the null rule come from the description a model is sent', async () => {
    const tool = ALL_TOOLS.find((t) => t.name === 'find-references');
    assert.ok(tool);
    const naming = new DoorNaming(
      'vscode.lm',
      ALL_TOOLS.map((t) => t.name),
    );
    const description = String(languageModelToolContribution(tool, naming).modelDescription);
    const layout = /a row a line: \[([^\]]+)\]/.exec(description)?.[1];
    assert.ok(layout, description);
    const positions = layout.split(', ').map((p) => /^\{(.+)\}$/.exec(p)?.[1].split('|') ?? p);
    const asBefore = /null ([\w/]+): the row before's/.exec(description)?.[1].split('/');
    assert.ok(asBefore, description);
    // What an empty text says of a row's offsets.
    const emptyText = /text "": an import line \(offsets: (\w+)\)/.exec(description)?.[1];
    assert.equal(emptyText, 'imports', description);
    // The output schema names the same positions.
    const documentsSchema = (tool.dataSchema.properties as Record<string, JsonSchema>).documents;
    const linesSchema = (((documentsSchema.properties as Record<string, JsonSchema>).items as JsonSchema).items as JsonSchema).properties as Record<
      string,
      JsonSchema
    >;
    const schemaLayout = /\[([^\]]+)\]/.exec(String(linesSchema.lines.description))?.[1].split(', ');
    assert.deepEqual(schemaLayout, [...REFERENCE_ROW]);
    assert.deepEqual(
      positions.map((p, i) => (typeof p === 'string' ? p : REFERENCE_ROW[i])),
      [...REFERENCE_ROW],
    );

    const host = new FakeHost();
    const DECL = 'export let count = 0;\nexport function bump() {\n  count = count + 1;\n}\n';
    const USE = "import { count } from './decl';\nexport class Panel {\n  show() {\n    return count;\n  }\n}\nconsole.log(count);\n";
    const folder = host.addFolder('app', { 'src/decl.ts': DECL, 'src/use.ts': USE });
    const declPath = host.abs(folder, 'src/decl.ts');
    const usePath = host.abs(folder, 'src/use.ts');
    host.setSymbols(
      declPath,
      symbolsIn(DECL, [
        { name: 'count', kind: 'Variable', from: 'export let', to: ';' },
        { name: 'bump', kind: 'Function', from: 'export function', to: '\n}' },
      ]),
    );
    host.setSymbols(
      usePath,
      symbolsIn(USE, [
        { name: 'Panel', kind: 'Class', from: 'export class', to: '\n}', children: [{ name: 'show', kind: 'Method', from: 'show', to: '  }' }] },
      ]),
    );
    host.openDocument(declPath);
    host.openDocument(usePath);
    const words = (text: string) => [...text.matchAll(/\bcount\b/g)].map((m) => m.index);
    host.navigation.locations = () => [
      ...words(DECL).map((start) => ({ absPath: declPath, range: { start, end: start + 5 } })),
      ...words(USE).map((start) => ({ absPath: usePath, range: { start, end: start + 5 } })),
    ];
    const written = DECL.indexOf('count = count');
    host.symbolProviders.highlights = (p) => (p === declPath ? [{ range: { start: written, end: written + 5 }, kind: 'write' }] : []);
    const h = await createHarness({ host });
    const d = (
      await h.ok<ReferencesData>('find-references', {
        symbol: { location: { selection: { document: { path: 'src/decl.ts' }, selectedText: 'count', contextBefore: 'let ' } } },
      })
    ).data;

    // The generic reader: a position's name from the layout, an object position's keys from its braces, null as the description says.
    const read: string[] = [];
    for (const doc of d.documents.items) {
      const before: Record<string, unknown> = {};
      for (const row of doc.lines as unknown[][]) {
        const fields: Record<string, unknown> = {};
        const accesses: [number, string][] = [];
        positions.forEach((p, i) => {
          const v = row[i];
          if (typeof p !== 'string') {
            for (const key of p) for (const at of ((v ?? {}) as Record<string, number[]>)[key] ?? []) accesses.push([at, key]);
          } else if (v === null && asBefore.includes(p)) fields[p] = before[p];
          else fields[p] = v;
          if (typeof p === 'string') before[p] = fields[p];
        });
        for (const at of fields.offsets as number[]) accesses.push([at, fields.text === '' ? 'import' : 'read']);
        for (const [at, access] of accesses.sort((a, b) => a[0] - b[0])) {
          read.push(`${doc.path}:${String(fields.line)} ${at} ${access} "${String(fields.text ?? '')}" in "${String(fields.container ?? '')}"`);
        }
      }
    }
    const at = (text: string, n: number) => words(text)[n];
    assert.deepEqual(read, [
      `src/decl.ts:1 ${at(DECL, 0)} decl "export let count = 0;" in ""`,
      `src/decl.ts:3 ${at(DECL, 1)} write "count = count + 1;" in "bump"`,
      `src/decl.ts:3 ${at(DECL, 2)} read "count = count + 1;" in "bump"`,
      `src/use.ts:1 ${at(USE, 0)} import "" in ""`,
      `src/use.ts:4 ${at(USE, 1)} read "return count;" in "Panel.show"`,
      `src/use.ts:7 ${at(USE, 2)} read "console.log(count);" in ""`,
    ]);
  });
});

describe('dedupeTargets: a provider answer in path and position order, each location once', () => {
  it('equals sorting the whole list by path, start and end and keeping the first of each location, on random answers', () => {
    const expected = (targets: readonly HostTarget[]) => {
      const seen = new Set<string>();
      return [...targets]
        .sort((a, b) => (a.absPath < b.absPath ? -1 : a.absPath > b.absPath ? 1 : a.range.start - b.range.start || a.range.end - b.range.end))
        .filter((t) => {
          const key = `${t.absPath}\0${t.range.start}\0${t.range.end}`;
          return !seen.has(key) && seen.add(key) !== undefined;
        });
    };
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 300; round++) {
      const paths = ['/w/src/b.ts', '/w/src/a.ts', '/w/src/a.ts.map', '/w/lib/z.ts', '/w/src/A.ts'].slice(0, 1 + next(5));
      const targets: HostTarget[] = Array.from({ length: next(60) }, (_, i) => {
        const start = next(40);
        return { absPath: paths[next(paths.length)], range: { start, end: start + next(3) }, tag: i } as HostTarget;
      });
      const got = dedupeTargets(targets);
      assert.deepEqual(got, expected(targets), `round ${round}`);
      // The first of equal locations is the one kept (its other fields are the provider's first answer).
      assert.ok(got.every((t) => targets.find((u) => u.absPath === t.absPath && u.range.start === t.range.start && u.range.end === t.range.end) === t));
    }
  });
});
