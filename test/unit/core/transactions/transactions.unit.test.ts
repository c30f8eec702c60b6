import * as assert from 'node:assert/strict';
import { LinkedCancellation } from '../../../../src/core/chain/cancellation';
import { defineTool } from '../../../../src/core/chain/definition';
import type { AnyToolDefinition } from '../../../../src/core/chain/definition';
import { CommitJournal } from '../../../../src/core/transactions/journal';
import type { MutationData, TransactionState } from '../../../../src/core/transactions/types';
import { changedRegions, sha256 } from '../../../../src/core/transactions/segments';
import { ALL_TOOLS } from '../../../../src/tools';
import { inputSchema } from '../../../../src/tools/shared/common';
import { hunkText, lineCounts } from '../../../../src/core/transactions/diff';
import { compactCounts } from '../../../../src/core/transactions/manager';
import { MUTATION, mutationAnnotations, mutationDataSchema } from '../../../../src/tools/shared/mutations';
import type { DiffHunk } from '../../../../src/core/transactions/diff';
import { FakeHost, symbolsIn } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

const GREETER = 'export class Greeter {\n  greet(name: string): string {\n    return `Hello, ${name}!`;\n  }\n}\n';
const UTIL = 'export function shout(text: string): string {\n  return text.toUpperCase();\n}\n';
const MAIN = "import { shout } from './util';\nimport { Greeter } from './greeter';\n\nexport const x = shout(new Greeter().greet('a'));\n";
const CRLF = 'line one\r\nline two\r\nline three\r\n';

async function setup(settings: Partial<Harness['settings']> = {}, tools?: readonly AnyToolDefinition[]): Promise<{ h: Harness; abs: (p: string) => string }> {
  const host = new FakeHost();
  const folder = host.addFolder('app', {
    'package.json': '{"name":"app"}',
    'src/greeter.ts': GREETER,
    'src/util.ts': UTIL,
    'src/main.ts': MAIN,
    'src/windows.ts': CRLF,
  });
  const h = await createHarness({ host, settings, tools });
  return { h, abs: (p) => host.abs(folder, p) };
}

const sel = (path: string, selectedText: string, extra: Record<string, string> = {}) => ({ selection: { document: { path }, selectedText, ...extra } });

async function edit(h: Harness, path: string, selectedText: string, newText: string): Promise<MutationData> {
  return (await h.ok<MutationData>('edit-text', { edits: [{ location: sel(path, selectedText), newText }] })).data;
}

function stateOf(data: { transaction: TransactionState | null }): TransactionState {
  assert.ok(data.transaction);
  return data.transaction;
}

