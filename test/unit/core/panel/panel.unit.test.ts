import * as assert from 'node:assert/strict';
import { diffTexts } from '../../../../src/core/transactions/diff';
import { PanelController } from '../../../../src/core/panel/controller';
import type { PanelHostActions } from '../../../../src/core/panel/controller';
import { discardHunkEdit, minimalEdits } from '../../../../src/core/panel/edits';
import { applyOffsetEdits } from '../../../../src/core/transactions/segments';
import { buildPanelModel, hunkViews, ROW_TEXT_MAX, statusSummary } from '../../../../src/core/panel/model';
import { checkSeen, parseWebviewMessage } from '../../../../src/core/panel/protocol';
import type { Workspace } from '../../../../src/core/documents/workspaces';
import { FakeHost } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

const WS = '11111111-2222-3333-4444-555555555555';
const seen = { workspaceId: WS, transactionId: 'tx-1', revision: 2 };

describe('panel protocol: messages from the webview', () => {
  it('accepts each known message shape', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'select', workspaceId: WS, path: 'src/a.ts' },
      { type: 'openDiff', workspaceId: WS, path: 'src/a.ts' },
      { type: 'openAllChanges', workspaceId: WS },
      { type: 'showWorkspace', workspaceId: WS },
      { type: 'action', action: 'commit', ...seen },
      { type: 'action', action: 'undo', ...seen },
      { type: 'discardFile', path: 'a.ts', ...seen },
      { type: 'discardHunk', path: 'a.ts', hunk: 0, originalStartLine: 1, updatedStartLine: 1, ...seen },
    ]) {
      const parsed = parseWebviewMessage(m);
      assert.ok(parsed.ok, JSON.stringify(m));
      assert.deepEqual(parsed.message, m);
    }
  });

  it('refuses malformed and forged messages', () => {
    const bad: unknown[] = [
      null,
      'commit',
      42,
      [],
      {},
      { type: 'action', action: 'commit' }, // no transaction named
      { type: 'action', action: 'writeFile', ...seen },
      { type: 'action', action: 'commit', ...seen, extra: true },
      { type: 'action', action: 'commit', ...seen, revision: -1 },
      { type: 'action', action: 'commit', ...seen, revision: '2' },
      { type: 'discardFile', path: '', ...seen },
      { type: 'discardFile', path: 'x'.repeat(5000), ...seen },
      { type: 'discardHunk', path: 'a.ts', hunk: 1.5, originalStartLine: 1, updatedStartLine: 1, ...seen },
      { type: 'eval', code: 'process.exit()' },
      { type: 'showWorkspace' },
      { type: 'showWorkspace', workspaceId: WS, path: 'a.ts' },
      { type: 'ready', __proto__: { polluted: true }, constructor: 1 },
    ];
    for (const m of bad) {
      const parsed = parseWebviewMessage(m);
      assert.equal(parsed.ok, false, JSON.stringify(m));
    }
  });

  it('checkSeen refuses another transaction or another revision', () => {
    assert.equal(checkSeen(seen, { transactionId: 'tx-1', revision: 2 }), undefined);
    assert.match(checkSeen(seen, { transactionId: 'tx-2', revision: 2 }) ?? '', /another transaction/);
    assert.match(checkSeen(seen, { transactionId: 'tx-1', revision: 3 }) ?? '', /revision 2.*revision 3/);
    assert.match(checkSeen(seen, undefined) ?? '', /no active transaction/);
  });
});

