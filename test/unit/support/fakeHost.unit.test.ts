import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { FAKE_ROOT, FakeHost, detectEol, symbolsIn } from './fakeHost';
import { createHarness, MemoryStore } from './harness';

/** The fake must behave like the real host where the core relies on it, or the other tests prove nothing. */
describe('test support: FakeHost', () => {
  it('reads open buffers before disk, and disk files otherwise', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'a.ts': 'disk\r\ntext' });
    const file = host.abs(folder, 'a.ts');
    assert.deepEqual(await host.readDocument(file), {
      text: 'disk\r\ntext',
      languageId: 'typescript',
      version: 1,
      isDirty: false,
      source: 'disk',
      eol: 'CRLF',
    });
    host.openDocument(file, 'buffer\ntext');
    const open = await host.readDocument(file);
    assert.deepEqual([open?.text, open?.source, open?.isDirty, open?.eol], ['buffer\ntext', 'buffer', true, 'LF']);
    assert.equal(await host.readFileText(file, 100), 'disk\r\ntext', 'readFileText reads the disk');
    host.saveDocument(file);
    assert.equal((await host.readDocument(file))?.isDirty, false);
    assert.equal(host.diskText(file), 'buffer\ntext');
    assert.equal(await host.readDocument(host.abs(folder, 'missing.ts')), undefined);
    host.writeFile(host.abs(folder, 'img.png'), '\u0000PNG', { binary: true });
    assert.equal(await host.readDocument(host.abs(folder, 'img.png')), undefined);
  });

  it('resolves simulated symlinks in realPath, for files, directories and missing children', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'src/a.ts': 'a' });
    host.writeFile(path.join(FAKE_ROOT, 'out', 'x.ts'), 'x');
    host.symlink(host.abs(folder, 'link'), path.join(FAKE_ROOT, 'out'));
    assert.equal(await host.realPath(host.abs(folder, 'src/a.ts')), host.abs(folder, 'src/a.ts'));
    assert.equal(await host.realPath(host.abs(folder, 'src')), host.abs(folder, 'src'));
    assert.equal(await host.realPath(folder.fsPath), folder.fsPath);
    assert.equal(await host.realPath(host.abs(folder, 'link/x.ts')), path.join(FAKE_ROOT, 'out', 'x.ts'));
    assert.equal(await host.realPath(host.abs(folder, 'link')), path.join(FAKE_ROOT, 'out'));
    assert.equal(await host.realPath(host.abs(folder, 'link/none.ts')), undefined);
    assert.equal((await host.readDocument(host.abs(folder, 'link/x.ts')))?.text, 'x');
  });

  it('lists files with forward slashes, without noise folders, up to the limit', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'a.ts': '', 'src/b/c.ts': '', 'node_modules/x/i.js': '', '.git/HEAD': '', 'dist/o.js': '' });
    host.addFolder('other', { 'z.ts': '' });
    assert.deepEqual(await host.listFiles(folder, 100), { paths: ['a.ts', 'src/b/c.ts'], hasMore: false });
    assert.deepEqual(await host.listFiles(folder, 1), { paths: ['a.ts'], hasMore: true });
  });

  it('maps languages by file name first, then extension', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}', 'b.json': '{}', 'c.tsx': '', 'd.md': '', 'e.txt': '' });
    const ids = await Promise.all(
      ['tsconfig.json', 'b.json', 'c.tsx', 'd.md', 'e.txt'].map(async (f) => (await host.readDocument(host.abs(folder, f)))?.languageId),
    );
    assert.deepEqual(ids, ['jsonc', 'json', 'typescript', 'markdown', 'plaintext']);
  });

  it('reports buffer edits and disk writes to the registry through the harness', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'a.ts': 'a', 'b.ts': 'b' });
    const h = await createHarness({ host, store: new MemoryStore() });
    const before = h.registry.all()[0].snapshot();
    host.editBuffer(host.abs(folder, 'a.ts'), 'changed');
    const check = h.registry.all()[0].tracker.check(before, ['a.ts']);
    assert.equal(check.stale, true);
    assert.deepEqual(h.registry.all()[0].tracker.check(before, ['b.ts']), { stale: false });
  });

  it('builds symbol trees from text markers', () => {
    const text = 'class A {\n  m() {\n  }\n}\n';
    const [a] = symbolsIn(text, [{ name: 'A', kind: 'Class', from: 'class A', to: '\n}', children: [{ name: 'm', kind: 'Method', from: 'm()', to: '  }' }] }]);
    assert.deepEqual(a.range, { start: 0, end: text.indexOf('\n}') + 2 });
    assert.deepEqual(a.selectionRange, { start: 6, end: 7 });
    assert.deepEqual(a.children[0].range, { start: text.indexOf('m()'), end: text.indexOf('  }') + 3 });
    assert.throws(() => symbolsIn(text, [{ name: 'B', kind: 'Class', from: 'class B' }]), /not found/);
  });

  it('detects the line-ending style from the first line break', () => {
    assert.equal(detectEol('a\r\nb\nc'), 'CRLF');
    assert.equal(detectEol('a\nb\r\nc'), 'LF');
    assert.equal(detectEol('abc'), 'LF');
  });
});
