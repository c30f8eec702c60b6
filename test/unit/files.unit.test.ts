import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readSmallFile, stampNow } from '../../src/host/files';

describe('host files: readSmallFile and stampNow', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-files-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file whole, with a stamp that changes when the file does', () => {
    const file = path.join(dir, 'a.ts');
    const text = 'export const a = "é😀";\n'.repeat(500);
    fs.writeFileSync(file, text);
    const read = readSmallFile(file, 1 << 20);
    assert.equal(read?.bytes.toString('utf8'), text);
    assert.equal(read?.stat, stampNow(file));
    fs.appendFileSync(file, '// more\n');
    assert.notEqual(stampNow(file), read?.stat);
  });

  it('refuses a file over the limit, a directory, a missing file and a FIFO, without blocking on the FIFO', () => {
    const big = path.join(dir, 'big.txt');
    fs.writeFileSync(big, 'x'.repeat(2048));
    assert.equal(readSmallFile(big, 1024), undefined);
    assert.equal(readSmallFile(dir, 1024), undefined);
    assert.equal(readSmallFile(path.join(dir, 'missing.ts'), 1024), undefined);
    assert.equal(stampNow(path.join(dir, 'missing.ts')), undefined);
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // Opened without O_NONBLOCK, this would wait for a writer forever (the test would time out).
    assert.equal(readSmallFile(fifo, 1024), undefined);
  });
});
