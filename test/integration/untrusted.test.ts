import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, expectOk, invoke } from './helpers';

describe('an untrusted workspace', function () {
  before(async function () {
    await activateExtension();
  });

  it('is inspection-only whatever the setting says', async function () {
    assert.equal(vscode.workspace.isTrusted, false);
    const status = expectOk<{ operationalMode: string; effectiveMode: string; trusted: boolean }>(await invoke('server-status', {}));
    assert.equal(status.data.trusted, false);
    assert.equal(status.data.operationalMode, 'transactional');
    assert.equal(status.data.effectiveMode, 'inspection-only');
  });

  it('still answers queries', async function () {
    const context = expectOk<{ location: { line: number } }>(
      await invoke('get-code-context', { location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatName' } } }),
    );
    assert.equal(context.data.location.line, 1);
  });
});
