import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as ts from 'typescript';
import { Checker, systemReader, type FileReader } from '../../../src/checker/program';
import type { CheckedResult, CheckRequest, CheckResult } from '../../../src/checker/protocol';
import { chain, fixture, STRICT_TSCONFIG } from './support';

function checked(result: CheckResult): CheckedResult {
  assert.equal(result.outcome, 'checked');
  return result as CheckedResult;
}

const brief = (r: CheckedResult) => ({
  introduced: r.introduced.map((d) => `${d.path}:${d.line}:${d.column} TS${d.code}`),
  resolved: r.resolved.map((d) => `${d.path}:${d.line}:${d.column} TS${d.code}`),
});

describe('checker: the staged program against the current one', function () {
  this.timeout(60_000);
  const disposers: (() => void)[] = [];
  afterEach(() => disposers.splice(0).forEach((d) => d()));
  const setUp = (files: Record<string, string>) => {
    const f = fixture(files);
    disposers.push(f.dispose);
    const checker = new Checker(ts, systemReader(ts), f.folder);
    const run = (request: Omit<CheckRequest, 'folder' | 'buffers'> & { buffers?: Record<string, string> }, cancelled?: () => boolean) =>
      checker.check({ folder: f.folder, buffers: {}, ...request }, cancelled);
    return { folder: f.folder, checker, run };
  };

  it('reports a name clash a rename introduces, in staged coordinates, with the TypeScript version', () => {
    const { run } = setUp({
      'tsconfig.json': STRICT_TSCONFIG,
      'src/util.ts':
        'export function parse(s: string): number {\n  return Number(s);\n}\nexport function format(n: number): string {\n  return String(n);\n}\n',
      'src/main.ts': "import { parse } from './util';\nexport const n = parse('1');\n",
    });
    // The rename of format to parse, with a comment line added above it: the clash is reported where the staged text has it.
    const staged =
      'export function parse(s: string): number {\n  return Number(s);\n}\n// formats\nexport function parse(n: number): string {\n  return String(n);\n}\n';
    const r = checked(run({ staged: { 'src/util.ts': staged } }));
    assert.equal(r.typescriptVersion, ts.version);
    assert.equal(r.complete, true);
    assert.deepEqual(r.projects, ['tsconfig.json']);
    assert.deepEqual(r.checked, ['src/util.ts', 'src/main.ts']);
    assert.deepEqual(brief(r).introduced, ['src/util.ts:1:17 TS2323', 'src/util.ts:1:17 TS2393', 'src/util.ts:5:17 TS2323', 'src/util.ts:5:17 TS2393']);
    assert.deepEqual(r.resolved, []);
    assert.match(r.introduced[1].message, /Duplicate function implementation/);
    assert.equal(r.introduced[0].severity, 'error');
  });

  it('reports what an edit of a type breaks in both files using it (dependents, transitively)', () => {
    const { run } = setUp({
      'tsconfig.json': STRICT_TSCONFIG,
      'src/point.ts': 'export interface Point {\n  x: number;\n  y: number;\n}\n',
      'src/a.ts': "import type { Point } from './point';\nexport const a: Point = { x: 1, y: 2 };\n",
      'src/b.ts':
        "import { a } from './a';\nimport type { Point } from './point';\nexport function len(p: Point): number {\n  return Math.hypot(p.x, p.y) + a.y;\n}\n",
      'src/unrelated.ts': 'export const u: number = 1;\n',
    });
    const r = checked(run({ staged: { 'src/point.ts': 'export interface Point {\n  x: number;\n}\n' } }));
    assert.deepEqual(r.checked, ['src/point.ts', 'src/a.ts', 'src/b.ts']);
    assert.deepEqual(brief(r).introduced, ['src/a.ts:2:33 TS2353', 'src/b.ts:4:28 TS2339', 'src/b.ts:4:35 TS2339']);
    assert.match(r.introduced[1].message, /Property 'y' does not exist on type 'Point'/);
    assert.equal(r.complete, true);
  });

  it('reports a fixed error as resolved, in the current coordinates', () => {
    const { run } = setUp({
      'tsconfig.json': STRICT_TSCONFIG,
      'src/a.ts': "export const x = 1;\nexport const s: string = x;\nexport const t: string = 'fine';\n",
    });
    const r = checked(
      run({ staged: { 'src/a.ts': "// header\n// more\nexport const x = 1;\nexport const s: string = String(x);\nexport const t: string = 'fine';\n" } }),
    );
    assert.deepEqual(brief(r), { introduced: [], resolved: ['src/a.ts:2:14 TS2322'] });
  });

  it('does not report an existing error that only moved', () => {
    const { run } = setUp({ 'tsconfig.json': STRICT_TSCONFIG, 'src/a.ts': 'export const s: string = 1;\n' });
    const r = checked(run({ staged: { 'src/a.ts': '// moved down\n\nexport const s: string = 1;\n' } }));
    assert.deepEqual(brief(r), { introduced: [], resolved: [] });
  });

  it('checks loose files with default options when no tsconfig or jsconfig is above them', () => {
    const { run } = setUp({ 'a.ts': 'export const n: number = 1;\n', 'b.ts': "import { n } from './a';\nexport const m = n + 1;\n" });
    const r = checked(run({ staged: { 'a.ts': "export const n: number = 'one';\n" } }));
    assert.deepEqual(r.projects, ['']);
    assert.deepEqual(brief(r).introduced, ['a.ts:1:14 TS2322']);
  });

  it('checks a JavaScript project with a jsconfig and checkJs', () => {
    const { run } = setUp({
      'jsconfig.json': JSON.stringify({ compilerOptions: { checkJs: true, target: 'ES2022', module: 'commonjs' } }),
      'lib.js': '/** @param {number} n */\nfunction twice(n) {\n  return n * 2;\n}\nmodule.exports = { twice };\n',
      'main.js': "const { twice } = require('./lib');\ntwice(2);\n",
    });
    const r = checked(run({ staged: { 'main.js': "const { twice } = require('./lib');\ntwice('two');\n" } }));
    assert.deepEqual(r.projects, ['jsconfig.json']);
    assert.deepEqual(brief(r).introduced, ['main.js:2:7 TS2345']);
    // The library's edit is seen by the file requiring it.
    const r2 = checked(run({ staged: { 'lib.js': '/** @param {string} n */\nfunction twice(n) {\n  return n + n;\n}\nmodule.exports = { twice };\n' } }));
    assert.deepEqual(r2.checked, ['lib.js', 'main.js']);
    assert.deepEqual(brief(r2).introduced, ['main.js:2:7 TS2345']);
  });

  it('sees deleted and created documents: an import of a deleted file breaks, one of a created file resolves', () => {
    const { run } = setUp({
      'tsconfig.json': STRICT_TSCONFIG,
      'src/old.ts': 'export const v = 1;\n',
      'src/use.ts': "import { v } from './old';\nexport const w = v;\n",
    });
    const r = checked(run({ staged: { 'src/old.ts': null } }));
    assert.deepEqual(brief(r).introduced, ['src/use.ts:1:19 TS2307']);
    // A move: the old path deleted, the new one created, the importer updated.
    const moved = checked(
      run({
        staged: {
          'src/old.ts': null,
          'src/new/place.ts': 'export const v = 1;\n',
          'src/use.ts': "import { v } from './new/place';\nexport const w: string = v;\n",
        },
      }),
    );
    assert.deepEqual(brief(moved).introduced, ['src/use.ts:2:14 TS2322']);
  });

  it('compares with the unsaved buffers, not the disk, for the current view', () => {
    const { run } = setUp({ 'tsconfig.json': STRICT_TSCONFIG, 'src/a.ts': 'export const s: string = 1;\n' });
    // The buffer already fixed the error; the staged text keeps the fix: nothing resolved by the transaction.
    const r = checked(run({ buffers: { 'src/a.ts': "export const s: string = '1';\n" }, staged: { 'src/a.ts': "export const s: string = '1';\n// more\n" } }));
    assert.deepEqual(brief(r), { introduced: [], resolved: [] });
  });

  it('stops at the dependents cap and says so', () => {
    const files: Record<string, string> = { 'tsconfig.json': STRICT_TSCONFIG, 'src/base.ts': 'export const b = 1;\n' };
    for (let i = 0; i < 5; i++) files[`src/user${i}.ts`] = `import { b } from './base';\nexport const u${i}: number = b;\n`;
    const { run } = setUp(files);
    const r = checked(run({ staged: { 'src/base.ts': "export const b = 'one';\n" }, maxDependents: 2 }));
    assert.equal(r.complete, false);
    assert.deepEqual(r.reasons, ['dependent-cap']);
    assert.equal(r.checked.length, 3);
    assert.equal(r.introduced.length, 2);
  });

  it('answers complete: false at the time limit, and checks fully afterwards', () => {
    const { run } = setUp(chain(5));
    const staged = { 'src/m0.ts': 'export function f0(x: { k0: string }) { return [x]; }\n' };
    const late = checked(run({ staged, deadline: Date.now() - 1 }));
    assert.equal(late.complete, false);
    assert.deepEqual(late.reasons, ['time-limit']);
    assert.deepEqual(late.checked, []);
    const full = checked(run({ staged }));
    assert.equal(full.complete, true);
    assert.deepEqual(full.checked, ['src/m0.ts', 'src/m1.ts', 'src/m2.ts', 'src/m3.ts', 'src/m4.ts']);
    assert.deepEqual(brief(full).introduced, ['src/m1.ts:2:31 TS2322']);
  });

  it('answers cancelled when the host cancels, and the next check works', () => {
    const { run } = setUp(chain(3));
    const staged = { 'src/m0.ts': 'export function f0(x: { k0: string }) { return [x]; }\n' };
    assert.deepEqual(
      run({ staged }, () => true),
      { outcome: 'cancelled' },
    );
    assert.deepEqual(brief(checked(run({ staged }))).introduced, ['src/m1.ts:2:31 TS2322']);
  });

  it('a check run ahead gives way between files and keeps its work: the check asked after it computes only the rest, and answers as a fresh one', () => {
    const { run, checker, folder } = setUp(chain(8));
    const staged = { 'src/m0.ts': 'export function f0(x: { k0: string }) { return [x]; }\n' };
    let asked = 0;
    assert.deepEqual(
      checker.check(
        { folder, buffers: {}, staged },
        () => false,
        () => ++asked > 3,
      ),
      { outcome: 'cancelled' },
    );
    const after = checked(run({ staged }));
    const fresh = checked(new Checker(ts, systemReader(ts), folder).check({ folder, buffers: {}, staged }));
    assert.deepEqual(brief(after), brief(fresh));
    assert.deepEqual(after.checked, fresh.checked);
    assert.equal(after.complete, true);
    const work = (r: CheckedResult) => r.stats.recomputedBase + r.stats.recomputedStaged;
    assert.equal(work(after), work(fresh) - 3, 'the three files computed before giving way are not computed again');
  });

  it('a check run ahead to its end leaves nothing to compute to the check asked after it', () => {
    const { run, checker, folder } = setUp(chain(6));
    const staged = { 'src/m0.ts': 'export function f0(x: { k0: string }) { return [x]; }\n' };
    const ahead = checked(
      checker.check(
        { folder, buffers: {}, staged },
        () => false,
        () => false,
      ),
    );
    const after = checked(run({ staged }));
    assert.deepEqual(brief(after), brief(ahead));
    assert.deepEqual(brief(after).introduced, ['src/m1.ts:2:31 TS2322']);
    assert.equal(after.stats.recomputedBase + after.stats.recomputedStaged, 0);
  });

  it('the current view computed ahead (warm) leaves only the staged side to the first check, which answers as a fresh one', () => {
    const { run, checker, folder } = setUp(chain(6));
    const staged = { 'src/m0.ts': 'export function f0(x: { k0: string }) { return [x]; }\n' };
    const warmed = checker.warm({ folder, files: ['src/m4.ts'], buffers: {} });
    assert.equal(warmed.outcome, 'warmed');
    assert.deepEqual(warmed.outcome === 'warmed' && { projects: warmed.projects, files: warmed.files, computed: warmed.computed }, {
      projects: ['tsconfig.json'],
      files: 6,
      computed: 6,
    });
    const again = checker.warm({ folder, files: ['src/m0.ts'], buffers: {} });
    assert.equal(again.outcome === 'warmed' && again.computed, 0, 'already warm: nothing computed again');
    const first = checked(run({ staged }));
    assert.equal(first.stats.recomputedBase, 0, 'the current side was computed ahead');
    assert.ok(first.stats.recomputedStaged > 0);
    const fresh = checked(new Checker(ts, systemReader(ts), folder).check({ folder, buffers: {}, staged }));
    assert.deepEqual(brief(first), brief(fresh));
    assert.deepEqual(first.checked, fresh.checked);
  });

  it('a warming gives way between files and keeps its work; one of unsaved buffers warms that text, and a check compares with it', () => {
    const { checker, folder, run } = setUp(chain(6));
    let asked = 0;
    assert.deepEqual(
      checker.warm(
        { folder, files: ['src/m1.ts'], buffers: {} },
        () => false,
        () => ++asked > 2,
      ),
      { outcome: 'cancelled' },
    );
    const rest = checker.warm({ folder, files: ['src/m1.ts'], buffers: {} });
    assert.equal(rest.outcome === 'warmed' && rest.computed, 4, 'the two files computed before giving way are kept');
    // The person's unsaved m2 breaks its own use of prev: the current view has that error, and the staged fix resolves it.
    const broken = chain(6)['src/m2.ts'].replace('prev({ k0: 1 })', "prev({ k0: 'one' })");
    const warmBuffers = checker.warm({ folder, files: ['src/m1.ts'], buffers: { 'src/m2.ts': broken } });
    assert.equal(warmBuffers.outcome === 'warmed' && warmBuffers.computed >= 1, true);
    const fixed = checked(run({ staged: { 'src/m2.ts': chain(6)['src/m2.ts'] }, buffers: { 'src/m2.ts': broken } }));
    assert.equal(fixed.stats.recomputedBase, 0);
    assert.deepEqual(brief(fixed), { introduced: [], resolved: ['src/m2.ts:2:31 TS2322'] });
  });

  it('a warming of a file under no tsconfig or jsconfig computes nothing and says so', () => {
    const f = fixture({ 'a.ts': 'export const a = 1;\n' });
    disposers.push(f.dispose);
    const result = new Checker(ts, systemReader(ts), f.folder).warm({ folder: f.folder, files: ['a.ts'], buffers: {} });
    assert.deepEqual(result.outcome === 'warmed' && { projects: result.projects, files: result.files }, { projects: [], files: 0 });
  });

  it('is incremental: a one-line edit re-checks the edited file only, the current view stays warm', () => {
    const { run } = setUp(chain(6));
    const base = chain(6)['src/m0.ts'];
    const edit = (n: number) => ({ 'src/m0.ts': base.replace('return [x]', `const k = ${n};\n  return [x]`) });
    const first = checked(run({ staged: edit(1) }));
    assert.equal(first.checked.length, 6);
    // A body edit: m0's declarations are the same in both views, so its five dependents are covered without being computed.
    assert.equal(first.stats.recomputedBase, 1);
    assert.equal(first.stats.recomputedStaged, 1);
    assert.equal(first.stats.unaffected, 5);
    // The builder learns the files' shapes on the first change it sees after a cold start.
    checked(run({ staged: edit(2) }));
    const third = checked(run({ staged: edit(3) }));
    assert.equal(third.stats.recomputedBase, 0);
    assert.equal(third.stats.recomputedStaged, 1, 'a body edit keeps the exported shape: no dependent is re-checked');
    assert.equal(third.checked.length, 6);
    // A change of an exported type re-checks its importer, but not the whole chain.
    const shape = checked(run({ staged: { 'src/m0.ts': base.replace('x: T): Array<T', 'x: T, extra?: 1): Array<T') } }));
    assert.ok(shape.stats.recomputedStaged >= 2 && shape.stats.recomputedStaged < 6, `recomputed ${shape.stats.recomputedStaged}`);
    console.log(`      first check ${first.stats.durationMs} ms, one-line re-check ${third.stats.durationMs} ms, shape change ${shape.stats.durationMs} ms`);
  });

  it('a new break after a re-check answers as a fresh checker does: what the importers of a changed shape kept is dropped', () => {
    const { run, folder } = setUp(chain(6));
    const base = chain(6)['src/m0.ts'];
    const fresh = (staged: CheckRequest['staged']) => checked(new Checker(ts, systemReader(ts), folder).check({ folder, buffers: {}, staged }));
    const broken = (type: string) => ({
      'src/m0.ts': base.replace('export function f0<T extends { k0: number }>', `export function f0<T extends { k0: ${type} }>`),
    });
    const first = checked(run({ staged: broken('string') }));
    assert.deepEqual(brief(first), brief(fresh(broken('string'))));
    assert.deepEqual(brief(first).introduced, ['src/m1.ts:2:31 TS2322']);
    const edited = { ...broken('string'), 'src/m3.ts': chain(6)['src/m3.ts'].replace('prev({ k0: 1 })', 'prev({ k0: 2 })') };
    assert.deepEqual(brief(checked(run({ staged: edited }))), brief(fresh(edited)));
    // Another shape of m0: m1's kept diagnostics (of the string break) no longer hold.
    const again = checked(run({ staged: broken('boolean') }));
    assert.deepEqual(brief(again), brief(fresh(broken('boolean'))));
    assert.deepEqual(brief(again).introduced, ['src/m1.ts:2:31 TS2322']);
    // A shape m1's call fits again: the error m1 kept from the last break must not come back.
    const widened = checked(run({ staged: broken('number | string') }));
    assert.deepEqual(brief(widened), { introduced: [], resolved: [] });
    assert.ok(widened.stats.recomputedStaged >= 2, `m0 and m1 computed again: ${JSON.stringify(widened.stats)}`);
  });

  it("reads only through its reader, inside the folder or TypeScript's package, and writes nothing", () => {
    const f = fixture({
      'tsconfig.json': STRICT_TSCONFIG,
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': "import { a } from './a';\nexport const b: string = a;\n",
    });
    disposers.push(f.dispose);
    const system = systemReader(ts);
    const reads: string[] = [];
    const reader: FileReader = {
      ...system,
      readFile: (p) => {
        reads.push(p);
        return system.readFile(p);
      },
    };
    const r = checked(new Checker(ts, reader, f.folder).check({ folder: f.folder, buffers: {}, staged: { 'src/a.ts': "export const a = 'x';\n" } }));
    assert.deepEqual(brief(r).resolved, ['src/b.ts:2:14 TS2322']);
    // TypeScript's lib files and its package.json (the module format of those lib files).
    const typescriptDir = path.dirname(path.dirname(ts.getDefaultLibFilePath({})));
    const outside = reads.filter((p) => !p.startsWith(`${f.folder}/`) && !p.startsWith(`${typescriptDir}/`));
    assert.deepEqual(outside, []);
    assert.ok(reads.some((p) => p.endsWith('/src/a.ts')));
  });

  it('checks several projects: each staged file with its nearest config', () => {
    const { run } = setUp({
      'packages/a/tsconfig.json': STRICT_TSCONFIG,
      'packages/a/src/x.ts': 'export const x: number = 1;\n',
      'packages/b/jsconfig.json': JSON.stringify({ compilerOptions: { checkJs: true } }),
      'packages/b/y.js': 'const y = 1;\nmodule.exports = { y };\n',
    });
    const r = checked(
      run({
        staged: {
          'packages/a/src/x.ts': "export const x: number = '1';\n",
          'packages/b/y.js': "/** @type {number} */\nconst y = 'one';\nmodule.exports = { y };\n",
        },
      }),
    );
    assert.deepEqual(r.projects.sort(), ['packages/a/tsconfig.json', 'packages/b/jsconfig.json']);
    assert.deepEqual(brief(r).introduced, ['packages/a/src/x.ts:1:14 TS2322', 'packages/b/y.js:2:7 TS2322']);
  });
});
