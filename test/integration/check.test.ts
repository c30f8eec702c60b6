import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StagedDiagnostic } from '../../src/core/transactions/check';
import type { CheckData } from '../../src/tools/shared/stagedCheck';
import { activateExtension, expectError, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

// The staged text checked as a program before a commit ("know before writing"), in the real
// VS Code with its bundled TypeScript, on test/fixtures/check.

const abs = (p: string): string => path.join(workspaceRoot(), ...p.split('/'));
const sel = (p: string, selectedText: string) => ({ selection: { document: { path: p }, selectedText } });
const edit = async (p: string, selectedText: string, newText: string) =>
  expectOk(await invoke('edit-text', { edits: [{ location: sel(p, selectedText), newText }] }));
const check = async (): Promise<CheckData> => expectOk<CheckData>(await invoke('transaction-check', {})).data;
const rollback = async () => expectOk(await invoke('transaction-rollback', {}));
const errors = (d: CheckData, which: 'introduced' | 'resolved' = 'introduced'): StagedDiagnostic[] =>
  (d[which]?.items ?? []).filter((x) => x.severity === 'error');
const setMode = (mode: string) => vscode.workspace.getConfiguration('agentWorkbench').update('operationalMode', mode, vscode.ConfigurationTarget.Global);

describe('transaction-check: the staged text checked before it is written', function () {
  this.timeout(240_000);

  before(async () => {
    await activateExtension();
    await waitForSymbols('src/shapes.ts');
  });

  afterEach(async () => {
    await invoke('transaction-rollback', {});
    await setMode('transactional');
  });

  it("an agent's question computes the check's current side ahead once the service has settled; switched off, nothing is; the check after it answers the same", async () => {
    const api = await activateExtension();
    const config = () => vscode.workspace.getConfiguration('agentWorkbench');
    const question = async () => expectOk(await invoke('find-references', { symbol: { location: sel('src/shapes.ts', 'area(): number') } }));
    await config().update('check.computeAhead', false, vscode.ConfigurationTarget.Global);
    try {
      await question();
      assert.deepEqual(await api.testHooks.checksWarmed(), [], 'switched off: nothing asked');
      await config().update('check.computeAhead', true, vscode.ConfigurationTarget.Global);
      await question();
      const [warmed] = (await api.testHooks.checksWarmed()) as ({ projects: string[]; files: number; computed: number } | undefined)[];
      assert.deepEqual(warmed && { projects: warmed.projects, files: warmed.files }, { projects: ['tsconfig.json'], files: 4 }, JSON.stringify(warmed));
      assert.ok(warmed!.computed <= 4);
    } finally {
      await config().update('check.computeAhead', undefined, vscode.ConfigurationTarget.Global);
    }
    await edit('src/shapes.ts', 'area(): number;', 'area(): string;');
    const d = await check();
    assert.equal(d.complete, true);
    const paths = new Set(errors(d).map((e) => e.path));
    assert.ok(paths.has('src/circle.ts') && paths.has('src/square.ts'), `both importers reported: ${JSON.stringify(errors(d))}`);
    assert.deepEqual(errors(d, 'resolved'), []);
  });

  it('an edit that breaks a type used in two other files reports both, in the staged text of each', async () => {
    await edit('src/shapes.ts', 'area(): number;', 'area(): string;');
    const d = await check();
    assert.equal(d.state, 'checked', JSON.stringify(d));
    assert.equal(d.complete, true);
    const byPath = new Map(errors(d).map((e) => [e.path, e]));
    assert.deepEqual([...byPath.keys()].sort(), ['src/circle.ts', 'src/shapes.ts', 'src/square.ts'].filter((p) => byPath.has(p)).sort());
    assert.ok(byPath.has('src/circle.ts') && byPath.has('src/square.ts'), `both importers reported: ${JSON.stringify(errors(d))}`);
    const circle = fs.readFileSync(abs('src/circle.ts'), 'utf8').split('\n');
    const c = byPath.get('src/circle.ts')!;
    assert.match(circle[c.line - 1], /area|Circle/, `line ${c.line} of circle.ts is where the error is`);
    assert.ok(/^\d+\.\d+/.test(d.typescriptVersion ?? ''), 'says which TypeScript answered');
    assert.deepEqual(errors(d, 'resolved'), []);
    const preview = expectOk<{ check?: { state: string; introducedErrors?: number } }>(await invoke('transaction-preview', {})).data;
    assert.equal(preview.check?.state, 'checked');
    assert.equal(preview.check?.introducedErrors, errors(d).length);
  });

  it('a rename that creates a name clash is an introduced error, at its place in the staged text', async () => {
    expectOk(await invoke('rename-symbol', { symbol: { location: sel('src/shapes.ts', 'label') }, newName: 'helper' }));
    const d = await check();
    const clash = errors(d).filter((e) => e.path === 'src/shapes.ts');
    assert.ok(clash.length > 0, JSON.stringify(d));
    const staged = expectOk<{ diffs?: { items: { path: string; diff?: string }[] } }>(await invoke('transaction-preview', { includeDiff: true })).data;
    assert.ok(staged.diffs?.items.some((i) => i.path === 'src/shapes.ts'));
    for (const e of clash) assert.ok(e.line === 6 || e.line === 10, `the clash is on a declaration of helper (line ${e.line})`);
  });

  it('a fix of a file with an existing error is resolved; undo makes the answer follow the revision', async () => {
    await edit('src/broken.ts', "'three'", '3');
    const fixed = await check();
    assert.deepEqual(
      errors(fixed, 'resolved').map((e) => [e.path, e.line, e.code]),
      [['src/broken.ts', 1, 2322]],
    );
    assert.deepEqual(errors(fixed), []);
    await edit('src/square.ts', 'area: () => 4,', "area: () => 'four',");
    const both = await check();
    assert.equal(both.revision, 2);
    assert.ok(errors(both).some((e) => e.path === 'src/square.ts'));
    expectOk(await invoke('transaction-history', { action: 'undo' }));
    const back = await check();
    assert.equal(back.revision, 1);
    assert.deepEqual(errors(back), [], 'after undo the square error is gone from the answer');
    assert.equal(errors(back, 'resolved').length, 1);
  });

  it('a JSON change is not checked, and says so; a loose file outside every tsconfig is checked with default options', async () => {
    await edit('src/settings.json', '"radius": 1', '"radius": 2');
    const json = await check();
    assert.equal(json.state, 'unavailable');
    assert.match(json.reason ?? '', /TypeScript or JavaScript/);
    assert.deepEqual(json.unchecked, ['src/settings.json']);
    await rollback();
    await edit('loose/script.ts', '1 + 2', "1 + 'two'");
    const loose = await check();
    assert.equal(loose.state, 'checked');
    assert.ok(
      errors(loose).some((e) => e.path === 'loose/script.ts' && e.code === 2322),
      JSON.stringify(loose),
    );
  });

  it('autonomous-trusted refuses a commit that introduces errors, writing nothing, unless allowNewErrors', async () => {
    const before = fs.readFileSync(abs('src/shapes.ts'));
    await edit('src/shapes.ts', 'area(): number;', 'area(): string;');
    await setMode('autonomous-trusted');
    const refused = expectError(await invoke('transaction-commit', {}), 'NewErrorsIntroduced');
    assert.match(refused.error.message, /src\/(circle|square)\.ts:\d+:\d+ TS\d+/);
    assert.deepEqual(fs.readFileSync(abs('src/shapes.ts')), before, 'nothing was written');
    const written = expectOk<{ files: { items: { path: string }[] } }>(await invoke('transaction-commit', { allowNewErrors: true })).data;
    assert.deepEqual(
      written.files.items.map((f) => f.path),
      ['src/shapes.ts'],
    );
    assert.match(fs.readFileSync(abs('src/shapes.ts'), 'utf8'), /area\(\): string;/);
  });

  it('a JSON commit reports what its language service found after the write: a broken file introduced, its fix resolved', async () => {
    await setMode('autonomous-trusted');
    await edit('src/settings.json', '"radius": 1', '"radius": 1,,');
    const before = await check();
    assert.equal(before.state, 'unavailable', 'nothing checks JSON before the commit');
    const broken = expectOk<CommitAnswer>(await invoke('transaction-commit', {})).data;
    assert.equal(fs.readFileSync(abs('src/settings.json'), 'utf8'), '{ "radius": 1,, }\n');
    const introduced = broken.afterCommit?.introduced.items ?? [];
    assert.ok(introduced.length > 0, `the JSON service's errors after the write: ${JSON.stringify(broken)}`);
    for (const d of introduced) {
      assert.equal(d.path, 'src/settings.json');
      assert.equal(d.line, 1);
      assert.ok(d.column > 13, `at the commas (column ${d.column})`);
    }
    assert.deepEqual(broken.afterCommit?.resolved.items, []);
    assert.equal(broken.afterCommit?.silent, undefined, 'the JSON service reported');
    await edit('src/settings.json', '"radius": 1,,', '"radius": 1');
    const fixed = expectOk<CommitAnswer>(await invoke('transaction-commit', {})).data;
    assert.deepEqual(fixed.afterCommit?.introduced.items, []);
    assert.deepEqual(
      fixed.afterCommit?.resolved.items.map((d) => d.message).sort(),
      introduced.map((d) => d.message).sort(),
      'each error of the broken file is resolved',
    );
    assert.equal(fs.readFileSync(abs('src/settings.json'), 'utf8'), '{ "radius": 1 }\n');
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    assert.ok(
      !tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === abs('src/settings.json')),
      'the tab shown for its service is closed again',
    );
  });

  it('a TypeScript-only commit carries no language-service delta (its check came before the write)', async () => {
    await setMode('autonomous-trusted');
    await edit('src/circle.ts', "name = 'circle';", "name = 'round';");
    const c = expectOk<CommitAnswer>(await invoke('transaction-commit', {}));
    assert.equal(c.data.afterCommit, undefined);
  });
});

interface CommitAnswer {
  files: { items: { path: string }[] };
  afterCommit?: {
    introduced: { items: { path: string; line: number; column: number; message: string; severity: string }[] };
    resolved: { items: { path: string; line: number; column: number; message: string; severity: string }[] };
    silent?: string[];
  };
}
