import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolError } from '../../../../src/core/chain/envelope';
import { confinePath, isInside, joinFolder, keepInsideRealFolder, toRelativePath } from '../../../../src/core/documents/paths';
import { FAKE_ROOT, FakeHost } from '../../support/fakeHost';

const folder = path.join(FAKE_ROOT, 'app');
const outside = path.join(FAKE_ROOT, 'secrets');

function refused(run: () => unknown, why: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
    assert.equal(error.code, 'WorkspacePathNotAllowed');
    assert.match(error.message, why);
    assert.equal(error.continuation?.kind, 'ReviseRequest');
    return true;
  });
}

async function refusedAsync(run: () => Promise<unknown>, why: RegExp): Promise<void> {
  await assert.rejects(run, (error: unknown) => {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
    assert.equal(error.code, 'WorkspacePathNotAllowed');
    assert.match(error.message, why);
    return true;
  });
}

describe('paths: toRelativePath', () => {
  it('refuses paths that climb out of the folder', () => {
    refused(() => toRelativePath(folder, '..'), /leaves the workspace/);
    refused(() => toRelativePath(folder, '../secrets/key.pem'), /leaves the workspace/);
    refused(() => toRelativePath(folder, 'a/../../x'), /leaves the workspace/);
    refused(() => toRelativePath(folder, 'a\\..\\..\\x'), /leaves the workspace/);
    refused(() => toRelativePath(folder, './../x'), /leaves the workspace/);
  });

  it('refuses absolute paths and file URIs outside the folder', () => {
    refused(() => toRelativePath(folder, path.join(outside, 'key.pem')), /outside the workspace folder/);
    refused(() => toRelativePath(folder, `${folder}-other${path.sep}a.ts`), /outside the workspace folder/);
    refused(() => toRelativePath(folder, path.join(folder, '..', 'secrets', 'x')), /outside the workspace folder/);
    refused(() => toRelativePath(folder, pathToFileURL(path.join(outside, 'key.pem')).toString()), /outside the workspace folder/);
  });

  it('accepts names that merely start with two dots', () => {
    assert.equal(toRelativePath(folder, '..foo.ts'), '..foo.ts');
    assert.equal(toRelativePath(folder, 'src/..bar/x.ts'), 'src/..bar/x.ts');
    assert.equal(toRelativePath(folder, path.join(folder, '..foo.ts')), '..foo.ts');
    assert.ok(isInside(folder, path.join(folder, '..foo.ts')));
    assert.ok(!isInside(folder, path.join(folder, '..', 'foo.ts')));
  });

  it('refuses NUL characters', () => {
    refused(() => toRelativePath(folder, 'src/a.ts\0.png'), /NUL/);
  });

  it('accepts absolute paths, file URIs, backslashes and ./ inside the folder', () => {
    assert.equal(toRelativePath(folder, path.join(folder, 'src', 'a.ts')), 'src/a.ts');
    assert.equal(toRelativePath(folder, pathToFileURL(path.join(folder, 'src', 'my file.ts')).toString()), 'src/my file.ts');
    assert.equal(toRelativePath(folder, 'src\\lib\\b.ts'), 'src/lib/b.ts');
    assert.equal(toRelativePath(folder, './a/b'), 'a/b');
    assert.equal(toRelativePath(folder, 'a/./c/../b/'), 'a/b');
    assert.equal(toRelativePath(folder, 'a/..'), '');
    assert.equal(toRelativePath(folder, folder), '');
  });

  it('names the refused input in the message (shortened when long)', () => {
    const long = `../${'x'.repeat(500)}`;
    assert.throws(
      () => toRelativePath(folder, long),
      (error: unknown) => error instanceof ToolError && error.message.includes('…') && error.message.length < 500,
    );
  });
});

