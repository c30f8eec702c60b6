/**
 * The open transaction survives a window reload: written to the extension's storage once its
 * changes pause (at once when it ends, and at deactivation), read back at start (a new TransactionManager over the same files), with each base
 * checked against its file.
 */
import * as assert from 'node:assert/strict';
import { MAX_KEPT_BYTES, TransactionStore } from '../../../../src/core/transactions/store';
import type { KeptTransaction, KeptTransactionFiles } from '../../../../src/core/transactions/store';
import type { MutationData } from '../../../../src/core/transactions/types';
import { FakeHost } from '../../support/fakeHost';
import { createHarness, MemoryStore } from '../../support/harness';
import type { Harness } from '../../support/harness';

/** The extension's global storage, in memory. */
class MemoryFiles implements KeptTransactionFiles {
  readonly texts = new Map<string, string>();
  writes = 0;
  delayMs = 0;
  private inFlight = 0;
  maxInFlight = 0;
  async read(id: string): Promise<string | undefined> {
    return this.texts.get(id);
  }
  async write(id: string, text: string): Promise<void> {
    this.writes++;
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    this.texts.set(id, text);
    this.inFlight--;
  }
  async remove(id: string): Promise<void> {
    this.texts.delete(id);
  }
}

const UTIL = 'export const version = "1.0.0";\nexport function shout(s: string): string {\n  return s.toUpperCase();\n}\n';
const MAIN = "import { shout } from './util';\nconsole.log(shout('hi'));\n";
const OLD = 'export const obsolete = true;\n';

