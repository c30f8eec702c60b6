import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stampNow } from '../../../src/host/files';
import { WORD_SCAN_NICE, WordScanner } from '../../../src/host/wordScan';
import { assertNewThreadLowered } from '../support/threads';

// The compiled worker module; the bundle the extension starts (dist/word-scan-worker.js, which `node esbuild.mjs` writes) is checked at the end.
const WORKER = path.resolve(__dirname, '..', '..', '..', 'src', 'host', 'wordScanWorker.js');
const BUNDLE = path.resolve(__dirname, '..', '..', '..', '..', 'dist', 'word-scan-worker.js');

describe('host word scan: whole words off the host thread', () => {
  let dir: string;
  let scanner: WordScanner;
  const file = (name: string, content: string | Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content);
    return p;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-words-'));
    scanner = new WordScanner(WORKER);
  });
  afterEach(() => {
    scanner.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers each plain UTF-8 file: its whole-word starts and the stamp of what it scanned, or none; the files VS Code would decode otherwise are left out', async () => {
    const text = 'const addOne = add(1); // add\nconst é = add;\n';
    const a = file('a.ts', text);
    const b = file('b.ts', 'const addOne = 1;\n');
    const bom = file('bom.ts', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('add();\n')]));
    const latin1 = file('latin1.ts', Buffer.from([0x61, 0x64, 0x64, 0x28, 0x29, 0xe9, 0x0a]));
    const binary = file('nul.ts', 'add();\0\n');
    const gone = path.join(dir, 'gone.ts');
    const found = await scanner.scan(
      'add',
      [a, b, bom, latin1, binary, gone].map((p) => [p, 'typescript']),
      1 << 20,
    );
    assert.deepEqual([...found.keys()].sort(), [a, b].sort());
    const starts = [...text.matchAll(/\badd\b/g)].map((m) => m.index);
    assert.deepEqual(found.get(a), { starts, stamp: stampNow(a) });
    assert.equal(found.get(b), 'none');
  });

  it('reads a file again once it changed, and leaves out one over maxBytes', async () => {
    const a = file('a.ts', 'add();\n');
    assert.deepEqual(await scanner.scan('add', [[a, 'typescript']], 1 << 20), new Map([[a, { starts: [0], stamp: stampNow(a) }]]));
    fs.writeFileSync(a, '// nothing here, longer than before\n');
    assert.deepEqual(await scanner.scan('add', [[a, 'typescript']], 1 << 20), new Map([[a, 'none']]));
    fs.writeFileSync(a, 'x; add();\n');
    assert.deepEqual(await scanner.scan('add', [[a, 'typescript']], 4), new Map());
  });

  it('reads files ahead of a scan, which then reads none of them again unless one changed', async () => {
    const a = file('a.ts', 'add();\n');
    const b = file('b.ts', 'const two = 2;\n');
    const files: [string, string][] = [a, b].map((p) => [p, 'typescript']);
    await scanner.readAhead(files, 1 << 20);
    assert.equal(scanner.filesRead, 2);
    assert.deepEqual(
      await scanner.scan('add', files, 1 << 20),
      new Map<string, unknown>([
        [a, { starts: [0], stamp: stampNow(a) }],
        [b, 'none'],
      ]),
    );
    assert.equal(scanner.filesRead, 2, 'both kept from the read ahead');
    fs.writeFileSync(b, 'const two = add(1, 1);\n');
    assert.deepEqual((await scanner.scan('add', files, 1 << 20)).get(b), { starts: [12], stamp: stampNow(b) });
    assert.equal(scanner.filesRead, 3, 'the changed one read again');
  });

  it('scans at a lower priority than the extension host on Linux: its own thread only', async () => {
    await assertNewThreadLowered(WORD_SCAN_NICE, () => scanner.scan('add', [[file('a.ts', 'add();\n'), 'typescript']], 1 << 20));
  });

  it('applies the language word bounds: # binds a word in TypeScript, not in Python', async () => {
    const a = file('a.ts', '#add add\n');
    const p = file('a.py', '#add add\n');
    const found = await scanner.scan(
      'add',
      [
        [a, 'typescript'],
        [p, 'python'],
      ],
      1 << 20,
    );
    assert.deepEqual(found.get(a), { starts: [5], stamp: stampNow(a) });
    assert.deepEqual(found.get(p), { starts: [1, 5], stamp: stampNow(p) });
  });

  it('answers scans asked together each with its own files, and again after its idle worker ended', async () => {
    const idle = new WordScanner(WORKER, 50);
    try {
      const a = file('a.ts', 'add();\n');
      const b = file('b.ts', 'sub();\n');
      const [x, y] = await Promise.all([idle.scan('add', [[a, 'typescript']], 1 << 20), idle.scan('sub', [[b, 'typescript']], 1 << 20)]);
      assert.deepEqual(
        [x.get(a), y.get(b)],
        [
          { starts: [0], stamp: stampNow(a) },
          { starts: [0], stamp: stampNow(b) },
        ],
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual((await idle.scan('add', [[a, 'typescript']], 1 << 20)).get(a), { starts: [0], stamp: stampNow(a) });
    } finally {
      idle.dispose();
    }
  });

  it('the bundle dist/word-scan-worker.js answers as the module does', async () => {
    assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} is missing: bundle first (node esbuild.mjs; npm test does)`);
    const bundled = new WordScanner(BUNDLE);
    try {
      const a = file('a.ts', 'add(); addOne();\n');
      assert.deepEqual(await bundled.scan('add', [[a, 'typescript']], 1 << 20), new Map([[a, { starts: [0], stamp: stampNow(a) }]]));
    } finally {
      bundled.dispose();
    }
  });

  it('rejects when its worker cannot start or it was disposed, so the caller scans itself', async () => {
    const broken = new WordScanner(path.join(dir, 'no-worker.js'));
    await assert.rejects(broken.scan('add', [[file('a.ts', 'add();\n'), 'typescript']], 1 << 20));
    broken.dispose();
    scanner.dispose();
    await assert.rejects(scanner.scan('add', [], 1 << 20), /disposed/);
  });
});
