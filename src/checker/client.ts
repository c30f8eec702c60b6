import { Worker } from 'node:worker_threads';
import type { CheckedResult, CheckerWorkerData, CheckRequest, CheckResult, FromWorker, ToWorker, WarmRequest, WarmResult, WorkerMemory } from './protocol';

export interface CheckerClientOptions {
  /** The `typescript` module the worker loads: VS Code's bundled one in the host, the devDependency in tests. */
  typescriptPath: string;
  /** dist/check-worker.js (or the compiled src/checker/worker.js). */
  workerPath: string;
  /** How long a cancelled check may take to stop by itself before its worker is terminated; default 300 ms. */
  cancelGraceMs?: number;
  /** How long past its deadline a check may run before its worker is terminated; default 1,000 ms. */
  deadlineGraceMs?: number;
  /**
   * How long an idle worker stays warm before it ends; default CHECKER_IDLE_MS. It holds the
   * project in both views (3.4 GB of a 560,000-line project): kept for the checks that follow a
   * staging, not for the rest of the session.
   */
  idleMs?: number;
}

export const CHECKER_IDLE_MS = 10 * 60_000;

type Answer = CheckResult | WarmResult;

interface Pending {
  id: number;
  settle(outcome: { result: Answer } | { error: Error }): void;
}

type Kind = 'check' | 'prepare' | 'warm';
type Request<K extends Kind> = K extends 'warm' ? WarmRequest : CheckRequest;
type Result<K extends Kind> = K extends 'warm' ? WarmResult : CheckResult;

/**
 * The host's side of the checker: one worker thread, started on the first check and again after
 * it died or was terminated, running one check at a time (later ones wait their turn). A check
 * that does not stop within its grace is ended with its worker, so nothing is left running.
 */