describe("panel edits: discarding a hunk and a person's text as small edits", () => {
  const original = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'].map((l) => `${l}\n`).join('');
  const updated = original.replace('b\n', 'B\n').replace('m\n', 'M1\nM2\n');

  it('reverting one hunk leaves the other hunk exactly as staged', () => {
    const before = diffTexts(original, updated, 3).hunks;
    assert.equal(before.length, 2);
    const edit = discardHunkEdit(original, updated, 0, before[0]);
    assert.ok(edit);
    const after = applyOffsetEdits(updated, [edit]);
    assert.equal(after, original.replace('m\n', 'M1\nM2\n'));
    const edit2 = discardHunkEdit(original, updated, 1);
    assert.ok(edit2);
    assert.equal(applyOffsetEdits(updated, [edit2]), original.replace('b\n', 'B\n'));
  });

  it('refuses a hunk that is not there or not the one seen', () => {
    assert.equal(discardHunkEdit(original, updated, 2), undefined);
    assert.equal(discardHunkEdit(original, updated, 0, { originalStartLine: 9, updatedStartLine: 9 }), undefined);
  });

  it('handles a file without a final newline and an added file', () => {
    const o = 'x\ny';
    const u = 'x\nz';
    const e = discardHunkEdit(o, u, 0);
    assert.ok(e);
    assert.equal(applyOffsetEdits(u, [e]), o);
    const added = discardHunkEdit('', 'new\nfile\n', 0);
    assert.ok(added);
    assert.equal(applyOffsetEdits('new\nfile\n', [added]), '');
  });

  it('minimalEdits turns one text into another with line-sized replacements', () => {
    for (const [from, to] of [
      [original, updated],
      [updated, original],
      ['', 'a\n'],
      ['a\r\nb\r\n', 'a\r\nc\r\nb\r\n'],
      ['x', 'x\n'],
      ['same\n', 'same\n'],
    ]) {
      const edits = minimalEdits(from, to);
      assert.equal(applyOffsetEdits(from, edits), to, JSON.stringify([from, to]));
      for (let i = 1; i < edits.length; i++) assert.ok(edits[i - 1].end <= edits[i].start);
    }
    const edits = minimalEdits(original, updated);
    assert.equal(edits.length, 2);
    assert.deepEqual(edits[0], { start: 2, end: 4, newText: 'B\n' });
  });
});