describe('transactions: staging, revisions and state', () => {
  it('stages edit-text against the staged text, so a second edit sees the first', async () => {
    const { h, abs } = await setup();
    const first = await edit(h, 'src/greeter.ts', 'Hello', 'Hi');
    assert.deepEqual(stateOf(first), {
      revision: 1,
      revisionCount: 1,
      maxRevisions: 20,
      remainingRevisions: 19,
      canMutate: true,
      canUndo: true,
      canRedo: false,
      canCommit: true,
      canRollback: true,
    });
    assert.equal(first.revision.tool, 'edit-text');
    assert.equal(first.revision.by, 'agent');
    assert.deepEqual(
      first.documents,
      { items: [{ path: 'src/greeter.ts', changedLines: 1 }], hasMore: false, totalCount: 1 },
      'changeKind left out: Modified; added and removed lines, equal to the changed ones',
    );
    // "Hi, " exists only in the staged text.
    await edit(h, 'src/greeter.ts', 'Hi, ', 'Hey, ');
    assert.equal(h.transactions.stagedText(h.registry.all()[0], 'src/greeter.ts'), GREETER.replace('Hello', 'Hey'));
    assert.equal(h.host.diskText(abs('src/greeter.ts')), GREETER, 'nothing is written while staging');
    // The editor buffer still has the old text; reading with view "buffer" does not see "Hey".
    const ctx = await h.ok<{ window: { text: string }; view?: string }>('get-code-context', {
      location: sel('src/greeter.ts', 'Hey'),
      view: 'staged',
      contextLines: 0,
    });
    assert.equal(ctx.data.window.text, '    return `Hey, ${name}!`;');
    assert.equal(ctx.data.view, 'staged');
    await h.fail('get-code-context', { location: sel('src/greeter.ts', 'Hey') }, 'LocationNotFound');
  });

  it('undo and redo move the revision; staging after an undo drops the redo branch; the snapshot follows', async () => {
    const { h } = await setup();
    await edit(h, 'src/util.ts', 'toUpperCase', 'toLocaleUpperCase');
    const second = await h.ok<MutationData>('edit-text', { edits: [{ location: sel('src/greeter.ts', 'Hello'), newText: 'Hi' }] });
    assert.equal(second.snapshot.transactionRevision, 2);
    const undone = await h.ok<{ transaction: TransactionState; revisions: { items: { revision: number; active: boolean }[] } }>('transaction-history', {
      action: 'undo',
    });
    assert.equal(undone.data.transaction.revision, 1);
    assert.equal(undone.data.transaction.canRedo, true);
    assert.equal(undone.snapshot.transactionRevision, 1);
    assert.deepEqual(
      undone.data.revisions.items.map((r) => [r.revision, r.active]),
      [
        [1, true],
        [2, false],
      ],
    );
    const ws = h.registry.all()[0];
    assert.equal(h.transactions.stagedText(ws, 'src/greeter.ts'), undefined, 'greeter is not staged at revision 1');
    const redone = await h.ok<{ transaction: TransactionState }>('transaction-history', { action: 'redo' });
    assert.equal(redone.data.transaction.revision, 2);
    assert.equal(h.transactions.stagedText(ws, 'src/greeter.ts'), GREETER.replace('Hello', 'Hi'));
    await h.ok('transaction-history', { action: 'undo', steps: 2 });
    const after = await edit(h, 'src/main.ts', "'a'", "'b'");
    assert.deepEqual(stateOf(after), {
      revision: 1,
      revisionCount: 1,
      maxRevisions: 20,
      remainingRevisions: 19,
      canMutate: true,
      canUndo: true,
      canRedo: false,
      canCommit: true,
      canRollback: true,
    });
    const history = await h.ok<{ revisions: { items: { summary: string }[] } }>('transaction-history', {});
    assert.equal(history.data.revisions.items.length, 1);
    await h.fail('transaction-history', { action: 'redo' }, 'InvalidRequest');
  });

  it('answers RevisionCapacityReached with CallTool transaction-history at maxRevisions', async () => {
    const { h } = await setup({ maxRevisions: 2 });
    await edit(h, 'src/util.ts', 'toUpperCase', 'toLowerCase');
    const second = await edit(h, 'src/greeter.ts', 'Hello', 'Hi');
    assert.equal(stateOf(second).remainingRevisions, 0);
    assert.equal(stateOf(second).canMutate, false);
    const refused = await h.fail('edit-text', { edits: [{ location: sel('src/main.ts', "'a'"), newText: "'b'" }] }, 'RevisionCapacityReached');
    assert.deepEqual(refused.continuation && { kind: refused.continuation.kind, tool: 'tool' in refused.continuation ? refused.continuation.tool : '' }, {
      kind: 'CallTool',
      tool: 'transaction-history',
    });
    await h.ok('transaction-history', { action: 'undo' });
    await edit(h, 'src/main.ts', "'a'", "'b'");
  });

  it('merges a language service edit computed on the buffer when it does not overlap, and conflicts when it does', async () => {
    const { h } = await setup();
    const ws = h.registry.all()[0];
    await edit(h, 'src/greeter.ts', 'Hello', 'Good morning');
    // A rename computed on the buffer text: "greet" -> "welcome" at its buffer offset.
    const at = GREETER.indexOf('greet(');
    const merged = await h.transactions.stage(
      undefined,
      ws,
      { tool: 'rename-symbol', summary: 'Rename greet to welcome' },
      [{ kind: 'edit', path: 'src/greeter.ts', edits: [{ start: at, end: at + 5, newText: 'welcome' }] }],
      { basis: 'buffer', computedOn: { 'src/greeter.ts': GREETER } },
    );
    assert.equal(merged.transaction.revision, 2);
    assert.equal(h.transactions.stagedText(ws, 'src/greeter.ts'), GREETER.replace('Hello', 'Good morning').replace('greet(', 'welcome('));
    const hello = GREETER.indexOf('Hello');
    await assert.rejects(
      h.transactions.stage(
        undefined,
        ws,
        { tool: 'format-document', summary: 'Format' },
        [{ kind: 'edit', path: 'src/greeter.ts', edits: [{ start: hello - 1, end: hello + 2, newText: '`Hel' }] }],
        { basis: 'buffer' },
      ),
      (e: Error & { code?: string }) => e.code === 'TransactionConflicted' && /overlaps a change already staged at line 3/.test(e.message),
    );
    // An insertion strictly inside a staged replacement: a conflict, never a guess.
    await assert.rejects(
      h.transactions.stage(
        undefined,
        ws,
        { tool: 'stage-code-action', summary: 'x' },
        [{ kind: 'edit', path: 'src/greeter.ts', edits: [{ start: hello + 2, end: hello + 2, newText: '!' }] }],
        { basis: 'buffer' },
      ),
      (e: Error & { code?: string }) => e.code === 'TransactionConflicted',
    );
    await assert.rejects(
      h.transactions.stage(
        undefined,
        ws,
        { tool: 'rename-symbol', summary: 'x' },
        [{ kind: 'edit', path: 'src/greeter.ts', edits: [{ start: 0, end: 6, newText: 'export' }] }],
        { basis: 'buffer', computedOn: { 'src/greeter.ts': 'different' } },
      ),
      (e: Error & { code?: string }) => e.code === 'TransactionConflicted' && /changed in the editor/.test(e.message),
    );
    assert.equal(h.transactions.active(ws.id)?.current, 2, 'refused stagings add no revision');
  });

  it('maps base offsets through several staged edits (changedRegions)', async () => {
    const { h } = await setup();
    const ws = h.registry.all()[0];
    await h.ok('edit-text', {
      edits: [
        { location: sel('src/util.ts', 'shout'), newText: 'yell' },
        { location: sel('src/util.ts', 'toUpperCase'), newText: 'toLocaleUpperCase' },
      ],
    });
    const d = [...(h.transactions.active(ws.id)?.state().values() ?? [])][0];
    assert.deepEqual(changedRegions(d, UTIL.length), [
      { start: UTIL.indexOf('shout'), end: UTIL.indexOf('shout') + 5, text: 'yell' },
      { start: UTIL.indexOf('toUpperCase'), end: UTIL.indexOf('toUpperCase') + 11, text: 'toLocaleUpperCase' },
    ]);
    const at = UTIL.indexOf('text: string');
    await h.transactions.stage(
      undefined,
      ws,
      { tool: 'rename-symbol', summary: 'Rename text' },
      [
        {
          kind: 'edit',
          path: 'src/util.ts',
          edits: [
            { start: at, end: at + 4, newText: 'input' },
            { start: UTIL.indexOf('text.'), end: UTIL.indexOf('text.') + 4, newText: 'input' },
          ],
        },
      ],
      { basis: 'buffer' },
    );
    assert.equal(h.transactions.stagedText(ws, 'src/util.ts'), 'export function yell(input: string): string {\n  return input.toLocaleUpperCase();\n}\n');
  });

  it('refuses overlapping replacements in one edit-text call, and a no-op', async () => {
    const { h } = await setup();
    await h.fail(
      'edit-text',
      {
        edits: [
          { location: sel('src/util.ts', 'function shout'), newText: 'a' },
          { location: sel('src/util.ts', 'shout(text'), newText: 'b' },
        ],
      },
      'InvalidRequest',
    );
    await h.fail('edit-text', { edits: [{ location: sel('src/util.ts', 'shout'), newText: 'shout' }] }, 'InvalidRequest');
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined, 'no transaction was left behind by refused stagings');
  });

  it('refuses to stage a file whose bytes the editor cannot read back (not valid in its encoding), naming the file and the encoding', async () => {
    const { h, abs } = await setup();
    h.host.lossyEncodings.set(abs('src/util.ts'), 'utf8');
    const refused = await h.fail('edit-text', { edits: [{ location: sel('src/util.ts', 'shout'), newText: 'yell' }] }, 'InvalidRequest');
    assert.match(refused.error.message, /^src\/util\.ts is not valid utf8, the encoding the editor reads it with/);
    assert.equal(refused.continuation?.kind, 'ResolveExternally');
    await h.fail('delete-file', { document: { path: 'src/util.ts' } }, 'InvalidRequest');
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined, 'nothing staged');
    // Other files stage as before.
    await edit(h, 'src/windows.ts', 'line two', 'line 2');
  });

  it('serializes concurrent mutations: both land, one revision each, in call order', async () => {
    const { h } = await setup();
    h.host.latencyMs = 5;
    const [a, b] = await Promise.all([
      h.call('edit-text', { edits: [{ location: sel('src/util.ts', 'shout'), newText: 'whisperQuietly' }] }),
      h.call('edit-text', { edits: [{ location: sel('src/util.ts', 'toUpperCase'), newText: 'toLowerCase' }] }),
    ]);
    assert.ok(a.envelope.ok && b.envelope.ok);
    const revisions = [a, b].map((r) => (r.envelope.ok ? (r.envelope.data as MutationData).revision.revision : 0)).sort();
    assert.deepEqual(revisions, [1, 2]);
    assert.equal(h.transactions.stagedText(h.registry.all()[0], 'src/util.ts'), UTIL.replace('toUpperCase', 'toLowerCase').replace('shout', 'whisperQuietly'));
  });
});

