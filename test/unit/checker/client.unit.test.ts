import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CheckerClient } from '../../../src/checker/client';
import { CHECK_NICE } from '../../../src/checker/protocol';
import { assertNewThreadLowered } from '../support/threads';
import type { CheckedResult, CheckResult } from '../../../src/checker/protocol';
import { chain, fixture, STRICT_TSCONFIG, TYPESCRIPT_PATH } from './support';

// The compiled worker module; the bundle (dist/check-worker.js), which `node esbuild.mjs` writes, is checked at the end.
const WORKER = path.resolve(__dirname, '..', '..', '..', 'src', 'checker', 'worker.js');
const BUNDLE = path.resolve(__dirname, '..', '..', '..', '..', 'dist', 'check-worker.js');

function checked(result: CheckResult): CheckedResult {
  assert.equal(result.outcome, 'checked');
  return result as CheckedResult;
}

const brief = (r: CheckedResult) => r.introduced.map((d) => `${d.path}:${d.line}:${d.column} TS${d.code}`);

describe('checker: the client and its worker thread', function () {
  this.timeout(60_000);
  const disposers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });
  const setUp = (files: Record<string, string>, options: { cancelGraceMs?: number; deadlineGraceMs?: number; workerPath?: string; idleMs?: number } = {}) => {
    const f = fixture(files);
    const client = new CheckerClient({ typescriptPath: TYPESCRIPT_PATH, workerPath: WORKER, ...options });
    disposers.push(f.dispose, () => client.dispose());
    return { folder: f.folder, client };
  };
  const staged = { 'src/m0.ts': 'export function f0(x: { k0: string }) { return [x]; }\n' };

  it('checks in the worker and stays warm between checks', async () => {
    const { folder, client } = setUp(chain(4));
    const first = checked(await client.check({ folder, staged, buffers: {} }));
    assert.deepEqual(brief(first), ['src/m1.ts:2:31 TS2322']);
    assert.equal(
      first.typescriptVersion,
      (JSON.parse(fs.readFileSync(path.join(path.dirname(TYPESCRIPT_PATH), '..', 'package.json'), 'utf8')) as { version: string }).version,
    );
    assert.equal(client.running, true);
    assert.equal(client.busy, false);
    const again = checked(await client.check({ folder, staged, buffers: {} }));
    assert.equal(again.stats.recomputedBase + again.stats.recomputedStaged, 0);
  });

  it('checks at a lower priority than the extension host on Linux: its own thread only', async () => {
    const { folder, client } = setUp(chain(4));
    await assertNewThreadLowered(CHECK_NICE, async () => checked(await client.check({ folder, staged, buffers: {} })));
  });

  it("reports the warm worker's heap between checks, and nothing when no worker runs", async () => {
    const { folder, client } = setUp(chain(4));
    assert.equal(await client.memory(), undefined, 'no worker yet');
    checked(await client.check({ folder, staged, buffers: {} }));
    // Asked beside a check: answered by the same worker, before or after it.
    const pending = client.check({ folder, staged: { ...staged, 'src/m1.ts': 'export const one = 1;\n' }, buffers: {} });
    const memory = await client.memory();
    checked(await pending);
    assert.ok(memory, 'answered');
    assert.ok(memory.heapUsed > 1_000_000 && memory.heapUsed <= memory.heapTotal, JSON.stringify(memory));
    assert.equal(typeof memory.collected, 'boolean');
    const asked = client.memory();
    await client.dispose();
    const afterDispose = await asked;
    assert.ok(afterDispose === undefined || afterDispose.heapUsed > 0, 'answered or resolved with undefined, never left pending');
    assert.equal(await client.memory(), undefined, 'no worker after dispose');
  });

  it('a cancel that does not land within its grace terminates the worker; the next check starts a new one', async () => {
    const { folder, client } = setUp(chain(12), { cancelGraceMs: 0 });
    const controller = new AbortController();
    const pending = client.check({ folder, staged, buffers: {} }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    assert.deepEqual(await pending, { outcome: 'cancelled' });
    assert.equal(client.running, false, 'no worker thread is left');
    assert.equal(client.busy, false);
    assert.deepEqual(brief(checked(await client.check({ folder, staged, buffers: {} }))), ['src/m1.ts:2:31 TS2322']);
  });

  it('a cancel that lands stops the check in the worker, which stays for the next check', async () => {
    const { folder, client } = setUp(chain(12), { cancelGraceMs: 30_000 });
    // Warm: the worker has loaded TypeScript and parsed the project.
    await client.check({ folder, staged: {}, buffers: {} });
    const controller = new AbortController();
    const pending = client.check({ folder, staged, buffers: {} }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    // Cancelled (not a finished check), the worker idle and still there: the cancel landed in it, nothing was terminated.
    assert.deepEqual(await pending, { outcome: 'cancelled' });
    assert.equal(client.running, true);
    assert.equal(client.busy, false);
    const next = checked(await client.check({ folder, staged, buffers: {} }));
    assert.equal(next.complete, true);
    assert.deepEqual(brief(next), ['src/m1.ts:2:31 TS2322']);
  });

  it('a check that reaches its deadline answers complete: false, and the next one works', async () => {
    const { folder, client } = setUp(chain(12));
    const late = checked(await client.check({ folder, staged, buffers: {}, deadline: Date.now() + 100 }));
    assert.equal(late.complete, false);
    assert.deepEqual(late.reasons, ['time-limit']);
    assert.equal(client.busy, false);
    const next = checked(await client.check({ folder, staged, buffers: {} }));
    assert.equal(next.complete, true);
  });

  it('a worker that does not stop at its deadline is terminated', async () => {
    const { folder, client } = setUp(chain(12), { deadlineGraceMs: 0 });
    const late = checked(await client.check({ folder, staged, buffers: {}, deadline: Date.now() + 20 }));
    assert.equal(late.complete, false);
    assert.deepEqual(late.reasons, ['time-limit']);
    assert.equal(client.running, false);
    assert.equal(checked(await client.check({ folder, staged, buffers: {} })).complete, true);
  });

  it('a check run ahead (prepare) gives way to a check asked while it runs; the check answers in full', async () => {
    const { folder, client } = setUp(chain(12));
    const ahead = client.prepare({ folder, staged, buffers: {} });
    // Running in the worker (loading TypeScript and the project takes it seconds) when the check is asked.
    while (!client.busy) await new Promise((resolve) => setTimeout(resolve, 1));
    const asked = checked(await client.check({ folder, staged, buffers: {} }));
    assert.deepEqual(await ahead, { outcome: 'cancelled' });
    assert.equal(asked.complete, true);
    assert.deepEqual(brief(asked), ['src/m1.ts:2:31 TS2322']);
  });

  it('a check run ahead stops when told (its transaction ended), and the worker stays for the next check', async () => {
    const { folder, client } = setUp(chain(12));
    const ahead = client.prepare({ folder, staged, buffers: {} });
    while (!client.busy) await new Promise((resolve) => setTimeout(resolve, 1));
    client.stopPreparing();
    assert.deepEqual(await ahead, { outcome: 'cancelled' });
    assert.equal(client.running, true);
    assert.deepEqual(brief(checked(await client.check({ folder, staged, buffers: {} }))), ['src/m1.ts:2:31 TS2322']);
  });

  it('a check run ahead to its end leaves the later check nothing to compute; one asked with a check already waiting is skipped', async () => {
    const { folder, client } = setUp(chain(6));
    const ahead = checked(await client.prepare({ folder, staged, buffers: {} }));
    assert.deepEqual(brief(ahead), ['src/m1.ts:2:31 TS2322']);
    const asked = checked(await client.check({ folder, staged, buffers: {} }));
    assert.deepEqual(brief(asked), brief(ahead));
    assert.equal(asked.stats.recomputedBase + asked.stats.recomputedStaged, 0);
    const other = { 'src/m0.ts': 'export function f0(x: { k0: boolean }) { return [x]; }\n' };
    const skipped = client.prepare({ folder, staged: other, buffers: {} });
    const waiting = client.check({ folder, staged: other, buffers: {} });
    assert.deepEqual(await skipped, { outcome: 'cancelled' });
    assert.ok(checked(await waiting).stats.recomputedStaged > 0, 'the check did the work the skipped preparation would have done');
  });

  it('a warming computes the current view in the worker: the first check computes the staged side only', async () => {
    const { folder, client } = setUp(chain(6));
    const warmed = await client.warm({ folder, files: ['src/m2.ts'], buffers: {} });
    assert.deepEqual(warmed.outcome === 'warmed' && [warmed.projects, warmed.files, warmed.computed], [['tsconfig.json'], 6, 6]);
    const asked = checked(await client.check({ folder, staged, buffers: {} }));
    assert.deepEqual(brief(asked), ['src/m1.ts:2:31 TS2322']);
    assert.equal(asked.stats.recomputedBase, 0);
  });

  it('a warming gives way to a check asked while it runs, is skipped when a check waits, and never stops a check run ahead', async () => {
    const { folder, client } = setUp(chain(12));
    const warming = client.warm({ folder, files: ['src/m2.ts'], buffers: {} });
    while (!client.busy) await new Promise((resolve) => setTimeout(resolve, 1));
    const asked = checked(await client.check({ folder, staged, buffers: {} }));
    assert.deepEqual(await warming, { outcome: 'cancelled' });
    assert.deepEqual(brief(asked), ['src/m1.ts:2:31 TS2322']);
    const other = { 'src/m0.ts': 'export function f0(x: { k0: boolean }) { return [x]; }\n' };
    const running = client.check({ folder, staged: other, buffers: {} });
    const skipped = client.warm({ folder, files: ['src/m2.ts'], buffers: {} });
    const waiting = client.check({ folder, staged, buffers: {} });
    assert.deepEqual(await skipped, { outcome: 'cancelled' });
    checked(await running);
    checked(await waiting);
    const third = { 'src/m0.ts': 'export function f0(x: { k0: symbol }) { return [x]; }\n' };
    const ahead = client.prepare({ folder, staged: third, buffers: {} });
    while (!client.busy) await new Promise((resolve) => setTimeout(resolve, 1));
    const after = client.warm({ folder, files: ['src/m2.ts'], buffers: {} });
    assert.equal((await ahead).outcome, 'checked', 'the check run ahead ran to its end');
    assert.equal((await after).outcome, 'warmed');
  });

  it('ends a worker left idle (it holds the project in both views), and the next check starts a new one', async () => {
    const { folder, client } = setUp(chain(3), { idleMs: 50 });
    assert.deepEqual(brief(checked(await client.check({ folder, staged, buffers: {} }))), ['src/m1.ts:2:31 TS2322']);
    assert.equal(client.running, true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(client.running, false, 'the idle worker ended');
    assert.deepEqual(brief(checked(await client.check({ folder, staged, buffers: {} }))), ['src/m1.ts:2:31 TS2322']);
  });

  it('checks wait their turn, and one cancelled before its turn never reaches the worker', async () => {
    const { folder, client } = setUp({ 'tsconfig.json': STRICT_TSCONFIG, 'src/a.ts': 'export const a = 1;\n' });
    const controller = new AbortController();
    const one = client.check({ folder, staged: { 'src/a.ts': "export const a: number = '1';\n" }, buffers: {} });
    const two = client.check({ folder, staged: {}, buffers: {} }, controller.signal);
    controller.abort();
    assert.equal(checked(await one).introduced.length, 1);
    assert.deepEqual(await two, { outcome: 'cancelled' });
  });

  it('a worker that cannot start (no TypeScript at the path) fails the check, and dispose ends the client', async () => {
    const { folder, client } = setUp({ 'a.ts': '' });
    const broken = new CheckerClient({ typescriptPath: path.join(folder, 'no-typescript.js'), workerPath: WORKER });
    await assert.rejects(broken.check({ folder, staged: {}, buffers: {} }), /the checker worker/);
    assert.equal(broken.running, false);
    await client.dispose();
    await assert.rejects(client.check({ folder, staged: {}, buffers: {} }), /disposed/);
  });

  it('the bundle dist/check-worker.js answers with the TypeScript it is given', async () => {
    assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} is missing: bundle first (node esbuild.mjs; npm test does)`);
    const { folder, client } = setUp({ 'tsconfig.json': STRICT_TSCONFIG, 'src/a.ts': 'export const a = 1;\n' }, { workerPath: BUNDLE });
    const r = checked(await client.check({ folder, staged: { 'src/a.ts': "export const a: number = '1';\n" }, buffers: {} }));
    assert.deepEqual(brief(r), ['src/a.ts:1:14 TS2322']);
  });
});
