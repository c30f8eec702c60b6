import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { activateExtension, expectError, expectOk, invoke, workspaceRoot } from './helpers';

describe('a multi-root workspace', function () {
  before(async function () {
    await activateExtension();
  });

  it('lists both folders with distinct stable ids', async function () {
    const list = expectOk<{ workspaces: { items: { alias: string; workspaceId: string }[] } }>(await invoke('workspace-list', {}));
    assert.deepEqual(
      list.data.workspaces.items.map((w) => w.alias),
      ['alpha', 'beta'],
    );
    assert.notEqual(list.data.workspaces.items[0].workspaceId, list.data.workspaces.items[1].workspaceId);
  });

  it('asks which folder when a folder-level tool gets no selector', async function () {
    const failure = expectError(await invoke('workspace-status', {}), 'WorkspaceSelectorRequired');
    assert.match(failure.error.message, /alpha/);
    assert.match(failure.error.message, /beta/);
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    const beta = expectOk<{ workspace: { alias: string }; projects: { items: { path: string }[] } }>(
      await invoke('workspace-status', { workspace: { alias: 'beta' } }),
    );
    assert.equal(beta.data.workspace.alias, 'beta');
    assert.deepEqual(
      beta.data.projects.items.map((p) => p.path),
      ['package.json'],
    );
    expectError(await invoke('workspace-status', { workspace: { alias: 'gamma' } }), 'WorkspaceNotFound');
  });

  it('resolves a path found in one folder, and calls a path found in both ambiguous', async function () {
    const alphaOnly = expectOk<{ location: { documentId: string }; window: { text: string } }>(
      await invoke('get-code-context', { location: { selection: { document: { path: 'alphaOnly.ts' }, selectedText: 'onlyInAlpha' } } }),
    );
    assert.match(alphaOnly.data.location.documentId, /^[0-9a-f]{8}:alphaOnly\.ts$/);
    const failure = expectError(
      await invoke('get-code-context', { location: { selection: { document: { path: 'shared.ts' }, selectedText: 'where' } } }),
      'DocumentAmbiguous',
    );
    const ids = [...failure.error.message.matchAll(/documentId "([^"]+)"/g)].map((m) => m[1]);
    assert.equal(ids.length, 2);
    const beta = expectOk<{ window: { text: string } }>(
      await invoke('get-code-context', { location: { selection: { document: { documentId: ids[1] }, selectedText: 'where' } } }),
    );
    assert.match(beta.data.window.text, /"beta"/);
    const alpha = expectOk<{ window: { text: string } }>(
      await invoke('get-code-context', { location: { selection: { document: { documentId: ids[0] }, selectedText: 'where' } } }),
    );
    assert.match(alpha.data.window.text, /"alpha"/);
  });

  it('lets an absolute path pick its folder, and refuses one outside every folder', async function () {
    const betaShared = path.join(workspaceRoot(1), 'shared.ts');
    const beta = expectOk<{ location: { documentId: string }; window: { text: string } }>(
      await invoke('get-code-context', { location: { selection: { document: { path: betaShared }, selectedText: 'where' } } }),
    );
    assert.match(beta.data.location.documentId, /^[0-9a-f]{8}:shared\.ts$/);
    assert.match(beta.data.window.text, /"beta"/);
    const outside = path.join(path.dirname(workspaceRoot(0)), 'multi.code-workspace');
    const failure = expectError(
      await invoke('get-code-context', { location: { selection: { document: { path: outside }, selectedText: 'folders' } } }),
      'WorkspacePathNotAllowed',
    );
    assert.match(failure.error.message, /^location\.selection\.document\.path: /);
  });
});
