import * as assert from 'node:assert/strict';
import type { HostSymbol, HostWorkspaceSymbol } from '../../../../src/core/documents/editorPort';
import { LineIndex } from '../../../../src/core/documents/text';
import { READINESS } from '../../../../src/core/symbols/readiness';
import { walkSymbols } from '../../../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../../../src/core/symbols/symbols';
import { FakeHost, symbolsIn } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

const SHAPES = `export class Circle {
  area(): number { return 1; }
  pad(x: number): void;
  pad(x: string): void;
  pad(x: unknown): void {}
}
export class Square {
  area(): number { return 2; }
}
export function area(): number { return 0; }
`;

const SUBSCRIPTION = `export class Subscription {
  add(t: unknown): void {}
  get closed(): boolean { return false; }
}
export function run() {
  const add = 1;
}
`;

function shapeSymbols(): HostSymbol[] {
  return symbolsIn(SHAPES, [
    {
      name: 'Circle',
      kind: 'Class',
      from: 'export class Circle',
      to: '\n}',
      children: [
        { name: 'area', kind: 'Method', from: 'area()', to: '}' },
        { name: 'pad', kind: 'Method', from: 'pad(x: number)', to: ';' },
        { name: 'pad', kind: 'Method', from: 'pad(x: string)', to: ';' },
        { name: 'pad', kind: 'Method', from: 'pad(x: unknown)', to: '{}' },
      ],
    },
    { name: 'Square', kind: 'Class', from: 'export class Square', to: '\n}', children: [{ name: 'area', kind: 'Method', from: 'area()', to: '}' }] },
    { name: 'area', kind: 'Function', from: 'export function area', to: '}' },
  ]);
}

function subscriptionSymbols(): HostSymbol[] {
  const roots = symbolsIn(SUBSCRIPTION, [
    { name: 'Subscription', kind: 'Class', from: 'export class Subscription', to: '\n}', children: [{ name: 'add', kind: 'Method', from: 'add(', to: '}' }] },
    { name: 'run', kind: 'Function', from: 'export function run', to: '\n}', children: [{ name: 'add', kind: 'Variable', from: 'const add', to: ';' }] },
  ]);
  // TypeScript names an accessor "(get) closed".
  const at = SUBSCRIPTION.indexOf('get closed');
  const nameAt = at + 'get '.length;
  roots[0].children.push({
    name: '(get) closed',
    detail: '',
    kind: 'Property',
    range: { start: at, end: SUBSCRIPTION.indexOf('}', at) + 1 },
    selectionRange: { start: nameAt, end: nameAt + 'closed'.length },
    children: [],
  });
  return roots;
}