describe('transaction store: the open transaction across a window reload', () => {
  let host: FakeHost;
  let files: MemoryFiles;
  let globalState: MemoryStore;
  let abs: (p: string) => string;

  /** What activation builds: a harness (manager, registry, runner) and the store restoring into it. */
  async function activate(maxBytes = MAX_KEPT_BYTES, delayMs?: number): Promise<{ h: Harness; store: TransactionStore }> {
    const h = await createHarness({ host, store: globalState, settings: { operationalMode: 'autonomous-trusted' } });
    const store = new TransactionStore(h.transactions, host, files, (id) => h.registry.byId(id), { maxBytes, ...(delayMs === undefined ? {} : { delayMs }) });
    await store.restore(h.registry.all());
    return { h, store };
  }

  const sel = (path: string, selectedText: string) => ({ selection: { document: { path }, selectedText } });
  const edit = async (h: Harness, path: string, selectedText: string, newText: string) =>
    (await h.ok<MutationData>('edit-text', { edits: [{ location: sel(path, selectedText), newText }] })).data;

  beforeEach(() => {
    host = new FakeHost();
    const folder = host.addFolder('app', { 'src/util.ts': UTIL, 'src/main.ts': MAIN, 'src/obsolete.ts': OLD });
    abs = (p) => host.abs(folder, p);
    files = new MemoryFiles();
    globalState = new MemoryStore();
  });

  /** Five revisions of every kind, the last one undone. */
  async function stageEverything(h: Harness): Promise<void> {
    await edit(h, 'src/util.ts', '"1.0.0"', '"2.0.0"');
    await h.ok('create-file', { path: 'src/new.ts', text: 'export const fresh = 1;\n' });
    await h.ok('move-file', { document: { path: 'src/main.ts' }, newPath: 'src/app.ts' });
    await edit(h, 'src/app.ts', "'hi'", "'hello'");
    await h.ok('delete-file', { document: { path: 'src/obsolete.ts' } });
    await h.ok('transaction-history', { action: 'undo' });
  }

  it('restores the same transaction: id, revisions with provenance, current revision, staged texts and preview', async () => {
    const first = await activate();
    await stageEverything(first.h);
    await first.store.flush();
    const ws1 = first.h.registry.all()[0];
    const before = {
      id: first.h.transactions.active(ws1.id)?.id,
      state: first.h.transactions.state(first.h.transactions.active(ws1.id)),
      history: first.h.transactions.history(ws1),
      preview: await first.h.transactions.preview(ws1),
      texts: ['src/util.ts', 'src/new.ts', 'src/app.ts', 'src/main.ts', 'src/obsolete.ts'].map((p) => first.h.transactions.stagedText(ws1, p)),
    };
    assert.equal(files.texts.size, 1);
    const kept = JSON.parse([...files.texts.values()][0]) as KeptTransaction;
    assert.equal(kept.revisions.length, 5);
    assert.ok(kept.bases.length <= 3, 'a base shared by several revisions is written once');

    const second = await activate();
    const ws = second.h.registry.all()[0];
    assert.equal(ws.id, ws1.id);
    const tx = second.h.transactions.active(ws.id);
    assert.ok(tx);
    assert.deepEqual(
      {
        id: tx.id,
        state: second.h.transactions.state(tx),
        history: second.h.transactions.history(ws),
        preview: await second.h.transactions.preview(ws),
        texts: ['src/util.ts', 'src/new.ts', 'src/app.ts', 'src/main.ts', 'src/obsolete.ts'].map((p) => second.h.transactions.stagedText(ws, p)),
      },
      before,
    );
    assert.deepEqual(
      before.history.map((r) => r.tool),
      ['edit-text', 'create-file', 'move-file', 'edit-text', 'delete-file'],
    );
    assert.equal(before.state?.revision, 4);
    const status = await second.h.ok<{ recovery: { state: string; detail: string } }>('server-status', {});
    assert.equal(status.data.recovery.state, 'recovered');
    assert.match(status.data.recovery.detail, /Restored the staged transaction of app after a restart \(5 revisions, at revision 4\)\./);

    // It goes on where it stopped: redo, then commit writes what was staged.
    await second.h.ok('transaction-history', { action: 'redo' });
    await second.h.ok('transaction-commit', {});
    assert.equal(host.diskText(abs('src/util.ts')), UTIL.replace('"1.0.0"', '"2.0.0"'));
    assert.equal(host.diskText(abs('src/app.ts')), MAIN.replace("'hi'", "'hello'"));
    assert.equal(host.diskText(abs('src/main.ts')), undefined);
    assert.equal(host.diskText(abs('src/obsolete.ts')), undefined);
    assert.equal(host.diskText(abs('src/new.ts')), 'export const fresh = 1;\n');
    await second.store.flush();
    assert.equal(files.texts.size, 0, 'a committed transaction is no longer kept');
  });

  it('keeps a transaction whose file changed meanwhile; commit refuses naming the file, and server-status says so', async () => {
    const first = await activate();
    await edit(first.h, 'src/util.ts', '"1.0.0"', '"2.0.0"');
    await edit(first.h, 'src/main.ts', "'hi'", "'hello'");
    await first.store.flush();
    host.writeFile(abs('src/main.ts'), `${MAIN}// changed while the window was closed\n`);

    const second = await activate();
    const ws = second.h.registry.all()[0];
    assert.equal(second.h.transactions.active(ws.id)?.current, 2, 'the transaction is kept');
    const status = await second.h.ok<{ recovery: { state: string; detail: string } }>('server-status', {});
    assert.match(status.data.recovery.detail, /but src\/main\.ts changed since it was staged: transaction-commit refuses \(TransactionConflicted\)/);
    const refused = await second.h.fail('transaction-commit', {}, 'TransactionConflicted');
    assert.match(refused.error.message, /src\/main\.ts changed on disk after it was staged/);
    assert.equal(host.diskText(abs('src/util.ts')), UTIL, 'nothing was written');
    await second.h.ok('transaction-rollback', {});
    await second.store.flush();
    assert.equal(files.texts.size, 0);
  });

  it('says when a transaction is too large to keep, and keeps nothing stale', async () => {
    const first = await activate(200);
    await edit(first.h, 'src/util.ts', '"1.0.0"', '"2.0.0"');
    await first.store.flush();
    assert.equal(files.texts.size, 0);
    const status = await first.h.ok<{ recovery: { detail: string } }>('server-status', {});
    assert.match(
      status.data.recovery.detail,
      /The staged transaction of app \(\d+ KB\) is above the 0 KB kept across a window reload: it lives only in memory/,
    );
    const second = await activate();
    assert.equal(second.h.transactions.active(second.h.registry.all()[0].id), undefined);
  });

  it('drops a kept file it cannot read back, and says so', async () => {
    const first = await activate();
    await edit(first.h, 'src/util.ts', '"1.0.0"', '"2.0.0"');
    await first.store.flush();
    const [id, text] = [...files.texts.entries()][0];
    const kept = JSON.parse(text) as KeptTransaction;
    kept.bases[0].text += 'tampered';
    files.texts.set(id, JSON.stringify(kept));
    const second = await activate();
    assert.equal(second.h.transactions.active(id), undefined);
    assert.equal(files.texts.size, 0);
    assert.match(second.h.transactions.recovery().detail, /could not be read back \(base src\/util\.ts does not match its hash\); it was dropped/);
  });

  it('writes the latest state once per burst of changes, one write at a time', async () => {
    const first = await activate();
    files.delayMs = 50;
    await Promise.all([
      edit(first.h, 'src/util.ts', '"1.0.0"', '"2.0.0"'),
      edit(first.h, 'src/main.ts', "'hi'", "'hello'"),
      first.h.ok('create-file', { path: 'src/x.ts', text: 'x\n' }),
    ]);
    await first.store.flush();
    const kept = JSON.parse([...files.texts.values()][0]) as KeptTransaction;
    assert.equal(kept.current, 3);
    assert.equal(files.maxInFlight, 1);
    assert.ok(files.writes <= 2, `${files.writes} writes for 4 changes (started + 3 revisions) while a write was in flight`);
  });

  it('writes a staging once the changes pause, not during the call that staged it; an end at once', async () => {
    const first = await activate(MAX_KEPT_BYTES, 80);
    await edit(first.h, 'src/util.ts', '"1.0.0"', '"2.0.0"');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(files.writes, 0, 'nothing written while changes may follow');
    await edit(first.h, 'src/main.ts', "'hi'", "'hello'");
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(files.writes, 0, 'a change within the pause starts it again');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(files.writes, 1, 'one write for the burst');
    assert.equal((JSON.parse([...files.texts.values()][0]) as KeptTransaction).current, 2);

    await edit(first.h, 'src/util.ts', '"2.0.0"', '"3.0.0"');
    await first.store.flush();
    assert.equal(files.writes, 2, 'flush (deactivation) writes what is pending at once');
    assert.equal((JSON.parse([...files.texts.values()][0]) as KeptTransaction).current, 3);

    await edit(first.h, 'src/util.ts', '"3.0.0"', '"4.0.0"');
    await first.h.ok('transaction-rollback', {});
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(files.texts.size, 0, 'a rollback removes the kept transaction without waiting');
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(files.texts.size, 0, 'and the staging before it is not written after it');
    first.store.dispose();
  });
});
