import * as assert from 'node:assert/strict';
import { PanelController } from '../../../../src/core/panel/controller';
import { buildPanelModel, checkView, hunkOfLine, hunkViews } from '../../../../src/core/panel/model';
import type { PanelInput } from '../../../../src/core/panel/model';
import { diffTexts } from '../../../../src/core/transactions/diff';
import type { RevisionCheck, StagedCheckAnswer, StagedChecker, StagedCheckRequest, StagedDiagnostic } from '../../../../src/core/transactions/check';
import type { Workspace } from '../../../../src/core/documents/workspaces';
import { FakeHost } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

// The review panel shows what the check of the current revision found: each introduced diagnostic
// under the hunk whose staged lines hold it (else at the file), a badge per file, a summary per
// transaction; resolved ones quieter; a check of another revision is never shown.

const WS = '11111111-2222-3333-4444-555555555555';
const ORIGINAL = Array.from({ length: 14 }, (_, i) => `line ${i + 1}\n`).join('');
/** Lines 2 and 12 changed: two hunks, lines 1-5 and 9-14 of the staged text. */
const UPDATED = ORIGINAL.replace('line 2\n', 'LINE 2\n').replace('line 12\n', 'LINE 12\n');

const diag = (path: string, line: number, severity: StagedDiagnostic['severity'] = 'error', code = 2322): StagedDiagnostic => ({
  path,
  line,
  column: 5,
  code,
  message: `problem at ${line}`,
  severity,
});

const checked = (
  revision: number,
  introduced: StagedDiagnostic[],
  resolved: StagedDiagnostic[] = [],
  transactionId = 'tx',
): Extract<RevisionCheck, { state: 'checked' }> => ({
  transactionId,
  revision,
  unchecked: [],
  state: 'checked',
  introduced,
  resolved,
  checked: ['src/a.ts', 'src/b.ts'],
  complete: true,
  reasons: [],
  typescriptVersion: '5.9.3',
});

function input(revision: number, check?: RevisionCheck): PanelInput {
  const state = {
    revision,
    revisionCount: 2,
    maxRevisions: 20,
    remainingRevisions: 18,
    canMutate: true,
    canUndo: true,
    canRedo: revision < 2,
    canCommit: true,
    canRollback: true,
  };
  const doc = (path: string) => ({ documentId: `x:${path}`, path, projectId: 'p' });
  return {
    workspaces: [{ id: WS, alias: 'app' }],
    workspace: { id: WS, alias: 'app' },
    mode: 'transactional',
    transaction: {
      id: 'tx',
      state,
      history: [
        { revision: 1, tool: 'edit-text', summary: 'one', by: 'agent', time: 't', paths: ['src/a.ts'] },
        { revision: 2, tool: 'move-file', summary: 'two', by: 'agent', time: 't', paths: ['src/b.ts'] },
      ],
      documents: [
        { document: doc('src/a.ts'), changeKind: 'Modified', preview: { addedLines: 2, removedLines: 2, changedLines: 2 } },
        { document: doc('src/b.ts'), changeKind: 'Renamed', previousPath: 'src/old.ts', preview: { addedLines: 0, removedLines: 0, changedLines: 0 } },
      ],
    },
    selected: { path: 'src/a.ts', original: ORIGINAL, updated: UPDATED, binary: false },
    ...(check ? { check } : {}),
  };
}