describe('transactions: files, preview and history', () => {
  it('stages create, move and delete, and previews them with change kinds', async () => {
    const { h } = await setup();
    await h.ok('create-file', { path: 'src/new.ts', text: 'export const n = 1;\n' });
    const moved = await h.ok<
      MutationData & {
        referencesToFix: { items: { document: { path: string }; specifier: string; suggested: string; span: { start: number; length: number } }[] };
      }
    >('move-file', { document: { path: 'src/util.ts' }, newPath: 'src/lib/strings.ts' });
    assert.deepEqual(
      moved.data.documents.items.map((d) => [d.path, d.changeKind, d.previousPath]),
      [['src/lib/strings.ts', 'Renamed', 'src/util.ts']],
    );
    assert.deepEqual(
      moved.data.referencesToFix.items.map((r) => [r.document.path, r.specifier, r.suggested]),
      [['src/main.ts', './util', './lib/strings']],
    );
    const ref = moved.data.referencesToFix.items[0];
    assert.equal(MAIN.slice(ref.span.start, ref.span.start + ref.span.length), './util');
    await h.ok('delete-file', { document: { path: 'src/greeter.ts' } });
    await h.ok('edit-text', { edits: [{ location: { span: { document: { path: 'src/main.ts' }, range: ref.span } }, newText: ref.suggested }] });
    const preview = await h.ok<{ transaction: TransactionState; documents: { document: { path: string }; changeKind: string; preview: object }[] }>(
      'transaction-preview',
      {},
    );
    assert.deepEqual(
      preview.data.documents.map((d) => [d.document.path, d.changeKind, d.preview]),
      [
        ['src/greeter.ts', 'Deleted', { addedLines: 0, removedLines: 5, changedLines: 0 }],
        ['src/lib/strings.ts', 'Renamed', { addedLines: 0, removedLines: 0, changedLines: 0 }],
        ['src/main.ts', 'Modified', { addedLines: 1, removedLines: 1, changedLines: 1 }],
        ['src/new.ts', 'Added', { addedLines: 1, removedLines: 0, changedLines: 0 }],
      ],
    );
    await h.fail('get-code-context', { location: sel('src/util.ts', 'shout'), view: 'staged' }, 'DocumentNotFound');
    await h.ok('get-code-context', { location: sel('src/lib/strings.ts', 'shout'), view: 'staged' });
    const history = await h.ok<{ revisions: { items: { tool: string; summary: string }[] } }>('transaction-history', {});
    assert.deepEqual(
      history.data.revisions.items.map((r) => r.tool),
      ['create-file', 'move-file', 'delete-file', 'edit-text'],
    );
  });

  it("move-file lists the moved file's own relative imports too, at its new path, and edit-text fixes them there", async () => {
    const { h } = await setup();
    type Moved = MutationData & {
      referencesToFix: { items: { document: { path: string }; specifier: string; suggested: string; span: { start: number; length: number } }[] };
    };
    const moved = await h.ok<Moved>('move-file', { document: { path: 'src/main.ts' }, newPath: 'src/app/main.ts' });
    assert.deepEqual(
      moved.data.referencesToFix.items.map((r) => [r.document.path, r.specifier, r.suggested]),
      [
        ['src/app/main.ts', './util', '../util'],
        ['src/app/main.ts', './greeter', '../greeter'],
      ],
    );
    assert.ok(moved.data.notes?.some((n) => /Listed too, at its new path: 2 relative imports in the moved file/.test(n)));
    await h.ok('edit-text', {
      edits: moved.data.referencesToFix.items.map((r) => ({
        location: { span: { document: { path: r.document.path }, range: r.span } },
        newText: r.suggested,
      })),
    });
    assert.equal(
      h.transactions.stagedText(h.registry.all()[0], 'src/app/main.ts'),
      MAIN.replace("'./util'", "'../util'").replace("'./greeter'", "'../greeter'"),
    );
    await h.ok('transaction-rollback', {});
    // Within its folder, its own imports still reach their modules: none listed.
    const renamed = await h.ok<Moved>('move-file', { document: { path: 'src/main.ts' }, newPath: 'src/app.ts' });
    assert.deepEqual(renamed.data.referencesToFix.items, []);
  });

  it('restore puts staged documents back to their base (a person discarding files in the panel)', async () => {
    const { h } = await setup();
    const ws = h.registry.all()[0];
    await edit(h, 'src/util.ts', 'shout', 'yell');
    await h.ok('move-file', { document: { path: 'src/main.ts' }, newPath: 'src/app.ts' });
    await h.ok('delete-file', { document: { path: 'src/greeter.ts' } });
    await h.ok('create-file', { path: 'src/new.ts', text: 'n\n' });
    const restored = await h.transactions.stage(
      undefined,
      ws,
      { tool: 'review-panel', summary: 'Discard all', by: 'person' },
      ['src/util.ts', 'src/app.ts', 'src/greeter.ts', 'src/new.ts'].map((path) => ({ kind: 'restore' as const, path })),
      { basis: 'staged' },
    );
    assert.equal(restored.revision.by, 'person');
    assert.deepEqual(restored.documents.items.map((d) => d.changeKind ?? 'Modified').sort(), ['Deleted', 'Modified', 'Modified', 'Modified']);
    assert.equal(restored.documents.items.filter((d) => 'changeKind' in d).length, 1, 'changeKind is said only when not Modified');
    assert.deepEqual(await h.transactions.preview(ws), []);
    assert.equal(h.transactions.state(h.transactions.active(ws.id))?.canCommit, false);
    await h.ok('transaction-history', { action: 'undo' });
    assert.equal((await h.transactions.preview(ws)).length, 4);
  });

  it('previews unified hunks of one document, truncated to the output bound', async () => {
    const { h, abs } = await setup();
    const diff = await edit(h, 'src/windows.ts', 'two', '2');
    assert.equal(diff.documents.items[0].changedLines, 1);
    const p = await h.ok<{ diff: { hunks: { lines: string[]; originalStartLine: number }[]; truncated: boolean } }>('transaction-preview', {
      document: { path: 'src/windows.ts' },
      includeDiff: true,
      contextLines: 0,
    });
    assert.deepEqual(p.data.diff.hunks, [
      { originalStartLine: 2, originalLineCount: 1, updatedStartLine: 2, updatedLineCount: 1, lines: ['-line two\r', '+line 2\r'] },
    ]);
    assert.equal(p.data.diff.truncated, false);
    // Many hunks and a small output limit: hunks are left out and truncated says so.
    const big = Array.from({ length: 400 }, (_, i) => `row ${i} ${'x'.repeat(80)}`).join('\n') + '\n';
    h.host.writeFile(abs('src/big.txt'), big);
    const edits = Array.from({ length: 40 }, (_, i) => ({ location: sel('src/big.txt', `row ${i * 10} `), newText: `ROW ${i * 10} ` }));
    await h.ok('edit-text', { edits });
    h.setSettings({ defaultMaxOutputBytes: 4096 });
    const small = await h.ok<{ diff: { hunks: unknown[]; truncated: boolean } }>('transaction-preview', {
      document: { path: 'src/big.txt' },
      includeDiff: true,
    });
    assert.equal(small.data.diff.truncated, true);
    assert.ok(small.data.diff.hunks.length > 0 && small.data.diff.hunks.length < 40, `${small.data.diff.hunks.length} hunks`);
    await h.fail('transaction-preview', { includeDiff: true, document: { path: 'src/util.ts' } }, 'DocumentNotFound');
    // Every document's diff under the same limit: cut inside src/big.txt, src/windows.ts left out, and the note says so.
    type Item = { path: string; diff?: string; truncated?: boolean; addedLines?: number; removedLines?: number; changedLines?: number };
    const all = await h.ok<{ diffs: { items: Item[]; hasMore: boolean; totalCount: number }; note: string }>('transaction-preview', { includeDiff: true });
    assert.deepEqual(
      all.data.diffs.items.map((d) => [d.path, d.truncated]),
      [
        ['src/big.txt', true],
        ['src/windows.ts', true],
      ],
    );
    const kept = (all.data.diffs.items[0].diff ?? '').split('\n').filter((l) => l.startsWith('@@')).length;
    assert.ok(kept > 0 && kept < 40, `${kept} hunks`);
    assert.deepEqual(
      all.data.diffs.items[1],
      { path: 'src/windows.ts', truncated: true, addedLines: 1, removedLines: 1, changedLines: 1 },
      'past the limit: listed with its counts, no diff',
    );
    assert.deepEqual([all.data.diffs.hasMore, all.data.diffs.totalCount], [false, 2]);
    assert.match(
      all.data.note,
      /^Whole diffs of 0 of 2 changed documents fit the output limit; src\/big\.txt lost hunks from its end; 1 document listed without its diff\. Ask with document for src\/big\.txt, src\/windows\.ts /,
    );
  });

  it("gives one document's diff the output limit, less that document's entry, however many documents are staged", async () => {
    const { h, abs } = await setup();
    for (let i = 0; i < 60; i++) h.host.writeFile(abs(`src/f${i}.ts`), `export const v${i} = ${i};\n`);
    const big = Array.from({ length: 60 }, (_, i) => `row ${i} ${'x'.repeat(70)}`).join('\n') + '\n';
    h.host.writeFile(abs('src/big.txt'), big);
    await h.ok('edit-text', { edits: Array.from({ length: 60 }, (_, i) => ({ location: sel(`src/f${i}.ts`, `v${i} `), newText: `w${i} ` })) });
    await h.ok('edit-text', { edits: Array.from({ length: 60 }, (_, i) => ({ location: sel('src/big.txt', `row ${i} `), newText: `ROW ${i} ` })) });
    h.setSettings({ defaultMaxOutputBytes: 16_384 });
    const one = await h.ok<{ documents: unknown[]; documentCount: number; diff: { hunks: { lines: string[] }[]; truncated: boolean } }>('transaction-preview', {
      document: { path: 'src/big.txt' },
      includeDiff: true,
      contextLines: 0,
    });
    // About 10 KB of diff beside a list of 61 documents that the answer does not give: it fits.
    assert.deepEqual(
      [one.data.diff.truncated, one.data.diff.hunks.flatMap((x) => x.lines).length, one.data.documents.length, one.data.documentCount],
      [false, 120, 1, 61],
    );
  });

  it('previews the hunks of every changed document in one call when includeDiff names no document', async () => {
    const { h } = await setup();
    await edit(h, 'src/windows.ts', 'two', '2');
    await edit(h, 'src/util.ts', 'toUpperCase', 'toLocaleUpperCase');
    await h.ok('create-file', { path: 'src/new.ts', text: 'export const n = 1;\n' });
    await h.ok('delete-file', { document: { path: 'src/main.ts' } });
    type Diff = { path: string; changeKind?: string; diff?: string; truncated?: boolean; addedLines?: number };
    const all = await h.ok<{
      documents?: unknown;
      documentCount: number;
      diff?: unknown;
      diffs: { items: Diff[]; hasMore: boolean; totalCount: number };
      note?: string;
    }>('transaction-preview', { includeDiff: true, contextLines: 0, format: 'unified' });
    const paths = all.data.diffs.items.map((d) => d.path);
    assert.deepEqual(paths, ['src/main.ts', 'src/new.ts', 'src/util.ts', 'src/windows.ts'], 'one diff per changed document, in path order');
    assert.deepEqual(
      [all.data.diffs.hasMore, all.data.diffs.totalCount, all.data.documentCount, all.data.note, all.data.diff, all.data.documents],
      [false, 4, 4, undefined, undefined, undefined],
    );
    assert.deepEqual(
      all.data.diffs.items.map((d) => d.changeKind),
      ['Deleted', 'Added', undefined, undefined],
      'changeKind said unless Modified',
    );
    // Each is the diff the one-document preview gives, as diff -u prints its hunks.
    for (const d of all.data.diffs.items) {
      const one = await h.ok<{
        documents: { document: { path: string } }[];
        documentCount: number;
        diff: { document: { path: string }; hunks: DiffHunk[]; truncated: boolean };
      }>('transaction-preview', { document: { path: d.path }, includeDiff: true, contextLines: 0 });
      assert.deepEqual(
        { path: d.path, diff: d.diff, truncated: d.truncated, addedLines: d.addedLines },
        { path: one.data.diff.document.path, diff: one.data.diff.hunks.map(hunkText).join('\n'), truncated: undefined, addedLines: undefined },
        d.path,
      );
      assert.deepEqual(
        [one.data.documents.map((x) => x.document.path), one.data.documentCount],
        [[d.path], 4],
        'a one-document preview lists that document, and counts them all',
      );
    }
    assert.equal(
      all.data.diffs.items.find((d) => d.path === 'src/util.ts')?.diff,
      '@@ -2 +2 @@\n-  return text.toUpperCase();\n+  return text.toLocaleUpperCase();',
      'a count of 1 left out, as diff -u does',
    );
    const byPath = new Map(all.data.diffs.items.map((d) => [d.path, (d.diff ?? '').split('\n').filter((l) => !l.startsWith('@@'))]));
    assert.deepEqual(byPath.get('src/new.ts'), ['+export const n = 1;']);
    assert.deepEqual(
      byPath.get('src/main.ts')?.filter((l) => !l.startsWith('-')),
      [],
      'a deleted document: every line removed',
    );
    assert.deepEqual(byPath.get('src/util.ts'), ['-  return text.toUpperCase();', '+  return text.toLocaleUpperCase();']);
    // By default each change is said once, as git diff --word-diff does, with no context lines.
    const words = await h.ok<{ diffs: { items: Diff[] } }>('transaction-preview', { includeDiff: true });
    assert.deepEqual(Object.fromEntries(words.data.diffs.items.filter((d) => d.changeKind === undefined).map((d) => [d.path, d.diff])), {
      'src/util.ts': '@@ -2 +2 @@\n  return text.[-toUpperCase-]{+toLocaleUpperCase+}();',
      'src/windows.ts': '@@ -2 +2 @@\nline [-two-]{+2+}\r',
    });
    assert.equal(words.data.diffs.items.find((d) => d.path === 'src/new.ts')?.diff, '@@ -0,0 +1 @@\n{+export const n = 1;+}');
  });

  it('previews nothing without a transaction, and rollback discards everything', async () => {
    const { h } = await setup();
    const none = await h.ok<{ transaction: null; documents: unknown[] }>('transaction-preview', {});
    assert.deepEqual([none.data.transaction, none.data.documents], [null, []]);
    await h.fail('transaction-rollback', {}, 'NoActiveTransaction');
    const started = await h.ok<{ started: boolean; transaction: TransactionState }>('transaction-start', {});
    assert.equal(started.data.started, true);
    assert.equal(started.data.transaction.canCommit, false);
    assert.equal(started.snapshot.transactionRevision, 0);
    await edit(h, 'src/util.ts', 'shout', 'yell');
    const rolled = await h.ok<{ discardedRevisions: number }>('transaction-rollback', {});
    assert.equal(rolled.data.discardedRevisions, 1);
    assert.equal(rolled.snapshot.transactionRevision, null);
  });
});

