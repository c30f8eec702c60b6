import * as assert from 'node:assert/strict';
import { checkInput, PREPARE_AFTER_MS } from '../../../src/core/transactions/check';
import type { StagedCheckAnswer, StagedChecker, StagedCheckRequest, StagedWarmRequest, WarmOutcome } from '../../../src/core/transactions/check';
import type { CheckData } from '../../../src/tools/shared/stagedCheck';
import { FakeHost } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

/** A checker that answers what the test says, and records what it was asked (the real one runs in the real VS Code: suite check). */
class ScriptedChecker implements StagedChecker {
  readonly requests: StagedCheckRequest[] = [];
  answer: (r: StagedCheckRequest) => StagedCheckAnswer = () => ({
    outcome: 'checked',
    introduced: [],
    resolved: [],
    checked: [],
    complete: true,
    reasons: [],
    typescriptVersion: '5.9.3',
  });
  async check(request: StagedCheckRequest): Promise<StagedCheckAnswer> {
    this.requests.push(request);
    return this.answer(request);
  }
}

const error = (path: string, line: number) => ({
  path,
  line,
  column: 3,
  code: 2322,
  message: "Type 'string' is not assignable to type 'number'.",
  severity: 'error' as const,
});

describe('tools: the staged text checked before commit (policy over a scripted checker)', () => {
  let h: Harness;
  let checker: ScriptedChecker;
  const stage = (selectedText: string, newText: string, path = 'src/a.ts') =>
    h.ok('edit-text', { edits: [{ location: { selection: { document: { path }, selectedText } }, newText }] });

  beforeEach(async () => {
    const host = new FakeHost();
    host.addFolder('app', {
      'src/a.ts': 'export const a: number = 1;\n',
      'src/b.ts': 'import { a } from "./a";\n',
      'data.json': '{ "x": 1 }\n',
      'logo.png': 'PNG',
    });
    checker = new ScriptedChecker();
    h = await createHarness({ host, checker });
  });

  it('runs the check of a staged revision ahead of time once staging pauses, the latest revision only, and not for one already checked', async () => {
    const prepared: StagedCheckRequest[] = [];
    const ahead = Object.assign(new ScriptedChecker(), { prepare: (r: StagedCheckRequest) => void prepared.push(r) });
    const host = new FakeHost();
    host.addFolder('app', { 'src/a.ts': 'export const a: number = 1;\n', 'notes.md': '# notes\n' });
    h = await createHarness({ host, checker: ahead, prepareAfterMs: 30 });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 120));
    await stage('1;', '2;');
    await stage('2;', '3;');
    await pause();
    assert.deepEqual(
      prepared.map((r) => r.staged),
      [{ 'src/a.ts': 'export const a: number = 3;\n' }],
      'two stagings in a row: the latest revision, once',
    );
    assert.equal(prepared[0].deadline, undefined);
    await h.ok('transaction-check', {});
    assert.equal(ahead.requests.length, 1);
    await h.ok('transaction-history', { action: 'undo' });
    await h.ok('transaction-history', { action: 'redo' });
    await pause();
    assert.equal(prepared.length, 1, 'the revision redo returned to was checked already: nothing run ahead');
    await h.ok('transaction-history', { action: 'undo' });
    await pause();
    assert.deepEqual(prepared[1]?.staged, { 'src/a.ts': 'export const a: number = 2;\n' }, 'undo reaches a revision not checked yet');
    await h.ok('transaction-rollback', {});
    await stage('# notes', '# Notes', 'notes.md');
    await pause();
    assert.equal(prepared.length, 2, 'nothing the checker reads is staged: nothing run ahead');
  });

  /** A folder of one TypeScript file over `checker`: warm() is an agent's question there finding the service loaded. */
  const warmingHarness = async (checker: StagedChecker): Promise<() => boolean> => {
    const host = new FakeHost();
    host.addFolder('app', { 'src/a.ts': 'export const a: number = 1;\n' });
    h = await createHarness({ host, checker });
    const ws = h.registry.all()[0];
    return () => h.services.checks.warm(ws, `${ws.fsPath}/src/a.ts`, async () => ({}));
  };

  it('a commit changes the current view: the next question asks for it to be computed ahead at once, not a minute later', async () => {
    const warmed: StagedWarmRequest[] = [];
    const warming = Object.assign(new ScriptedChecker(), {
      warm: async (r: StagedWarmRequest) => (warmed.push(r), { projects: ['tsconfig.json'], files: 1, computed: 1, durationMs: 1 }),
    });
    const warm = await warmingHarness(warming);
    assert.equal(warm(), true);
    assert.equal(warm(), false, 'asked a moment ago');
    await stage('1;', '2;');
    await h.ok('transaction-rollback', {});
    assert.equal(warm(), false, 'a rollback leaves the current view as it was');
    await stage('1;', '2;');
    await h.ok('transaction-commit', {});
    assert.equal(warm(), true);
    await h.services.checks.warmings();
    assert.deepEqual(
      warmed.map((r) => r.files),
      [['src/a.ts'], ['src/a.ts']],
    );
  });

  it('a warming that computed nothing (switched off, or it gave way to a check) is asked again by the next question; one that failed waits its minute', async () => {
    let answer: () => Promise<WarmOutcome | undefined> = async () => undefined;
    let asked = 0;
    const warming = Object.assign(new ScriptedChecker(), { warm: async () => (asked++, answer()) });
    const warm = await warmingHarness(warming);
    assert.equal(warm(), true);
    assert.deepEqual(await h.services.checks.warmings(), [undefined]);
    assert.equal(warm(), true, 'nothing was computed: asked again');
    answer = () => Promise.reject(new Error('the checker worker exited (code 1)'));
    await h.services.checks.warmings();
    assert.equal(warm(), false, 'a failure is not retried on every question');
    assert.equal(asked, 2);
  });

  it('a warming is not even scheduled while the person has switched it off (check.computeAhead: false)', async () => {
    let on = false;
    let asked = 0;
    const warming = Object.assign(new ScriptedChecker(), { computesAhead: () => on, warm: async () => (asked++, undefined) });
    const warm = await warmingHarness(warming);
    assert.equal(warm(), false);
    assert.deepEqual(await h.services.checks.warmings(), []);
    on = true;
    assert.equal(warm(), true);
    await h.services.checks.warmings();
    assert.equal(asked, 1);
  });

  it('checks the staged TypeScript only, names what it cannot check, and answers one check per revision', async () => {
    await stage('1;', "'one';");
    await stage('"x": 1', '"x": 2', 'data.json');
    checker.answer = (r) => ({
      outcome: 'checked',
      introduced: [error('src/a.ts', 1)],
      resolved: [],
      checked: Object.keys(r.staged),
      complete: true,
      reasons: [],
      typescriptVersion: '5.9.3',
    });
    const d = (await h.ok<CheckData>('transaction-check', {})).data;
    assert.deepEqual(checker.requests[0].staged, { 'src/a.ts': "export const a: number = 'one';\n" });
    assert.equal(checker.requests[0].folder, h.registry.all()[0].fsPath);
    assert.deepEqual(d.unchecked, ['data.json']);
    assert.equal(d.revision, 2);
    assert.deepEqual(d.introduced?.items, [error('src/a.ts', 1)]);
    await h.ok('transaction-check', {});
    assert.equal(checker.requests.length, 1, 'the same revision is checked once');
    const preview = (await h.ok<{ check: { state: string; introducedErrors: number } }>('transaction-preview', {})).data;
    assert.deepEqual(preview.check, { state: 'checked', introducedErrors: 1, introduced: 1, resolved: 0, complete: true });
    await h.ok('transaction-history', { action: 'undo' });
    await h.ok('transaction-check', {});
    assert.equal(checker.requests.length, 2, 'another revision is checked again');
  });

  it('a check still running when its transaction is rolled back or committed is stopped: nothing is left running', async () => {
    const signals: AbortSignal[] = [];
    const host = new FakeHost();
    host.addFolder('app', { 'src/a.ts': 'export const a: number = 1;\n' });
    const hanging: StagedChecker = {
      check: (_request, signal) => {
        signals.push(signal);
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ outcome: 'cancelled' })));
      },
    };
    h = await createHarness({ host, checker: hanging });
    await stage('1;', '2;');
    const preview = (await h.ok<{ check: { state: string } }>('transaction-preview', {})).data;
    assert.equal(preview.check.state, 'running', 'the preview started the check and did not wait');
    assert.equal(signals.length, 0, 'started once the calls pause');
    await new Promise((resolve) => setTimeout(resolve, PREPARE_AFTER_MS + 50));
    assert.equal(signals.length, 1);
    await h.ok('transaction-rollback', {});
    assert.equal(signals[0].aborted, true, 'rolled back: its check is stopped');
    await stage('1;', '3;');
    await h.ok('transaction-preview', {});
    await new Promise((resolve) => setTimeout(resolve, PREPARE_AFTER_MS + 50));
    // No confirmation to wait for the check (autonomous), no gate (allowNewErrors): the commit does not wait for it either.
    h.setSettings({ operationalMode: 'autonomous-trusted' });
    await h.ok('transaction-commit', { allowNewErrors: true });
    assert.equal(signals[1].aborted, true, 'committed: its check is stopped');
  });

  it('a preview starts the check once the calls pause, and none for a transaction that ended meanwhile', async () => {
    await stage('1;', '2;');
    assert.equal((await h.ok<{ check: { state: string } }>('transaction-preview', {})).data.check.state, 'running');
    await h.ok('transaction-rollback', {});
    await new Promise((resolve) => setTimeout(resolve, PREPARE_AFTER_MS + 50));
    assert.equal(checker.requests.length, 0, 'nothing is checked for a rolled-back transaction');
  });

  it('a transaction of JSON only is unavailable, and says why', async () => {
    await stage('"x": 1', '"x": 2', 'data.json');
    const d = (await h.ok<CheckData>('transaction-check', {})).data;
    assert.equal(d.state, 'unavailable');
    assert.match(d.reason ?? '', /TypeScript or JavaScript/);
    assert.equal(checker.requests.length, 0);
  });

  it('autonomous-trusted refuses a commit that introduces errors and writes nothing; allowNewErrors writes; the setting newErrorsOnCommit: allow never refuses', async () => {
    h.setSettings({ operationalMode: 'autonomous-trusted' });
    await stage('1;', "'one';");
    checker.answer = () => ({
      outcome: 'checked',
      introduced: [error('src/b.ts', 4)],
      resolved: [],
      checked: ['src/a.ts', 'src/b.ts'],
      complete: true,
      reasons: [],
      typescriptVersion: '5.9.3',
    });
    const refused = await h.fail('transaction-commit', {}, 'NewErrorsIntroduced');
    assert.match(refused.error.message, /src\/b\.ts:4:3 TS2322/);
    assert.equal(h.host.diskText(h.host.abs(h.registry.all()[0].folder, 'src/a.ts')), 'export const a: number = 1;\n');
    const written = await h.ok<{ files: { items: { path: string }[] } }>('transaction-commit', { allowNewErrors: true });
    assert.deepEqual(
      written.data.files.items.map((f) => f.path),
      ['src/a.ts'],
    );
    h.setSettings({ operationalMode: 'autonomous-trusted', newErrorsOnCommit: 'allow' });
    await stage("'one';", "'two';");
    await h.ok('transaction-commit', {});
  });

  it('checkInput: a move is the old path deleted and the new one staged; binary files are named, not checked', () => {
    const tx = {
      effectiveDocuments: () => [
        { key: '1', origin: { path: 'src/old.ts', text: 'x', binary: false }, path: 'src/new.ts', text: 'y', segments: [] },
        { key: '2', origin: { path: 'logo.png', text: '', binary: true }, path: 'logo.png', text: '', segments: [] },
        { key: '3', origin: { path: 'src/gone.js', text: 'z', binary: false }, path: null, text: '', segments: [] },
      ],
    } as unknown as Parameters<typeof checkInput>[0];
    assert.deepEqual(checkInput(tx), { staged: { 'src/old.ts': null, 'src/new.ts': 'y', 'src/gone.js': null }, unchecked: ['logo.png'] });
  });
});