describe('panel model', () => {
  it('numbers hunk rows with old and new lines', () => {
    const { hunks } = hunkViews(diffTexts('a\nb\nc\n', 'a\nB\nc\nd\n', 3).hunks);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].header, '@@ -1,3 +1,4 @@');
    assert.deepEqual(
      hunks[0].rows.map((r) => [r.kind, r.oldLine ?? null, r.newLine ?? null, r.text]),
      [
        ['context', 1, 1, 'a'],
        ['remove', 2, null, 'b'],
        ['add', null, 2, 'B'],
        ['context', 3, 3, 'c'],
        ['add', null, 4, 'd'],
      ],
    );
  });

  it('cuts a long line to ROW_TEXT_MAX characters around where it changed, and says how many are left out', () => {
    const filler = 'a.b(c,d);'.repeat(20_000);
    const line = (name: string) => `${filler.slice(0, 150_000)}${name}(x)${filler.slice(150_000)}`;
    const context = `// ${'z'.repeat(5_000)}`;
    const { hunks } = hunkViews(diffTexts(`${context}\n${line('isFunction')}\nshort\n`, `${context}\n${line('isCallable')}\nshort\n`, 1).hunks);
    const [head, removed, added, tail] = hunks[0].rows;
    const total = line('isFunction').length;
    assert.deepEqual(
      [removed.kind, removed.cut, removed.text.length, added.kind, added.cut],
      ['remove', total - ROW_TEXT_MAX, ROW_TEXT_MAX + 2, 'add', total - ROW_TEXT_MAX],
    );
    // The lines first differ after "is": each row shows 40 characters before that, so the change is in view.
    const from = 150_002 - 40;
    assert.equal(removed.text, `…${line('isFunction').slice(from, from + ROW_TEXT_MAX)}…`);
    assert.equal(added.text, `…${line('isCallable').slice(from, from + ROW_TEXT_MAX)}…`);
    assert.deepEqual([head.kind, head.text, head.cut], ['context', `${context.slice(0, ROW_TEXT_MAX)}…`, context.length - ROW_TEXT_MAX]);
    assert.deepEqual([tail.text, tail.cut], ['short', undefined]);
  });

  it('never cuts a long line inside a surrogate pair', () => {
    // ROW_TEXT_MAX falls between the two halves of a pair: the row ends before the pair.
    const text = `x${'\u{1D4B3}'.repeat(ROW_TEXT_MAX)}`;
    const { hunks } = hunkViews(diffTexts('', `${text}\n`, 0).hunks);
    const [row] = hunks[0].rows;
    assert.deepEqual([row.text, row.cut], [`${text.slice(0, ROW_TEXT_MAX - 1)}…`, text.length - (ROW_TEXT_MAX - 1)]);
  });

  it('cuts very long diffs and says so', () => {
    const long = Array.from({ length: 50 }, (_, i) => `${i}\n`).join('');
    const { hunks, truncated } = hunkViews(diffTexts('', long, 3).hunks, 10);
    assert.equal(truncated, true);
    assert.equal(hunks[0].rows.length, 10);
  });

  it('marks revisions applied, current and undone, and sums the files', () => {
    const state = {
      revision: 1,
      revisionCount: 2,
      maxRevisions: 20,
      remainingRevisions: 19,
      canMutate: true,
      canUndo: true,
      canRedo: true,
      canCommit: true,
      canRollback: true,
    };
    const model = buildPanelModel({
      workspaces: [{ id: WS, alias: 'app' }],
      workspace: { id: WS, alias: 'app' },
      mode: 'approval-required',
      transaction: {
        id: 'tx',
        state,
        history: [
          { revision: 1, tool: 'edit-text', summary: 'one', by: 'agent', time: 't', paths: ['a.ts'] },
          { revision: 2, tool: 'review-panel', summary: 'two', by: 'person', time: 't', paths: ['a.ts'] },
        ],
        documents: [
          {
            document: { documentId: 'x:a.ts', path: 'a.ts', projectId: 'p' },
            changeKind: 'Modified',
            preview: { addedLines: 2, removedLines: 1, changedLines: 1 },
          },
          {
            document: { documentId: 'x:b.ts', path: 'b.ts', projectId: 'p' },
            changeKind: 'Renamed',
            previousPath: 'old.ts',
            preview: { addedLines: 0, removedLines: 0, changedLines: 0 },
          },
        ],
      },
      selected: { path: 'a.ts', original: 'x\n', updated: 'y\nz\n', binary: false },
    });
    assert.equal(model.personCommits, true);
    assert.deepEqual(
      model.transaction?.revisions.map((r) => r.status),
      ['current', 'undone'],
    );
    assert.deepEqual(model.transaction?.totals, { files: 2, added: 2, removed: 1 });
    assert.deepEqual(
      model.transaction?.files.map((f) => [f.path, f.selected, f.previousPath ?? null]),
      [
        ['a.ts', true, null],
        ['b.ts', false, 'old.ts'],
      ],
    );
    assert.equal(model.transaction?.filesText, '2 files');
    assert.equal(model.selected?.hunks[0].rows.length, 3);
    assert.equal(statusSummary(model).text, '$(git-compare) 2 staged · r1');
    assert.equal(statusSummary({ transaction: null }).text, '$(git-compare) 0 staged');
  });

  it('names each file by its name and folder, and says its whole path, its move and its counts in words', () => {
    const state = {
      revision: 1,
      revisionCount: 1,
      maxRevisions: 20,
      remainingRevisions: 19,
      canMutate: true,
      canUndo: true,
      canRedo: false,
      canCommit: true,
      canRollback: true,
    };
    const doc = (path: string): { documentId: string; path: string; projectId: string } => ({ documentId: `x:${path}`, path, projectId: 'p' });
    const model = buildPanelModel({
      workspaces: [{ id: WS, alias: 'app' }],
      workspace: { id: WS, alias: 'app' },
      mode: 'transactional',
      transaction: {
        id: 'tx',
        state,
        history: [
          {
            revision: 1,
            tool: 'edit-text',
            summary: 'Edit 1 location in src/internal/operations/dispatch.ts',
            by: 'agent',
            time: 't',
            paths: ['src/internal/operations/dispatch.ts'],
          },
        ],
        documents: [
          { document: doc('src/internal/operations/dispatch.ts'), changeKind: 'Modified', preview: { addedLines: 1, removedLines: 1, changedLines: 1 } },
          {
            document: doc('src/internal/operations/util.ts'),
            changeKind: 'Renamed',
            previousPath: 'util.ts',
            preview: { addedLines: 0, removedLines: 2, changedLines: 0 },
          },
          { document: doc('README.md'), changeKind: 'Added', preview: { addedLines: 3, removedLines: 0, changedLines: 0 } },
        ],
      },
      selected: { path: 'src/internal/operations/util.ts', original: 'a\nb\n', updated: '', binary: false },
    });
    const files = model.transaction?.files ?? [];
    assert.deepEqual(
      files.map((f) => [f.name, f.folder]),
      [
        ['dispatch.ts', 'src/internal/operations'],
        ['util.ts', 'src/internal/operations'],
        ['README.md', ''],
      ],
    );
    assert.deepEqual(
      files.map((f) => f.description),
      [
        'Modified src/internal/operations/dispatch.ts: 1 line added, 1 removed',
        'Renamed src/internal/operations/util.ts (moved from util.ts): 0 lines added, 2 removed',
        'Added README.md: 3 lines added, 0 removed',
      ],
    );
    assert.equal(model.transaction?.filesText, '3 files');
    assert.deepEqual(model.selected && [model.selected.name, model.selected.folder, model.selected.previousPath], [
      'util.ts',
      'src/internal/operations',
      'util.ts',
    ]);
    assert.match(statusSummary(model).tooltip, /: 3 files staged/);
  });
});

