import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../../src/core/chain/envelope';
import type { StagedDiagnostic } from '../../src/core/transactions/check';
import type { CheckData } from '../../src/tools/shared/stagedCheck';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines, lineReferences } from '../../src/tools/references';
import { activateExtension, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

/**
 * effect 4.1.5's sources (625 files, 560,000 lines; src/Effect.ts alone 28,773 lines and 911 KB):
 * answers larger than a page. Every page an agent is given holds something, fits the output limit,
 * and says how to go on; the pages of a list together are all of it.
 */
const LIMIT = 65_536;
const bytes = (e: Envelope) => Buffer.byteLength(JSON.stringify(e));

/** Every collection in an answer: a cut one must hold items, or the agent is handed nothing to act on. */
function emptyCutLists(value: unknown, at = 'data'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => emptyCutLists(v, `${at}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const o = value as Record<string, unknown>;
  const own = Array.isArray(o.items) && o.hasMore === true && o.items.length === 0 ? [at] : [];
  return [...own, ...Object.entries(o).flatMap(([k, v]) => emptyCutLists(v, `${at}.${k}`))];
}

const sel = (path: string, selectedText: string, contextBefore?: string) => ({
  location: { selection: { document: { path }, selectedText, ...(contextBefore === undefined ? {} : { contextBefore }) } },
});

describe('a large real code base: effect, answers larger than a page', function () {
  this.timeout(600_000);

  before(async () => {
    await activateExtension();
    await waitForSymbols('src/Effect.ts');
  });

  it('find-references of Effect (thousands in one file): every page holds references and fits; the pages together are all of them', async () => {
    const symbol = { name: 'Effect', path: 'src/Effect.ts', kind: 'Interface' };
    let cursor: string | undefined;
    let listed = 0;
    let pages = 0;
    let total = 0;
    do {
      const e = await invoke('find-references', { symbol, referencesLimit: 1000, ...(cursor ? { cursor } : {}) });
      const d = expectOk<ReferencesData>(e).data;
      assert.ok(bytes(e) <= LIMIT, `page ${pages + 1}: ${bytes(e)} B`);
      const n = d.documents.items.reduce((sum, doc) => sum + decodeLines(doc).reduce((k, l) => k + lineReferences(l).length, 0), 0);
      assert.ok(n > 0, `page ${pages + 1} lists references`);
      listed += n;
      total = d.totalReferences;
      cursor = (d.documents as { cursor?: string }).cursor;
      assert.equal(d.documents.hasMore, cursor !== undefined, 'a cursor exactly when references are left');
      pages++;
    } while (cursor && pages < 60);
    assert.equal(cursor, undefined, `${pages} pages did not reach the end (${listed} of ${total})`);
    assert.equal(listed, total);
    // Asked after the tool's pages: the tool waits until the service has loaded the project, the raw provider does not.
    const raw =
      (await vscode.commands.executeCommand<vscode.Location[]>(
        'vscode.executeReferenceProvider',
        ...(await rawPosition('src/Effect.ts', 'export interface Effect<')),
      )) ?? [];
    assert.equal(total, raw.length, 'as many as the raw provider');
    console.log(`      ${total} references of Effect in ${pages} pages`);
  });

  it('outline, search, API surface, members and callers three levels up of dual: each fits, and a cut list holds items and a cursor', async () => {
    const calls: [string, unknown][] = [
      ['get-document-outline', { document: { path: 'src/Effect.ts' }, symbolsLimit: 1000 }],
      ['search-symbols', { query: 'Effect', symbolsLimit: 1000 }],
      ['get-api-surface', { document: { path: 'src/Effect.ts' }, symbolsLimit: 1000 }],
      ['get-symbol-members', { symbol: { name: 'Effect', path: 'src/Effect.ts', kind: 'Interface' }, membersLimit: 1000 }],
      ['find-callers', { symbol: sel('src/Function.ts', 'dual', 'export const '), depth: 3, callersLimit: 1000 }],
      ['find-references', { symbol: sel('src/Function.ts', 'dual', 'export const '), referencesLimit: 1000, residue: true }],
    ];
    for (const [tool, input] of calls) {
      const e = await invoke(tool, input);
      const d = expectOk<Record<string, unknown>>(e).data;
      assert.ok(bytes(e) <= LIMIT, `${tool}: ${bytes(e)} B`);
      assert.deepEqual(emptyCutLists(d), [], `${tool}: a list cut to nothing`);
      console.log(`      ${tool}: ${bytes(e)} B`);
    }
  });
});

describe('effect: large answers of the other tools, and a rename of 1,568 references reviewed', function () {
  this.timeout(600_000);

  after(async () => {
    await invoke('transaction-rollback', {});
  });

  it('overloads, hover, context, implementations, hierarchy, derived types of Pipeable (most of effect), diagnostics, callees; a rename of dual and its previews: each answers within the limit, no cut list empty', async () => {
    const effect = { name: 'Effect', path: 'src/Effect.ts', kind: 'Interface' };
    const calls: [string, unknown][] = [
      ['find-overloads', { symbol: { name: 'pipe', path: 'src/Function.ts', overload: 20 }, overloadsLimit: 1000 }],
      ['get-symbol-info', { symbol: { name: 'pipe', path: 'src/Function.ts', overload: 20 } }],
      ['get-code-context', { location: sel('src/Effect.ts', 'Effect<out A', 'export interface ').location, contextLines: 500 }],
      ['find-implementations', { symbol: effect }],
      ['get-type-hierarchy', { symbol: effect }],
      // Every Effect type derives from Pipeable: the walk takes longer than a call may run, and answers what it found.
      ['find-derived-types', { symbol: { name: 'Pipeable', path: 'src/Pipeable.ts', kind: 'Interface' }, typesLimit: 1000 }],
      ['get-diagnostics', { documents: [{ path: 'src/Effect.ts' }] }],
      ['find-callees', { symbol: { name: 'dual', path: 'src/Function.ts' }, depth: 3 }],
      ['rename-symbol', { symbol: { name: 'dual', path: 'src/Function.ts' }, newName: 'dualRenamed', includeDiff: true }],
      ['transaction-preview', { includeDiff: true }],
      ['transaction-preview', {}],
      ['transaction-preview', { document: { path: 'src/Effect.ts' }, includeDiff: true }],
      ['get-code-context', { location: sel('src/Effect.ts', 'Effect<out A', 'export interface ').location, view: 'staged' }],
    ];
    for (const [tool, input] of calls) {
      const e = await invoke(tool, input);
      const d = expectOk<Record<string, unknown>>(e).data;
      assert.ok(bytes(e) <= LIMIT, `${tool}: ${bytes(e)} B`);
      assert.deepEqual(emptyCutLists(d), [], `${tool}: a list cut to nothing`);
      console.log(`      ${tool}: ${bytes(e)} B${d.complete === false ? ` (partial: ${String(d.note)})` : ''}`);
    }
  });
});

async function rawPosition(path: string, text: string): Promise<[vscode.Uri, vscode.Position]> {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, path);
  const doc = await vscode.workspace.openTextDocument(uri);
  const offset = doc.getText().indexOf(text) + text.indexOf('Effect');
  return [uri, doc.positionAt(offset)];
}

describe('effect: the pre-commit check of a broken declaration half the code base uses', function () {
  this.timeout(900_000);

  after(async () => {
    await invoke('transaction-rollback', {});
  });

  it('a one-line break of Predicate.hasProperty: an error in every file that uses it and nowhere else, complete; a re-check after another edit agrees', async () => {
    await invoke('transaction-rollback', {});
    const declaration = 'export const hasProperty: {';
    const predicate = fs.readFileSync(path.join(workspaceRoot(), 'src', 'Predicate.ts'), 'utf8');
    assert.ok(predicate.includes(declaration), 'the declaration this test breaks');
    expectOk(
      await invoke('edit-text', {
        edits: [{ ...sel('src/Predicate.ts', declaration), newText: 'export const hasPropertyBroken: {' }],
      }),
    );
    /** Every introduced error, read page by page; a time limit (a slow machine's first check reads and binds all 625 files) is asked again: the check goes on from what it computed. */
    const checkAll = async (): Promise<{ errors: StagedDiagnostic[]; checked: number; tries: number }> => {
      for (let tries = 1; ; tries++) {
        const first = expectOk<CheckData>(await invoke('transaction-check', { diagnosticsLimit: 1000 })).data;
        assert.equal(first.state, 'checked', JSON.stringify(first).slice(0, 500));
        if (first.complete !== true) {
          assert.deepEqual(first.incomplete, ['time-limit'], JSON.stringify(first).slice(0, 500));
          assert.ok(tries < 4, 'complete within four checks');
          continue;
        }
        const errors = [...(first.introduced?.items ?? [])];
        let cursor = (first.introduced as { cursor?: string } | undefined)?.cursor;
        while (cursor) {
          const next = expectOk<CheckData>(await invoke('transaction-check', { diagnosticsLimit: 1000, cursor })).data;
          errors.push(...(next.introduced?.items ?? []));
          cursor = (next.introduced as { cursor?: string } | undefined)?.cursor;
        }
        return { errors: errors.filter((e) => e.severity === 'error'), checked: first.checkedDocuments ?? 0, tries };
      }
    };
    const started = Date.now();
    const first = await checkAll();
    console.log(`      first check: ${first.errors.length} errors, ${first.checked} documents, ${first.tries} call(s), ${Date.now() - started} ms`);
    const users = new Set(
      fs
        .readdirSync(path.join(workspaceRoot(), 'src'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .filter((f) => /\bhasProperty\b/.test(fs.readFileSync(path.join(workspaceRoot(), 'src', f), 'utf8')))
        .map((f) => `src/${f.split(path.sep).join('/')}`),
    );
    const withErrors = new Set(first.errors.map((e) => e.path));
    assert.deepEqual(
      [...users].filter((u) => !withErrors.has(u)),
      [],
      'every file that uses hasProperty (Predicate.ts too) has an error',
    );
    assert.deepEqual(
      [...withErrors].filter((p) => !users.has(p)),
      [],
      'no error where hasProperty is not used',
    );
    // Another edit (a comment in a file everything imports): answered from what the first check computed, the same errors.
    expectOk(
      await invoke('edit-text', {
        edits: [{ ...sel('src/Function.ts', 'export const dual: {'), newText: '// checked again\nexport const dual: {' }],
      }),
    );
    const again = await checkAll();
    assert.equal(again.tries, 1);
    assert.deepEqual(again.errors.map((e) => `${e.path} TS${e.code}`).sort(), first.errors.map((e) => `${e.path} TS${e.code}`).sort());
  });
});
