import { readOutline } from '../../../../src/tools/symbols';
import { readSearch } from '../../../../src/tools/search';
import type { OutlineData } from '../../../../src/tools/symbols';
import type { SearchData } from '../../../../src/tools/search';
import * as assert from 'node:assert/strict';
import {
  documentIdOfSymbol,
  encodePart,
  isLocal,
  parseSymbolId,
  readSymbol,
  symbolIdOf,
  SYMBOLS_READINESS,
  walkSymbols,
} from '../../../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../../../src/core/symbols/symbols';
import type { ReferencesData } from '../../../../src/tools/references';
import { decodeLines, readLines, REFERENCE_DOCUMENTS_AT_ONCE, referencesListed } from '../../../../src/tools/references';
import { READINESS } from '../../../../src/core/symbols/readiness';
import { FakeHost, symbolsIn } from '../../support/fakeHost';
import { createHarness, expectOk } from '../../support/harness';
import type { Harness } from '../../support/harness';

const SHAPES = [
  'export interface Shape { area(): number; }',
  'export class Circle implements Shape {',
  '  area(): number { return 1; }',
  '  pad(x: number): void;',
  '  pad(x: string): void;',
  '  pad(x: unknown): void {}',
  '}',
  'const odd = {',
  "  'a/b': 1,",
  '  "x.y": 2,',
  "  'it\\'s': 3,",
  '  $: 4,',
  '  naïve😀: 5,',
  '  "c#d~1%": 6,',
  '  "(get) x.y z": 7,',
  '};',
  '',
].join('\n');

const ODD_NAMES = ["'a/b'", '"x.y"', "'it\\'s'", '$', 'naïve😀', '"c#d~1%"', '(get) x.y z'];

const USE = 'import { Circle } from "./shapes";\nconst c = new Circle();\nc.area();\n';

function shapeSymbols(text: string) {
  return symbolsIn(text, [
    { name: 'Shape', kind: 'Interface', from: 'export interface Shape', to: '}' },
    {
      name: 'Circle',
      kind: 'Class',
      from: 'export class Circle',
      to: '\n}',
      children: [
        { name: 'area', kind: 'Method', from: 'area(): number {', to: '}' },
        { name: 'pad', kind: 'Method', from: 'pad(x: number)', to: ';' },
        { name: 'pad', kind: 'Method', from: 'pad(x: string)', to: ';' },
        { name: 'pad', kind: 'Method', from: 'pad(x: unknown)', to: '{}' },
      ],
    },
    { name: 'odd', kind: 'Variable', from: 'const odd', to: '};', children: ODD_NAMES.map((name) => ({ name, kind: 'Property', from: name, to: ',' })) },
  ]);
}

describe('core: symbolId', () => {
  it('parses what it builds, for odd names (/, ., quotes, $, #, ~, %, spaces, parentheses, non-ASCII) and a documentId with #', () => {
    const symbols = shapeSymbols(SHAPES);
    const odd = symbols[2];
    for (const child of odd.children) {
      const id = symbolIdOf('1a2b3c4d:src/we#ird.ts', symbols, [odd, child]);
      // Escapes leave only the separators, and the dot, parentheses and space that never clash with them.
      assert.match(id.slice(id.lastIndexOf('#') + 1), /^[A-Za-z0-9_$%:~/. ()-]+$/, id);
      const parsed = parseSymbolId(id);
      assert.ok(parsed, id);
      assert.equal(parsed.documentId, '1a2b3c4d:src/we#ird.ts');
      assert.deepEqual(
        parsed.segments.map((s) => s.name),
        ['odd', child.name],
      );
    }
  });

  it('tells overloads apart with an ordinal', () => {
    const symbols = shapeSymbols(SHAPES);
    const circle = symbols[1];
    const ids = circle.children.filter((c) => c.name === 'pad').map((c) => symbolIdOf('x:a.ts', symbols, [circle, c]));
    assert.deepEqual(ids, ['x:a.ts#Class:Circle/Method:pad', 'x:a.ts#Class:Circle/Method:pad~1', 'x:a.ts#Class:Circle/Method:pad~2']);
  });

  it('refuses strings that are not symbolIds', () => {
    for (const bad of ['', 'no-hash', 'a.ts#', 'a.ts#Class', 'a.ts#Class:%E0%A4']) assert.equal(parseSymbolId(bad), undefined, bad);
  });
});