describe('panel controller over the transaction manager', () => {
  let h: Harness;
  let ws: Workspace;
  const opened: string[] = [];
  const actions: PanelHostActions = {
    openDiff: async (_w, p) => void opened.push(`diff:${p}`),
    openAllChanges: async () => void opened.push('all'),
  };
  const A = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n';

  beforeEach(async () => {
    const host = new FakeHost();
    host.addFolder('app', { 'a.txt': A, 'b.txt': 'bee\n', 'c.txt': 'sea\n' });
    h = await createHarness({ host });
    ws = h.registry.all()[0];
    opened.length = 0;
    await h.transactions.stage(
      undefined,
      ws,
      { tool: 'edit-text', summary: 'edit a' },
      [
        {
          kind: 'edit',
          path: 'a.txt',
          edits: [
            { start: 0, end: 3, newText: 'ONE' },
            { start: A.indexOf('eleven'), end: A.indexOf('eleven') + 6, newText: 'ELEVEN' },
          ],
        },
      ],
      { basis: 'staged' },
    );
    await h.transactions.stage(undefined, ws, { tool: 'rename-file', summary: 'move b' }, [{ kind: 'rename', from: 'b.txt', to: 'lib/b.txt' }], {
      basis: 'staged',
    });
  });

  const seenNow = (): { workspaceId: string; transactionId: string; revision: number } => {
    const tx = h.transactions.active(ws.id);
    assert.ok(tx);
    return { workspaceId: ws.id, transactionId: tx.id, revision: tx.current };
  };
  const fingerprint = (): string =>
    JSON.stringify({
      history: h.transactions.history(ws),
      state: h.transactions.state(h.transactions.active(ws.id)),
      a: h.host.diskText(h.host.abs(ws.folder, 'a.txt')),
    });

  it('shows files, counts, revisions and the hunks of the selected file', async () => {
    const c = new PanelController(h.services, actions);
    const m = await c.model();
    assert.deepEqual(
      m.transaction?.files.map((f) => [f.path, f.changeKind, f.added, f.removed]),
      [
        ['a.txt', 'Modified', 2, 2],
        ['lib/b.txt', 'Renamed', 0, 0],
      ],
    );
    assert.equal(m.selected?.path, 'a.txt');
    assert.equal(m.selected?.hunks.length, 2);
    assert.deepEqual(
      m.transaction?.revisions.map((r) => [r.revision, r.tool, r.by]),
      [
        [1, 'edit-text', 'agent'],
        [2, 'rename-file', 'agent'],
      ],
    );
  });

  it("renders and acts only after activation's storage work is done, so a reloaded window never shows its kept transaction as gone", async () => {
    let release!: () => void;
    h.services.startup = new Promise<void>((resolve) => (release = resolve));
    const c = new PanelController(h.services, actions);
    let settled = 0;
    const model = c.model().then((m) => (settled++, m));
    const action = c.handle({ type: 'action', action: 'undo', ...seenNow() }).then((o) => (settled++, o));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(settled, 0, 'the panel rendered or acted before startup was done');
    assert.equal(h.transactions.active(ws.id)?.current, 2, 'undo ran before startup was done');
    release();
    assert.equal((await model).transaction?.files.length, 2);
    assert.equal((await action)?.ok, true);
    assert.equal(h.transactions.active(ws.id)?.current, 1);
  });

  it('refuses malformed, forged and stale messages and changes nothing', async () => {
    const c = new PanelController(h.services, actions);
    const before = fingerprint();
    for (const m of [
      { type: 'action', action: 'commit' },
      { type: 'action', action: 'commit', ...seenNow(), by: 'agent' },
      { type: 'action', action: 'commit', ...seenNow(), transactionId: 'forged' },
      { type: 'action', action: 'rollback', ...seenNow(), revision: 1 },
      { type: 'discardFile', path: 'a.txt', ...seenNow(), workspaceId: '99999999-2222-3333-4444-555555555555' },
      { type: 'discardHunk', path: 'a.txt', hunk: 0, originalStartLine: 5, updatedStartLine: 5, ...seenNow() },
      { type: 'openDiff', workspaceId: 'nope', path: 'a.txt' },
    ]) {
      const out = await c.handle(m);
      assert.equal(out?.ok, false, JSON.stringify(m));
    }
    assert.equal(fingerprint(), before);
    assert.deepEqual(opened, []);
    assert.equal(h.host.callCount('commitFiles'), 0);
  });

  it('undo, redo, discard a hunk, discard a file, person text, then commit', async () => {
    const c = new PanelController(h.services, actions);
    assert.equal((await c.handle({ type: 'action', action: 'undo', ...seenNow() }))?.ok, true);
    assert.equal(h.transactions.active(ws.id)?.current, 1);
    assert.equal((await c.handle({ type: 'action', action: 'redo', ...seenNow() }))?.ok, true);
    assert.equal(h.transactions.active(ws.id)?.current, 2);

    const hunk = (await c.model()).selected?.hunks[0];
    assert.ok(hunk);
    const out = await c.handle({
      type: 'discardHunk',
      path: 'a.txt',
      hunk: 0,
      originalStartLine: hunk.originalStartLine,
      updatedStartLine: hunk.updatedStartLine,
      ...seenNow(),
    });
    assert.equal(out?.ok, true, out?.message);
    assert.equal(h.transactions.stagedText(ws, 'a.txt'), A.replace('eleven', 'ELEVEN'));

    assert.equal((await c.handle({ type: 'discardFile', path: 'lib/b.txt', ...seenNow() }))?.ok, true);
    assert.equal(h.transactions.stagedText(ws, 'lib/b.txt'), undefined);
    assert.deepEqual(
      (await h.transactions.preview(ws)).map((d) => d.document.path),
      ['a.txt'],
    );

    assert.equal((await c.personText(ws, 'a.txt', A.replace('eleven', 'ELEVEN').replace('two', 'TWO by hand'))).ok, true);
    const history = h.transactions.history(ws);
    assert.deepEqual(
      history.map((r) => [r.tool, r.by]),
      [
        ['edit-text', 'agent'],
        ['rename-file', 'agent'],
        ['review-panel', 'person'],
        ['review-panel', 'person'],
        ['staged-text-editor', 'person'],
      ],
    );

    // Undo brings the person's discard back.
    assert.equal((await c.act(ws, 'undo')).ok, true);
    assert.equal((await c.act(ws, 'undo')).ok, true);
    assert.equal(h.transactions.stagedText(ws, 'lib/b.txt'), 'bee\n');
    assert.equal((await c.act(ws, 'redo')).ok, true);
    assert.equal((await c.act(ws, 'redo')).ok, true);

    const commit = await c.handle({ type: 'action', action: 'commit', ...seenNow() });
    assert.equal(commit?.ok, true, commit?.message);
    assert.equal(h.host.diskText(h.host.abs(ws.folder, 'a.txt')), A.replace('eleven', 'ELEVEN').replace('two', 'TWO by hand'));
    assert.equal(h.host.diskText(h.host.abs(ws.folder, 'b.txt')), 'bee\n');
    assert.equal(h.transactions.active(ws.id), undefined);
    assert.equal((await c.model()).transaction, null);
  });

  it('in approval-required mode the person commits from the panel while the agent is refused', async () => {
    h.setSettings({ operationalMode: 'approval-required' });
    const c = new PanelController(h.services, actions);
    assert.equal((await c.model()).personCommits, true);
    const agent = await h.call('transaction-commit', {});
    assert.equal(agent.envelope.ok, false);
    assert.ok(h.transactions.active(ws.id), 'the agent could not commit');
    const out = await c.act(ws, 'commit');
    assert.equal(out.ok, true, out.message);
    assert.equal(h.host.diskText(h.host.abs(ws.folder, 'a.txt')), A.replace(/^one/, 'ONE').replace('eleven', 'ELEVEN'));
    assert.equal(h.host.diskText(h.host.abs(ws.folder, 'lib/b.txt')), 'bee\n');
  });

  it('a commit that finds a file changed on disk is refused and keeps the transaction', async () => {
    const c = new PanelController(h.services, actions);
    h.host.writeFile(h.host.abs(ws.folder, 'a.txt'), 'changed meanwhile\n');
    const out = await c.act(ws, 'commit');
    assert.equal(out.ok, false);
    assert.equal(out.code, 'TransactionConflicted');
    assert.ok(h.transactions.active(ws.id));
    assert.equal(h.host.diskText(h.host.abs(ws.folder, 'a.txt')), 'changed meanwhile\n');
  });

  it('discarding an added file drops it; rollback ends the transaction', async () => {
    const c = new PanelController(h.services, actions);
    await h.transactions.stage(undefined, ws, { tool: 'create-file', summary: 'new' }, [{ kind: 'create', path: 'n.txt', text: 'new\n' }], { basis: 'staged' });
    const discarded = await c.discardFile(ws, 'n.txt');
    assert.equal(discarded.ok, true, discarded.message);
    assert.equal(h.transactions.stagedText(ws, 'n.txt'), undefined);
    await h.transactions.stage(undefined, ws, { tool: 'delete-file', summary: 'rm c' }, [{ kind: 'delete', path: 'c.txt' }], { basis: 'staged' });
    assert.ok((await c.model()).transaction?.files.some((f) => f.path === 'c.txt' && f.changeKind === 'Deleted'));
    const restored = await c.discardFile(ws, 'c.txt');
    assert.equal(restored.ok, true, restored.message);
    assert.equal(h.transactions.stagedText(ws, 'c.txt'), 'sea\n');
    assert.deepEqual(
      (await h.transactions.preview(ws)).map((d) => d.document.path),
      ['a.txt', 'lib/b.txt'],
    );
    assert.deepEqual(
      h.transactions
        .history(ws)
        .slice(-1)
        .map((r) => [r.tool, r.by]),
      [['review-panel', 'person']],
    );
    assert.equal((await c.act(ws, 'rollback')).ok, true);
    assert.equal(h.transactions.active(ws.id), undefined);
    assert.equal(h.host.diskText(h.host.abs(ws.folder, 'a.txt')), A);
  });
});

