import * as assert from 'node:assert/strict';
import * as ts from 'typescript';
import { Checker, systemReader } from '../../../src/checker/program';
import type { CheckedResult, CheckResult } from '../../../src/checker/protocol';
import { chain, fixture, sideThread } from './support';

function checked(result: CheckResult): CheckedResult {
  assert.equal(result.outcome, 'checked');
  return result as CheckedResult;
}

const staged = { 'src/m0.ts': 'export function f0(x: { k0: string }) { return [x]; }\n' };

// What only a current view in a thread of its own can get wrong: the host's flags reaching it, and a thread that stops answering.
describe('checker: the current view in a thread of its own', function () {
  this.timeout(60_000);
  const disposers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });
  const setUp = (count: number) => {
    const f = fixture(chain(count, 60));
    const side = sideThread();
    disposers.push(f.dispose, () => side.dispose());
    return { folder: f.folder, side, checker: new Checker(ts, systemReader(ts), f.folder, { base: side.base, twoThreadsFrom: 0 }) };
  };

  it("a cancel through the host's flags stops both threads; the next check answers as a fresh checker does", () => {
    const { folder, side, checker } = setUp(6);
    let polled = 0;
    // The host sets the flag to the running check's id while TypeScript works: here after a few polls of this thread.
    const cancelled = () => {
      if (++polled === 5) Atomics.store(side.cancel, 0, 7);
      return Atomics.load(side.cancel, 0) === 7;
    };
    assert.deepEqual(checker.check({ folder, buffers: {}, staged }, cancelled, undefined, 7), { outcome: 'cancelled' });
    const next = checked(checker.check({ folder, buffers: {}, staged }, () => Atomics.load(side.cancel, 0) === 8, undefined, 8));
    const fresh = checked(new Checker(ts, systemReader(ts), folder).check({ folder, buffers: {}, staged }));
    assert.deepEqual(
      next.introduced.map((d) => `${d.path}:${d.line} TS${d.code}`),
      ['src/m1.ts:2 TS2322'],
    );
    assert.deepEqual(next.introduced, fresh.introduced);
    assert.deepEqual(next.checked, fresh.checked);
    assert.equal(next.complete, true);
  });

  it('a check run ahead gives way when the host sets the flag, in both threads, and keeps what it computed', () => {
    const { folder, side, checker } = setUp(8);
    let polled = 0;
    const giveWay = () => {
      if (++polled === 3) Atomics.store(side.cancel, 1, 1);
      return Atomics.load(side.cancel, 1) !== 0;
    };
    assert.deepEqual(
      checker.check({ folder, buffers: {}, staged }, () => false, giveWay, 3),
      { outcome: 'cancelled' },
    );
    Atomics.store(side.cancel, 1, 0);
    const after = checked(checker.check({ folder, buffers: {}, staged }, () => false, undefined, 4));
    const fresh = checked(new Checker(ts, systemReader(ts), folder).check({ folder, buffers: {}, staged }));
    assert.deepEqual(after.introduced, fresh.introduced);
    assert.equal(after.complete, true);
    const work = (r: CheckedResult) => r.stats.recomputedBase + r.stats.recomputedStaged;
    assert.ok(work(after) < work(fresh), `${work(after)} of ${work(fresh)} computed again`);
  });

  it('a thread that stopped answering: the check answers at its deadline (partial, time-limit) instead of waiting for ever', async () => {
    const { folder, side, checker } = setUp(3);
    await side.dispose();
    const started = Date.now();
    const r = checked(checker.check({ folder, buffers: {}, staged, deadline: Date.now() + 300 }));
    assert.equal(r.complete, false);
    assert.deepEqual(r.reasons, ['time-limit']);
    assert.deepEqual(r.introduced, []);
    assert.ok(Date.now() - started < 10_000, `answered after ${Date.now() - started} ms`);
  });

  it('a project smaller than twoThreadsFrom is checked in one thread; one as large in two, with the same answer', () => {
    const f = fixture(chain(4));
    disposers.push(f.dispose);
    const side = sideThread();
    disposers.push(() => side.dispose());
    let asked = 0;
    const base = (reads: Parameters<typeof side.base>[0]) => (asked++, side.base(reads));
    const size = Object.values(chain(4)).join('').length;
    const small = checked(new Checker(ts, systemReader(ts), f.folder, { base, twoThreadsFrom: size * 2 }).check({ folder: f.folder, buffers: {}, staged }));
    assert.equal(asked, 0, 'no call to the other thread');
    const large = checked(new Checker(ts, systemReader(ts), f.folder, { base, twoThreadsFrom: size / 2 }).check({ folder: f.folder, buffers: {}, staged }));
    assert.equal(asked, 1);
    assert.deepEqual(large.introduced, small.introduced);
    assert.deepEqual(large.checked, small.checked);
    assert.equal(large.stats.recomputedBase, small.stats.recomputedBase);
  });
});