const MODULE = `export function run(input: string) {
  const trimmed = input.trim();
  const handler = { onDone() { const inner = 1; } };
  return trimmed;
}
export class Box {
  size = 1;
  open() { class Hidden {} }
}
export const config = { label: 'x', start() { const begun = 0; } };
export const make = () => { const made = 1; };
`;

function moduleSymbols(text: string) {
  return symbolsIn(text, [
    {
      name: 'run',
      kind: 'Function',
      from: 'export function run',
      to: '\n}',
      children: [
        { name: 'trimmed', kind: 'Variable', from: 'const trimmed', to: ';' },
        {
          name: 'handler',
          kind: 'Variable',
          from: 'const handler',
          to: '};',
          children: [
            { name: 'onDone', kind: 'Method', from: 'onDone', to: '} }', children: [{ name: 'inner', kind: 'Variable', from: 'const inner', to: ';' }] },
          ],
        },
      ],
    },
    {
      name: 'Box',
      kind: 'Class',
      from: 'export class Box',
      to: '\n}',
      children: [
        { name: 'size', kind: 'Property', from: 'size', to: ';' },
        { name: 'open', kind: 'Method', from: 'open()', to: '} }', children: [{ name: 'Hidden', kind: 'Class', from: 'class Hidden', to: '{}' }] },
      ],
    },
    {
      name: 'config',
      kind: 'Variable',
      from: 'export const config',
      to: '};',
      children: [
        { name: 'label', kind: 'Property', from: 'label', to: ',' },
        { name: 'start', kind: 'Method', from: 'start()', to: '} }', children: [{ name: 'begun', kind: 'Variable', from: 'const begun', to: ';' }] },
      ],
    },
    { name: 'make', kind: 'Variable', from: 'export const make', to: '};', children: [{ name: 'made', kind: 'Variable', from: 'const made', to: ';' }] },
  ]);
}

describe('core: locals', () => {
  it("are what bodies declare and what a variable initializer declares, not a module-level object literal's members", () => {
    const walk = walkSymbols(moduleSymbols(MODULE));
    const name = (w: (typeof walk)[number]) => [...w.containers.map((c) => c.name), w.symbol.name].join('.');
    assert.deepEqual(walk.filter((w) => isLocal(w.symbol, w.containers)).map(name), [
      'run.trimmed',
      'run.handler',
      'run.handler.onDone',
      'run.handler.onDone.inner',
      'Box.open.Hidden',
      'config.start.begun',
      'make.made',
    ]);
    const getter = { name: '(get) area', detail: '', kind: 'Property', range: { start: 0, end: 1 }, selectionRange: { start: 0, end: 1 }, children: [] };
    const inGetter = { ...getter, name: 'a', kind: 'Variable' };
    assert.equal(isLocal(inGetter, [walk[5].symbol, getter]), true, "an accessor's body is a body");
    assert.equal(isLocal(getter, [walk[5].symbol]), false, 'the accessor itself is a member');
  });
});

