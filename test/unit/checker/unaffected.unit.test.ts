import * as assert from 'node:assert/strict';
import * as ts from 'typescript';
import { Checker, systemReader } from '../../../src/checker/program';
import type { CheckedResult, CheckRequest, CheckResult } from '../../../src/checker/protocol';
import { fixture, STRICT_TSCONFIG } from './support';

function checked(result: CheckResult): CheckedResult {
  assert.equal(result.outcome, 'checked');
  return result as CheckedResult;
}

const brief = (r: CheckedResult) => ({
  introduced: r.introduced.map((d) => `${d.path}:${d.line}:${d.column} TS${d.code}`),
  resolved: r.resolved.map((d) => `${d.path}:${d.line}:${d.column} TS${d.code}`),
  checked: r.checked,
  complete: r.complete,
});

// A dependent that cannot see the change is covered without computing its diagnostics; the answer
// must be exactly the one of a checker computing every dependent.
describe('checker: dependents that cannot see the change', function () {
  this.timeout(60_000);
  const disposers: (() => void)[] = [];
  afterEach(() => disposers.splice(0).forEach((d) => d()));

  /** The same check by a pruning checker and by one computing every dependent; both answers, after asserting they agree. */
  const both = (files: Record<string, string>, staged: CheckRequest['staged']) => {
    const f = fixture({ 'tsconfig.json': STRICT_TSCONFIG, ...files });
    disposers.push(f.dispose);
    const request = { folder: f.folder, buffers: {}, staged };
    const pruning = new Checker(ts, systemReader(ts), f.folder);
    const full = new Checker(ts, systemReader(ts), f.folder, { unaffectedDependents: false });
    const pruned = checked(pruning.check(request));
    const every = checked(full.check(request));
    assert.deepEqual(brief(pruned), brief(every), 'the same answer as computing every dependent');
    assert.deepEqual(
      pruned.introduced.map((d) => d.message),
      every.introduced.map((d) => d.message),
    );
    assert.equal(every.stats.unaffected, 0);
    return { pruned, every, pruning, request };
  };

  it('a rename: the files using the name are checked, their importers covered; a use the rename missed is reported', () => {
    const files = {
      'src/util.ts': 'export function isFn(x: unknown): x is Function {\n  return typeof x === "function";\n}\n',
      'src/a.ts': "import { isFn } from './util';\nexport function callIf(x: unknown): number {\n  return isFn(x) ? 1 : 0;\n}\n",
      'src/b.ts': "import { isFn } from './util';\nexport const b: boolean = isFn(1);\n",
      'src/c.ts': "import { callIf } from './a';\nexport const c: number = callIf(2);\n",
      'src/d.ts': "import { c } from './c';\nimport { b } from './b';\nexport const d = b ? c : 0;\n",
    };
    const renamed = (text: string) => text.replace(/\bisFn\b/g, 'isCallable');
    const { pruned } = both(files, {
      'src/util.ts': renamed(files['src/util.ts']),
      'src/a.ts': renamed(files['src/a.ts']),
      'src/b.ts': renamed(files['src/b.ts']),
    });
    assert.deepEqual(pruned.checked, ['src/a.ts', 'src/b.ts', 'src/util.ts', 'src/c.ts', 'src/d.ts']);
    assert.deepEqual(pruned.introduced, []);
    assert.equal(pruned.stats.unaffected, 2, JSON.stringify(pruned.stats));
    assert.equal(pruned.stats.recomputedStaged, 3);
    assert.equal(pruned.stats.recomputedBase, 3);

    // b.ts left out of the rename: it imports a name util.ts no longer exports.
    const missed = both(files, { 'src/util.ts': renamed(files['src/util.ts']), 'src/a.ts': renamed(files['src/a.ts']) }).pruned;
    assert.deepEqual(brief(missed).introduced, ['src/b.ts:1:10 TS2305']);
  });

  it("a type changed behind another module's declarations reaches the file using it (the declarations name it)", () => {
    const { pruned } = both(
      {
        'src/entity.ts': 'export class Entity {\n  touch(): number {\n    return 1;\n  }\n}\n',
        'src/make.ts': "import { Entity } from './entity';\nexport function make() {\n  return new Entity();\n}\n",
        'src/use.ts': "import { make } from './make';\nexport const n: number = make().touch();\n",
        'src/other.ts': "import { n } from './use';\nexport const m = n + 1;\n",
      },
      { 'src/entity.ts': 'export class Entity {\n  touch(): string {\n    return "1";\n  }\n}\n' },
    );
    assert.deepEqual(brief(pruned).introduced, ['src/use.ts:2:14 TS2322']);
    assert.deepEqual(pruned.checked, ['src/entity.ts', 'src/make.ts', 'src/use.ts', 'src/other.ts']);
    // other.ts sees only use.ts, whose declarations say `n: number` in both views.
    assert.equal(pruned.stats.unaffected, 1);
  });

  it('an inferred type printed inline in a declaration carries the change on', () => {
    const { pruned } = both(
      {
        'src/shape.ts': 'export function mk() {\n  return { a: 1 };\n}\n',
        'src/v.ts': "import { mk } from './shape';\nexport const v = mk();\n",
        'src/w.ts': "import { v } from './v';\nexport const n: number = v.a;\n",
      },
      { 'src/shape.ts': 'export function mk() {\n  return { a: "x" };\n}\n' },
    );
    assert.deepEqual(brief(pruned).introduced, ['src/w.ts:2:14 TS2322']);
    assert.equal(pruned.stats.unaffected, 0);
  });

  it('a change inside a body covers every dependent; an edit after it keeps them covered', () => {
    const files = {
      'src/util.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
      'src/a.ts': "import { twice } from './util';\nexport const a = twice(1);\n",
      'src/b.ts': "import { a } from './a';\nexport const b: string = a;\n",
    };
    const { pruned, pruning, request } = both(files, { 'src/util.ts': 'export function twice(n: number): number {\n  return n + n;\n}\n' });
    assert.deepEqual(brief(pruned).introduced, []);
    assert.deepEqual(pruned.checked, ['src/util.ts', 'src/a.ts', 'src/b.ts']);
    assert.equal(pruned.stats.unaffected, 2);
    assert.equal(pruned.stats.recomputedStaged, 1);
    const again = checked(pruning.check({ ...request, staged: { 'src/util.ts': 'export function twice(n: number): number {\n  return n + n + 0;\n}\n' } }));
    assert.deepEqual(brief(again), brief(pruned));
    assert.equal(again.stats.unaffected, 2);
    // Now the declaration changes: a's declarations follow, b breaks.
    const shape = checked(pruning.check({ ...request, staged: { 'src/util.ts': 'export function twice(n: number): string {\n  return String(n);\n}\n' } }));
    assert.deepEqual(brief(shape).introduced, []);
    assert.equal(shape.stats.unaffected, 0);
    assert.deepEqual(brief(shape).resolved, ['src/b.ts:2:14 TS2322']);
  });

  it('a change of global scope (declare global) reaches files that do not import it: nothing is left out', () => {
    const { pruned } = both(
      {
        'src/aug.ts': 'export {};\ndeclare global {\n  interface Array<T> {\n    first(): T;\n  }\n}\n',
        'src/user.ts': "import './aug';\nexport const u = 1;\n",
        'src/other.ts': "import { u } from './user';\nexport const o: number = [u].first();\n",
      },
      { 'src/aug.ts': 'export {};\ndeclare global {\n  interface Array<T> {\n    last(): T;\n  }\n}\n' },
    );
    assert.deepEqual(brief(pruned).introduced, ['src/other.ts:2:30 TS2339']);
    assert.equal(pruned.stats.unaffected, 0);
  });

  it('a created file an unchanged import now resolves to reaches that importer', () => {
    const { pruned } = both(
      {
        'src/lib/index.ts': 'export const value: number = 1;\n',
        'src/use.ts': "import { value } from './lib';\nexport const n: number = value;\n",
        'src/top.ts': "import { n } from './use';\nexport const t = n;\n",
        'src/z.ts': 'export const z = 1;\n',
      },
      // lib.ts, created beside lib/, is what './lib' resolves to first.
      { 'src/lib.ts': 'export const value: string = "1";\n', 'src/z.ts': 'export const z = 2;\n' },
    );
    assert.deepEqual(brief(pruned).introduced, ['src/use.ts:2:14 TS2322']);
  });

  describe('read by name: a dependent that mentions none of the names a change exposes is covered', () => {
    const predicate = [
      'export function hasProperty(self: unknown, key: PropertyKey): boolean {\n  return typeof self === "object" && self !== null && key in self;\n}',
      'export function isString(u: unknown): u is string {\n  return typeof u === "string";\n}',
      'export interface Shape {\n  size: number;\n}',
    ].join('\n');
    const broken = predicate.replace('export function hasProperty', 'export function hasPropertyBroken');

    it('a declaration of a module many import, broken: only the files that use it are computed, and their errors reported', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/uses.ts': "import { hasProperty } from './predicate';\nexport const u = hasProperty({ a: 1 }, 'a');\n",
          'src/namespace.ts': "import * as P from './predicate';\nexport const n = P.hasProperty({}, 'a');\n",
          'src/aliased.ts': "import { hasProperty as has } from './predicate';\nexport const h = has({}, 'b');\n",
          'src/other.ts': "import { isString } from './predicate';\nexport const o = isString('x');\n",
          'src/otherNs.ts': "import * as P from './predicate';\nexport const s: P.Shape = { size: P.isString(1) ? 1 : 2 };\n",
        },
        { 'src/predicate.ts': broken },
      );
      assert.deepEqual(brief(pruned).introduced, ['src/aliased.ts:1:10 TS2305', 'src/namespace.ts:2:20 TS2339', 'src/uses.ts:1:10 TS2305']);
      assert.equal(pruned.stats.unaffected, 2, 'other.ts and otherNs.ts mention nothing the change exposes');
    });

    it('a type changed behind another module: the names whose declarations mention it are exposed there too', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/make.ts': "import { Shape } from './predicate';\nexport function make(): Shape {\n  return { size: 1 };\n}\nexport const unrelated = 1;\n",
          'src/user.ts': "import { make } from './make';\nexport const n: number = make().size;\n",
          'src/spared.ts': "import { unrelated } from './make';\nexport const z = unrelated;\n",
        },
        { 'src/predicate.ts': predicate.replace('size: number;', 'size: string;') },
      );
      assert.deepEqual(brief(pruned).introduced, ['src/make.ts:3:12 TS2322', 'src/user.ts:2:14 TS2322']);
      assert.equal(pruned.stats.unaffected, 1, 'spared.ts names only what the change leaves alone');
    });

    it('re-exports carry the names on: export *, export * as, export { } from', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/index.ts': "export * from './predicate';\n",
          'src/grouped.ts': "export * as Predicate from './predicate';\n",
          'src/picked.ts': "export { hasProperty as has } from './predicate';\n",
          'src/viaIndex.ts': "import { hasProperty } from './index';\nexport const a = hasProperty({}, 'a');\n",
          'src/viaGroup.ts': "import { Predicate } from './grouped';\nexport const b = Predicate.hasProperty({}, 'b');\n",
          'src/viaPicked.ts': "import { has } from './picked';\nexport const c = has({}, 'c');\n",
          'src/untouched.ts': "import { isString } from './index';\nexport const d = isString(1);\n",
        },
        { 'src/predicate.ts': broken },
      );
      assert.deepEqual(brief(pruned).introduced.sort(), ['src/picked.ts:1:10 TS2305', 'src/viaGroup.ts:2:28 TS2339', 'src/viaIndex.ts:1:10 TS2305']);
      assert.equal(pruned.stats.unaffected, 1, 'untouched.ts');
    });

    it('a namespace used whole, a star re-export that now collides, a default export: computed', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/extra.ts': 'export const extra = 1;\n',
          'src/whole.ts':
            "import * as P from './predicate';\nconst keep: { hasProperty(self: unknown, key: PropertyKey): boolean } = P;\nexport const w = keep;\n",
          'src/stars.ts': "export * from './predicate';\nexport * from './extra';\n",
          'src/def.ts': 'export default function (): number {\n  return 1;\n}\n',
          'src/useDef.ts': "import f from './def';\nexport const v: number = f();\n",
        },
        {
          'src/predicate.ts': broken,
          'src/extra.ts': 'export const extra = 1;\nexport const isString = 2;\n',
          'src/def.ts': 'export default function (): string {\n  return "1";\n}\n',
        },
      );
      assert.deepEqual(brief(pruned).introduced.sort(), ['src/stars.ts:2:1 TS2308', 'src/useDef.ts:2:14 TS2322', 'src/whole.ts:2:7 TS2741']);
    });
  });
  // A dependent that may see the change is checked in its statements that mention an exposed name
  // and in those mentioning what these change (statements.ts); the answer is still a whole check's.
  describe('checked in part: the statements that may see the change', () => {
    const predicate = 'export function isStr(u: unknown): u is string {\n  return typeof u === "string";\n}\nexport const unrelated = 1;\n';
    const toNumber = predicate.replace('u is string', 'u is number').replace('"string"', '"number"');

    it('a helper whose type follows the change carries it to the statements using it', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/use.ts':
            "import { isStr, unrelated } from './predicate';\nconst helper = (u: unknown) => (isStr(u) ? u : 'x');\nexport const n: string = helper(1);\nexport const m = unrelated + 1;\n",
        },
        { 'src/predicate.ts': predicate.replace('u is string', 'u is number') },
      );
      assert.deepEqual(brief(pruned).introduced, ['src/use.ts:3:14 TS2322']);
      assert.equal(pruned.stats.inPart, 1);
    });

    it('a narrowing by an earlier statement reaches a statement that names nothing changed', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/narrow.ts':
            "import { isStr } from './predicate';\ndeclare const input: unknown;\nconst value: unknown = input;\nif (!isStr(value)) throw new Error('no');\nexport const size: number = value.length;\n",
        },
        { 'src/predicate.ts': toNumber },
      );
      assert.deepEqual(brief(pruned).introduced, ['src/narrow.ts:5:35 TS2339']);
      assert.equal(pruned.stats.inPart, 1);
    });

    it('a statement whose declared types are written out stops the change: its importers are covered', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/typed.ts': "import { isStr } from './predicate';\nexport const check = (u: unknown): boolean => isStr(u);\nexport const other = 2;\n",
          'src/user.ts': "import { check } from './typed';\nexport const c: boolean = check(1);\n",
        },
        { 'src/predicate.ts': toNumber },
      );
      assert.deepEqual(brief(pruned).introduced, []);
      assert.deepEqual(pruned.checked, ['src/predicate.ts', 'src/typed.ts', 'src/user.ts']);
      assert.equal(pruned.stats.inPart, 1);
      assert.equal(pruned.stats.unaffected, 1, 'user.ts: the declarations of typed.ts cannot differ, so they are not even emitted');
    });

    it('unused locals (reported by whole checks only) are neither introduced nor resolved, with the current view computed whole ahead', () => {
      const files = {
        'tsconfig.json': JSON.stringify({
          compilerOptions: { strict: true, noUnusedLocals: true, target: 'ES2022', module: 'commonjs', noEmit: true },
          include: ['src'],
        }),
        'src/predicate.ts': predicate,
        'src/use.ts': "import { isStr } from './predicate';\nexport function f(): number {\n  const unused = 1;\n  return isStr(2) ? 1 : 0;\n}\n",
      };
      const f = fixture(files);
      disposers.push(f.dispose);
      const checker = new Checker(ts, systemReader(ts), f.folder);
      assert.equal(checker.warm({ folder: f.folder, files: ['src/use.ts'], buffers: {} }).outcome, 'warmed');
      const result = checked(checker.check({ folder: f.folder, buffers: {}, staged: { 'src/predicate.ts': toNumber } }));
      assert.deepEqual(brief(result).introduced, []);
      assert.deepEqual(brief(result).resolved, []);
      assert.equal(result.stats.inPart, 1);
    });

    it('a @ts-expect-error the change makes unused is reported: that file is checked whole', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/expect.ts':
            "import { isStr } from './predicate';\nconst v: unknown = 1;\n// @ts-expect-error not a string\nexport const n: number = isStr(v) ? v : 0;\n",
        },
        { 'src/predicate.ts': toNumber },
      );
      assert.deepEqual(brief(pruned).introduced, ['src/expect.ts:3:1 TS2578']);
      assert.equal(pruned.stats.inPart, 0);
    });

    it("a name spelled as a property of another object or in a comment is not the module's: that dependent is covered", () => {
      const mapper = 'export function map(xs: number[]): number[] {\n  return xs;\n}\nexport const other = 1;\n';
      const { pruned } = both(
        {
          'src/mapper.ts': mapper,
          'src/arrays.ts': "import { other } from './mapper';\n// map is not called here\nexport const xs: number[] = [other].map((x) => x);\n",
          'src/named.ts': "import { map } from './mapper';\nexport const ys: number[] = map([1]);\n",
          'src/ns.ts': "import * as M from './mapper';\nexport const zs: number[] = M.map([2]);\n",
        },
        {
          'src/mapper.ts': mapper
            .replace('export function map(xs: number[]): number[]', 'export function map(xs: number[]): string[]')
            .replace('return xs;', 'return xs.map(String);'),
        },
      );
      assert.deepEqual(brief(pruned).introduced, ['src/named.ts:2:14 TS2322', 'src/ns.ts:2:14 TS2322']);
      assert.equal(pruned.stats.unaffected, 1, "arrays.ts: its .map is an array's");
    });

    it('a namespace import re-exported by name is taken whole: its importers see every name', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/bundle.ts': "import * as P from './predicate';\nexport { P };\n",
          'src/user.ts': "import { P } from './bundle';\nexport const s: string = P.isStr(1) ? 'a' : 'b';\nexport const t = P.unrelated;\n",
        },
        { 'src/predicate.ts': predicate.replace('export const unrelated = 1;', 'export const unrelated = "1";') },
      );
      assert.deepEqual(brief(pruned).checked, ['src/predicate.ts', 'src/bundle.ts', 'src/user.ts']);
      assert.equal(pruned.stats.unaffected, 0, 'bundle.ts takes the namespace whole; user.ts reads P');
    });

    it('a namespace import spelled as a global type is not a use of the namespace', () => {
      const { pruned } = both(
        {
          'src/predicate.ts': predicate,
          'src/Iterable.ts': 'export const first = <A>(it: Iterable<A>): A | undefined => {\n  for (const a of it) return a;\n  return undefined;\n};\n',
          'src/ns.ts':
            "import * as Iterable from './Iterable';\nimport { isStr } from './predicate';\nexport const all = (it: Iterable<unknown>): unknown => Iterable.first(it);\nexport const s: string = isStr(1) ? 'a' : 'b';\n",
        },
        { 'src/predicate.ts': toNumber },
      );
      assert.deepEqual(brief(pruned).introduced, []);
      assert.equal(pruned.stats.inPart, 1);
    });
  });
});
