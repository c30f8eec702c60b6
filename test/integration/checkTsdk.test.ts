import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckData } from '../../src/tools/shared/stagedCheck';
import { activateExtension, expectOk, invoke, waitForSymbols } from './helpers';

// Suite check-tsdk: the window starts with a user's typescript.tsdk (scripts/integration.mjs), so
// the editor's TypeScript service runs that version instead of VS Code's bundled one.

describe("transaction-check runs the TypeScript the editor's service runs", function () {
  this.timeout(240_000);

  it("a user's typescript.tsdk answers the check, not VS Code's bundled TypeScript", async () => {
    await activateExtension();
    await waitForSymbols('src/shapes.ts');
    const tsdk = vscode.workspace.getConfiguration('typescript').inspect<string>('tsdk')?.globalValue;
    assert.ok(tsdk, 'the suite sets typescript.tsdk in the user settings');
    const own = (JSON.parse(fs.readFileSync(path.join(tsdk, '..', 'package.json'), 'utf8')) as { version: string }).version;
    const bundledPackage = path.join(vscode.env.appRoot, 'extensions', 'node_modules', 'typescript', 'package.json');
    const bundled = (JSON.parse(fs.readFileSync(bundledPackage, 'utf8')) as { version: string }).version;
    assert.notEqual(own, bundled, 'the user setting names another version than VS Code bundles');
    expectOk(
      await invoke('edit-text', {
        edits: [{ location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'area(): number;' } }, newText: 'area(): string;' }],
      }),
    );
    const d = expectOk<CheckData>(await invoke('transaction-check', {})).data;
    assert.equal(d.typescriptVersion, own, JSON.stringify(d));
    assert.ok(
      (d.introduced?.items ?? []).some((e) => e.path === 'src/circle.ts' && e.severity === 'error'),
      `the same break found: ${JSON.stringify(d.introduced)}`,
    );
    expectOk(await invoke('transaction-rollback', {}));
  });
});
