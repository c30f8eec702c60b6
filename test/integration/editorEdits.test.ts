import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { allEntries, convertWorkspaceEdit } from '../../src/host/semanticEdits';
import { workspaceRoot } from './helpers';

/*
 * Reading a WorkspaceEdit's file operations needs VS Code's internal `_allEntries()`: the public
 * entries() lists text edits only. This fails loudly the day that internal changes shape.
 */
describe('WorkspaceEdit internals the rename and code-action conversion relies on', () => {
  it('_allEntries() lists file operations and text edits in order, with the types the conversion reads', async () => {
    const root = workspaceRoot();
    const a = vscode.Uri.file(path.join(root, 'src', 'a-new.ts'));
    const b = vscode.Uri.file(path.join(root, 'src', 'b-moved.ts'));
    const existing = (await vscode.workspace.findFiles('src/**/*.ts', undefined, 1))[0];
    assert.ok(existing, 'the fixture has a TypeScript file');
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(a, { ignoreIfExists: true });
    edit.insert(existing, new vscode.Position(0, 0), '// x\n');
    edit.renameFile(existing, b, { overwrite: false });
    edit.deleteFile(a, { ignoreIfNotExists: true });
    edit.set(existing, [new vscode.SnippetTextEdit(new vscode.Range(0, 0, 0, 0), new vscode.SnippetString('${1:y}'))]);
    const entries = allEntries(edit);
    assert.ok(
      entries,
      `VS Code ${vscode.version}: WorkspaceEdit._allEntries() is gone or changed shape; file operations of renames and code actions cannot be read (src/host/semanticEdits.ts)`,
    );
    assert.deepEqual(
      entries.map((e) => [e._type, e.from?.fsPath ?? null, e.to?.fsPath ?? null, e.uri?.fsPath ?? null]),
      [
        [1, null, a.fsPath, null],
        [2, null, null, existing.fsPath],
        [1, existing.fsPath, b.fsPath, null],
        [1, a.fsPath, null, null],
        [6, null, null, existing.fsPath],
      ],
    );
    assert.equal(entries[0].options?.ignoreIfExists, true);
    assert.equal(entries[3].options?.ignoreIfNotExists, true);
    const converted = await convertWorkspaceEdit(edit, (p) => Promise.resolve(vscode.workspace.openTextDocument(p)));
    assert.equal(converted.fileOperationsUnread, undefined);
    assert.deepEqual(
      converted.fileOperations.map((o) => o.kind),
      ['create', 'rename', 'delete'],
    );
  });

  it('without the internal list, the conversion keeps the text edits and says file operations were not read', async () => {
    const existing = (await vscode.workspace.findFiles('src/**/*.ts', undefined, 1))[0];
    const edit = new vscode.WorkspaceEdit();
    edit.insert(existing, new vscode.Position(0, 0), '// x\n');
    Object.defineProperty(edit, '_allEntries', { value: undefined });
    const converted = await convertWorkspaceEdit(edit, (p) => Promise.resolve(vscode.workspace.openTextDocument(p)));
    assert.equal(converted.fileOperationsUnread, true);
    assert.deepEqual(
      converted.documents.map((d) => [d.absPath, d.edits.map((e) => e.newText)]),
      [[existing.fsPath, ['// x\n']]],
    );
  });
});
