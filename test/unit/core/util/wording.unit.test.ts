import * as assert from 'node:assert/strict';
import { countOf, nameAndFolder } from '../../../../src/core/util/wording';

describe('wording: counts and paths as a person reads them', () => {
  it('says the singular for exactly one and the plural otherwise', () => {
    assert.equal(countOf(1, 'location'), '1 location');
    assert.equal(countOf(3, 'location'), '3 locations');
    assert.equal(countOf(0, 'file'), '0 files');
    assert.equal(countOf(1, 'undone revision'), '1 undone revision');
    assert.equal(countOf(2, 'match', 'matches'), '2 matches');
    assert.equal(countOf(1, 'match', 'matches'), '1 match');
  });

  it('splits a workspace-relative path into its file name and its folder', () => {
    assert.deepEqual(nameAndFolder('src/internal/operations/dispatchOperation.ts'), { name: 'dispatchOperation.ts', folder: 'src/internal/operations' });
    assert.deepEqual(nameAndFolder('README.md'), { name: 'README.md', folder: '' });
    assert.deepEqual(nameAndFolder('.github/workflows/ci.yml'), { name: 'ci.yml', folder: '.github/workflows' });
    assert.deepEqual(nameAndFolder('a b/c d.txt'), { name: 'c d.txt', folder: 'a b' });
  });
});
