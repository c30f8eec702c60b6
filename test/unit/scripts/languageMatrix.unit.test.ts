import * as assert from 'node:assert/strict';
import { diffMatrix, MATRIX_END, MATRIX_PAGE, MATRIX_START, matrixTable, pageWithMatrix } from '../../../scripts/languageMatrix';
import type { Matrix } from '../../../scripts/languageMatrix';

describe('the language matrix: drift and the table in docs/languages.md', () => {
  const matrix: Matrix = {
    languages: ['TypeScript', 'JSON'],
    tools: {
      'find-references': { TypeScript: { status: 'supported' }, JSON: { status: 'unsupported', feature: 'references' } },
    },
  };

  it('diffMatrix names each cell that differs, in both directions', () => {
    assert.deepEqual(diffMatrix(matrix, structuredClone(matrix)), []);
    const found: Matrix = structuredClone(matrix);
    found.tools['find-references'].JSON = { status: 'failure', why: 'an ok empty answer' };
    found.tools['go-to-definition'] = { TypeScript: { status: 'supported' } };
    assert.deepEqual(diffMatrix(matrix, found), [
      'find-references on JSON: expected unsupported (references), found failure: an ok empty answer',
      'go-to-definition on TypeScript: expected not run, found supported',
    ]);
  });

  it('matrixTable: a row per tool, yes or no with the feature; pageWithMatrix replaces what stands between the markers', () => {
    assert.equal(matrixTable(matrix), ['| tool | TypeScript | JSON |', '| --- | --- | --- |', '| `find-references` | yes | no: references |'].join('\n'));
    const page = `# T\n\n${MATRIX_START}\nold table\n${MATRIX_END}\n\nAfter.\n`;
    assert.equal(pageWithMatrix(page, matrix), `# T\n\n${MATRIX_START}\n\n${matrixTable(matrix)}\n\n${MATRIX_END}\n\nAfter.\n`);
    assert.throws(() => pageWithMatrix('# no markers', matrix), /markers/);
    assert.equal(MATRIX_PAGE, 'docs/languages.md');
  });
});
