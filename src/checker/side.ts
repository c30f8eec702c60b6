/**
 * One view's side of a check (the current files, or the staged ones) over every project of a
 * folder, in this thread or in another. The checker keeps the staged side here and may put the
 * current side in a thread of its own, so the two views' type checkers run on two cores at once:
 * the calls that take long (update, declarations, diagnostics) answer a Pending the checker
 * waits on after doing the same work in its own view.
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import * as v8 from 'node:v8';
import { checkTexts, diagnosticRows, programInput, type FolderReads, type SourceRow, folderReads } from './inputs';
import type { CheckedDiagnostic, CheckRequest } from './protocol';
import { GaveWay, SourceFiles, Stop, View, reachesPastImporters, type Declarations, type FileReader, type TextSource, type Ts } from './view';

export interface Pending<T> {
  wait(): T;
}

const settled = <T>(value: T): Pending<T> => ({ wait: () => value });

export interface Diagnosed {
  recomputed: number;
  entries: [string, CheckedDiagnostic[]][];
}

/** What a check asks of one side; `config` names a project by its config file ('' for the loose files). */
export interface Side {
  /** A check starts: this side's texts and stop (a thread builds its own from the request and the check's id). */
  begin(request: CheckRequest, texts: TextSource, stop: Stop, check: { id: number; prepare: boolean }): void;
  update(config: string, files: readonly string[], created: readonly string[], deleted: readonly string[]): Pending<void>;
  /** The files (of those given) its program holds. */
  present(config: string, files: readonly string[]): string[];
  optionsKey(config: string): string;
  sources(config: string): Pending<SourceRow[]>;
  reachesPastImporters(config: string, keys: readonly string[]): boolean;
  declarations(config: string, file: string): Pending<Declarations | null | undefined>;
  diagnostics(config: string, files: readonly string[]): Pending<Diagnosed>;
  drop(config: string): void;
}

/** A side in this thread, over the views `viewOf` gives (the checker's own, sharing parsed files with the other side). */
export class LocalSide implements Side {
  private texts: TextSource | undefined;
  private stop: Stop | undefined;
  private readonly rows: ReturnType<typeof diagnosticRows>;

  constructor(
    private readonly reads: FolderReads,
    private readonly which: 'base' | 'staged',
    readonly viewOf: (config: string) => View,
  ) {
    this.rows = diagnosticRows(reads);
  }

  begin(_request: CheckRequest, texts: TextSource, stop: Stop): void {
    this.texts = texts;
    this.stop = stop;
  }

  update(config: string, files: readonly string[], created: readonly string[], deleted: readonly string[]): Pending<void> {
    const input = programInput(this.reads, config, this.texts!, files, created, deleted, this.which);
    const view = this.viewOf(config);
    view.configDiagnostics = input.configDiagnostics;
    view.update(this.texts!, input.rootNames, input.options, input.references, this.stop!);
    return settled(undefined);
  }

  present(config: string, files: readonly string[]): string[] {
    const program = this.viewOf(config).program!;
    return files.filter((f) => program.getSourceFile(f));
  }

  optionsKey(config: string): string {
    return JSON.stringify(this.viewOf(config).program!.getCompilerOptions());
  }

  sources(config: string): Pending<SourceRow[]> {
    const { canon, folder } = this.reads;
    const view = this.viewOf(config);
    const program = view.program!;
    const rows: SourceRow[] = [];
    for (const sf of program.getSourceFiles()) {
      const key = canon(sf.fileName);
      if (!key.startsWith(`${canon(folder)}/`) || key.includes('/node_modules/') || program.isSourceFileDefaultLibrary(sf)) continue;
      rows.push([key, sf.fileName, view.importsOf(sf)]);
    }
    return settled(rows);
  }

  reachesPastImporters(config: string, keys: readonly string[]): boolean {
    const program = this.viewOf(config).program!;
    return keys.some((key) => {
      const sf = program.getSourceFile(key);
      return sf !== undefined && reachesPastImporters(this.reads.ts, sf);
    });
  }

