import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registeredToolName } from '../../src/core/chain/definition';
import type { Envelope } from '../../src/core/chain/envelope';
import type { MutationData, TransactionState } from '../../src/core/transactions/types';
import type { AgentWorkbenchApi } from '../../src/extension';
import { activateExtension, assertValidEnvelope, expectError, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

const abs = (p: string): string => path.join(workspaceRoot(), ...p.split('/'));
const bytes = (p: string): Buffer | undefined => (fs.existsSync(abs(p)) ? fs.readFileSync(abs(p)) : undefined);
const sel = (p: string, selectedText: string) => ({ selection: { document: { path: p }, selectedText } });
const FILES = [
  'src/util.ts',
  'src/windows.ts',
  'src/main.ts',
  'src/greeter.ts',
  'src/obsolete.ts',
  'src/emoji.ts',
  'src/added.ts',
  'src/lib/strings.ts',
  'src/bom.ts',
];

function snapshotFiles(): Map<string, Buffer | undefined> {
  return new Map(FILES.map((p) => [p, bytes(p)]));
}

function assertFilesAre(before: Map<string, Buffer | undefined>, why: string): void {
  for (const [p, b] of before) assert.deepEqual(bytes(p), b, `${why}: ${p} is byte-identical`);
}

/** invokeTool with a cancellation token; a call VS Code itself refused to run counts as "Cancelled". */
async function invokeWithToken(tool: string, input: unknown, token: vscode.CancellationToken): Promise<Envelope | 'refused'> {
  try {
    const result = await vscode.lm.invokeTool(registeredToolName(tool), { input: input as object, toolInvocationToken: undefined }, token);
    const part = result.content[0];
    assert.ok(part instanceof vscode.LanguageModelTextPart);
    const envelope = JSON.parse(part.value) as Envelope;
    assertValidEnvelope(tool, envelope);
    return envelope;
  } catch (error) {
    if (error instanceof vscode.CancellationError || /cancel/i.test(String(error))) return 'refused';
    throw error;
  }
}

async function setMode(mode: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('agentWorkbench').update('operationalMode', mode, vscode.ConfigurationTarget.Global);
}

async function stagedText(p: string): Promise<string> {
  const answer = expectOk<{ window: { text: string } }>(
    await invoke('get-code-context', {
      location: { span: { document: { path: p }, range: { start: 0, length: 0 } } },
      contextLines: 500,
      includeSymbols: false,
      view: 'staged',
    }),
  );
  return answer.data.window.text;
}

async function edit(p: string, selectedText: string, newText: string): Promise<MutationData> {
  return expectOk<MutationData>(await invoke('edit-text', { edits: [{ location: sel(p, selectedText), newText }] })).data;
}

/** Puts a file back on disk and in its (saved) buffer. */
async function restoreFile(p: string, content: Buffer | undefined): Promise<void> {
  if (content === undefined) {
    fs.rmSync(abs(p), { force: true });
    return;
  }
  fs.writeFileSync(abs(p), content);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === abs(p));
  if (doc && doc.isDirty) {
    const e = new vscode.WorkspaceEdit();
    e.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), content.toString('utf8').replace(/^\uFEFF/, ''));
    await vscode.workspace.applyEdit(e);
    await doc.save();
  }
  // A clean buffer reloads from disk when VS Code notices the write (its text has no byte order mark).
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  for (let i = 0; i < 200 && doc && doc.getText() !== text; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(doc ? doc.getText() : text, text, `${p} restored in the editor`);
}

