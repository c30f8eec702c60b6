import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MutationData } from '../../src/core/transactions/types';
import type { ReferencesData } from '../../src/tools/references';
import { activateExtension, askAsAnAgent, invoke, workspaceRoot } from './helpers';

/*
 * A rename and a find-references as the very first calls in a window just opened on a generated
 * workspace of 4,000 modules (scripts/synthetic-workspace.mjs, counts known exactly): no document
 * is open, so the TypeScript extension has not even activated, and its providers are not
 * registered yet. A window in that state must not be taken for a language without workspace
 * symbol search: the rename waits, or refuses with LanguageServiceStarting, and stages nothing but
 * the whole rename; the references are every one, or say they are partial, or refuse.
 */

const TYPESCRIPT = 'vscode.typescript-language-features';
const generated = JSON.parse(process.env.AW_GENERATED ?? 'null') as { entityPath: string; entityReferences: number; channelFiles: number } | null;
const RENAMED_WITHIN_MS = 150_000;

describe('coldstart-rename: the first call of a cold window is a rename', function () {
  this.timeout(RENAMED_WITHIN_MS + 60_000);
  const figures: Record<string, unknown> = {};
  after(() => console.log(`      [coldstart-rename] ${JSON.stringify(figures)}`));

  it("stages every file that uses Channel, or refuses with LanguageServiceStarting and stages nothing; never a rename or references from the open file's service", async function () {
    assert.ok(generated, 'AW_GENERATED describes the generated workspace (scripts/integration.mjs)');
    await activateExtension();
    const root = workspaceRoot();
    // What a rename of Channel must change, read from the files themselves.
    const expected = fs
      .readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && /\bChannel\b/.test(fs.readFileSync(path.join(root, 'src', f), 'utf8'))).length;
    assert.equal(expected, generated.channelFiles, 'the files that use Channel');
    const rename = {
      symbol: { location: { selection: { document: { path: 'src/model/channel.ts' }, selectedText: 'Channel', contextBefore: 'export class ' } } },
      newName: 'Conduit',
    };
    figures.typescriptActiveWhenAsked = vscode.extensions.getExtension(TYPESCRIPT)?.isActive ?? null;
    assert.equal(figures.typescriptActiveWhenAsked, false, 'the rename is asked before the TypeScript extension activated');
    const references = {
      symbol: { location: { selection: { document: { path: generated.entityPath }, selectedText: 'Entity', contextBefore: 'export class ' } } },
      referencesLimit: 1,
    };
    const asked = Date.now();
    const [cold, refs] = await Promise.all([invoke('rename-symbol', rename), invoke('find-references', references)]);
    figures.cold = cold.ok
      ? { ok: true, documents: (cold.data as MutationData).documents.totalCount, inMs: Date.now() - asked }
      : { code: cold.error.code, inMs: Date.now() - asked };
    if (refs.ok) {
      const data = refs.data as ReferencesData;
      figures.references = { complete: data.complete ?? true, total: data.totalReferences };
      if (data.complete === false) assert.match(data.note ?? '', /Ask again/);
      else assert.equal(data.totalReferences, generated.entityReferences, 'a complete answer counts every reference');
    } else {
      figures.references = { code: refs.error.code };
      assert.equal(refs.error.code, 'LanguageServiceStarting', JSON.stringify(refs).slice(0, 600));
    }
    if (cold.ok) {
      assert.equal((cold.data as MutationData).documents.totalCount, expected, 'a rename staged at once covers every file');
    } else {
      assert.equal(cold.error.code, 'LanguageServiceStarting', JSON.stringify(cold).slice(0, 600));
      assert.equal(cold.continuation?.kind, 'RetryRequest');
      const preview = await invoke('transaction-preview', {});
      assert.ok(preview.ok);
      assert.equal((preview.data as { transaction: unknown }).transaction, null, 'nothing was staged');
      const retries: Record<string, number> = {};
      const staged = await askAsAnAgent('rename-symbol', rename, asked + RENAMED_WITHIN_MS, retries);
      figures.retries = retries['rename-symbol'] ?? 0;
      figures.stagedAtMs = Date.now() - asked;
      assert.ok(staged.ok, JSON.stringify(staged).slice(0, 600));
      assert.equal((staged.data as MutationData).documents.totalCount, expected, 'the rename covers every file');
    }
    const rollback = await invoke('transaction-rollback', {});
    assert.ok(rollback.ok, JSON.stringify(rollback).slice(0, 300));
  });
});