  declarations(config: string, file: string): Pending<Declarations | null | undefined> {
    return settled(this.viewOf(config).declarations(file, this.stop!));
  }

  diagnostics(config: string, files: readonly string[]): Pending<Diagnosed> {
    const into = new Map<string, CheckedDiagnostic[]>();
    const recomputed = this.viewOf(config).diagnostics(files, this.stop!, into, this.rows);
    return settled({ recomputed, entries: [...into] });
  }

  drop(config: string): void {
    this.viewOf(config).drop();
  }
}

type Op = Exclude<keyof Side, 'begin'>;
type Message = { op: 'begin'; request: CheckRequest; id: number; prepare: boolean } | { op: Op; args: unknown[] } | { op: 'memory' };
type Call = { seq: number; folder: string } & Message;
type Answer = { seq: number } & ({ ok: true; value: unknown } | { ok: false; stop: 'cancelled' | 'time-limit' | 'gave-way' } | { ok: false; error: string });

/**
 * The link to the side's thread: calls go out as messages, and the answer is read back
 * synchronously (the checker is synchronous): the thread bumps `signal` after posting it.
 */
export interface SideChannel {
  port: MessagePort;
  signal: Int32Array;
  seq: number;
}

/** How long the checker waits for the other thread's answer before asking whether to stop, and how long past a cancel, the deadline or a word to give way before giving the answer up. */
const PATIENCE_MS = 1_000;
const GRACE_MS = 2_000;

/** A side in another thread (serveSide there), for one folder. */
export class RemoteSide implements Side {
  private stop: Stop | undefined;

  constructor(
    private readonly ts: Ts,
    private readonly channel: SideChannel,
    private readonly folder: string,
  ) {}

  begin(request: CheckRequest, _texts: TextSource, stop: Stop, check: { id: number; prepare: boolean }): void {
    this.stop = stop;
    this.call({ op: 'begin', request, id: check.id, prepare: check.prepare }).wait();
  }
  update(config: string, files: readonly string[], created: readonly string[], deleted: readonly string[]): Pending<void> {
    return this.call({ op: 'update', args: [config, files, created, deleted] }) as Pending<void>;
  }
  present(config: string, files: readonly string[]): string[] {
    return this.call({ op: 'present', args: [config, files] }).wait() as string[];
  }
  optionsKey(config: string): string {
    return this.call({ op: 'optionsKey', args: [config] }).wait() as string;
  }
  sources(config: string): Pending<SourceRow[]> {
    return this.call({ op: 'sources', args: [config] }) as Pending<SourceRow[]>;
  }
  reachesPastImporters(config: string, keys: readonly string[]): boolean {
    return this.call({ op: 'reachesPastImporters', args: [config, keys] }).wait() as boolean;
  }
  declarations(config: string, file: string): Pending<Declarations | null | undefined> {
    return this.call({ op: 'declarations', args: [config, file] }) as Pending<Declarations | null | undefined>;
  }
  diagnostics(config: string, files: readonly string[]): Pending<Diagnosed> {
    return this.call({ op: 'diagnostics', args: [config, files] }) as Pending<Diagnosed>;
  }
  drop(config: string): void {
    this.call({ op: 'drop', args: [config] }).wait();
  }
  /** The thread's V8 heap; asked between checks, given up on with `stop` as a call of a check is. */
  memory(stop: Stop): { heapUsed: number; heapTotal: number } {
    this.stop = stop;
    return this.call({ op: 'memory' }).wait() as { heapUsed: number; heapTotal: number };
  }

  private call(message: Message): Pending<unknown> {
    const seq = ++this.channel.seq;
    this.channel.port.postMessage({ ...message, seq, folder: this.folder } as Call);
    let answer: Answer | undefined;
    return {
      wait: () => {
        answer ??= receive(this.channel, seq, this.stop);
        if (answer.ok) return answer.value;
        if ('error' in answer) throw new Error(`the current view's thread failed: ${answer.error}`);
        if (answer.stop === 'gave-way') throw new GaveWay();
        if (this.stop) this.stop.reason = answer.stop;
        throw new this.ts.OperationCanceledException();
      },
    };
  }
}