describe('staged transactions in a real VS Code', function () {
  this.timeout(120_000);
  let api: AgentWorkbenchApi;
  let originals: Map<string, Buffer | undefined>;

  before(async () => {
    api = await activateExtension();
    originals = snapshotFiles();
  });

  afterEach(async () => {
    await invoke('transaction-rollback', {});
    await setMode(undefined);
    for (const [p, b] of originals) if (!(bytes(p)?.equals(b ?? Buffer.alloc(0)) ?? b === undefined)) await restoreFile(p, b);
  });

  it('stages edit-text against the staged text and previews exact hunks; disk is untouched', async () => {
    const first = await edit('src/util.ts', 'toUpperCase', 'toLocaleUpperCase');
    assert.deepEqual(first.transaction, {
      revision: 1,
      revisionCount: 1,
      maxRevisions: 20,
      remainingRevisions: 19,
      canMutate: true,
      canUndo: true,
      canRedo: false,
      canCommit: true,
      canRollback: true,
    } satisfies TransactionState);
    // The second edit selects text that exists only in the staged text.
    await edit('src/util.ts', 'toLocaleUpperCase()', "toLocaleUpperCase('en')");
    const preview = expectOk<{
      documents: { document: { path: string }; changeKind: string; preview: object }[];
      diff: { hunks: unknown[]; truncated: boolean };
    }>(await invoke('transaction-preview', { document: { path: 'src/util.ts' }, includeDiff: true, contextLines: 1 }));
    assert.deepEqual(
      preview.data.documents.map((d) => [d.document.path, d.changeKind, d.preview]),
      [['src/util.ts', 'Modified', { addedLines: 1, removedLines: 1, changedLines: 1 }]],
    );
    assert.deepEqual(preview.data.diff.hunks, [
      {
        originalStartLine: 1,
        originalLineCount: 3,
        updatedStartLine: 1,
        updatedLineCount: 3,
        lines: [' export function shout(text: string): string {', '-  return text.toUpperCase();', "+  return text.toLocaleUpperCase('en');", ' }'],
      },
    ]);
    assert.equal(preview.snapshot.transactionRevision, 2);
    assert.deepEqual(bytes('src/util.ts'), originals.get('src/util.ts'), 'nothing written while staging');
    assert.match(await stagedText('src/util.ts'), /toLocaleUpperCase\('en'\)/);
  });

  it('commit keeps a UTF-8 byte order mark and CRLF', async () => {
    await setMode('autonomous-trusted');
    await edit('src/bom.ts', '"kept"', '"still kept"');
    expectOk(await invoke('transaction-commit', {}));
    const expected = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const bom = "still kept";\r\nexport const other = 1;\r\n')]);
    assert.deepEqual(bytes('src/bom.ts'), expected);
  });

  it('undo and redo move through revisions; staging after undo drops the redo branch', async () => {
    await edit('src/util.ts', "'1.0.0'", "'1.1.0'");
    await edit('src/util.ts', "'1.1.0'", "'1.2.0'");
    await edit('src/main.ts', "'world'", "'there'");
    let h = expectOk<{ transaction: TransactionState }>(await invoke('transaction-history', { action: 'undo', steps: 2 }));
    assert.equal(h.data.transaction.revision, 1);
    assert.equal(h.snapshot.transactionRevision, 1);
    assert.match(await stagedText('src/util.ts'), /'1\.1\.0'/);
    h = expectOk(await invoke('transaction-history', { action: 'redo' }));
    assert.equal(h.data.transaction.revision, 2);
    assert.match(await stagedText('src/util.ts'), /'1\.2\.0'/);
    const after = await edit('src/greeter.ts', 'loud(', 'shoutAt(');
    assert.deepEqual([after.transaction.revision, after.transaction.revisionCount, after.transaction.canRedo], [3, 3, false]);
    const list = expectOk<{ revisions: { items: { tool: string; summary: string }[] } }>(await invoke('transaction-history', {}));
    assert.deepEqual(
      list.data.revisions.items.map((r) => r.summary),
      ['Edit 1 location in src/util.ts', 'Edit 1 location in src/util.ts', 'Edit 1 location in src/greeter.ts'],
    );
  });

  it('commits exact bytes (CRLF kept, emoji kept), and the editor can undo the commit', async () => {
    await setMode('autonomous-trusted');
    await edit('src/windows.ts', 'PANES = 2', 'PANES = 3');
    await edit('src/emoji.ts', '"🎉"', '"🎉🎈"');
    const committed = expectOk<{ files: { items: { path: string }[] } }>(await invoke('transaction-commit', {}));
    assert.deepEqual(committed.data.files.items.map((f) => f.path).sort(), ['src/emoji.ts', 'src/windows.ts']);
    assert.deepEqual(
      bytes('src/windows.ts'),
      Buffer.from((originals.get('src/windows.ts') as Buffer).toString('utf8').replace('PANES = 2', 'PANES = 3'), 'utf8'),
    );
    assert.ok(bytes('src/windows.ts')?.includes('\r\n'), 'CRLF kept');
    assert.deepEqual(bytes('src/emoji.ts'), Buffer.from((originals.get('src/emoji.ts') as Buffer).toString('utf8').replace('"🎉"', '"🎉🎈"'), 'utf8'));
    assert.equal(committed.snapshot.transactionRevision, null);
    const doc = await vscode.workspace.openTextDocument(abs('src/windows.ts'));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), (originals.get('src/windows.ts') as Buffer).toString('utf8'), "the editor's undo takes the commit back");
    await doc.save();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a commit of 50+ files writes those nobody has open straight to disk (none opened) and the open one through the editor (undo kept)', async () => {
    await setMode('autonomous-trusted');
    const many = Array.from({ length: 60 }, (_, i) => `src/many/m${String(i).padStart(2, '0')}.ts`);
    fs.mkdirSync(abs('src/many'), { recursive: true });
    many.forEach((p, i) => fs.writeFileSync(abs(p), `export const value${i} = ${i};\n`));
    try {
      const open = await vscode.workspace.openTextDocument(abs(many[0]));
      await vscode.window.showTextDocument(open);
      expectOk(await invoke('edit-text', { edits: many.map((p, i) => ({ location: sel(p, `= ${i};`), newText: `= ${i + 1000};` })) }));
      const committed = expectOk<{ files: { items: unknown[]; totalCount: number } }>(await invoke('transaction-commit', {}));
      assert.equal(committed.data.files.totalCount, 60);
      many.forEach((p, i) => assert.equal(bytes(p)?.toString('utf8'), `export const value${i} = ${i + 1000};\n`, p));
      const opened = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && d.uri.fsPath.startsWith(abs('src/many'))).map((d) => d.uri.fsPath);
      assert.deepEqual(opened, [abs(many[0])], 'the commit opened no document');
      await vscode.commands.executeCommand('undo');
      assert.equal(open.getText(), 'export const value0 = 0;\n', "the editor's undo takes the open file's commit back");
      await open.save();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      fs.rmSync(abs('src/many'), { recursive: true, force: true });
    }
  });

  for (const change of ['editor', 'disk', 'deleted'] as const) {
    it(`refuses a commit when a staged file was changed (${change}) meanwhile: nothing written, transaction kept`, async () => {
      await setMode('autonomous-trusted');
      await edit('src/util.ts', "'1.0.0'", "'2.0.0'");
      await edit('src/obsolete.ts', 'true', 'false');
      const target = abs('src/obsolete.ts');
      if (change === 'editor') {
        const doc = await vscode.workspace.openTextDocument(target);
        const e = new vscode.WorkspaceEdit();
        e.insert(doc.uri, new vscode.Position(0, 0), '// typed by the person\n');
        assert.ok(await vscode.workspace.applyEdit(e));
      } else if (change === 'disk') {
        const changed = 'export const obsolete = "changed by another program";\n';
        fs.writeFileSync(target, changed);
        // An open, clean buffer reloads from disk when VS Code notices the write; wait for it, so
        // that reload cannot land after the file is restored and show the next test this text.
        const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === target);
        for (let i = 0; i < 200 && open && open.getText() !== changed; i++) await new Promise((r) => setTimeout(r, 50));
      } else {
        fs.rmSync(target);
      }
      const before = snapshotFiles();
      const failed = expectError(await invoke('transaction-commit', {}), 'TransactionConflicted');
      assert.match(failed.error.message, /src\/obsolete\.ts (changed in the editor|changed on disk|was deleted)/);
      assert.equal(failed.continuation?.kind, 'ResolveExternally');
      assertFilesAre(before, change);
      const preview = expectOk<{ transaction: TransactionState; documents: unknown[] }>(await invoke('transaction-preview', {}));
      assert.equal(preview.data.transaction.revision, 2, 'transaction kept');
      assert.equal(preview.data.documents.length, 2);
      if (change === 'editor') {
        const doc = await vscode.workspace.openTextDocument(target);
        const e = new vscode.WorkspaceEdit();
        e.delete(doc.uri, new vscode.Range(0, 0, 1, 0));
        await vscode.workspace.applyEdit(e);
        await doc.save();
      }
    });
  }

  for (const phase of ['apply', 'save'] as const) {
    it(`a multi-file commit failing halfway (${phase}) leaves every file byte-identical and the transaction intact`, async () => {
      await setMode('autonomous-trusted');
      await edit('src/util.ts', "'1.0.0'", "'3.0.0'");
      await edit('src/windows.ts', 'PANES = 2', 'PANES = 4');
      expectOk(await invoke('create-file', { path: 'src/added.ts', text: 'export const added = 1;\n' }));
      expectOk(await invoke('delete-file', { document: { path: 'src/obsolete.ts' } }));
      const before = snapshotFiles();
      api.testHooks.injectCommitFault({ absPath: abs('src/windows.ts'), phase });
      const failed = expectError(await invoke('transaction-commit', {}), 'CommitFailed');
      assert.match(failed.error.message, /windows\.ts|util\.ts/);
      assert.match(failed.error.message, /put back byte for byte/);
      assertFilesAre(before, phase);
      const preview = expectOk<{ transaction: TransactionState; documents: { changeKind: string }[] }>(await invoke('transaction-preview', {}));
      assert.equal(preview.data.transaction.revision, 4);
      assert.deepEqual(preview.data.documents.map((d) => d.changeKind).sort(), ['Added', 'Deleted', 'Modified', 'Modified']);
      // With the fault gone the same transaction commits.
      expectOk(await invoke('transaction-commit', {}));
      assert.equal(bytes('src/obsolete.ts'), undefined);
      assert.deepEqual(bytes('src/added.ts'), Buffer.from('export const added = 1;\n'));
    });
  }

  it('approval-required: the agent stages but its commit answers TransactionCommitNotApproved', async () => {
    await setMode('approval-required');
    await edit('src/util.ts', "'1.0.0'", "'9.9.9'");
    const refused = expectError(await invoke('transaction-commit', {}), 'TransactionCommitNotApproved');
    assert.equal(refused.continuation?.kind, 'ResolveExternally');
    assert.deepEqual(bytes('src/util.ts'), originals.get('src/util.ts'));
  });

  it('two concurrent mutation calls both land, one revision each, never interleaved', async () => {
    const [a, b] = await Promise.all([
      invoke('edit-text', { edits: [{ location: sel('src/main.ts', "'Hello'"), newText: "'Hi'" }] }),
      invoke('edit-text', { edits: [{ location: sel('src/main.ts', "'world'"), newText: "'all'" }] }),
    ]);
    const revisions = [expectOk<MutationData>(a), expectOk<MutationData>(b)].map((e) => e.data.revision.revision).sort();
    assert.deepEqual(revisions, [1, 2]);
    assert.match(await stagedText('src/main.ts'), /new Greeter\('Hi'\)\.greet\('all'\)/);
  });

  it('a cancelled mutation or commit answers the truth: what it says matches what is staged and on disk', async () => {
    await setMode('autonomous-trusted');
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    const mutation = await invokeWithToken('edit-text', { edits: [{ location: sel('src/util.ts', 'shout'), newText: 'yell' }] }, source.token);
    const after = expectOk<{ transaction: TransactionState | null }>(await invoke('transaction-preview', {}));
    if (mutation === 'refused' || !mutation.ok) assert.equal(after.data.transaction, null, 'a cancelled mutation staged nothing');
    else assert.equal(after.data.transaction?.revision, 1);
    let current = 'shout';
    for (const delay of [0, 1, 5, 20, 60]) {
      await invoke('transaction-rollback', {});
      const base = bytes('src/util.ts');
      await edit('src/util.ts', `${current}(text`, `shout${delay}(text`);
      const s = new vscode.CancellationTokenSource();
      // Renaming only the declaration breaks its callers: the check would refuse before any cancellation could land.
      const pending = invokeWithToken('transaction-commit', { allowNewErrors: true }, s.token);
      setTimeout(() => s.cancel(), delay);
      const answer = await pending;
      // When VS Code dropped the answer, our commit may still be running. A call that takes the workspace's turn
      // (transaction-start) runs after it: then staged and disk are final. It starts a transaction only if the commit ended one.
      const started = expectOk<{ started: boolean; transaction: TransactionState }>(await invoke('transaction-start', {}));
      const written = new RegExp(`shout${delay}\\(text`).test(bytes('src/util.ts')?.toString('utf8') ?? '');
      if (written) current = `shout${delay}`;
      if (answer === 'refused') {
        // VS Code threw CancellationError itself and dropped our answer: staged and on disk must still agree.
        assert.equal(started.data.started, written, `delay ${delay}: committed exactly when the transaction ended`);
        if (!written) assert.deepEqual(bytes('src/util.ts'), base);
      } else if (answer.ok) {
        assert.ok(written, `delay ${delay}: committed means written`);
        assert.ok(started.data.started, `delay ${delay}: committed means the transaction ended`);
      } else {
        assert.equal(answer.error.code, 'Cancelled');
        assert.deepEqual(bytes('src/util.ts'), base, `delay ${delay}: cancelled means nothing written`);
        assert.equal(started.data.transaction.revision, 1, `delay ${delay}: transaction kept`);
      }
    }
  });

  it('transaction-revert stages the exact inverse of the last commit (edits, a create, a delete, a move); committed, every file is byte for byte as before', async () => {
    await setMode('autonomous-trusted');
    await edit('src/bom.ts', '"kept"', '"reverted later"');
    await edit('src/util.ts', "'1.0.0'", "'5.0.0'");
    expectOk(await invoke('create-file', { path: 'src/added.ts', text: 'export const added = 1;\n' }));
    expectOk(await invoke('delete-file', { document: { path: 'src/obsolete.ts' } }));
    expectOk(await invoke('move-file', { document: { path: 'src/emoji.ts' }, newPath: 'src/lib/strings.ts' }));
    expectOk(await invoke('transaction-commit', {}));
    assert.equal(bytes('src/obsolete.ts'), undefined);
    assert.equal(bytes('src/emoji.ts'), undefined);
    assert.ok(bytes('src/added.ts'));
    const staged = expectOk<MutationData>(await invoke('transaction-revert', {})).data;
    assert.deepEqual(
      staged.documents.items.map((d) => [d.path, d.changeKind ?? 'Modified']).sort(),
      [
        ['src/added.ts', 'Deleted'],
        ['src/bom.ts', 'Modified'],
        ['src/emoji.ts', 'Renamed'],
        ['src/obsolete.ts', 'Added'],
        ['src/util.ts', 'Modified'],
      ],
      JSON.stringify(staged.documents),
    );
    assertFilesAre(
      new Map(
        [...originals]
          .filter(([p]) => p === 'src/util.ts')
          .map(([p]) => [p, Buffer.from((originals.get(p) as Buffer).toString('utf8').replace("'1.0.0'", "'5.0.0'"))]),
      ),
      'staging the revert wrote nothing',
    );
    expectOk(await invoke('transaction-commit', {}));
    assertFilesAre(originals, 'after the revert is committed');
    fs.rmSync(abs('src/lib'), { recursive: true, force: true });
  });

  it('transaction-revert refuses, naming the file, when a file of the last commit changed since; nothing is staged', async () => {
    await setMode('autonomous-trusted');
    await edit('src/util.ts', "'1.0.0'", "'6.0.0'");
    expectOk(await invoke('transaction-commit', {}));
    fs.writeFileSync(abs('src/util.ts'), (bytes('src/util.ts') as Buffer).toString('utf8') + '// a person typed this\n');
    const refused = expectError(await invoke('transaction-revert', {}), 'TransactionConflicted');
    assert.match(refused.error.message, /src\/util\.ts was changed on disk since it was committed/);
    const preview = expectOk<{ documents?: unknown[] }>(await invoke('transaction-preview', {})).data;
    assert.deepEqual(preview.documents ?? [], [], 'nothing staged');
    assert.match(bytes('src/util.ts')?.toString('utf8') ?? '', /a person typed this/, 'what the person typed is kept');
  });

  it('move-file stages the move and lists the imports to fix; fixing them with edit-text and committing moves exactly', async () => {
    await setMode('autonomous-trusted');
    const moved = expectOk<
      MutationData & {
        referencesToFix: { items: { document: { path: string }; span: { start: number; length: number }; specifier: string; suggested: string }[] };
      }
    >(await invoke('move-file', { document: { path: 'src/util.ts' }, newPath: 'src/lib/strings.ts' }));
    const refs = moved.data.referencesToFix.items;
    assert.deepEqual(refs.map((r) => [r.document.path, r.specifier, r.suggested]).sort(), [
      ['src/greeter.ts', './util', './lib/strings'],
      ['src/main.ts', './util', './lib/strings'],
    ]);
    expectOk(
      await invoke('edit-text', {
        edits: refs.map((r) => ({ location: { span: { document: { path: r.document.path }, range: r.span } }, newText: r.suggested })),
      }),
    );
    // The moved file itself is edited at its staged path too: one commit renames and edits it.
    await edit('src/lib/strings.ts', "'1.0.0'", "'1.0.1'");
    // The editor still holds a buffer of an earlier src/lib/strings.ts, gone from disk, with unsaved text: the commit refuses.
    fs.mkdirSync(abs('src/lib'), { recursive: true });
    fs.writeFileSync(abs('src/lib/strings.ts'), 'export const earlier = 1;\n');
    const earlier = await vscode.workspace.openTextDocument(vscode.Uri.file(abs('src/lib/strings.ts')));
    // The editor may still show an earlier buffer of the path (the revert test moved a file there): the typed text goes into what it shows.
    const at = earlier.offsetAt(new vscode.Position(1, 0));
    const shown = earlier.getText();
    const typed = new vscode.WorkspaceEdit();
    typed.insert(earlier.uri, earlier.positionAt(at), '// typed\n');
    assert.ok(await vscode.workspace.applyEdit(typed));
    fs.rmSync(abs('src/lib/strings.ts'));
    const before = snapshotFiles();
    const refused = expectError(await invoke('transaction-commit', {}), 'TransactionConflicted');
    assert.match(refused.error.message, /unsaved text for src\/lib\/strings\.ts/);
    assertFilesAre(before, 'a refused commit writes nothing');
    assert.equal(earlier.getText(), `${shown.slice(0, at)}// typed\n${shown.slice(at)}`, 'the typed text is kept');
    // Saved and deleted again, the buffer is stale (the editor keeps it): the commit waits for it to show the moved file.
    assert.ok(await earlier.save());
    fs.rmSync(abs('src/lib/strings.ts'));
    expectOk(await invoke('transaction-commit', {}));
    assert.equal(earlier.getText(), bytes('src/lib/strings.ts')?.toString('utf8'), 'the editor shows the moved file');
    assert.equal(bytes('src/util.ts'), undefined);
    assert.deepEqual(bytes('src/lib/strings.ts'), Buffer.from((originals.get('src/util.ts') as Buffer).toString('utf8').replace("'1.0.0'", "'1.0.1'")));
    assert.match(bytes('src/main.ts')?.toString('utf8') ?? '', /from '\.\/lib\/strings'/);
    // Put the fixture back (the file system API runs no rename participant, so TypeScript asks nothing).
    await vscode.workspace.fs.rename(vscode.Uri.file(abs('src/lib/strings.ts')), vscode.Uri.file(abs('src/util.ts')));
    await restoreFile('src/util.ts', originals.get('src/util.ts'));
    fs.rmSync(abs('src/lib'), { recursive: true, force: true });
  });

  it('insert-after-symbol stages text after a symbol the language service finds at a location (no lookup first), re-indented, merged with staged edits', async () => {
    await waitForSymbols('src/greeter.ts');
    await edit('src/greeter.ts', "import { shout } from './util';", "import { shout } from './util';\n// staged first");
    const staged = expectOk<MutationData>(
      await invoke('insert-after-symbol', { symbol: { location: sel('src/greeter.ts', 'loud') }, text: '\nquiet(name: string): string {\n  return name;\n}' }),
    );
    assert.equal(staged.data.transaction.revision, 2);
    const text = await stagedText('src/greeter.ts');
    assert.match(text, /\/\/ staged first/);
    assert.ok(text.includes('return shout(this.greet(name));\n  }\n\n  quiet(name: string): string {\n    return name;\n  }\n}'), text);
    // The same symbol by symbolId, as the other symbol tools take it: its body replaced, one level inside.
    const resolved = expectOk<{ symbolId?: string; symbol?: { symbolId: string } }>(
      await invoke('resolve-symbol', { symbol: { location: sel('src/greeter.ts', 'loud') } }),
    );
    const symbolId = resolved.data.symbolId ?? resolved.data.symbol?.symbolId;
    expectOk(await invoke('replace-symbol-body', { symbol: { symbolId }, text: 'return shout(name);' }));
    assert.ok(
      (await stagedText('src/greeter.ts')).includes('loud(name: string): string {\n    return shout(name);\n  }\n\n  quiet('),
      await stagedText('src/greeter.ts'),
    );
  });
});
