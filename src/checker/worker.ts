/**
 * The checker's worker thread (bundled as dist/check-worker.js): loads the TypeScript module the
 * host names, keeps one warm Checker per folder, and answers checks one at a time. The host's
 * cancel reaches a busy check through the shared flags, since no message is read until it ends;
 * so does the word that a check run ahead (prepare) should give way.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type * as TS from 'typescript';
import { lowerThreadPriority } from './threadPriority';
import { Checker, systemReader } from './program';
import { CHECK_NICE } from './protocol';
import type { CheckerWorkerData, FromWorker, ToWorker } from './protocol';

const port = parentPort;
if (!port) throw new Error('the checker runs in a worker thread');
// A check gives way to what a person or an agent is waiting for (the language server, the extension host).
lowerThreadPriority(CHECK_NICE);
const data = workerData as CheckerWorkerData;
const ts = createRequire(__filename)(data.typescriptPath) as typeof TS;
const cancel = new Int32Array(data.cancel);
const reader = systemReader(ts);
const checkers = new Map<string, Checker>();

const post = (message: FromWorker) => port.postMessage(message);

post({ kind: 'ready', typescriptVersion: ts.version });

port.on('message', (message: ToWorker) => {
  if (message.kind === 'memory') {
    // Read between checks (messages wait while one runs): what the warm checkers hold.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heap = v8.getHeapStatistics();
    post({ kind: 'memory', id: message.id, memory: { heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size, collected: gc !== undefined } });
    return;
  }
  // A cancel for a check that is not running has nothing to stop: the host already answered it.
  if (message.kind === 'cancel') return;
  const { id, request } = message;
  try {
    const folder = path.resolve(request.folder);
    let checker = checkers.get(folder);
    if (!checker) checkers.set(folder, (checker = new Checker(ts, reader, folder)));
    const cancelled = () => Atomics.load(cancel, 0) === id;
    const giveWay = () => Atomics.load(cancel, 1) !== 0;
    const result =
      message.kind === 'warm'
        ? checker.warm(message.request, cancelled, giveWay)
        : checker.check(message.request, cancelled, message.kind === 'prepare' ? giveWay : undefined);
    post({ kind: 'result', id, result });
  } catch (error) {
    post({ kind: 'error', id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