/**
 * The answer to call `seq`; answers to calls given up on before it are dropped. The other thread
 * stops by itself on a cancel, the deadline or a word to give way (it reads the same flags); one
 * that does not answer (it died) is given up on GRACE_MS after that.
 */
function receive(channel: SideChannel, seq: number, stop: Stop | undefined): Answer {
  const started = Date.now();
  let stoppedAt: number | undefined;
  for (;;) {
    const seen = Atomics.load(channel.signal, 0);
    for (let m = receiveMessageOnPort(channel.port); m; m = receiveMessageOnPort(channel.port)) {
      const answer = m.message as Answer;
      if (answer.seq === seq) return answer;
    }
    Atomics.wait(channel.signal, 0, seen, 100);
    if (!stop || Date.now() - started < PATIENCE_MS) continue;
    if (stop.isCancellationRequested() || stop.givingWay()) {
      stoppedAt ??= Date.now();
      if (Date.now() - stoppedAt > GRACE_MS) return { seq, ok: false, stop: stop.reason ?? 'gave-way' };
    }
  }
}

/**
 * The thread's end: answers a checker's calls with a LocalSide per folder over views of its own,
 * reading the current files through `reader`; stops on the shared cancel flags and the deadline,
 * as the checker's thread does.
 */
export function serveSide(ts: Ts, reader: FileReader, port: MessagePort, signal: Int32Array, cancel: Int32Array): void {
  const folders = new Map<string, { side: LocalSide; reads: FolderReads; stop?: Stop }>();
  const answer = (message: Answer) => {
    port.postMessage(message);
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  port.on('message', (call: Call) => {
    try {
      if (call.op === 'memory') {
        const heap = v8.getHeapStatistics();
        return answer({ seq: call.seq, ok: true, value: { heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size } });
      }
      let entry = folders.get(call.folder);
      if (!entry) {
        const reads = folderReads(ts, reader, call.folder);
        const views = new Map<string, View>();
        const side = new LocalSide(reads, 'base', (config) => {
          let view = views.get(config);
          if (!view) views.set(config, (view = new View(ts, reader, new SourceFiles(ts), reads.folder, reads.canon)));
          return view;
        });
        folders.set(call.folder, (entry = { side, reads }));
      }
      if (call.op === 'begin') {
        const { id, prepare, request } = call;
        // Check ids start at 1: 0 is a check the host cannot cancel through the flags (a direct call).
        const stop = new Stop(
          ts,
          () => id !== 0 && Atomics.load(cancel, 0) === id,
          request.deadline,
          prepare ? () => Atomics.load(cancel, 1) !== 0 : undefined,
        );
        entry.stop = stop;
        entry.side.begin(request, checkTexts(entry.reads, request).baseTexts, stop);
        return answer({ seq: call.seq, ok: true, value: undefined });
      }
      const method = entry.side[call.op] as (...args: unknown[]) => unknown;
      const value = method.apply(entry.side, call.args);
      answer({ seq: call.seq, ok: true, value: isPending(value) ? value.wait() : value });
    } catch (error) {
      if (error instanceof GaveWay) return answer({ seq: call.seq, ok: false, stop: 'gave-way' });
      // Half-checked files may be held: the checker drops this side's views of the project as it drops its own.
      if (error instanceof ts.OperationCanceledException) {
        return answer({ seq: call.seq, ok: false, stop: folders.get(call.folder)?.stop?.reason ?? 'cancelled' });
      }
      answer({ seq: call.seq, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
}

const isPending = (value: unknown): value is Pending<unknown> =>
  typeof value === 'object' && value !== null && 'wait' in value && typeof (value as Pending<unknown>).wait === 'function';
