import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines } from '../../src/tools/references';
import { activateExtension, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

/*
 * find-references' write offsets on src/access.ts of the navigation fixture: a field read by
 * destructuring (which TypeScript's highlights call a write: the shorthand declares a local),
 * written by assignments, ++/--, delete, destructuring targets and object literals.
 */

const FILE = 'src/access.ts';
const uri = () => vscode.Uri.file(path.join(workspaceRoot(), FILE));

type Access = 'decl' | 'write' | 'at' | 'import';

/** Every reference in the document as [offset, access], in position order. */
function accesses(data: ReferencesData): [number, Access][] {
  const doc = data.documents.items.find((d) => d.path === FILE);
  assert.ok(doc, `${FILE} has references`);
  const out: [number, Access][] = [];
  for (const l of decodeLines(doc)) for (const access of ['decl', 'write', 'at', 'import'] as const) for (const at of l[access] ?? []) out.push([at, access]);
  return out.sort((a, b) => a[0] - b[0]);
}

/** The offset of the nth (0-based) `name` on a one-based line. */
function offsetOn(doc: vscode.TextDocument, line: number, name: string, nth = 0): number {
  const text = doc.lineAt(line - 1).text;
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(name, at + 1);
  assert.ok(at >= 0, `${name} #${nth} on line ${line}`);
  return doc.offsetAt(new vscode.Position(line - 1, at));
}

async function rawReferences(doc: vscode.TextDocument, offset: number): Promise<number[]> {
  const raw = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', doc.uri, doc.positionAt(offset))) ?? [];
  return raw
    .filter((l) => l.uri.fsPath === doc.uri.fsPath)
    .map((l) => doc.offsetAt(l.range.start))
    .sort((a, b) => a - b);
}

const at = (selectedText: string, contextBefore: string, contextAfter: string) => ({
  symbol: { location: { selection: { document: { path: FILE }, selectedText, contextBefore, contextAfter } } },
  referencesLimit: 100,
});

describe('find-references: reads and writes told apart (src/access.ts)', function () {
  let doc: vscode.TextDocument;
  before(async function () {
    await activateExtension();
    await waitForSymbols(FILE);
    doc = await vscode.workspace.openTextDocument(uri());
  });

  it('a field destructured is read, not written; assignments, ++/--, destructuring targets and object literals write it', async function () {
    const answer = expectOk<ReferencesData>(await invoke('find-references', at('count', '  ', ' = 0;')));
    const expected: [number, number, Access][] = [
      [3, 0, 'decl'],
      // const { count } = this; (rxjs's `const { _finalizers } = this;`): TypeScript highlights it as a write.
      [7, 0, 'at'],
      [13, 0, 'at'],
      [14, 0, 'at'],
      [15, 0, 'at'],
      [16, 0, 'at'],
      [17, 0, 'at'],
      [18, 0, 'at'],
      [20, 0, 'at'],
      [31, 1, 'at'],
      [35, 0, 'write'],
      [36, 0, 'write'],
      [37, 0, 'write'],
      [38, 0, 'write'],
      [39, 0, 'write'],
      [40, 0, 'write'],
      [41, 0, 'write'],
      [43, 1, 'at'],
      [44, 0, 'write'],
      [45, 0, 'write'],
      [45, 1, 'at'],
    ];
    assert.deepEqual(
      accesses(answer.data),
      expected.map(([line, nth, access]) => [offsetOn(doc, line, 'count', nth), access]),
    );
    // TypeScript lists no destructuring assignment (lines 25 and 28) among the field's references: parity with the raw provider.
    assert.deepEqual(
      accesses(answer.data).map(([offset]) => offset),
      await rawReferences(doc, offsetOn(doc, 3, 'count')),
    );
  });

  it('delete writes the field it removes', async function () {
    const answer = expectOk<ReferencesData>(await invoke('find-references', at('label', '  ', '?: string;')));
    assert.deepEqual(accesses(answer.data), [
      [offsetOn(doc, 4, 'label'), 'decl'],
      [offsetOn(doc, 42, 'label'), 'write'],
    ]);
  });

  it('a shorthand in an object literal reads a variable of that name (TypeScript highlights it as a write)', async function () {
    const answer = expectOk<ReferencesData>(await invoke('find-references', at('count', '  const ', ' = tally.count;')));
    assert.deepEqual(accesses(answer.data), [
      [offsetOn(doc, 43, 'count'), 'decl'],
      [offsetOn(doc, 45, 'count'), 'at'],
    ]);
  });
});