describe('paths: confinePath', () => {
  function hostWithLinks(): FakeHost {
    const host = new FakeHost();
    host.addFolder('app', { 'src/a.ts': 'a', 'real/inside.ts': 'i' }, folder);
    host.writeFile(path.join(outside, 'key.pem'), 'secret', { notify: false });
    host.writeFile(path.join(outside, 'dir', 'x.ts'), 'x', { notify: false });
    host.symlink(path.join(folder, 'src', 'key.pem'), path.join(outside, 'key.pem'));
    host.symlink(path.join(folder, 'linked'), path.join(outside, 'dir'));
    host.symlink(path.join(folder, 'alias'), path.join(folder, 'real'));
    return host;
  }
  const realPath = (host: FakeHost) => (p: string) => host.realPath(p);

  it('accepts normal files and files not created yet', async () => {
    const host = hostWithLinks();
    assert.equal(await confinePath(folder, 'src/a.ts', realPath(host)), joinFolder(folder, 'src/a.ts'));
    assert.equal(await confinePath(folder, 'src/new/deep.ts', realPath(host)), joinFolder(folder, 'src/new/deep.ts'));
  });

  it('accepts an existing file whose name starts with two dots', async () => {
    const host = hostWithLinks();
    host.writeFile(path.join(folder, '..foo.ts'), 'export {};\n');
    assert.equal(await confinePath(folder, '..foo.ts', realPath(host)), joinFolder(folder, '..foo.ts'));
  });

  it('accepts a symlink that stays inside the folder', async () => {
    const host = hostWithLinks();
    assert.equal(await confinePath(folder, 'alias/inside.ts', realPath(host)), joinFolder(folder, 'alias/inside.ts'));
  });

  it('refuses a file symlink that resolves outside', async () => {
    const host = hostWithLinks();
    await refusedAsync(() => confinePath(folder, 'src/key.pem', realPath(host)), /symbolic link/);
  });

  it('refuses existing and not-yet-existing files under a symlinked directory pointing outside', async () => {
    const host = hostWithLinks();
    await refusedAsync(() => confinePath(folder, 'linked/x.ts', realPath(host)), /symbolic link/);
    await refusedAsync(() => confinePath(folder, 'linked/new-file.ts', realPath(host)), /symbolic link/);
    await refusedAsync(() => confinePath(folder, 'linked/new/dir/file.ts', realPath(host)), /symbolic link/);
  });

  it('compares against the real folder when the folder itself is reached through a link', async () => {
    const host = new FakeHost();
    const real = path.join(FAKE_ROOT, 'private', 'app');
    host.addFolder('app', { 'a.ts': 'a' }, real);
    host.symlink(folder, real);
    assert.equal(await confinePath(folder, 'a.ts', realPath(host)), joinFolder(folder, 'a.ts'));
  });
});

describe('paths: keepInsideRealFolder', () => {
  it('drops listed files whose real location is outside the folder, keeping order', async () => {
    const host = new FakeHost();
    host.addFolder('app', { 'src/a.ts': 'a', 'real/inside.ts': 'i', 'z.ts': 'z' }, folder);
    host.writeFile(path.join(outside, 'key.pem'), 'secret', { notify: false });
    host.writeFile(path.join(outside, 'dir', 'x.ts'), 'x', { notify: false });
    host.symlink(path.join(folder, 'src', 'key.pem'), path.join(outside, 'key.pem'));
    host.symlink(path.join(folder, 'linked'), path.join(outside, 'dir'));
    host.symlink(path.join(folder, 'alias'), path.join(folder, 'real'));
    // What a listing that follows links (as VS Code's search does) reports:
    const listed = ['alias/inside.ts', 'linked/x.ts', 'real/inside.ts', 'src/a.ts', 'src/key.pem', 'z.ts'];
    assert.deepEqual(await keepInsideRealFolder(folder, listed, (p) => host.realPath(p), 2), ['alias/inside.ts', 'real/inside.ts', 'src/a.ts', 'z.ts']);
    assert.deepEqual(await keepInsideRealFolder(folder, [], (p) => host.realPath(p)), []);
  });
});
