import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Envelope } from '../../src/core/chain/envelope';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines, lineReferences } from '../../src/tools/references';
import { activateExtension, expectOk, invoke, waitForSymbols } from './helpers';

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

const sel = (path: string, selectedText: string, contextBefore: string) => ({ location: { selection: { document: { path }, selectedText, contextBefore } } });

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
