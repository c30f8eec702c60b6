import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '../../../../src');
const MAX_LINES = 550;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('architecture: files a reader can hold in mind', () => {
  it(`keeps every file in src/ within ${MAX_LINES} lines (split along a seam when one grows)`, () => {
    const files = sources(SRC);
    assert.ok(files.length > 50, `found the sources (${files.length} files under ${SRC})`);
    const over = files
      .map((f) => ({ file: path.relative(SRC, f), lines: fs.readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    assert.deepEqual(over, []);
  });
});