describe('symbol selector: a symbol by its name path', () => {
  let h: Harness;
  let host: FakeHost;
  let shapesPath: string;
  let subscriptionPath: string;
  /** The files the fake workspace symbol search covers: all of them once loaded, only the open ones while loading. */
  let searched: () => string[];
  const saved = { ...READINESS };

  beforeEach(async () => {
    Object.assign(READINESS, { maxWaitMs: 60, stepMs: 10 });
    host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}', 'src/shapes.ts': SHAPES, 'src/subscription.ts': SUBSCRIPTION });
    shapesPath = host.abs(folder, 'src/shapes.ts');
    subscriptionPath = host.abs(folder, 'src/subscription.ts');
    const trees = new Map<string, { text: string; roots: HostSymbol[] }>([
      [shapesPath, { text: SHAPES, roots: shapeSymbols() }],
      [subscriptionPath, { text: SUBSCRIPTION, roots: subscriptionSymbols() }],
    ]);
    for (const [p, t] of trees) host.setSymbols(p, t.roots);
    searched = () => [...trees.keys()];
    // Like TypeScript's search: every declaration whose name contains the query, with its container's name.
    host.symbolProviders.workspaceSymbols = (query) =>
      searched().flatMap((absPath) => {
        const { text, roots } = trees.get(absPath) ?? { text: '', roots: [] };
        const lines = new LineIndex(text);
        return walkSymbols(roots)
          .filter(({ symbol }) => symbol.name.toLowerCase().includes(query.toLowerCase()))
          .map(({ symbol, containers }): HostWorkspaceSymbol => ({
            name: symbol.name.replace(/^\((get|set)\) /, ''),
            kind: symbol.kind,
            containerName: containers[containers.length - 1]?.name ?? '',
            absPath,
            start: lines.positionAt(symbol.selectionRange.start),
            end: lines.positionAt(symbol.selectionRange.end),
          }));
      });
    h = await createHarness({ host });
  });

  afterEach(() => Object.assign(READINESS, saved));

  const resolve = async (symbol: Record<string, unknown>) => (await h.ok<SymbolOutput>('resolve-symbol', { symbol })).data.symbolId;

  it('takes exactly one of name, symbolId or location, and path, kind and overload only with name, naming the fields', async () => {
    const none = await h.fail('resolve-symbol', { symbol: {} }, 'InvalidRequest');
    assert.match(none.error.message, /symbol: give one of name, symbolId or location/);
    const two = await h.fail('resolve-symbol', { symbol: { name: 'Circle', symbolId: 'x:a.ts#Class:Circle' } }, 'InvalidRequest');
    assert.match(two.error.message, /not symbol\.name and symbol\.symbolId/);
    const narrowed = await h.fail(
      'get-symbol-info',
      { symbol: { location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'Circle' } }, kind: 'Class', overload: 0 } },
      'InvalidRequest',
    );
    assert.match(narrowed.error.message, /symbol\.kind, symbol\.overload narrow a name: only with symbol\.name, not with symbol\.location/);
    await h.fail('resolve-symbol', { symbol: { name: '  ' } }, 'InvalidRequest');
    // rename-symbol reads a location itself: it checks the selector first too.
    const rename = await h.fail(
      'rename-symbol',
      { symbol: { name: 'Circle', location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'Square' } } }, newName: 'Disc' },
      'InvalidRequest',
    );
    assert.match(rename.error.message, /exactly one of name, symbolId or location/);
  });

  it('resolves a container path through the workspace symbol search, a declaration before a local of the same name, an accessor by its name', async () => {
    assert.match(await resolve({ name: 'Subscription.add' }), /:src\/subscription\.ts#Class:Subscription\/Method:add$/);
    // "add" alone: the method, not the local variable of run().
    assert.match(await resolve({ name: 'add' }), /#Class:Subscription\/Method:add$/);
    assert.match(await resolve({ name: 'run.add' }), /#Function:run\/Variable:add$/);
    assert.match(await resolve({ name: 'Subscription.closed' }), /#Class:Subscription\/Property:\(get\) closed$/);
    const info = (await h.ok<SymbolOutput & { containers: string[] }>('get-symbol-info', { symbol: { name: 'Square.area' } })).data;
    assert.deepEqual([info.containers, info.line], [['Square'], 8]);
  });

  it('a whole path wins over one matching only its end: "area" is the top-level function', async () => {
    assert.match(await resolve({ name: 'area' }), /#Function:area$/);
  });

  it('answers SymbolAmbiguous listing every candidate with kind, path:line and symbolId; kind narrows it', async () => {
    const failure = await h.fail('resolve-symbol', { symbol: { name: 'area', kind: 'Method' } }, 'SymbolAmbiguous');
    assert.match(failure.error.message, /names 2 symbols/);
    assert.match(failure.error.message, /Method Circle\.area \(src\/shapes\.ts:2, symbolId "[0-9a-f]{8}:src\/shapes\.ts#Class:Circle\/Method:area"\)/);
    assert.match(failure.error.message, /Method Square\.area \(src\/shapes\.ts:8, symbolId "[0-9a-f]{8}:src\/shapes\.ts#Class:Square\/Method:area"\)/);
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    // Each listed symbolId resolves to its candidate.
    for (const id of [/Circle\/Method:area$/, /Square\/Method:area$/]) {
      const listed = failure.error.message.match(new RegExp(`symbolId "([^"]*${id.source.replace('$', '')})"`));
      assert.ok(listed, String(id));
      assert.equal(await resolve({ symbolId: listed[1] }), listed[1]);
    }
    // The kind is compared as the answers spell it, in any case.
    assert.match(await resolve({ name: 'area', kind: 'function' }), /#Function:area$/);
    const wrongKind = await h.fail('resolve-symbol', { symbol: { name: 'Circle', kind: 'Function' } }, 'SymbolNotFound');
    assert.match(wrongKind.error.message, /No symbol "Circle" of kind Function/);
  });

  it('overloads: ambiguous without an index, which picks one in source order; an index beyond them is SymbolNotFound', async () => {
    const failure = await h.fail('find-overloads', { symbol: { name: 'Circle.pad' } }, 'SymbolAmbiguous');
    assert.match(failure.error.message, /overloads of one declaration \(symbol\.overload 0 to 2, in source order\)/);
    assert.match(await resolve({ name: 'Circle.pad', overload: 0 }), /#Class:Circle\/Method:pad$/);
    assert.match(await resolve({ name: 'Circle.pad', overload: 1 }), /#Class:Circle\/Method:pad~1$/);
    const second = (await h.ok<SymbolOutput>('resolve-symbol', { symbol: { name: 'pad', overload: 2 } })).data;
    assert.equal(second.line, 5);
    const beyond = await h.fail('resolve-symbol', { symbol: { name: 'Circle.pad', overload: 3 } }, 'SymbolNotFound');
    assert.match(beyond.error.message, /has 3 declarations of that name, kind and container, so no overload 3/);
  });

  it('with path, looks in that document only; not found says where it looked and what is similar', async () => {
    assert.match(await resolve({ name: 'Square', path: 'src/shapes.ts' }), /:src\/shapes\.ts#Class:Square$/);
    const elsewhere = await h.fail('resolve-symbol', { symbol: { name: 'Subscription.add', path: 'src/shapes.ts' } }, 'SymbolNotFound');
    assert.match(elsewhere.error.message, /src\/shapes\.ts declares no "Subscription\.add"/);
    const typo = await h.fail('resolve-symbol', { symbol: { name: 'Subscriptions.add' } }, 'SymbolNotFound');
    assert.match(typo.error.message, /found that name only as Method Subscription\.add \(src\/subscription\.ts:2\)/);
    const missing = await h.fail('resolve-symbol', { symbol: { name: 'Nowhere' } }, 'SymbolNotFound');
    assert.match(missing.error.message, /search for "Nowhere" found nothing in the open folders/);
    assert.equal(missing.continuation?.kind, 'CallTool');
  });

  it('a service still loading is not taken at its word: nothing found then is LanguageServiceStarting, not SymbolNotFound', async () => {
    // Loading: the search covers the open files only, and no closed file's declaration shows up.
    host.openDocument(shapesPath);
    searched = () => [shapesPath];
    const starting = await h.fail('resolve-symbol', { symbol: { name: 'Subscription.add' } }, 'LanguageServiceStarting');
    assert.match(starting.error.message, /no declaration named "Subscription\.add" in the open files/);
    assert.equal(starting.continuation?.kind, 'RetryRequest');
    // What the open files do declare is found meanwhile.
    assert.match(await resolve({ name: 'Square.area' }), /#Class:Square\/Method:area$/);
    searched = () => [shapesPath, subscriptionPath];
    assert.match(await resolve({ name: 'Subscription.add' }), /#Class:Subscription\/Method:add$/);
  });

  it('the symbol edit tools take a name: replace-symbol-body stages the named method', async () => {
    await h.ok('replace-symbol-body', { symbol: { name: 'Square.area' }, text: 'return 4;' });
    const staged = h.transactions.stagedView(h.registry.all()[0], 'src/shapes.ts');
    assert.ok(staged && staged !== 'gone');
    assert.match(staged.text, /export class Square \{\n {2}area\(\): number \{\n {4}return 4;\n {2}\}/);
    assert.match(staged.text, /area\(\): number \{ return 1; \}/, 'Circle.area is untouched');
  });
});
