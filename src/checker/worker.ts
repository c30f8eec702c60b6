/**
 * The checker's worker thread (bundled as dist/check-worker.js): loads the TypeScript module the
 * host names, keeps one warm Checker per folder, and answers checks one at a time. The host's
 * cancel reaches a busy check through the shared flags, since no message is read until it ends;
 * so does the word that a check run ahead (prepare) should give way. On a machine with more than
 * one core, a large project's current view goes to a second thread running this same module (side.ts).
 */
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { MessageChannel, parentPort, Worker, workerData } from 'node:worker_threads';
import type * as TS from 'typescript';
import { Checker, systemReader } from './program';
import { Stop } from './view';
import { CHECK_NICE } from './protocol';
import type { CheckerWorkerData, FromWorker, SideWorkerData, ToWorker } from './protocol';
import { RemoteSide, serveSide, type SideChannel } from './side';

const data = workerData as CheckerWorkerData | SideWorkerData;
const ts = createRequire(__filename)(data.typescriptPath) as typeof TS;
const cancel = new Int32Array(data.cancel);
const reader = systemReader(ts);

if ('role' in data) {
  // The current view's thread: it inherits the checker thread's lowered priority.
  serveSide(ts, reader, data.port, new Int32Array(data.signal), cancel);
} else {
  runChecker(data);
}

function runChecker(data: CheckerWorkerData): void {
  const port = parentPort;
  if (!port) throw new Error('the checker runs in a worker thread');
  lowerPriority();
  const checkers = new Map<string, Checker>();
  // Started when a project large enough to check in two threads is first checked.
  let side: SideChannel | undefined;
  const twoThreads = data.twoThreads ?? os.availableParallelism() > 1;
  const post = (message: FromWorker) => port.postMessage(message);

  post({ kind: 'ready', typescriptVersion: ts.version });

  port.on('message', (message: ToWorker) => {
    if (message.kind === 'memory') {
      // Read between checks (messages wait while one runs): what the warm checkers hold, in both threads.
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      const heap = v8.getHeapStatistics();
      let other = { heapUsed: 0, heapTotal: 0 };
      try {
        if (side) other = new RemoteSide(ts, side, '').memory(new Stop(ts, () => false, Date.now() + 5_000));
      } catch {
        // The current view's thread did not answer: this thread's heap alone.
      }
      post({
        kind: 'memory',
        id: message.id,
        memory: { heapUsed: heap.used_heap_size + other.heapUsed, heapTotal: heap.total_heap_size + other.heapTotal, collected: gc !== undefined },
      });
      return;
    }
    // A cancel for a check that is not running has nothing to stop: the host already answered it.
    if (message.kind !== 'check' && message.kind !== 'prepare') return;
    const { id, request } = message;
    try {
      const folder = path.resolve(request.folder);
      let checker = checkers.get(folder);
      if (!checker) {
        const base = twoThreads ? () => new RemoteSide(ts, (side ??= startSide(data)), folder) : undefined;
        checkers.set(folder, (checker = new Checker(ts, reader, folder, { base, twoThreadsFrom: data.twoThreadsFrom })));
      }
      const giveWay = message.kind === 'prepare' ? () => Atomics.load(cancel, 1) !== 0 : undefined;
      post({ kind: 'result', id, result: checker.check(request, () => Atomics.load(cancel, 0) === id, giveWay, id) });
    } catch (error) {
      post({ kind: 'error', id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
}

/** The current view's thread; it ends with this one. */
function startSide(data: CheckerWorkerData): SideChannel {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const sideData: SideWorkerData = { role: 'side', typescriptPath: data.typescriptPath, cancel: data.cancel, port: port2, signal };
  const worker = new Worker(__filename, { workerData: sideData, transferList: [port2] });
  worker.unref();
  return { port: port1, signal: new Int32Array(signal), seq: 0 };
}

/**
 * A check gives way to what a person or an agent is waiting for (the language server, the
 * extension host): on Linux a thread has a nice value of its own, so this lowers the check's
 * thread alone. Elsewhere the call would lower the whole extension host, so it is not made.
 */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(Math.min(19, os.getPriority() + CHECK_NICE));
  } catch {
    // Not allowed here (a container's policy): the check runs at the host's priority.
  }
}
