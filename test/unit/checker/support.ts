import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import * as ts from 'typescript';
import type { FolderReads } from '../../../src/checker/inputs';
import type { CheckerOptions } from '../../../src/checker/program';
import type { SideWorkerData } from '../../../src/checker/protocol';
import { RemoteSide, type Side } from '../../../src/checker/side';

/** A temp folder holding `files` (relative path → text); `dispose()` removes it. */
export function fixture(files: Record<string, string>): { folder: string; dispose(): void } {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aw-checker-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), text);
  }
  return { folder, dispose: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

export const TYPESCRIPT_PATH = require.resolve('typescript');

export const STRICT_TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, target: 'ES2022', module: 'commonjs', lib: ['ES2022'], noEmit: true },
  include: ['src'],
});

/** `count` modules, each importing the previous one, with enough code that checking them all takes a while. */
export function chain(count: number, functions = 20): Record<string, string> {
  const files: Record<string, string> = { 'tsconfig.json': STRICT_TSCONFIG };
  for (let i = 0; i < count; i++) {
    const body = Array.from(
      { length: functions },
      (_, j) => `export function f${j}<T extends { k${j}: number }>(x: T): Array<T & { n: ${j} }> { return [x].map((y) => ({ ...y, n: ${j} as const })); }`,
    ).join('\n');
    files[`src/m${i}.ts`] = `${i > 0 ? `import { f0 as prev } from './m${i - 1}';\nexport const viaPrev = prev({ k0: 1 });\n` : ''}${body}\n`;
  }
  return files;
}

/**
 * A thread holding checkers' current views (the compiled worker module started as the checker's
 * worker starts it), for Checker's `base` option; `cancel` is the flags it reads ([0] the check id
 * to cancel, [1] give way). `dispose()` ends it.
 */
export function sideThread(): { base: (reads: FolderReads) => Side; cancel: Int32Array; dispose(): Promise<number> } {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const cancel = new SharedArrayBuffer(8);
  const workerData: SideWorkerData = { role: 'side', typescriptPath: TYPESCRIPT_PATH, cancel, port: port2, signal };
  const worker = new Worker(path.resolve(__dirname, '..', '..', '..', 'src', 'checker', 'worker.js'), { workerData, transferList: [port2] });
  const channel = { port: port1, signal: new Int32Array(signal), seq: 0 };
  return {
    base: (reads) => new RemoteSide(ts, channel, reads.folder),
    cancel: new Int32Array(cancel),
    dispose: () => {
      port1.close();
      return worker.terminate();
    },
  };
}

/**
 * A suite run twice: with the current view in the checker's thread, then in a thread of its own
 * (as the worker runs a large project on a machine with more than one core); `options()` are the
 * Checker options of the mode.
 */
export function inBothThreadModes(title: string, suite: (mode: { threads: 1 | 2; options: () => CheckerOptions }) => void): void {
  for (const threads of [1, 2] as const) {
    describe(`${title} (${threads === 1 ? 'one thread' : 'the current view in a thread of its own'})`, function () {
      this.timeout(60_000);
      let side: ReturnType<typeof sideThread> | undefined;
      before(() => {
        if (threads === 2) side = sideThread();
      });
      after(() => side?.dispose());
      suite({ threads, options: () => (side ? { base: side.base, twoThreadsFrom: 0 } : {}) });
    });
  }
}
