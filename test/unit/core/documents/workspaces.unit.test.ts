import * as assert from 'node:assert/strict';
import { ToolError } from '../../../../src/core/chain/envelope';
import { projectKindOf, WorkspaceRegistry } from '../../../../src/core/documents/workspaces';
import { FakeHost } from '../../support/fakeHost';
import { MemoryStore } from '../../support/harness';

async function registry(host: FakeHost, store = new MemoryStore()): Promise<WorkspaceRegistry> {
  const r = new WorkspaceRegistry(host, store);
  await r.sync();
  return r;
}

function refused(fn: () => unknown, code: string): ToolError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ToolError, String(e));
    assert.equal(e.code, code);
    return e;
  }
  assert.fail(`expected ${code}`);
}

describe('workspaces: folders, selectors, projects', () => {
  it('ids are stable across sessions; the epoch grows each time a folder is first seen in a session', async () => {
    const host = new FakeHost();
    host.addFolder('app');
    const store = new MemoryStore();
    const first = (await registry(host, store)).all()[0];
    const second = (await registry(host, store)).all()[0];
    assert.equal(second.id, first.id);
    assert.equal(first.snapshot().workspaceEpoch, 1);
    assert.equal(second.snapshot().workspaceEpoch, 2);
    assert.equal(first.documentId('src/a.ts'), `${first.id.slice(0, 8)}:src/a.ts`);
  });

  it('resolves a selector by alias, id or path; one folder needs none; several need one', async () => {
    const host = new FakeHost();
    const a = host.addFolder('app');
    const r1 = await registry(host);
    assert.equal(r1.resolve(undefined).alias, 'app');
    host.addFolder('lib');
    const r = await registry(host);
    const e = refused(() => r.resolve(undefined), 'WorkspaceSelectorRequired');
    assert.match(e.message, /app.*lib|lib.*app/);
    assert.equal(r.resolve({ alias: 'lib' }).alias, 'lib');
    assert.equal(r.resolve({ path: a.fsPath }).alias, 'app');
    assert.equal(r.resolve({ workspaceId: r.all()[1].id }).alias, 'lib');
    refused(() => r.resolve({ alias: 'nope' }), 'WorkspaceNotFound');
  });

  it('two folders with one name get aliases by index; the deepest folder contains a nested path', async () => {
    const host = new FakeHost();
    host.addFolder('app', {}, '/tmp/aw-ws/one/app');
    host.addFolder('app', {}, '/tmp/aw-ws/two/app');
    host.addFolder('inner', {}, '/tmp/aw-ws/two/app/packages/inner');
    const r = await registry(host);
    assert.deepEqual(
      r.all().map((w) => w.alias),
      ['app#0', 'app#1', 'inner'],
    );
    assert.equal(r.containing('/tmp/aw-ws/two/app/packages/inner/src/x.ts')?.alias, 'inner');
    assert.equal(r.containing('/tmp/aw-ws/two/app/src/x.ts')?.alias, 'app#1');
    assert.equal(r.containing('/tmp/elsewhere/x.ts'), undefined);
  });

  it('finds projects by their manifest, and the deepest one owns a document (tsconfig before package.json)', async () => {
    const host = new FakeHost();
    host.addFolder('mono', {
      'package.json': '{}',
      'tsconfig.json': '{}',
      'packages/web/package.json': '{}',
      'packages/web/src/a.ts': '',
      'tools/x.py': '',
      'tools/pyproject.toml': '',
    });
    const w = (await registry(host)).all()[0];
    const kinds = (await w.projects()).map((p) => `${p.path}:${p.kind}`).sort();
    assert.deepEqual(kinds, ['package.json:node', 'packages/web/package.json:node', 'tools/pyproject.toml:python', 'tsconfig.json:typescript']);
    assert.equal((await w.projectFor('src/main.ts')).path, 'tsconfig.json');
    assert.equal((await w.projectFor('packages/web/src/a.ts')).path, 'packages/web/package.json');
    assert.equal((await w.projectFor('tools/x.py')).kind, 'python');
    assert.equal(projectKindOf('src/App.csproj'), 'dotnet');
    assert.equal(projectKindOf('src/readme.md'), undefined);
  });

  it('a folder without a manifest is one project; a created manifest is seen after the change is recorded', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('plain', { 'a.js': '' });
    const r = await registry(host);
    const w = r.all()[0];
    assert.deepEqual(
      (await w.projects()).map((p) => p.kind),
      ['folder'],
    );
    host.writeFile(host.abs(folder, 'jsconfig.json'), '{}');
    r.recordChange(host.abs(folder, 'jsconfig.json'), 'created');
    assert.deepEqual(
      (await w.projects()).map((p) => p.kind),
      ['javascript'],
    );
  });
});
