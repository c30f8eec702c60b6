import * as assert from 'node:assert/strict';
import { drift } from '../../../../src/core/transactions/drift';
import type { CommitFile, DocumentBase } from '../../../../src/core/transactions/plan';
import { sha256 } from '../../../../src/core/transactions/segments';

const bytes = (text: string) => new TextEncoder().encode(text);
const base = (text: string, extra: Partial<DocumentBase> = {}): DocumentBase => ({
  path: 'src/a.ts',
  text,
  diskHash: sha256(bytes(text)),
  binary: false,
  eol: 'LF',
  languageId: 'typescript',
  ...extra,
});
const modify = (b: DocumentBase): CommitFile => ({ kind: 'modify', absPath: '/w/src/a.ts', path: 'src/a.ts', base: b, text: 'new' });

describe('drift: whether a planned file still holds what was staged', () => {
  it('a file as staged, on disk and in the editor, has not drifted', () => {
    assert.equal(drift(modify(base('x')), { bytes: bytes('x'), editorText: 'x' }), undefined);
    assert.equal(drift(modify(base('x')), { bytes: bytes('x') }), undefined, 'editor text not read: the disk decides');
  });

  it('names what changed: the disk, the editor, a deletion', () => {
    assert.equal(drift(modify(base('x')), { bytes: bytes('y'), editorText: 'x' }), 'src/a.ts changed on disk after it was staged');
    assert.equal(drift(modify(base('x')), { bytes: bytes('x'), editorText: 'x typed' }), 'src/a.ts changed in the editor after it was staged');
    assert.equal(drift(modify(base('x')), { bytes: undefined }), 'src/a.ts was deleted after it was staged');
  });

  it('a binary file is judged by its bytes only', () => {
    assert.equal(drift(modify(base('x', { binary: true })), { bytes: bytes('x'), editorText: 'other' }), undefined);
  });

  it('a created file must not exist yet; a move must not land on an existing file', () => {
    const create: CommitFile = { kind: 'create', absPath: '/w/src/b.ts', path: 'src/b.ts', text: 'b' };
    assert.equal(drift(create, { bytes: undefined }), undefined);
    assert.equal(drift(create, { bytes: bytes('') }), 'src/b.ts exists now, but the transaction creates it');
    const move: CommitFile = { kind: 'rename', absPath: '/w/src/a.ts', path: 'src/a.ts', newAbsPath: '/w/src/c.ts', newPath: 'src/c.ts', base: base('x') };
    assert.equal(drift(move, { bytes: bytes('x'), targetExists: false }), undefined);
    assert.equal(drift(move, { bytes: bytes('x'), targetExists: true }), 'src/c.ts exists now, but the transaction moves src/a.ts there');
    assert.equal(
      drift(move, { bytes: bytes('x'), targetExists: false, targetUnsaved: true }),
      'an editor holds unsaved text for src/c.ts, where the transaction moves src/a.ts; save or discard it first',
    );
  });

  it('a file that did not exist when staged (no disk hash) has not drifted while it still does not', () => {
    assert.equal(drift(modify(base('', { diskHash: null })), { bytes: undefined, editorText: '' }), undefined);
  });
});