describe('panel model: the check of the revision on files and hunks', () => {
  it('maps a staged line to the hunk whose rows show it, an original line to the hunk that shows that, else to none', () => {
    const { hunks } = hunkViews(diffTexts(ORIGINAL, UPDATED, 3).hunks);
    assert.deepEqual(
      hunks.map((h) => h.header),
      ['@@ -1,5 +1,5 @@', '@@ -9,6 +9,6 @@'],
    );
    assert.equal(hunkOfLine(hunks, 2), 0, 'the changed line');
    assert.equal(hunkOfLine(hunks, 5), 0, 'a context line of the hunk is one of its staged lines');
    assert.equal(hunkOfLine(hunks, 6), undefined, 'between the hunks: the file');
    assert.equal(hunkOfLine(hunks, 12), 1);
    assert.equal(hunkOfLine(hunks, 14), 1);
    assert.equal(hunkOfLine(hunks, 40), undefined);
    assert.equal(hunkOfLine(hunks, 9, 'old'), 1);
    assert.equal(hunkOfLine([], 1), undefined);
  });

  it('puts each introduced diagnostic under its hunk, the others at the file, with severity, TS code, message and line:column', () => {
    const m = buildPanelModel(input(2, checked(2, [diag('src/a.ts', 12), diag('src/a.ts', 2, 'warning', 6133), diag('src/a.ts', 7, 'error', 2304)])));
    const hunks = m.selected?.hunks ?? [];
    assert.deepEqual(hunks[0].diagnostics, [{ severity: 'warning', severityText: 'Warning', code: 'TS6133', message: 'problem at 2', line: 2, column: 5 }]);
    assert.deepEqual(
      hunks[1].diagnostics.map((d) => [d.code, d.line]),
      [['TS2322', 12]],
    );
    assert.deepEqual(
      m.selected?.diagnostics.map((d) => [d.severityText, d.code, d.line, d.column]),
      [['Error', 'TS2304', 7, 5]],
      'line 7 is in no hunk: the file holds it',
    );
    assert.equal(m.selected?.more, 0);
  });

  it('badges each file, lists files outside the transaction, and maps resolved diagnostics by their original lines, a moved file by its old path', () => {
    const m = buildPanelModel(
      input(
        2,
        checked(
          2,
          [diag('src/a.ts', 2), diag('src/a.ts', 12), diag('src/a.ts', 13, 'warning'), diag('src/user.ts', 4, 'error', 2345)],
          [diag('src/a.ts', 10, 'error', 2339), diag('src/old.ts', 1), diag('src/other.ts', 3)],
        ),
      ),
    );
    const [a, b] = m.transaction?.files ?? [];
    assert.deepEqual(a.problems, { introduced: 3, severity: 'error', resolved: 1, text: '2 new errors, 1 new warning, 1 resolved' });
    assert.match(a.description, /; 2 new errors, 1 new warning, 1 resolved$/, 'the badge in words is part of the accessible name');
    assert.deepEqual(b.problems, { introduced: 0, resolved: 1, text: '1 resolved' }, 'resolved under the path it had before the move');
    assert.deepEqual(
      m.transaction?.elsewhere.map((e) => [e.path, e.diagnostics.map((d) => d.code), e.resolved.map((d) => d.line)]),
      [
        ['src/user.ts', ['TS2345'], []],
        ['src/other.ts', [], [3]],
      ],
    );
    assert.deepEqual(
      m.selected?.hunks[1].resolved.map((d) => [d.code, d.line]),
      [['TS2339', 10]],
      'a resolved diagnostic sits under the hunk showing its original line',
    );
    assert.equal(m.transaction?.check.state, 'checked');
  });

  it('says the summary: new errors first, warnings when there are no errors, resolved quieter, and what was not checked', () => {
    const errors = checkView(checked(3, [diag('a.ts', 1), diag('b.ts', 2), diag('a.ts', 3, 'warning')], [diag('c.ts', 1)]), 'tx', 3);
    assert.equal(errors.state, 'checked');
    assert.ok(errors.state === 'checked');
    assert.equal(errors.text, '2 new errors, 1 new warning');
    assert.equal(errors.introducedErrors, 2);
    assert.equal(errors.resolvedText, 'Resolves 1 error');
    assert.equal(errors.note, '2 files compared · TypeScript 5.9.3');
    const warnings = checkView(checked(3, [diag('a.ts', 1, 'warning')]), 'tx', 3);
    assert.ok(warnings.state === 'checked');
    assert.equal(warnings.text, 'No new errors; 1 new warning');
    const clean = checkView({ ...checked(3, []), complete: false, reasons: ['time-limit'], unchecked: ['data.json'] }, 'tx', 3);
    assert.ok(clean.state === 'checked');
    assert.equal(clean.text, 'No new errors');
    assert.equal(clean.resolvedText, undefined);
    assert.equal(
      clean.note,
      'checked in part (time-limit) · not checked: data.json (only TypeScript and JavaScript are) · 2 files compared · TypeScript 5.9.3',
    );
    const json: RevisionCheck = {
      transactionId: 'tx',
      revision: 3,
      unchecked: ['data.json'],
      state: 'unavailable',
      reason: 'No TypeScript or JavaScript document is staged: only those are checked before a commit.',
    };
    assert.deepEqual(checkView(json, 'tx', 3), {
      state: 'unavailable',
      revision: 3,
      text: 'Not checked: No TypeScript or JavaScript document is staged: only those are checked before a commit.',
    });
    assert.deepEqual(checkView(undefined, 'tx', 3), { state: 'running', revision: 3, text: 'Checking revision 3 for new TypeScript errors…' });
  });

  it('ignores a check of an older revision or of another transaction: checking, no badge, no diagnostic', () => {
    for (const stale of [checked(1, [diag('src/a.ts', 2)]), checked(2, [diag('src/a.ts', 2)], [], 'another-tx')]) {
      const m = buildPanelModel(input(2, stale));
      assert.equal(m.transaction?.check.state, 'running');
      assert.equal(m.transaction?.check.text, 'Checking revision 2 for new TypeScript errors…');
      assert.deepEqual(
        m.transaction?.files.map((f) => f.problems),
        [undefined, undefined],
      );
      assert.deepEqual(
        m.selected?.hunks.map((h) => h.diagnostics.length),
        [0, 0],
      );
      assert.deepEqual(m.selected?.diagnostics, []);
      assert.deepEqual(m.transaction?.elsewhere, []);
    }
    const fresh = buildPanelModel(input(1, checked(1, [diag('src/a.ts', 2)])));
    assert.equal(fresh.selected?.hunks[0].diagnostics.length, 1, 'the same check is shown at its own revision');
  });
});

