import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ToolError } from '../../../../src/core/chain/envelope';
import { ToolContext } from '../../../../src/core/documents/context';
import { FAKE_ROOT, FakeHost } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

const UTIL = 'export function shout(text: string): string {\n  return text.toUpperCase();\n}\nexport const loud = shout("a") + shout("b");\n';
const EMOJI = 'const face = "😀";\n';

async function refusedWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<ToolError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ToolError, String(e));
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

describe('context: documents and locations a call names', () => {
  let h: Harness;
  let host: FakeHost;
  let ctx: ToolContext;

  beforeEach(async () => {
    host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}', 'src/util.ts': UTIL, 'src/emoji.ts': EMOJI, 'lib/util.ts': '' });
    host.writeFile(path.join(FAKE_ROOT, 'secret.ts'), 'export const secret = 1;\n');
    host.symlink(host.abs(folder, 'src/escape.ts'), path.join(FAKE_ROOT, 'secret.ts'));
    h = await createHarness({ host });
    ctx = new ToolContext(h.services, '00000000-0000-4000-8000-000000000000', 100_000, undefined);
  });

  it('a document by path or by documentId, with its project and ref', async () => {
    const byPath = await ctx.document({ path: 'src/util.ts' });
    assert.equal(byPath.relativePath, 'src/util.ts');
    assert.equal(byPath.project.kind, 'typescript');
    assert.equal(byPath.host.text, UTIL);
    const byId = await ctx.document({ documentId: byPath.ref.documentId });
    assert.equal(byId.absolutePath, byPath.absolutePath);
  });

  it('refuses both or neither of path and documentId, a foreign documentId, the folder itself', async () => {
    await refusedWith(ctx.document({}), 'InvalidRequest', /exactly one of path or documentId/);
    await refusedWith(ctx.document({ path: 'src/util.ts', documentId: 'x' }), 'InvalidRequest');
    await refusedWith(ctx.document({ documentId: 'deadbeef:src/util.ts' }), 'DocumentNotFound', /does not name a document of an open folder/);
    await refusedWith(ctx.document({ path: '.' }), 'InvalidRequest', /names the workspace folder itself/);
  });

  it('never reads outside the folder: .. paths, absolute paths elsewhere and links out are refused', async () => {
    await refusedWith(ctx.document({ path: '../outside.ts' }), 'WorkspacePathNotAllowed');
    await refusedWith(ctx.document({ path: '/etc/passwd' }), 'WorkspacePathNotAllowed');
    await refusedWith(ctx.document({ path: 'src/escape.ts' }), 'WorkspacePathNotAllowed');
    assert.equal(host.callCount('readDocument', path.join(FAKE_ROOT, 'secret.ts')), 0, 'nothing outside was read');
  });

  it('a missing document names files with the same name', async () => {
    await refusedWith(ctx.document({ path: 'util.ts' }), 'DocumentNotFound', /Files with that name: lib\/util.ts, src\/util.ts/);
  });

  it('a selection is found once with its context, or refused as ambiguous with candidates, or as not found with near misses', async () => {
    const once = await ctx.location({ selection: { document: { path: 'src/util.ts' }, selectedText: 'shout', contextAfter: '("b")' } });
    assert.equal(once.start, UTIL.indexOf('shout("b")'));
    assert.equal(once.length, 5);
    const ambiguous = await refusedWith(
      ctx.location({ selection: { document: { path: 'src/util.ts' }, selectedText: 'shout' } }),
      'LocationAmbiguous',
      /occurs 3 times/,
    );
    assert.equal((ambiguous.details as { candidates: unknown[] }).candidates.length, 3);
    await refusedWith(
      ctx.location({ selection: { document: { path: 'src/util.ts' }, selectedText: 'toUppercase' } }),
      'LocationNotFound',
      /Nearest: .*toUpperCase/,
    );
  });

  it('a span is checked against the text: inside it, and not splitting a surrogate pair', async () => {
    const span = await ctx.location({ span: { document: { path: 'src/util.ts' }, range: { start: 16, length: 5 } } });
    assert.equal(UTIL.slice(span.start, span.start + span.length), 'shout');
    await refusedWith(
      ctx.location({ span: { document: { path: 'src/util.ts' }, range: { start: UTIL.length, length: 1 } } }),
      'LocationNotFound',
      /lies outside/,
    );
    const inside = EMOJI.indexOf('😀') + 1;
    await refusedWith(ctx.location({ span: { document: { path: 'src/emoji.ts' }, range: { start: inside, length: 1 } } }), 'InvalidRequest', /surrogate pair/);
  });

  it('the staged view reads the staged text, and says where a document the transaction moved went', async () => {
    await h.ok('edit-text', {
      edits: [{ location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'toUpperCase' } }, newText: 'toLocaleUpperCase' }],
    });
    const staged = await ctx.document({ path: 'src/util.ts' }, undefined, 'document', 'staged');
    assert.equal(staged.view, 'staged');
    assert.match(staged.host.text, /toLocaleUpperCase/);
    assert.equal((await ctx.document({ path: 'src/util.ts' })).host.text, UTIL, 'the buffer is untouched');
    await h.ok('move-file', { document: { path: 'src/emoji.ts' }, newPath: 'src/face.ts' });
    await refusedWith(
      ctx.document({ path: 'src/emoji.ts' }, undefined, 'document', 'staged'),
      'DocumentNotFound',
      /moved to src\/face.ts in the staged transaction/,
    );
  });
});