describe('transactions: commit', () => {
  it('writes exactly the staged text (CRLF kept), ends the transaction, and records hashes', async () => {
    const { h, abs } = await setup();
    await edit(h, 'src/windows.ts', 'line two', 'line 2');
    await h.ok('create-file', { path: 'src/added.ts', text: 'export {};\n' });
    const committed = await h.ok<{ files: { items: { path: string; beforeHash: string | null; afterHash: string | null }[] }; transaction: TransactionState }>(
      'transaction-commit',
      {},
    );
    assert.equal(h.host.diskText(abs('src/windows.ts')), 'line one\r\nline 2\r\nline three\r\n');
    assert.equal(h.host.diskText(abs('src/added.ts')), 'export {};\n');
    assert.deepEqual(
      committed.data.files.items.find((f) => f.path === 'src/windows.ts'),
      { path: 'src/windows.ts', beforeHash: sha256(CRLF), afterHash: sha256('line one\r\nline 2\r\nline three\r\n') },
    );
    assert.equal(committed.snapshot.transactionRevision, null);
    assert.equal(h.confirmations.length, 1, 'transactional mode asked the person');
    assert.match(h.confirmations[0].summary.message, /Modified `src\/windows.ts` \(\+1 −1\)/);
  });

  it('refuses with TransactionConflicted, naming the file, when it changed in the editor, on disk, or was deleted', async () => {
    for (const change of ['buffer', 'disk', 'deleted'] as const) {
      const { h, abs } = await setup();
      await edit(h, 'src/util.ts', 'shout', 'yell');
      await edit(h, 'src/greeter.ts', 'Hello', 'Hi');
      if (change === 'buffer') h.host.editBuffer(abs('src/greeter.ts'), GREETER + '// typed\n');
      else if (change === 'disk') h.host.writeFile(abs('src/greeter.ts'), GREETER + '// other program\n');
      else h.host.deleteFile(abs('src/greeter.ts'));
      const failed = await h.fail('transaction-commit', {}, 'TransactionConflicted');
      assert.match(failed.error.message, new RegExp(`src/greeter.ts (changed in the editor|changed on disk|was deleted)`));
      assert.equal(failed.continuation?.kind, 'ResolveExternally');
      assert.equal(h.host.diskText(abs('src/util.ts')), UTIL, `${change}: nothing written`);
      assert.equal(h.transactions.active(h.registry.all()[0].id)?.current, 2, `${change}: the transaction is kept`);
    }
  });

  it('leaves every file as it was and keeps the transaction when a multi-file commit fails halfway', async () => {
    for (const phase of ['apply', 'save'] as const) {
      const { h, abs } = await setup();
      await edit(h, 'src/util.ts', 'shout', 'yell');
      await edit(h, 'src/windows.ts', 'two', '2');
      await h.ok('delete-file', { document: { path: 'src/main.ts' } });
      await h.ok('create-file', { path: 'src/z.ts', text: 'z\n' });
      h.host.commitFault = { absPath: abs('src/windows.ts'), phase };
      const failed = await h.fail('transaction-commit', {}, 'CommitFailed');
      assert.match(failed.error.message, /src\/windows.ts/);
      assert.match(failed.error.message, /put back byte for byte/);
      assert.deepEqual(
        ['src/util.ts', 'src/windows.ts', 'src/main.ts', 'src/z.ts'].map((p) => h.host.diskText(abs(p))),
        [UTIL, CRLF, MAIN, undefined],
        `${phase}: every file as before`,
      );
      assert.equal(h.transactions.active(h.registry.all()[0].id)?.current, 4);
      await h.ok('transaction-commit', {});
      assert.equal(h.host.diskText(abs('src/main.ts')), undefined);
    }
  });

  it('a save the editor refused for a reason the person can deal with: the answer names it and tells the agent to hand it to the person', async () => {
    const { h, abs } = await setup();
    await edit(h, 'src/util.ts', 'shout', 'yell');
    const resolution = 'Tell the person src/util.ts is not writable (EACCES); once they make it writable, retry transaction-commit.';
    h.host.commitFault = { absPath: abs('src/util.ts'), phase: 'save', resolution };
    const failed = await h.fail('transaction-commit', {}, 'CommitFailed');
    assert.match(failed.error.message, /src\/util.ts/);
    assert.deepEqual(failed.continuation, { kind: 'ResolveExternally', instruction: resolution });
    assert.equal(h.host.diskText(abs('src/util.ts')), UTIL, 'nothing written');
    await h.ok('transaction-commit', {});
    assert.match(h.host.diskText(abs('src/util.ts')) ?? '', /yell/);
  });

  it('follows the operational modes', async () => {
    const { h, abs } = await setup({ operationalMode: 'approval-required' });
    await edit(h, 'src/util.ts', 'shout', 'yell');
    const refused = await h.fail('transaction-commit', {}, 'TransactionCommitNotApproved');
    assert.equal(refused.continuation?.kind, 'ResolveExternally');
    assert.equal(h.host.diskText(abs('src/util.ts')), UTIL);
    h.setSettings({ operationalMode: 'transactional' });
    h.confirm = () => false;
    await h.fail('transaction-commit', {}, 'TransactionCommitNotApproved');
    h.setSettings({ operationalMode: 'autonomous-trusted' });
    await h.ok('transaction-commit', {});
    assert.equal(h.confirmations.length, 1, 'autonomous-trusted did not ask');
    h.setSettings({ operationalMode: 'inspection-only' });
    await h.fail('edit-text', { edits: [{ location: sel('src/greeter.ts', 'Hello'), newText: 'Hi' }] }, 'SourceMutationDisabled');
    h.setSettings({ operationalMode: 'transactional' });
    h.host.trusted = false;
    await h.fail('create-file', { path: 'a.ts', text: '' }, 'SourceMutationDisabled');
  });

  it('the person commits through the manager in approval-required mode', async () => {
    const { h, abs } = await setup({ operationalMode: 'approval-required' });
    await edit(h, 'src/util.ts', 'shout', 'yell');
    const ws = h.registry.all()[0];
    await h.transactions.commit(undefined, ws, 'person');
    assert.equal(h.host.diskText(abs('src/util.ts')), UTIL.replace('shout', 'yell'));
  });
});