describe('tools: symbols and references over the fake host', () => {
  let h: Harness;
  let host: FakeHost;
  let shapesPath: string;
  let usePath: string;

  beforeEach(async () => {
    host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}', 'src/shapes.ts': SHAPES, 'src/use.ts': USE, 'notes.txt': 'plain\n' });
    shapesPath = host.abs(folder, 'src/shapes.ts');
    usePath = host.abs(folder, 'src/use.ts');
    host.setSymbols(shapesPath, shapeSymbols(SHAPES));
    host.setSymbols(usePath, symbolsIn(USE, [{ name: 'c', kind: 'Variable', from: 'const c', to: ';' }]));
    h = await createHarness({ host });
  });

  const circleSelection = { location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'Circle', contextBefore: 'class ' } } };

  it('resolve-symbol: a location gives the symbolId, which resolves again after lines are inserted above', async () => {
    const first = (
      await h.ok<SymbolOutput>('resolve-symbol', {
        symbol: { location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'pad(x: string)' } } },
      })
    ).data;
    // The symbolId says the name, kind and container; they are not repeated, nor a span.
    assert.deepEqual(readSymbol(first), { name: 'pad', kind: 'Method', containerName: 'Circle' });
    assert.deepEqual([first.name, 'kind' in first, 'containerName' in first, 'span' in first, 'location' in first], [undefined, false, false, false, false]);
    assert.match(first.symbolId, /#Class:Circle\/Method:pad~1$/);
    assert.deepEqual([first.line, first.column], [5, 3]);
    const edited = `// one\n// two\n${SHAPES}`;
    host.editBuffer(shapesPath, edited);
    host.setSymbols(shapesPath, shapeSymbols(edited));
    const again = (await h.ok<SymbolOutput>('resolve-symbol', { symbol: { symbolId: first.symbolId } })).data;
    assert.equal(again.symbolId, first.symbolId);
    assert.deepEqual([again.line, again.column], [7, 3]);
  });

  it('resolve-symbol: every odd property name round-trips through its symbolId', async () => {
    const outline = {
      symbols: { items: readOutline((await h.ok<OutlineData>('get-document-outline', { document: { path: 'src/shapes.ts' }, symbolsLimit: 100 })).data) },
    };
    const odd = outline.symbols.items.filter((s) => readSymbol(s).containerName === 'odd');
    assert.deepEqual(
      odd.map((s) => readSymbol(s).name),
      ODD_NAMES,
    );
    // A name the symbolId percent-escapes is said again as name.
    for (const s of odd) assert.equal(s.name, encodePart(readSymbol(s).name) === readSymbol(s).name ? undefined : readSymbol(s).name, s.symbolId);
    assert.ok(
      odd.some((s) => s.name !== undefined),
      'some odd names need escapes',
    );
    const readable = odd.find((s) => readSymbol(s).name === '(get) x.y z');
    assert.ok(
      readable?.symbolId.endsWith('#Variable:odd/Property:(get) x.y z') && readable.name === undefined,
      'a dot, parentheses and spaces are kept as they are',
    );
    for (const s of odd) {
      const back = (await h.ok<SymbolOutput>('resolve-symbol', { symbol: { symbolId: s.symbolId } })).data;
      assert.deepEqual([back.symbolId, back.name, back.line, back.column], [s.symbolId, s.name, s.line, s.column]);
    }
  });

  it("resolve-symbol: a symbolId written without its folderId (a search row's ref as it is) resolves by the path", async () => {
    const whole = `${h.registry.all()[0].shortId}:src/shapes.ts#Class:Circle/Method:area`;
    const back = (await h.ok<SymbolOutput>('resolve-symbol', { symbol: { symbolId: 'src/shapes.ts#Class:Circle/Method:area' } })).data;
    assert.equal(back.symbolId, whole);
    await h.fail('resolve-symbol', { symbol: { symbolId: 'src/nope.ts#Class:Circle' } }, 'DocumentNotFound');
    const bare = await h.fail('resolve-symbol', { symbol: { symbolId: 'Class:Circle/Method:area' } }, 'InvalidRequest');
    assert.match(bare.error.message, /an outline row's id after its documentId and "#"/);
  });

  it('resolve-symbol: SymbolNotFound with nearest names for a stale symbolId, InvalidRequest for a malformed one', async () => {
    const id = `${h.registry.all()[0].shortId}:src/shapes.ts#Class:Circle/Method:aera`;
    const failure = await h.fail('resolve-symbol', { symbol: { symbolId: id } }, 'SymbolNotFound');
    assert.match(failure.error.message, /Method area/);
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    await h.fail('resolve-symbol', { symbol: { symbolId: 'nonsense' } }, 'InvalidRequest');
    await h.fail('resolve-symbol', { symbol: {} }, 'InvalidRequest');
  });

  it('get-document-outline leaves out and counts what bodies declare unless includeLocals', async () => {
    const modulePath = host.abs(host.folders()[0], 'src/module.ts');
    host.writeFile(modulePath, MODULE);
    host.setSymbols(modulePath, moduleSymbols(MODULE));
    const answer = await h.ok<OutlineData>('get-document-outline', { document: { path: 'src/module.ts' } });
    const outline = { ...answer.data, symbols: { ...answer.data.symbols, items: readOutline(answer.data) } };
    // Rows of [id, line, column, detail], the id being the symbolId after "<documentId>#", written relative to the id before it.
    assert.deepEqual(answer.data.symbols.items.slice(0, 4), [
      ['Function:run', 1, 17],
      ['Class:Box', 6, 14],
      ['/Property:size', 7, 3],
      ['/Method:open', 8, 3],
    ]);
    assert.deepEqual(
      outline.symbols.items.slice(2, 4).map((s) => s.symbolId.replace(/^.*#/, '')),
      ['Class:Box/Property:size', 'Class:Box/Method:open'],
    );
    assert.deepEqual(
      outline.symbols.items.map((s) => [readSymbol(s).name, s.depth, s.line]),
      [
        ['run', 0, 1],
        ['Box', 0, 6],
        ['size', 1, 7],
        ['open', 1, 8],
        ['config', 0, 10],
        ['label', 1, 10],
        ['start', 1, 10],
        ['make', 0, 11],
      ],
    );
    assert.deepEqual([outline.symbols.totalCount, outline.localsLeftOut], [8, 7]);
    // The document is said once, by its documentId: its path and project are derivable.
    assert.deepEqual(Object.keys(outline).sort(), ['documentId', 'localsLeftOut', 'symbols']);
    assert.equal(outline.documentId, documentIdOfSymbol(outline.symbols.items[0].symbolId));
    const all = (await h.ok<OutlineData>('get-document-outline', { document: { path: 'src/module.ts' }, includeLocals: true })).data;
    assert.deepEqual([all.symbols.totalCount, 'localsLeftOut' in all], [15, false]);
    const top = (await h.ok<OutlineData>('get-document-outline', { document: { path: 'src/module.ts' }, maxDepth: 0 })).data;
    assert.deepEqual([readOutline(top).map((s) => readSymbol(s).name), top.localsLeftOut], [['run', 'Box', 'config', 'make'], undefined]);
  });

  it('answers UnsupportedLanguageFeature with ResolveExternally for a document without a symbol provider', async () => {
    const failure = await h.fail('get-document-outline', { document: { path: 'notes.txt' } }, 'UnsupportedLanguageFeature');
    assert.match(failure.error.message, /"plaintext"/);
    assert.equal(failure.continuation?.kind, 'ResolveExternally');
  });

  it('find-references: grouped by document, access, container, declaration, limits; compact', async () => {
    const circleAt = SHAPES.indexOf('Circle');
    host.navigation.locations = (feature, _file, offset) => {
      assert.equal(feature, 'references');
      assert.equal(offset, circleAt);
      return [
        { absPath: usePath, range: { start: USE.indexOf('Circle }'), end: USE.indexOf('Circle }') + 6 } },
        { absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } },
        { absPath: usePath, range: { start: USE.lastIndexOf('Circle'), end: USE.lastIndexOf('Circle') + 6 } },
      ];
    };
    host.symbolProviders.highlights = (file) =>
      file === usePath ? [{ range: { start: USE.lastIndexOf('Circle'), end: USE.lastIndexOf('Circle') + 6 }, kind: 'write' }] : [];
    const d = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection })).data;
    assert.equal(d.complete, true, 'a reference outside the open files shows the project is loaded');
    assert.deepEqual(
      d.documents.items.map((x) => [x.path, x.folderId]),
      [
        ['src/shapes.ts', undefined],
        ['src/use.ts', undefined],
      ],
    );
    assert.equal(`${d.folderId}:src/shapes.ts`, documentIdOfSymbol(d.symbol.symbolId), 'folderId and path make the documentId');
    assert.deepEqual(
      d.documents.items[0].lines,
      [[2, [], 'export class Circle implements Shape {', null, { decl: [circleAt] }]],
      'a row: [line, at, text, in, {decl}]',
    );
    assert.deepEqual(
      decodeLines(d.documents.items[1])[1],
      { line: 2, text: 'const c = new Circle();', write: [USE.lastIndexOf('Circle')] },
      'no container: c is declared on the line; a reference is listed once, by its access',
    );
    assert.deepEqual([d.totalReferences, d.documents.totalCount, d.documents.hasMore], [3, 2, false]);
    const without = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection, includeDeclaration: false, referencesLimit: 1 })).data;
    assert.equal(without.totalReferences, 2);
    assert.equal(without.documents.hasMore, true);
    assert.deepEqual(
      without.documents.items.map((x) =>
        x.lines.map((l) => referencesListed({ documents: { items: [{ path: x.path, lines: [l] }], hasMore: false, totalCount: 1 } })),
      ),
      [[1]],
    );
  });

  it('find-references: asks again for the symbols and highlights of a document only when its text changed', async () => {
    const circleAt = SHAPES.indexOf('Circle');
    const useAt = USE.lastIndexOf('Circle');
    host.navigation.locations = () => [
      { absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } },
      { absPath: usePath, range: { start: useAt, end: useAt + 6 } },
    ];
    host.symbolProviders.highlights = (file) => (file === usePath ? [{ range: { start: useAt, end: useAt + 6 }, kind: 'write' }] : []);
    const asked = () =>
      host.calls.filter((c) => (c.method === 'documentSymbols' || c.method === 'documentHighlights') && c.arg === usePath).map((c) => c.method);
    const first = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection })).data;
    assert.deepEqual(asked().sort(), ['documentHighlights', 'documentSymbols']);
    const second = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection })).data;
    assert.deepEqual(second.documents, first.documents, 'the same answer');
    assert.equal(asked().length, 2, 'nothing asked again for an unchanged document');
    // The person edits use.ts: its symbols and highlights are asked again, and the answer follows the new text.
    host.editBuffer(usePath, `\n${USE}`);
    host.navigation.locations = () => [
      { absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } },
      { absPath: usePath, range: { start: useAt + 1, end: useAt + 7 } },
    ];
    host.symbolProviders.highlights = () => [];
    const third = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection })).data;
    assert.equal(asked().length, 4);
    const use = third.documents.items.find((d) => d.path === 'src/use.ts');
    const line = use && decodeLines(use)[0];
    assert.deepEqual([line?.line, line?.at, line?.write], [3, [useAt + 1], undefined]);
  });

  it('find-references: a line is said once for all its references, split by container, with odd lengths and several writes', async () => {
    const folder = host.folders()[0];
    const pairPath = host.abs(folder, 'src/pair.ts');
    const PAIR = [
      'import { Circle } from "./shapes";',
      'export function twice(a: Circle, b: Circle) {',
      '}',
      'export const x = [',
      '    (Circle)], y = [Circle',
      '  ];',
      '',
    ].join('\n');
    host.writeFile(pairPath, PAIR);
    host.setSymbols(
      pairPath,
      symbolsIn(PAIR, [
        { name: 'twice', kind: 'Function', from: 'export function twice', to: '\n}' },
        // Top-level variables: containers (a function's locals would not be).
        { name: 'x', kind: 'Variable', from: 'x = ', to: ']' },
        { name: 'y', kind: 'Variable', from: 'y = ', to: '];' },
      ]),
    );
    const starts = [PAIR.indexOf('Circle'), PAIR.indexOf('Circle, b'), PAIR.indexOf('Circle) {'), PAIR.indexOf('(Circle)'), PAIR.lastIndexOf('Circle')];
    const circleAt = SHAPES.indexOf('Circle');
    host.navigation.locations = () => [
      { absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } },
      ...starts.map((start, i) => ({ absPath: pairPath, range: { start, end: start + (i === 2 || i === 3 ? 8 : 6) } })),
    ];
    host.symbolProviders.highlights = (file) =>
      file === pairPath ? [starts[1], starts[4]].map((start) => ({ range: { start, end: start + 6 }, kind: 'write' as const })) : [];
    const d = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection, referencesLimit: 1000 })).data;
    assert.deepEqual(d.documents.items[0], {
      path: 'src/pair.ts',
      lines: [
        // An import line: no text, its offsets are the imports.
        [1, [starts[0]], ''],
        // twice is declared on line 2, so its text names the container.
        // len follows position order across the access lists: the write (6), then the read (8).
        [2, [starts[2]], 'export function twice(a: Circle, b: Circle) {', null, { write: [starts[1]], len: [6, 8] }],
        [5, [starts[3]], '(Circle)], y = [Circle', 'x', { len: [8] }],
        // The same line again for its other container (none: y is declared on it): its text (null) is the row before's.
        [5, [], null, '', { write: [starts[4]] }],
      ],
    });
    assert.deepEqual(readLines(d.documents.items[0]).slice(2), [{ text: '(Circle)], y = [Circle', in: 'x' }, { text: '(Circle)], y = [Circle' }]);
    assert.deepEqual([d.totalReferences, referencesListed(d)], [6, 6]);
    assert.deepEqual(d.symbol, { symbolId: d.symbol.symbolId, line: 2, column: 14 }, 'the symbolId names the document and the name');
  });

  it('find-references: an answer over the output limit drops whole documents from the end and says hasMore, never cuts JSON', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      files[`src/use${String(i).padStart(2, '0')}.ts`] = `import { Circle } from "./shapes";\nexport const c${i} = new Circle(); // ${'x'.repeat(150)}\n`;
    }
    const folder = host.folders()[0];
    for (const [rel, text] of Object.entries(files)) host.writeFile(host.abs(folder, rel), text);
    const circleAt = SHAPES.indexOf('Circle');
    const targets = Object.entries(files).flatMap(([rel, text]) =>
      [text.indexOf('Circle'), text.lastIndexOf('Circle')].map((start) => ({ absPath: host.abs(folder, rel), range: { start, end: start + 6 } })),
    );
    host.navigation.locations = () => [{ absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } }, ...targets];
    const full = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection, referencesLimit: 1000 })).data;
    assert.equal(full.documents.items.length, 41);
    assert.equal(full.documents.hasMore, false);
    const tokens = async (text: string) => Math.ceil(text.length / 4);
    const budget = 1500;
    const result = await h.call('find-references', { symbol: circleSelection, referencesLimit: 1000 }, { tokenBudget: budget, countTokens: tokens });
    assert.ok((await tokens(result.text)) <= budget, 'fits the token budget');
    assert.equal(h.logs.at(-1)?.truncated, true, 'the chain logged the answer as shortened');
    const bounded = expectOk<ReferencesData>(result).data;
    assert.equal(bounded.documents.hasMore, true);
    assert.ok(bounded.documents.items.length > 0 && bounded.documents.items.length < 41, `kept ${bounded.documents.items.length} documents`);
    assert.deepEqual(bounded.documents.items, full.documents.items.slice(0, bounded.documents.items.length), 'a prefix, each kept document whole');
    assert.deepEqual([bounded.totalReferences, bounded.documents.totalCount], [81, 41], 'the totals still say how many there are');
    // Over maxOutputBytes, documents past the limit are not even read (they would be dropped), beyond
    // the ones already being read together: on 200 more documents, a few dozen are read, not 241.
    const more = Array.from({ length: 200 }, (_, i) => `src/zmore${String(i).padStart(3, '0')}.ts`);
    for (const rel of more) host.writeFile(host.abs(folder, rel), files['src/use00.ts']);
    const moreTargets = more.flatMap((rel) => targets.slice(0, 2).map((t) => ({ absPath: host.abs(folder, rel), range: t.range })));
    host.navigation.locations = () => [{ absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } }, ...targets, ...moreTargets];
    h.setSettings({ defaultMaxOutputBytes: 4000 });
    const before = host.callCount('documentHighlights');
    const small = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection, referencesLimit: 1000 })).data;
    assert.equal(small.documents.hasMore, true);
    assert.equal(small.documents.totalCount, 241);
    // The page ends where the limit does, inside its last document if it must: the rest of that document comes with the cursor.
    const last = small.documents.items.length - 1;
    assert.deepEqual(small.documents.items.slice(0, last), full.documents.items.slice(0, last));
    const { lines: lastLines, ...lastDocument } = small.documents.items[last];
    const { lines: fullLines, ...fullDocument } = full.documents.items[last];
    assert.deepEqual([lastDocument, lastLines], [fullDocument, fullLines.slice(0, lastLines.length)], 'the last document: its first lines');
    const read = host.callCount('documentHighlights') - before;
    assert.ok(read <= small.documents.items.length + 1 + REFERENCE_DOCUMENTS_AT_ONCE, `${read} documents read, ${small.documents.items.length} kept`);
  });

  it('find-references: says complete:false when the service answers only from open files and never looks loaded', async () => {
    const saved = { ...READINESS };
    READINESS.maxWaitMs = 50;
    READINESS.stepMs = 10;
    try {
      host.openDocument(shapesPath);
      // A declaration in a file nobody has open: what a loaded service finds and a loading one does not.
      const extraPath = host.abs(host.folders()[0], 'src/extra.ts');
      host.writeFile(extraPath, 'export function extra(): void {}\n');
      const circleAt = SHAPES.indexOf('Circle');
      host.navigation.locations = () => [{ absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } }];
      host.symbolProviders.workspaceSymbols = () => [];
      const d = (await h.ok<ReferencesData>('find-references', { symbol: circleSelection })).data;
      assert.equal(d.complete, false);
      assert.match(d.note ?? '', /Ask again/);
      host.symbolProviders.workspaceSymbols = (q) => [
        { name: q, kind: 'Function', containerName: '', absPath: extraPath, start: { line: 0, character: 16 }, end: { line: 0, character: 21 } },
      ];
      assert.equal((await h.ok<ReferencesData>('find-references', { symbol: circleSelection })).data.complete, true);
    } finally {
      Object.assign(READINESS, saved);
    }
  });

  it('find-references: UnsupportedLanguageFeature when no reference provider answers', async () => {
    const failure = await h.fail('find-references', { symbol: circleSelection }, 'UnsupportedLanguageFeature');
    assert.match(failure.error.message, /references provider for language "typescript"/);
  });

  it('search-symbols, get-symbol-members, go-to-definition', async () => {
    host.symbolProviders.workspaceSymbols = () => [
      { name: 'Circle', kind: 'Class', containerName: '', absPath: shapesPath, start: { line: 1, character: 13 }, end: { line: 1, character: 19 } },
      { name: 'CircleLike', kind: 'Interface', containerName: '', absPath: shapesPath, start: { line: 0, character: 17 }, end: { line: 0, character: 22 } },
    ];
    const answered = (await h.ok<SearchData>('search-symbols', { query: 'Circle' })).data;
    const found = { symbols: { items: readSearch(answered) } };
    assert.equal(readSymbol(found.symbols.items[0]).name, 'Circle');
    assert.match(found.symbols.items[0].symbolId, /#Class:Circle$/);
    const members = (await h.ok<{ members: { items: SymbolOutput[] } }>('get-symbol-members', { symbol: { symbolId: found.symbols.items[0].symbolId } })).data;
    assert.deepEqual(
      members.members.items.map((m) => readSymbol(m).name),
      ['area', 'pad', 'pad', 'pad'],
    );
    host.navigation.locations = (feature) =>
      feature === 'definition' ? [{ absPath: shapesPath, range: { start: SHAPES.indexOf('Circle'), end: SHAPES.indexOf('Circle') + 6 } }] : undefined;
    const def = (
      await h.ok<{ targets: { symbol?: SymbolOutput }[] }>('go-to-definition', {
        location: { selection: { document: { path: 'src/use.ts' }, selectedText: 'Circle', contextAfter: '()' } },
      })
    ).data;
    assert.equal(def.targets[0].symbol?.symbolId, found.symbols.items[0].symbolId);
    await h.fail(
      'go-to-definition',
      { location: { selection: { document: { path: 'src/use.ts' }, selectedText: 'Circle', contextAfter: '()' } }, target: 'declaration' },
      'UnsupportedLanguageFeature',
    );
  });
});