/** A checker whose answers the test releases one by one. */
class HeldChecker implements StagedChecker {
  readonly asked: { request: StagedCheckRequest; answer: (a: StagedCheckAnswer) => void; signal: AbortSignal }[] = [];
  check(request: StagedCheckRequest, signal: AbortSignal): Promise<StagedCheckAnswer> {
    return new Promise((resolve) => {
      this.asked.push({ request, answer: resolve, signal });
      signal.addEventListener('abort', () => resolve({ outcome: 'cancelled' }));
    });
  }
}

const found = (introduced: StagedDiagnostic[]): StagedCheckAnswer => ({
  outcome: 'checked',
  introduced,
  resolved: [],
  checked: ['src/a.ts'],
  complete: true,
  reasons: [],
  typescriptVersion: '5.9.3',
});

describe('panel controller: the check of each revision, live', () => {
  let h: Harness;
  let ws: Workspace;
  let checker: HeldChecker;
  let settled: number;
  let c: PanelController;
  const stage = (from: string, to: string) => {
    const text = h.transactions.stagedView(ws, 'src/a.ts');
    const current = text && text !== 'gone' ? text.text : 'export const a: number = 1;\n';
    const at = current.indexOf(from);
    return h.transactions.stage(
      undefined,
      ws,
      { tool: 'edit-text', summary: 'edit a' },
      [{ kind: 'edit', path: 'src/a.ts', edits: [{ start: at, end: at + from.length, newText: to }] }],
      {
        basis: 'staged',
      },
    );
  };
  const until = async (what: string, ok: () => boolean | Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 200; i++) {
      if (await ok()) return;
      await new Promise((r) => setImmediate(r));
    }
    assert.fail(`never: ${what}`);
  };

  beforeEach(async () => {
    const host = new FakeHost();
    host.addFolder('app', { 'src/a.ts': 'export const a: number = 1;\n', 'data.json': '{}\n' });
    checker = new HeldChecker();
    h = await createHarness({ host, checker });
    ws = h.registry.all()[0];
    settled = 0;
    c = new PanelController(h.services, { openDiff: async () => undefined, openAllChanges: async () => undefined, checkSettled: () => void settled++ }, 0);
  });

  it('an open panel starts the check of the revision without waiting for it, says "checking", then shows what it found', async () => {
    await stage('1;', "'one';");
    const closed = await c.model();
    assert.equal(closed.transaction?.check.state, 'running');
    await new Promise((r) => setImmediate(r));
    assert.equal(checker.asked.length, 0, 'a closed panel starts no check');
    const first = await c.model({ startCheck: true });
    assert.equal(first.transaction?.check.text, 'Checking revision 1 for new TypeScript errors…');
    await until('the check asked', () => checker.asked.length === 1);
    await c.model({ startCheck: true });
    assert.equal(checker.asked.length, 1, 'one check per revision');
    checker.asked[0].answer(found([diag('src/a.ts', 1)]));
    await until('settled', () => settled === 1);
    const m = await c.model({ startCheck: true });
    assert.equal(m.transaction?.check.text, '1 new error');
    assert.deepEqual(
      m.selected?.hunks[0].diagnostics.map((d) => [d.code, d.line]),
      [['TS2322', 1]],
    );
    assert.equal(m.transaction?.files[0].problems?.text, '1 new error');
  });

  it('a newer revision replaces the check: the older answer is never shown, the newer one is', async () => {
    await stage('1;', "'one';");
    await c.model({ startCheck: true });
    await until('the first check asked', () => checker.asked.length === 1);
    await stage("'one';", '2;');
    const m2 = await c.model({ startCheck: true });
    assert.equal(m2.transaction?.check.text, 'Checking revision 2 for new TypeScript errors…');
    await until('the second check asked', () => checker.asked.length === 2);
    assert.equal(checker.asked[0].signal.aborted, true, 'the older check is cancelled');
    checker.asked[0].answer(found([diag('src/a.ts', 1)]));
    await until('the second check settles', async () => {
      checker.asked[1].answer(found([]));
      return settled > 0;
    });
    const m = await c.model({ startCheck: true });
    assert.equal(m.transaction?.check.state, 'checked');
    assert.equal(m.transaction?.check.revision, 2);
    assert.equal(m.transaction?.check.text, 'No new errors');
    assert.equal(m.transaction?.files[0].problems, undefined);
    // Undo: revision 1 again, whose check was cancelled: checked again, "checking" until then.
    h.transactions.move(ws, 'undo');
    const back = await c.model({ startCheck: true });
    assert.equal(back.transaction?.check.text, 'Checking revision 1 for new TypeScript errors…');
    await until('revision 1 checked again', () => checker.asked.length === 3);
    checker.asked[2].answer(found([diag('src/a.ts', 1)]));
    await until('settled again', () => settled === 2);
    assert.equal((await c.model({ startCheck: true })).transaction?.check.text, '1 new error');
  });

  it('a transaction with nothing checkable says why, in one line', async () => {
    const at = '{}'.length;
    await h.transactions.stage(
      undefined,
      ws,
      { tool: 'edit-text', summary: 'json' },
      [{ kind: 'edit', path: 'data.json', edits: [{ start: 0, end: at, newText: '{ "x": 1 }' }] }],
      {
        basis: 'staged',
      },
    );
    await c.model({ startCheck: true });
    await until('settled', () => settled === 1);
    const m = await c.model({ startCheck: true });
    assert.equal(m.transaction?.check.state, 'unavailable');
    assert.equal(m.transaction?.check.text, 'Not checked: No TypeScript or JavaScript document is staged: only those are checked before a commit.');
    assert.equal(checker.asked.length, 0);
  });

  it('starts the check when the stagings pause: a revision replaced within the pause is never checked; one asked for already is joined at once', async () => {
    const later = new PanelController(
      h.services,
      { openDiff: async () => undefined, openAllChanges: async () => undefined, checkSettled: () => void settled++ },
      60,
    );
    try {
      await stage('1;', "'one';");
      assert.equal((await later.model({ startCheck: true })).transaction?.check.text, 'Checking revision 1 for new TypeScript errors…');
      await new Promise((r) => setTimeout(r, 20));
      await stage("'one';", '2;');
      await later.model({ startCheck: true });
      await new Promise((r) => setTimeout(r, 30));
      assert.equal(checker.asked.length, 0, 'nothing checked while the agent goes on staging');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(checker.asked.length, 1, 'one check, once the stagings paused');
      assert.match(Object.values(checker.asked[0].request.staged).join(''), /export const a: number = 2;/, 'of revision 2');
      await stage('2;', '3;');
      const tx = h.transactions.active(ws.id);
      assert.ok(tx);
      void h.services.checks.of(ws, tx, {}, 10_000);
      assert.equal(checker.asked.length, 2, 'transaction-check asked for revision 3');
      await later.model({ startCheck: true });
      checker.asked[1].answer(found([]));
      await until('the panel joined it without waiting', () => settled === 1);
      assert.equal(checker.asked.length, 2, 'the same check, not a second one');
      assert.equal((await later.model({ startCheck: true })).transaction?.check.text, 'No new errors');
    } finally {
      later.dispose();
    }
  });
});