export class CheckerClient {
  private worker: Worker | undefined;
  private readonly cancelBuffer = new SharedArrayBuffer(8);
  /** [0]: the id of the check to cancel; [1]: non-zero while a check run ahead should give way. */
  private readonly cancelFlag = new Int32Array(this.cancelBuffer);
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: Pending | undefined;
  /** Requests in the queue that have not started. */
  private waiting = 0;
  /** The id of the check run ahead (or the warming) that is running, if one is. */
  private preparing: number | undefined;
  private disposed = false;
  private typescriptVersion = '';
  private readonly memoryAsked = new Map<number, (memory: WorkerMemory | undefined) => void>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly options: CheckerClientOptions) {}

  check(request: CheckRequest, signal?: AbortSignal): Promise<CheckResult> {
    return this.enqueue('check', request, signal);
  }

  /**
   * Runs the check of `request` ahead of time, in the background: what it computes stays warm, so
   * the check asked later finds it done. It gives way (between files, keeping what it computed) to
   * any check or newer preparation asked meanwhile, and is skipped when one is already waiting.
   * Answers cancelled when it gave way or was skipped. Nothing waits for it: it never keeps the host alive.
   */
  prepare(request: CheckRequest): Promise<CheckResult> {
    return this.enqueue('prepare', { ...request, deadline: undefined });
  }

  /**
   * Computes the current view of the projects of `request.files` in the background (see
   * Checker.warm), so that the first check after a staging computes the staged side only. Gives
   * way like a check run ahead, and is skipped when anything is already waiting.
   */
  warm(request: WarmRequest): Promise<WarmResult> {
    return this.enqueue('warm', request);
  }

  /** A check run ahead that is running gives way now (between files), as it would to a check asked. */
  stopPreparing(): void {
    if (this.preparing !== undefined) Atomics.store(this.cancelFlag, 1, 1);
  }

  private enqueue<K extends Kind>(kind: K, request: Request<K>, signal?: AbortSignal): Promise<Result<K>> {
    this.waiting++;
    // A warming never stops a check run ahead: that check computes the current view's part it needs.
    if (this.preparing !== undefined && kind !== 'warm') Atomics.store(this.cancelFlag, 1, 1);
    const turn = this.queue.then((): Promise<Result<K>> | Result<K> => {
      this.waiting--;
      if (kind !== 'check' && this.waiting > 0) return { outcome: 'cancelled' } as Result<K>;
      return this.run(kind, request, signal);
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * The worker's heap, read when it is between checks (a check running answers first); undefined
   * when no worker runs (none started yet, or it was terminated) or it ends before answering.
   */
  memory(): Promise<WorkerMemory | undefined> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(undefined);
    const id = this.nextId++;
    // Referenced until it answers, like a check, so a host waiting only for this stays alive.
    worker.ref();
    return new Promise((resolve) => {
      this.memoryAsked.set(id, (memory) => {
        if (this.memoryAsked.size <= 1 && !this.pending) this.worker?.unref();
        resolve(memory);
      });
      this.post(worker, { kind: 'memory', id });
    });
  }

  /** Whether a worker thread exists (idle and warm, or checking). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.idle);
    this.pending?.settle({ result: { outcome: 'cancelled' } });
    await this.terminate();
  }

  private run<K extends Kind>(kind: K, request: Request<K>, signal: AbortSignal | undefined): Promise<Result<K>> {
    if (this.disposed) return Promise.reject(new Error('the checker client is disposed'));
    if (signal?.aborted) return Promise.resolve({ outcome: 'cancelled' } as Result<K>);
    const worker = this.ensureWorker();
    clearTimeout(this.idle);
    const id = this.nextId++;
    if (kind !== 'check') {
      this.preparing = id;
      Atomics.store(this.cancelFlag, 1, 0);
    }
    return new Promise<Result<K>>((resolve, reject) => {
      const timers: NodeJS.Timeout[] = [];
      const onAbort = () => {
        Atomics.store(this.cancelFlag, 0, id);
        this.post(worker, { kind: 'cancel', id });
        timers.push(setTimeout(() => void this.end(id, { outcome: 'cancelled' }), this.options.cancelGraceMs ?? 300));
      };
      this.pending = {
        id,
        settle: (outcome) => {
          if (this.pending?.id !== id) return;
          this.pending = undefined;
          if (this.preparing === id) this.preparing = undefined;
          this.idleAfter();
          if (this.memoryAsked.size === 0) this.worker?.unref();
          timers.forEach(clearTimeout);
          signal?.removeEventListener('abort', onAbort);
          if ('error' in outcome) reject(outcome.error);
          else resolve(outcome.result as Result<K>);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const deadline = 'deadline' in request ? request.deadline : undefined;
      if (deadline !== undefined) {
        const wait = Math.max(0, deadline - Date.now()) + (this.options.deadlineGraceMs ?? 1000);
        timers.push(setTimeout(() => void this.end(id, this.timedOut()), wait));
      }
      // Referenced while it checks, so a host waiting only for this answer stays alive (nobody waits for a preparation).
      if (kind === 'check') worker.ref();
      this.post(
        worker,
        kind === 'warm' ? { kind: 'warm', id, request: request as WarmRequest } : { kind: kind as 'check' | 'prepare', id, request: request as CheckRequest },
      );
    });
  }

  /** Terminates the worker of a check that did not stop, then answers it: once it resolves, no thread is left running. */
  private async end(id: number, result: Answer): Promise<void> {
    if (this.pending?.id !== id) return;
    await this.terminate();
    this.pending?.settle({ result });
  }

  private timedOut(): CheckedResult {
    return {
      outcome: 'checked',
      introduced: [],
      resolved: [],
      checked: [],
      complete: false,
      reasons: ['time-limit'],
      projects: [],
      typescriptVersion: this.typescriptVersion,
      stats: { recomputedBase: 0, recomputedStaged: 0, unaffected: 0, inPart: 0, durationMs: 0 },
    };
  }

  /** Ends the worker once it has been idle for idleMs (a queued request clears the timer when it starts). */
  private idleAfter(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (!this.pending && this.waiting === 0 && this.memoryAsked.size === 0) void this.terminate();
    }, this.options.idleMs ?? CHECKER_IDLE_MS);
    this.idle.unref();
  }

  private post(worker: Worker, message: ToWorker): void {
    worker.postMessage(message);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const workerData: CheckerWorkerData = { typescriptPath: this.options.typescriptPath, cancel: this.cancelBuffer };
    const worker = new Worker(this.options.workerPath, { workerData });
    // A thread that only waits for checks must not keep the host's process alive.
    worker.unref();
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'ready') {
        this.typescriptVersion = message.typescriptVersion;
      } else if (message.kind === 'memory') {
        this.memoryAsked.get(message.id)?.(message.memory);
        this.memoryAsked.delete(message.id);
      } else if (this.pending?.id === message.id) {
        this.pending.settle(message.kind === 'result' ? { result: message.result } : { error: new Error(`the checker failed: ${message.message}`) });
      }
    });
    const died = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.answerMemory();
      this.pending?.settle({ error: new Error(`the checker worker ${why}`) });
    };
    worker.on('error', (error: Error) => died(`failed: ${error.message}`));
    worker.on('exit', (code) => died(`exited (code ${code})`));
    this.worker = worker;
    return worker;
  }

  private async terminate(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.answerMemory();
  }

  /** A worker gone answers no memory question: they resolve with undefined. */
  private answerMemory(): void {
    for (const resolve of this.memoryAsked.values()) resolve(undefined);
    this.memoryAsked.clear();
  }
}