describe('transactions: cancellation and timeouts tell the truth', () => {
  /** A mutation whose body waits before and/or after its point of no return. */
  const slowStage = defineTool({
    name: 'slow-stage',
    title: 'Slow Stage',
    category: 'Mutations',
    ...MUTATION,
    timeoutSeconds: 1,
    description: 'test',
    inputSchema: inputSchema({ before: { type: 'integer' }, after: { type: 'integer' } }, ['before', 'after']),
    dataSchema: mutationDataSchema,
    annotations: mutationAnnotations('Slow'),
    examples: [],
    async run(input, ctx): Promise<MutationData> {
      const ws = ctx.workspace();
      await new Promise((r) => setTimeout(r, input.before));
      return ctx.services.transactions
        .stage(ctx, ws, { tool: 'slow-stage', summary: 'slow' }, [{ kind: 'create', path: `slow-${input.before}-${input.after}.ts`, text: 'x' }], {
          basis: 'staged',
        })
        .then(async (data) => {
          await new Promise((r) => setTimeout(r, input.after));
          return data;
        });
    },
  });

  it('a mutation timed out before its point of no return answers Timeout and stages nothing', async () => {
    const { h } = await setup({}, [...ALL_TOOLS, slowStage]);
    h.validateEnvelopes = false;
    await h.fail('slow-stage', { before: 1300, after: 0 }, 'Timeout');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined, 'the body stopped at its commit point');
  });

  it('a mutation that passed its point of no return answers its real outcome even after the deadline', async () => {
    const { h } = await setup({}, [...ALL_TOOLS, slowStage]);
    h.validateEnvelopes = false;
    const r = await h.ok<MutationData>('slow-stage', { before: 0, after: 1300 });
    assert.equal(r.data.transaction.revision, 1);
    assert.equal(h.transactions.active(h.registry.all()[0].id)?.current, 1);
  });

  it('a cancelled mutation or commit stages or writes nothing; one cancelled after its commit point completes', async () => {
    const { h, abs } = await setup();
    const cancelled = new LinkedCancellation();
    cancelled.cancel();
    await h.fail('edit-text', { edits: [{ location: sel('src/util.ts', 'shout'), newText: 'yell' }] }, 'Cancelled', { token: cancelled });
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined);
    await edit(h, 'src/util.ts', 'shout', 'yell');
    // Cancel while the commit is checking files (before its point of no return).
    const token = new LinkedCancellation();
    h.host.latencyMs = 20;
    const pending = h.call('transaction-commit', {}, { token });
    setTimeout(() => token.cancel(), 5);
    const answer = await pending;
    h.host.latencyMs = 0;
    assert.equal(answer.envelope.ok ? 'ok' : answer.envelope.error.code, 'Cancelled');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.host.diskText(abs('src/util.ts')), UTIL, 'nothing written');
    assert.equal(h.transactions.active(h.registry.all()[0].id)?.current, 1, 'transaction kept');
    // Cancel while the host writes (after the point of no return): the answer is the commit's success.
    const late = new LinkedCancellation();
    h.host.beforeCommitApply = () => late.cancel();
    const done = await h.call('transaction-commit', {}, { token: late });
    assert.ok(done.envelope.ok, JSON.stringify(done.envelope));
    assert.equal(h.host.diskText(abs('src/util.ts')), UTIL.replace('shout', 'yell'));
  });
});

