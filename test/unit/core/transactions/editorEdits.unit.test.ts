import * as assert from 'node:assert/strict';
import { toChanges } from '../../../../src/core/transactions/editorEdits';
import { FakeHost } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';

describe('editorEdits: a language service edit as staged changes', () => {
  it('converts text edits and file operations, drops edits that change nothing, and refuses paths outside the folder', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'src/a.ts': 'let a = 1;\n' });
    const h = await createHarness({ host });
    const w = h.registry.all()[0];
    const a = host.abs(folder, 'src/a.ts');
    const converted = toChanges(
      w,
      {
        documents: [
          {
            absPath: a,
            version: 1,
            baseText: 'let a = 1;\n',
            edits: [
              { start: 4, length: 1, newText: 'b' },
              { start: 8, length: 1, newText: '1' },
            ],
          },
        ],
        fileOperations: [{ kind: 'rename', absPath: a, newAbsPath: host.abs(folder, 'src/b.ts'), overwrite: false }],
      },
      'rename',
    );
    assert.deepEqual(converted.changes, [
      { kind: 'edit', path: 'src/a.ts', edits: [{ start: 4, end: 5, newText: 'b' }] },
      { kind: 'rename', from: 'src/a.ts', to: 'src/b.ts', overwrite: false },
    ]);
    assert.deepEqual(converted.notes, []);
    assert.throws(
      () =>
        toChanges(
          w,
          { documents: [{ absPath: '/elsewhere/x.ts', version: 1, baseText: 'x', edits: [{ start: 0, length: 1, newText: 'y' }] }], fileOperations: [] },
          'rename',
        ),
      /outside the workspace folder/,
    );
  });

  it('says so when VS Code did not let the file operations be read', async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'src/a.ts': 'let a = 1;\n' });
    const h = await createHarness({ host });
    const converted = toChanges(
      h.registry.all()[0],
      {
        documents: [{ absPath: host.abs(folder, 'src/a.ts'), version: 1, baseText: 'let a = 1;\n', edits: [{ start: 4, length: 1, newText: 'b' }] }],
        fileOperations: [],
        fileOperationsUnread: true,
      },
      'code action',
    );
    assert.equal(converted.changes.length, 1);
    assert.match(converted.notes.join(' '), /file operations \(create, move, delete\) of the code action's edit.*only its text edits were staged/);
  });
});
