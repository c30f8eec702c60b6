import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MutationData } from '../../src/core/transactions/types';
import { activateExtension, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

/**
 * @loopback/rest's sources (class, property and parameter decorators): the symbol edits where a
 * declaration starts with its decorators, a rename of a decorated class, the check, commit and
 * revert, in the real VS Code.
 */
const FILE = 'src/validation/ajv-factory.provider.ts';
const abs = (p: string): string => path.join(workspaceRoot(), ...p.split('/'));
const at = (selectedText: string, contextBefore: string) => ({ location: { selection: { document: { path: FILE }, selectedText, contextBefore } } });

describe('a real code base with decorators: @loopback/rest', function () {
  this.timeout(300_000);

  before(async () => {
    await activateExtension();
    await vscode.workspace.getConfiguration('agentWorkbench').update('operationalMode', 'autonomous-trusted', vscode.ConfigurationTarget.Global);
    await waitForSymbols(FILE);
  });

  after(async () => {
    await invoke('transaction-rollback', {});
    await vscode.workspace.getConfiguration('agentWorkbench').update('operationalMode', undefined, vscode.ConfigurationTarget.Global);
  });

  it('inserts above a decorated property and a decorated class, replaces a method body, renames the class; checked, committed, reverted', async () => {
    const original = fs.readFileSync(abs(FILE), 'utf8');
    const users = ['src/rest.component.ts', 'src/validation/request-body.validator.ts'].map((p) => [p, fs.readFileSync(abs(p), 'utf8')] as const);
    expectOk(await invoke('insert-before-symbol', { symbol: at('formats', 'private '), text: '/** Formats registered under RestTags.AJV_FORMAT. */' }));
    expectOk(await invoke('insert-before-symbol', { symbol: at('AjvFactoryProvider', 'export class '), text: '// The AJV factory.' }));
    expectOk(await invoke('replace-symbol-body', { symbol: at('value', '  '), text: 'return options => new AjvCtor({...this.options, ...options});' }));
    const renamed = expectOk<MutationData>(await invoke('rename-symbol', { symbol: at('AjvFactoryProvider', 'export class '), newName: 'AjvProvider' })).data;
    assert.equal(renamed.documents.totalCount, 3, JSON.stringify(renamed.documents));

    const check = expectOk<{ introduced: { totalCount: number } }>(await invoke('transaction-check', {})).data;
    assert.equal(check.introduced.totalCount, 0, `no new error: ${JSON.stringify(check)}`);
    const committed = await invoke('transaction-commit', {});
    assert.ok(committed.ok, JSON.stringify(committed).slice(0, 600));

    const text = fs.readFileSync(abs(FILE), 'utf8');
    // Each insert lands above the declaration's decorators, at their indentation.
    assert.match(text, /\n\/\/ The AJV factory\.\n@injectable\(\{scope: BindingScope\.SINGLETON\}\)\nexport class AjvProvider implements/);
    assert.match(
      text,
      /\n {2}\/\*\* Formats registered under RestTags\.AJV_FORMAT\. \*\/\n {2}@inject\(filterByTag\(RestTags\.AJV_FORMAT\)\)\n {2}private formats: AjvFormat\[\];/,
    );
    assert.match(text, /\n {2}value\(\): AjvFactory \{\n {4}return options => new AjvCtor\(\{\.\.\.this\.options, \.\.\.options\}\);\n {2}\}\n/);
    for (const [p, was] of users) assert.equal(fs.readFileSync(abs(p), 'utf8'), was.replace(/\bAjvFactoryProvider\b/g, 'AjvProvider'), p);

    expectOk(await invoke('transaction-revert', {}));
    const reverted = await invoke('transaction-commit', {});
    assert.ok(reverted.ok, JSON.stringify(reverted).slice(0, 600));
    assert.equal(fs.readFileSync(abs(FILE), 'utf8'), original);
    for (const [p, was] of users) assert.equal(fs.readFileSync(abs(p), 'utf8'), was, p);
  });
});