describe('transactions: cancelled at every step', () => {
  for (let delay = 0; delay <= 24; delay += 2) {
    it(`edit-text and transaction-commit cancelled after ${delay} ms answer what happened`, async () => {
      const { h, abs } = await setup();
      const ws = h.registry.all()[0];
      h.host.latencyMs = 1;
      const t1 = new LinkedCancellation();
      setTimeout(() => t1.cancel(), delay);
      const staged = await h.call('edit-text', { edits: [{ location: sel('src/util.ts', 'shout'), newText: 'yell' }] }, { token: t1 });
      await new Promise((r) => setTimeout(r, 30));
      if (staged.envelope.ok) assert.equal(h.transactions.active(ws.id)?.current, 1, 'ok means staged');
      else {
        assert.equal(staged.envelope.error.code, 'Cancelled');
        assert.equal(h.transactions.active(ws.id), undefined, 'Cancelled means nothing staged');
        await edit(h, 'src/util.ts', 'shout', 'yell');
      }
      const t2 = new LinkedCancellation();
      setTimeout(() => t2.cancel(), delay);
      const committed = await h.call('transaction-commit', {}, { token: t2 });
      await new Promise((r) => setTimeout(r, 30));
      if (committed.envelope.ok) {
        assert.equal(h.host.diskText(abs('src/util.ts')), UTIL.replace('shout', 'yell'), 'ok means written');
        assert.equal(h.transactions.active(ws.id), undefined);
      } else {
        assert.equal(committed.envelope.error.code, 'Cancelled');
        assert.equal(h.host.diskText(abs('src/util.ts')), UTIL, 'Cancelled means nothing written');
        assert.equal(h.transactions.active(ws.id)?.current, 1, 'and the transaction kept');
      }
    });
  }
});

