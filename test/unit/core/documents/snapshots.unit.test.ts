import * as assert from 'node:assert/strict';
import { SnapshotTracker, stableUuid } from '../../../../src/core/documents/snapshots';

const RFC4122 = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('snapshots: stableUuid', () => {
  it('is stable for the same seed and differs between seeds', () => {
    assert.equal(stableUuid('file:///work/app'), stableUuid('file:///work/app'));
    assert.notEqual(stableUuid('file:///work/app'), stableUuid('file:///work/app2'));
  });

  it('is shaped as an RFC 4122 uuid (version and variant nibbles) for many seeds', () => {
    for (let i = 0; i < 300; i++) {
      const id = stableUuid(`file:///folder/${i}`);
      assert.match(id, RFC4122, id);
    }
  });
});

describe('snapshots: SnapshotTracker', () => {
  let counter = 0;
  const ids = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
  const tracker = (capacity = 2000, revision: () => number | null = () => null) =>
    new SnapshotTracker('11111111-1111-4111-8111-111111111111', 3, revision, capacity, ids);

  it('describes the folder and gives a new snapshotId on every change', () => {
    const t = tracker();
    const first = t.current();
    assert.deepEqual(
      { ...first, snapshotId: 'x' },
      { workspaceId: '11111111-1111-4111-8111-111111111111', workspaceEpoch: 3, snapshotId: 'x', transactionRevision: null },
    );
    t.recordChange('src/a.ts');
    const second = t.current();
    assert.notEqual(second.snapshotId, first.snapshotId);
    t.recordChange('src/a.ts');
    assert.notEqual(t.current().snapshotId, second.snapshotId);
  });

  it('uses random uuids by default', () => {
    const t = new SnapshotTracker('11111111-1111-4111-8111-111111111111', 1);
    const before = t.current().snapshotId;
    t.recordChange('a');
    assert.match(t.current().snapshotId, /^[0-9a-f-]{36}$/);
    assert.notEqual(t.current().snapshotId, before);
  });

  it('is not stale when only other documents changed', () => {
    const t = tracker();
    const old = t.current();
    t.recordChange('src/other.ts');
    t.recordChange('README.md');
    assert.deepEqual(t.check(old, ['src/a.ts']), { stale: false });
  });

  it('is stale when a touched document changed, and names it', () => {
    const t = tracker();
    const old = t.current();
    t.recordChange('src/other.ts');
    t.recordChange('src/a.ts');
    const check = t.check(old, ['src/a.ts', 'src/b.ts']);
    assert.equal(check.stale, true);
    assert.ok(check.stale);
    assert.deepEqual(check.changedPaths, ['src/a.ts']);
    assert.match(check.reason, /src\/a\.ts changed/);
  });

  it('only counts changes after the expected snapshot', () => {
    const t = tracker();
    t.recordChange('src/a.ts');
    const afterFirstChange = t.current();
    t.recordChange('src/b.ts');
    assert.deepEqual(t.check(afterFirstChange, ['src/a.ts']), { stale: false });
    assert.equal(t.check(afterFirstChange, ['src/b.ts']).stale, true);
  });

  it('is not stale for the current snapshot', () => {
    const t = tracker();
    t.recordChange('src/a.ts');
    assert.deepEqual(t.check(t.current(), ['src/a.ts']), { stale: false });
  });

  it('is stale for another workspaceId or another epoch, even when no document is touched', () => {
    const t = tracker();
    const current = t.current();
    const other = t.check({ ...current, workspaceId: '22222222-2222-4222-8222-222222222222' }, []);
    assert.equal(other.stale, true);
    assert.match(other.stale ? other.reason : '', /belongs to workspace 22222222/);
    const epoch = t.check({ ...current, workspaceEpoch: 2 }, []);
    assert.equal(epoch.stale, true);
    assert.match(epoch.stale ? epoch.reason : '', /reloaded \(epoch 2 is now 3\)/);
  });

  it('is stale for an unknown snapshotId when documents are touched, not when none are', () => {
    const t = tracker();
    const unknown = { ...t.current(), snapshotId: '99999999-9999-4999-8999-999999999999' };
    const check = t.check(unknown, ['src/a.ts']);
    assert.equal(check.stale, true);
    assert.match(check.stale ? check.reason : '', /unknown or too old/);
    assert.deepEqual(t.check(unknown, []), { stale: false });
  });

  it('is stale when the change log overflowed since the snapshot', () => {
    const t = tracker(2);
    const old = t.current();
    t.recordChange('x.ts');
    t.recordChange('y.ts');
    t.recordChange('z.ts');
    assert.equal(t.check(old, ['a.ts']).stale, true);
    // A snapshot still covered by the log keeps working.
    const recent = t.current();
    t.recordChange('x.ts');
    assert.deepEqual(t.check(recent, ['a.ts']), { stale: false });
  });

  it('is stale when the staged transaction revision moved', () => {
    let revision: number | null = null;
    const t = tracker(2000, () => revision);
    const old = t.current();
    revision = 1;
    assert.equal(t.current().transactionRevision, 1);
    assert.equal(t.check(old, []).stale, true);
    assert.deepEqual(t.check(t.current(), ['a.ts']), { stale: false });
  });

  it('reload bumps the epoch, changes the snapshotId and forgets earlier snapshots', () => {
    const t = tracker();
    const old = t.current();
    t.reload(4);
    const now = t.current();
    assert.equal(now.workspaceEpoch, 4);
    assert.notEqual(now.snapshotId, old.snapshotId);
    assert.equal(t.check(old, ['a.ts']).stale, true);
    assert.equal(t.check({ ...old, workspaceEpoch: 4 }, ['a.ts']).stale, true);
    assert.deepEqual(t.check(now, ['a.ts']), { stale: false });
    t.recordChange('b.ts');
    assert.deepEqual(t.check(now, ['a.ts']), { stale: false });
  });
});