describe('readiness: a language service that is starting or still loading its project', () => {
  let h: Harness;
  let host: FakeHost;
  let shapesPath: string;
  let usePath: string;
  const saved = { ...SYMBOLS_READINESS };
  const savedReferences = { ...READINESS };

  beforeEach(async () => {
    Object.assign(SYMBOLS_READINESS, { waitMs: 60, stepMs: 10 });
    Object.assign(READINESS, { maxWaitMs: 60, stepMs: 10 });
    host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}', 'src/shapes.ts': SHAPES, 'src/use.ts': `${USE}export function useCircle(): void {}\n` });
    shapesPath = host.abs(folder, 'src/shapes.ts');
    usePath = host.abs(folder, 'src/use.ts');
    h = await createHarness({ host });
  });

  afterEach(() => {
    Object.assign(SYMBOLS_READINESS, saved);
    Object.assign(READINESS, savedReferences);
  });

  const typescript = async () => {
    const d = (
      await h.ok<{ workspaces: { items: { languages: { languageId: string; features: Record<string, string> | null; retryAfterSeconds?: number }[] }[] } }>(
        'get-solution-structure',
        {},
      )
    ).data;
    const ts = d.workspaces.items[0].languages.find((l) => l.languageId === 'typescript');
    assert.ok(ts?.features);
    return ts;
  };

  it('get-solution-structure says "starting" with retryAfterSeconds while the extension activates, not noResult/unavailable', async () => {
    host.languageContributions.find((l) => l.id === 'typescript')!.providedBy[0].active = false;
    host.setFeatureProbes('typescript', { documentSymbols: 'unavailable', references: 'noResult', foldingRanges: 'available' });
    const ts = await typescript();
    assert.deepEqual(ts.features, { documentSymbols: 'starting', references: 'starting', foldingRanges: 'available' });
    assert.equal(ts.retryAfterSeconds, 5);
    host.languageContributions.find((l) => l.id === 'typescript')!.providedBy[0].active = true;
    host.setFeatureProbes('typescript', { documentSymbols: 'unavailable', references: 'noResult' });
    const ready = await typescript();
    assert.deepEqual(ready.features, { documentSymbols: 'unavailable', references: 'noResult' }, 'a running extension that never answers is not "starting"');
    assert.equal(ready.retryAfterSeconds, undefined);
  });

  it('get-solution-structure says "starting" while the server answers only from open files, until a closed file shows up in workspace symbols', async () => {
    const useText = `${USE}export function useCircle(): void {}\n`;
    host.setSymbols(shapesPath, shapeSymbols(SHAPES));
    host.setSymbols(usePath, symbolsIn(useText, [{ name: 'c', kind: 'Variable', from: 'const c', to: ';' }]));
    host.setFeatureProbes('typescript', { documentSymbols: 'available', hover: 'noResult', references: 'available', foldingRanges: 'available' });
    // Workspace symbol search knows the open files only (the sample's own first declaration), as TypeScript does while loading.
    const own = (q: string) =>
      q === 'Shape'
        ? [{ name: q, kind: 'Interface', containerName: '', absPath: shapesPath, start: { line: 0, character: 17 }, end: { line: 0, character: 22 } }]
        : q === 'c'
          ? [{ name: q, kind: 'Variable', containerName: '', absPath: usePath, start: { line: 1, character: 6 }, end: { line: 1, character: 7 } }]
          : [];
    host.symbolProviders.workspaceSymbols = own;
    host.openDocument(shapesPath);
    const loading = await typescript();
    assert.deepEqual(
      loading.features,
      { documentSymbols: 'available', hover: 'starting', references: 'starting', foldingRanges: 'available' },
      'project-wide features are partial while loading',
    );
    assert.equal(loading.retryAfterSeconds, 5);
    host.symbolProviders.workspaceSymbols = (q) => [
      ...own(q),
      ...(q === 'useCircle'
        ? [{ name: q, kind: 'Function', containerName: '', absPath: usePath, start: { line: 3, character: 16 }, end: { line: 3, character: 25 } }]
        : []),
    ];
    const loaded = await typescript();
    assert.deepEqual(loaded.features, { documentSymbols: 'available', hover: 'noResult', references: 'available', foldingRanges: 'available' });
    assert.equal(loaded.retryAfterSeconds, undefined);
  });

  it('find-references is complete at once when every file of the language is open', async () => {
    host.setSymbols(shapesPath, shapeSymbols(SHAPES));
    host.openDocument(shapesPath);
    host.openDocument(usePath);
    const circleAt = SHAPES.indexOf('Circle');
    host.navigation.locations = () => [{ absPath: shapesPath, range: { start: circleAt, end: circleAt + 6 } }];
    host.symbolProviders.workspaceSymbols = () => [];
    const d = (
      await h.ok<ReferencesData>('find-references', {
        symbol: { location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'Circle', contextBefore: 'class ' } } },
      })
    ).data;
    assert.equal(d.complete, true);
  });

  it('symbol tools answer LanguageServiceStarting (RetryRequest) while the extension activates, and an empty tree once its provider has answered', async () => {
    host.languageContributions.find((l) => l.id === 'typescript')!.providedBy[0].active = false;
    const starting = await h.fail('get-document-outline', { document: { path: 'src/shapes.ts' } }, 'LanguageServiceStarting');
    assert.equal(starting.continuation?.kind, 'RetryRequest');
    host.languageContributions.find((l) => l.id === 'typescript')!.providedBy[0].active = true;
    host.setSymbols(shapesPath, shapeSymbols(SHAPES));
    await h.ok('get-document-outline', { document: { path: 'src/shapes.ts' } });
    const empty = (await h.ok<{ symbols: { items: unknown[] } }>('get-document-outline', { document: { path: 'src/use.ts' } })).data;
    assert.deepEqual(empty.symbols.items, [], 'no symbols, not UnsupportedLanguageFeature, once TypeScript has answered');
  });
});
