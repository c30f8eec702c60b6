import * as assert from 'node:assert/strict';
import { activateExtension, digestTree, expectError, expectOk, invoke, workspaceRoot } from './helpers';

describe('staged transactions in an untrusted workspace', () => {
  before(activateExtension);

  it('refuses every mutation and the commit; previews answer; nothing on disk changes', async () => {
    const before = digestTree(workspaceRoot());
    const location = { selection: { document: { path: 'src/util.ts' }, selectedText: 'shout' } };
    for (const [tool, input] of [
      ['edit-text', { edits: [{ location, newText: 'yell' }] }],
      ['create-file', { path: 'src/new.ts', text: 'x' }],
      ['delete-file', { document: { path: 'src/obsolete.ts' } }],
      ['transaction-start', {}],
      ['transaction-commit', {}],
    ] as const) {
      const refused = expectError(await invoke(tool, input), 'SourceMutationDisabled');
      assert.match(refused.error.message, /not trusted/);
      assert.equal(refused.continuation?.kind, 'ResolveExternally');
    }
    const preview = expectOk<{ transaction: null; documents: unknown[] }>(await invoke('transaction-preview', {}));
    assert.deepEqual([preview.data.transaction, preview.data.documents], [null, []]);
    assert.equal(preview.snapshot.transactionRevision, null);
    assert.equal(digestTree(workspaceRoot()), before);
  });
});