describe('panel controller with several folders', () => {
  it('shows the folder changed last, and another one when asked; an unknown folder is refused', async () => {
    const host = new FakeHost();
    host.addFolder('one', { 'x.txt': 'x\n' });
    host.addFolder('two', { 'y.txt': 'y\n' });
    const h = await createHarness({ host });
    const [one, two] = h.registry.all();
    const c = new PanelController(h.services, { openDiff: async () => undefined, openAllChanges: async () => undefined });
    await h.transactions.stage(
      undefined,
      two,
      { tool: 'edit-text', summary: 'y' },
      [{ kind: 'edit', path: 'y.txt', edits: [{ start: 0, end: 1, newText: 'Y' }] }],
      { basis: 'staged' },
    );
    assert.equal((await c.model()).workspace?.alias, 'two', 'with no choice made, a folder with a transaction');
    c.show(one.id);
    let m = await c.model();
    assert.equal(m.workspace?.alias, 'one');
    assert.equal(m.transaction, null);
    assert.deepEqual(
      m.workspaces.map((w) => w.alias),
      ['one', 'two'],
    );
    assert.equal(await c.handle({ type: 'showWorkspace', workspaceId: two.id }), undefined);
    m = await c.model();
    assert.equal(m.workspace?.alias, 'two');
    assert.deepEqual(
      m.transaction?.files.map((f) => f.path),
      ['y.txt'],
    );
    assert.equal((await c.handle({ type: 'showWorkspace', workspaceId: '99999999-9999-9999-9999-999999999999' }))?.ok, false);
    assert.equal((await c.model()).workspace?.alias, 'two');
  });
});
