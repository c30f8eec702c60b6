import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readFileStamped, readSmallFile, stampNow, SYNC_READ_MAX_BYTES } from '../../../src/host/files';

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
    assert.ok(read !== undefined && read !== 'larger');
    assert.equal(read.bytes.toString('utf8'), text);
    assert.equal(read.stat, stampNow(file));
    fs.appendFileSync(file, '// more\n');
    assert.notEqual(stampNow(file), read.stat);
  });

  it('reads a file larger than the synchronous limit asynchronously, whole, and refuses one over maxBytes', async () => {
    const file = path.join(dir, 'large.ts');
    const text = '// line of a large file\n'.repeat(Math.ceil((SYNC_READ_MAX_BYTES * 1.5) / 24));
    fs.writeFileSync(file, text);
    assert.equal(readSmallFile(file, SYNC_READ_MAX_BYTES), 'larger');
    const read = await readFileStamped(file, 4 * SYNC_READ_MAX_BYTES);
    assert.equal(read?.bytes.toString('utf8'), text);
    assert.equal(read?.stat, stampNow(file));
    assert.equal(await readFileStamped(file, SYNC_READ_MAX_BYTES), undefined);
    assert.equal(await readFileStamped(path.join(dir, 'missing.ts'), 1024), undefined);
  });

  it('refuses a file over the limit, a directory, a missing file and a FIFO, without blocking on the FIFO', () => {
    const big = path.join(dir, 'big.txt');
    fs.writeFileSync(big, 'x'.repeat(2048));
    assert.equal(readSmallFile(big, 1024), 'larger');
    assert.equal(readSmallFile(dir, 1024), undefined);
    assert.equal(readSmallFile(path.join(dir, 'missing.ts'), 1024), undefined);
    assert.equal(stampNow(path.join(dir, 'missing.ts')), undefined);
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // Opened without O_NONBLOCK, this would wait for a writer forever (the test would time out).
    assert.equal(readSmallFile(fifo, 1024), undefined);
  });
});
