import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines, lineReferences } from '../../src/tools/references';
import { activateExtension, invoke } from './helpers';

/*
 * A list of more than 1,000 references walked by cursor in the real VS Code: a generated
 * workspace (scripts/synthetic-workspace.mjs) whose Entity class has an exact reference count.
 */

interface Generated {
  entityReferences: number;
  entityPath: string;
}

const generated = JSON.parse(process.env.AW_GENERATED ?? 'null') as Generated | null;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Page = ReferencesData & { documents: { cursor?: string } };

describe('cursor: find-references on a symbol with more than 1,000 references, page by page', function () {
  this.timeout(300_000);
  const entity = () => ({
    symbol: { location: { selection: { document: { path: generated?.entityPath ?? '' }, selectedText: 'Entity', contextBefore: 'export class ' } } },
  });
  const page = async (input: Record<string, unknown>): Promise<Page> => {
    const envelope = await invoke('find-references', { ...entity(), ...input });
    assert.ok(envelope.ok, JSON.stringify(envelope).slice(0, 1000));
    return envelope.data as Page;
  };
  /** Each listed reference as path:line, the way the raw provider's locations can be said without opening their documents. */
  const lines = (d: ReferencesData) =>
    d.documents.items.flatMap((doc) => decodeLines(doc).flatMap((l) => lineReferences(l).map(() => `${doc.path}:${l.line}`)));

  before(async function () {
    assert.ok(generated, 'AW_GENERATED describes the generated workspace (scripts/integration.mjs)');
    assert.ok(generated.entityReferences > 1000);
    await activateExtension();
    // Until TypeScript has loaded the project, the answer says complete: false.
    for (const started = Date.now(); ; await sleep(1000)) {
      const d = await page({ referencesLimit: 0 });
      if (d.complete && d.totalReferences === generated.entityReferences) break;
      assert.ok(Date.now() - started < 180_000, `still ${d.totalReferences} references, complete ${d.complete}`);
    }
  });

  it('the pages together are every reference the provider gives, none twice, none missing', async function () {
    assert.ok(generated);
    const listed: string[] = [];
    const offsets = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const d = await page({ referencesLimit: 1000, ...(cursor ? { cursor } : {}) });
      pages++;
      assert.equal(d.totalReferences, generated.entityReferences);
      listed.push(...lines(d));
      for (const doc of d.documents.items) {
        for (const l of decodeLines(doc)) for (const o of lineReferences(l)) offsets.add(`${doc.path}:${o}`);
      }
      assert.equal(d.documents.hasMore, d.documents.cursor !== undefined, 'a cursor exactly when references were left out');
      cursor = d.documents.cursor;
      assert.ok(pages < 100, 'the walk ends');
    } while (cursor);
    assert.ok(pages >= 2, `${pages} pages`);
    assert.equal(listed.length, generated.entityReferences);
    assert.equal(offsets.size, generated.entityReferences, 'no reference twice');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const raw =
      (await vscode.commands.executeCommand<vscode.Location[]>(
        'vscode.executeReferenceProvider',
        vscode.Uri.joinPath(folder.uri, generated.entityPath),
        await entityPosition(folder.uri),
      )) ?? [];
    const expected = raw.map((l) => `${vscode.workspace.asRelativePath(l.uri, false)}:${l.range.start.line + 1}`);
    assert.equal(expected.length, generated.entityReferences);
    assert.deepEqual([...listed].sort(), [...expected].sort());
  });

  it('editing a referencing file makes an earlier cursor stale (SnapshotMismatch)', async function () {
    const first = await page({});
    const cursor = first.documents.cursor;
    assert.ok(cursor, 'the first 50 references leave more');
    const next = await page({ cursor });
    assert.notEqual(lines(next)[0], undefined, 'the cursor works before the edit');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const last = first.documents.items.at(-1);
    assert.ok(last);
    const uri = vscode.Uri.joinPath(folder.uri, last.path);
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), '// edited\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const stale = await invoke('find-references', { ...entity(), cursor });
      assert.equal(stale.ok, false, JSON.stringify(stale).slice(0, 500));
      if (stale.ok) return;
      assert.equal(stale.error.code, 'SnapshotMismatch');
      assert.equal(stale.continuation?.kind, 'ReviseRequest');
    } finally {
      const undo = new vscode.WorkspaceEdit();
      undo.delete(uri, new vscode.Range(0, 0, 1, 0));
      await vscode.workspace.applyEdit(undo);
      await doc.save();
    }
  });
});

async function entityPosition(folder: vscode.Uri): Promise<vscode.Position> {
  assert.ok(generated);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, generated.entityPath));
  return doc.positionAt(doc.getText().indexOf('Entity', doc.getText().indexOf('export class')));
}