describe('transactions: revert of the last commit', () => {
  it('stages the exact inverse (edits, CRLF kept, a create, a delete); committed, the files are as before', async () => {
    const { h, abs } = await setup();
    const before = new Map(['src/util.ts', 'src/windows.ts', 'src/main.ts'].map((p) => [p, h.host.diskText(abs(p))]));
    await edit(h, 'src/util.ts', 'toUpperCase', 'toLowerCase');
    await edit(h, 'src/windows.ts', 'line two', 'line 2');
    await h.ok('create-file', { path: 'src/new.ts', text: 'export {};\n' });
    await h.ok('delete-file', { document: { path: 'src/main.ts' } });
    await h.ok('transaction-commit', {});
    assert.equal(h.host.diskText(abs('src/main.ts')), undefined);
    const staged = await h.ok<MutationData>('transaction-revert', {});
    assert.deepEqual(staged.data.documents.items.map((d) => [d.path, d.changeKind ?? 'Modified']).sort(), [
      ['src/main.ts', 'Added'],
      ['src/new.ts', 'Deleted'],
      ['src/util.ts', 'Modified'],
      ['src/windows.ts', 'Modified'],
    ]);
    assert.equal(h.host.diskText(abs('src/util.ts')), UTIL.replace('toUpperCase', 'toLowerCase'), 'staging wrote nothing');
    await h.ok('transaction-commit', {});
    for (const [p, text] of before) assert.equal(h.host.diskText(abs(p)), text, p);
    assert.equal(h.host.diskText(abs('src/new.ts')), undefined);
  });

  it('refuses, naming the file, once a committed file changed; nothing is staged', async () => {
    const { h, abs } = await setup();
    await edit(h, 'src/util.ts', 'toUpperCase', 'toLowerCase');
    await h.ok('transaction-commit', {});
    h.host.writeFile(abs('src/util.ts'), `${h.host.diskText(abs('src/util.ts'))}// typed by a person\n`);
    const refused = await h.fail('transaction-revert', {}, 'TransactionConflicted');
    assert.match(refused.error.message, /src\/util\.ts was changed on disk since it was committed/);
    assert.equal(h.transactions.active(h.registry.all()[0].id)?.effectiveDocuments().length ?? 0, 0);
  });

  it('a saved buffer the editor kept of a file deleted from disk is no document: a file can be created there again', async () => {
    const { h, abs } = await setup();
    h.host.openDocument(abs('src/util.ts'));
    h.host.deleteFile(abs('src/util.ts'));
    await h.ok('create-file', { path: 'src/util.ts', text: 'export {};\n' });
  });

  it('says there is nothing to revert before any commit, and refuses while other changes are staged', async () => {
    const { h } = await setup();
    await h.fail('transaction-revert', {}, 'NothingToRevert');
    await edit(h, 'src/util.ts', 'toUpperCase', 'toLowerCase');
    await h.ok('transaction-commit', {});
    await edit(h, 'src/main.ts', "'a'", "'b'");
    await h.fail('transaction-revert', {}, 'InvalidRequest');
  });
});

describe('transactions: commit journal', () => {
  it('reports a commit interrupted between apply and save at the next start', async () => {
    let stored: string | undefined;
    const store = { read: async () => stored, write: async (t: string) => void (stored = t) };
    const journal = new CommitJournal(store);
    await journal.begin({
      transactionId: 't1',
      workspaceId: 'w',
      folder: '/f',
      files: [
        {
          kind: 'modify',
          absPath: '/f/a.ts',
          path: 'a.ts',
          text: 'new',
          base: { path: 'a.ts', text: 'old', diskHash: sha256('old'), binary: false, eol: 'LF', languageId: 'typescript' },
        },
      ],
    });
    const next = new CommitJournal(store);
    const report = await next.inspect(async () => Buffer.from('new'));
    assert.equal(report.state, 'failed');
    assert.match(report.detail, /transaction t1 .* interrupted: a.ts: holds the staged text/);
    const third = new CommitJournal(store);
    assert.equal((await third.inspect(async () => undefined)).state, 'clean', 'reported once');
  });
});

