import { Worker } from 'node:worker_threads';

/** Files to scan for a name, each with its language (word bounds differ by language). */
export interface WordScanRequest {
  id: number;
  name: string;
  files: [absPath: string, languageId: string][];
  maxBytes: number;
  /** Only read the files (up to what the worker keeps), to scan them later without reading: the answer lists none. */
  ahead?: boolean;
}

/**
 * Per file read: [absPath] when the name is not in it as a whole word, else its starts and the
 * stamp of what was scanned. Texts are not sent: structured-cloning a rename's 160 files (8
 * million characters) took 46 to 105 ms outside VS Code, the reading half of it on the host's
 * thread. Files not read are left out.
 */
export interface WordScanAnswer {
  id: number;
  files: ([absPath: string] | [absPath: string, starts: number[], stamp: string])[];
  /** How many files it read from disk, the rest being kept from before with their stamps unchanged. */
  read?: number;
  error?: string;
}

export type WordScanResult = ReadonlyMap<string, { starts: number[]; stamp: string } | 'none'>;

/** How much nicer than the extension host the scan's thread runs on Linux (as the checker's). */
export const WORD_SCAN_NICE = 10;

/** An idle worker ends after this long, and with it the texts it kept. */
export const WORD_SCAN_IDLE_MS = 5 * 60_000;

/**
 * The host's side of the word scan (wordScanWorker.ts): one worker thread, started on the first
 * scan and again after it ended. Measured on effect's 625 files while TypeScript computed a
 * rename of 371 edits (2026-12-06, docs/benchmarks.md): scanned on the host's own thread, even in
 * 2 ms stretches, the rename provider's answer came 34 ms later than the same command alone
 * (medians); scanned here, from 3 ms earlier to 19 ms later, the scan done in about 25 ms.
 */
export class WordScanner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(r: WordScanResult): void; reject(e: Error): void }>();
  private idle: NodeJS.Timeout | undefined;
  private disposed = false;
  /** Files the worker answered for, in all. */
  filesAnswered = 0;
  /** Files the worker read from disk, in all (a scan of files it keeps reads none). */
  filesRead = 0;

  constructor(
    private readonly workerPath: string,
    private readonly idleMs = WORD_SCAN_IDLE_MS,
  ) {}

  scan(name: string, files: [absPath: string, languageId: string][], maxBytes: number): Promise<WordScanResult> {
    return this.ask({ name, files, maxBytes });
  }

  /**
   * Reads the files into the worker ahead of a scan: at its low priority, the first scan of a
   * window (a rename's) read 625 files in 248 ms while the language server computed, where later
   * scans take about 25 ms. Answers once they are read.
   */
  async readAhead(files: [absPath: string, languageId: string][], maxBytes: number): Promise<void> {
    await this.ask({ name: '', files, maxBytes, ahead: true });
  }

  private ask(request: Omit<WordScanRequest, 'id'>): Promise<WordScanResult> {
    if (this.disposed) return Promise.reject(new Error('the word scanner is disposed'));
    const id = this.nextId++;
    const worker = this.ensureWorker();
    clearTimeout(this.idle);
    return new Promise<WordScanResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...request } satisfies WordScanRequest);
    });
  }

  dispose(): void {
    this.disposed = true;
    this.end(new Error('the word scanner is disposed'));
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath);
    worker.unref();
    worker.on('message', (answer: WordScanAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) this.idle = setTimeout(() => this.end(), this.idleMs).unref();
      this.filesRead += answer.read ?? 0;
      if (!waiter) return;
      if (answer.error !== undefined) return waiter.reject(new Error(`the word scan failed: ${answer.error}`));
      this.filesAnswered += answer.files.length;
      waiter.resolve(new Map(answer.files.map((f) => [f[0], f.length === 1 ? 'none' : { starts: f[1], stamp: f[2] }])));
    });
    const failed = (error: Error) => {
      if (this.worker === worker) this.end(error);
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`the word scan's worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private end(error = new Error('the word scan ended')): void {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    void worker?.terminate();
  }
}