describe('transactions: symbol-level edits', () => {
  async function withSymbols(): Promise<{ h: Harness; abs: (p: string) => string; id: (path: string) => string }> {
    const { h, abs } = await setup();
    h.host.setSymbols(
      abs('src/greeter.ts'),
      symbolsIn(GREETER, [
        { name: 'Greeter', kind: 'Class', from: 'export class', children: [{ name: 'greet', kind: 'Method', from: 'greet(', to: '!`;\n  }' }] },
      ]),
    );
    const ws = h.registry.all()[0];
    return { h, abs, id: (path) => `${ws.documentId('src/greeter.ts')}#${path}` };
  }

  it('replaces a body, inserts before and after a symbol, mapped through staged edits', async () => {
    const { h, id } = await withSymbols();
    await edit(h, 'src/greeter.ts', 'class Greeter', 'class Welcomer');
    await h.ok('replace-symbol-body', { symbol: { symbolId: id('Class:Greeter/Method:greet') }, text: '\n    return name;\n  ' });
    await h.ok('insert-before-symbol', { symbol: { symbolId: id('Class:Greeter') }, text: '/** Greets. */' });
    const last = await h.ok<MutationData>('insert-after-symbol', {
      symbol: { symbolId: id('Class:Greeter/Method:greet') },
      text: '\n  bye(): string {\n    return "bye";\n  }',
    });
    assert.equal(last.data.revision.summary, 'Insert After Symbol greet in src/greeter.ts');
    assert.equal(
      h.transactions.stagedText(h.registry.all()[0], 'src/greeter.ts'),
      '/** Greets. */\nexport class Welcomer {\n  greet(name: string): string {\n    return name;\n  }\n\n  bye(): string {\n    return "bye";\n  }\n}\n',
    );
  });

  it('take a symbol by location too, resolved in the editor buffer like the other symbol tools', async () => {
    const { h } = await withSymbols();
    await h.ok('replace-symbol-body', { symbol: { location: sel('src/greeter.ts', 'greet') }, text: 'return name;' });
    assert.equal(
      h.transactions.stagedText(h.registry.all()[0], 'src/greeter.ts'),
      'export class Greeter {\n  greet(name: string): string {\n    return name;\n  }\n}\n',
    );
    // Staged text the buffer does not have is not found: the symbol resolves in the buffer.
    await h.fail('insert-after-symbol', { symbol: { location: sel('src/greeter.ts', 'return name;') }, text: '// x' }, 'LocationNotFound');
    // Nothing else is accepted: the old symbolId field, or both forms at once.
    await h.fail('insert-before-symbol', { symbolId: 'x', text: '// x' }, 'InvalidRequest');
    await h.fail('insert-before-symbol', { symbol: { symbolId: 'x', location: sel('src/greeter.ts', 'greet') }, text: '// x' }, 'InvalidRequest');
  });

  it("re-indent text to the symbol's indentation (one level deeper in a body, its levels in the file's unit) and use the document's line breaks", async () => {
    const { h, abs } = await setup();
    const text = 'export class Tabbed {\r\n\tfirst(): number {\r\n\t\treturn 1;\r\n\t}\r\n\tsecond(): void {}\r\n}\r\n';
    h.host.writeFile(abs('src/tabbed.ts'), text);
    h.host.setSymbols(
      abs('src/tabbed.ts'),
      symbolsIn(text, [
        {
          name: 'Tabbed',
          kind: 'Class',
          from: 'export class',
          children: [
            { name: 'first', kind: 'Method', from: 'first(', to: '\t}' },
            { name: 'second', kind: 'Method', from: 'second(', to: '{}' },
          ],
        },
      ]),
    );
    const ws = h.registry.all()[0];
    const id = (path: string) => ({ symbolId: `${ws.documentId('src/tabbed.ts')}#${path}` });
    // Written at column 0 with \n, or indented by two spaces: both land at the symbol's indentation, relative indentation kept.
    await h.ok('replace-symbol-body', { symbol: id('Class:Tabbed/Method:first'), text: 'const a = 1;\nif (a) {\n  return a;\n}\nreturn 0;' });
    await h.ok('replace-symbol-body', { symbol: id('Class:Tabbed/Method:second'), text: '\n  console.log(1);\n' });
    await h.ok('insert-before-symbol', { symbol: id('Class:Tabbed/Method:second'), text: '  /** Second. */\n' });
    await h.ok('insert-after-symbol', { symbol: id('Class:Tabbed/Method:second'), text: '\nthird(): void {\n  second();\n}\n' });
    assert.equal(
      h.transactions.stagedText(ws, 'src/tabbed.ts'),
      'export class Tabbed {\r\n' +
        // The text's two-space levels become the file's tabs.
        '\tfirst(): number {\r\n\t\tconst a = 1;\r\n\t\tif (a) {\r\n\t\t\treturn a;\r\n\t\t}\r\n\t\treturn 0;\r\n\t}\r\n' +
        '\t/** Second. */\r\n' +
        '\tsecond(): void {\r\n\t\tconsole.log(1);\r\n\t}\r\n' +
        '\r\n\tthird(): void {\r\n\t\tsecond();\r\n\t}\r\n' +
        '}\r\n',
    );
  });

  it('edit a document move-file moved at its new path, by location or by a symbolId of that path, mapped through its staged edits', async () => {
    const { h } = await withSymbols();
    const ws = h.registry.all()[0];
    await h.ok('move-file', { document: { path: 'src/greeter.ts' }, newPath: 'src/welcome/greeter.ts' });
    // An edit of the moved text first, so the staged offsets differ from the buffer's.
    await edit(h, 'src/welcome/greeter.ts', 'export class', '/** Greets. */\nexport class');
    const body = await h.ok<MutationData>('replace-symbol-body', {
      symbol: { location: sel('src/welcome/greeter.ts', 'greet', { contextAfter: '(name' }) },
      text: 'return name;',
    });
    assert.deepEqual(
      body.data.documents.items.map((d) => d.path),
      ['src/welcome/greeter.ts'],
    );
    await h.ok('insert-after-symbol', {
      symbol: { symbolId: `${ws.documentId('src/welcome/greeter.ts')}#Class:Greeter/Method:greet` },
      text: '\nbye(): string {\n  return "bye";\n}',
    });
    assert.equal(
      h.transactions.stagedText(ws, 'src/welcome/greeter.ts'),
      '/** Greets. */\nexport class Greeter {\n  greet(name: string): string {\n    return name;\n  }\n\n  bye(): string {\n    return "bye";\n  }\n}\n',
    );
    assert.equal(h.transactions.stagedText(ws, 'src/greeter.ts'), undefined, 'nothing staged at the old path');
    // Text only the transaction has is not what the language service sees: refused with the reason.
    const refused = await h.fail('insert-before-symbol', { symbol: { location: sel('src/welcome/greeter.ts', 'Greets') }, text: '// x' }, 'LocationNotFound');
    assert.match(refused.error.message, /in text the transaction staged/);
    await h.ok('create-file', { path: 'src/fresh.ts', text: 'export function fresh() {}\n' });
    const fresh = await h.fail('replace-symbol-body', { symbol: { location: sel('src/fresh.ts', 'fresh') }, text: 'return;' }, 'DocumentNotFound');
    assert.match(fresh.error.message, /exists only in the staged transaction; language services analyse it once it is committed/);
  });

  it('a moved document is found at its new path although the editor kept a buffer there of a file since deleted (a move committed, then reverted)', async () => {
    const { h, abs } = await withSymbols();
    h.host.writeFile(abs('src/welcome/greeter.ts'), 'export const stale = 1;\n');
    h.host.openDocument(abs('src/welcome/greeter.ts'));
    h.host.deleteFile(abs('src/welcome/greeter.ts'));
    await h.ok('move-file', { document: { path: 'src/greeter.ts' }, newPath: 'src/welcome/greeter.ts' });
    await h.ok('replace-symbol-body', { symbol: { location: sel('src/welcome/greeter.ts', 'greet', { contextAfter: '(name' }) }, text: 'return name;' });
    assert.match(h.transactions.stagedText(h.registry.all()[0], 'src/welcome/greeter.ts') ?? '', /greet\(name: string\): string \{\n {4}return name;\n {2}\}/);
  });

  it('a file a move will overwrite is, in the buffer view, still the file the language service sees', async () => {
    const { h } = await setup();
    await h.ok('move-file', { document: { path: 'src/main.ts' }, newPath: 'src/util.ts', overwrite: true });
    const context = await h.ok('get-code-context', { location: sel('src/util.ts', 'shout', { contextAfter: '(text' }) });
    assert.match(JSON.stringify(context.data), /toUpperCase/, "util.ts's own text, not main.ts's");
  });

  it('conflicts when the symbol region was already changed by a staged edit', async () => {
    const { h, id } = await withSymbols();
    await edit(h, 'src/greeter.ts', 'Hello', 'Hi');
    const refused = await h.fail('replace-symbol-body', { symbol: { symbolId: id('Class:Greeter/Method:greet') }, text: 'x' }, 'TransactionConflicted');
    assert.equal(refused.continuation?.kind, 'CallTool');
  });
});

describe("a revision's line counts, as its answer lists them", () => {
  const cases: [string, string, Record<string, number>][] = [
    ['a\nb\nc\n', 'a\nB\nc\n', { changedLines: 1 }],
    ['a\nb\nc\n', 'A\nb\nC\n', { changedLines: 2 }],
    ['a\nb\nc\n', 'a\nB\nC\nD\nc\n', { addedLines: 3, changedLines: 1 }],
    ['a\nb\nc\n', 'a\nB\nC\nD\n', { addedLines: 3, changedLines: 2 }],
    ['a\nb\nc\nd\n', 'a\nX\n', { removedLines: 3, changedLines: 1 }],
    ['', 'new\nfile\n', { addedLines: 2 }],
    ['gone\n', '', { removedLines: 1 }],
    ['same\n', 'same\n', {}],
  ];
  it('leaves out counts of 0, and added and removed lines equal to the changed ones; every count reads back', () => {
    for (const [before, after, expected] of cases) {
      const full = lineCounts(before, after);
      const compact = compactCounts(full);
      assert.deepEqual(compact, expected, JSON.stringify([before, after]));
      const changed = compact.changedLines ?? 0;
      assert.deepEqual(
        { addedLines: compact.addedLines ?? changed, removedLines: compact.removedLines ?? changed, changedLines: changed },
        full,
        'read back as the type says',
      );
    }
  });
});
