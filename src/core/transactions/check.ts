import * as path from 'node:path';
import type { EditorPort, WatchedFile } from '../documents/editorPort';
import { isInside, toPosix } from '../documents/paths';
import type { Workspace } from '../documents/workspaces';
import { sha256 } from './segments';
import type { Transaction } from './transaction';
import type { TransactionEvent } from './types';

/**
 * Checking the staged text as a program before it is written. The port: the host runs the check
 * in a worker thread with VS Code's own TypeScript (host/checker.ts over src/checker/); the core
 * decides what is checked, keeps one check per revision, and says what could not be checked.
 */

export type DiagnosticSeverity = 'error' | 'warning' | 'suggestion' | 'message';

export interface StagedDiagnostic {
  path: string;
  /** 1-based: in the staged text for what a transaction introduces, in the current text for what it resolves. */
  line: number;
  column: number;
  code: number;
  message: string;
  severity: DiagnosticSeverity;
}

export interface StagedCheckRequest {
  folder: string;
  /** Workspace-relative path → staged text, or null for a document the transaction deletes. */
  staged: Record<string, string | null>;
  /** Unsaved buffers (the current, unstaged view): path → text. */
  buffers: Record<string, string>;
  deadline?: number;
}

/** What a finished check found: the delta, what was compared, and whether all of it was. */
export interface CheckFindings {
  introduced: StagedDiagnostic[];
  resolved: StagedDiagnostic[];
  checked: string[];
  complete: boolean;
  reasons: string[];
  typescriptVersion: string;
}

export type StagedCheckAnswer = ({ outcome: 'checked' } & CheckFindings) | { outcome: 'cancelled' };

/** The current view of the projects of some documents, computed ahead of any check (the checker's `warm`). */
export interface StagedWarmRequest {
  folder: string;
  /** Workspace-relative paths: their projects are computed. */
  files: string[];
  buffers: Record<string, string>;
}

/** What a warming computed. */
export interface WarmOutcome {
  projects: string[];
  files: number;
  computed: number;
  durationMs: number;
}

export interface StagedChecker {
  check(request: StagedCheckRequest, signal: AbortSignal): Promise<StagedCheckAnswer>;
  /** Runs the check ahead of time, in the background, so that a check asked later finds its work done (it gives way to that check). */
  prepare?(request: StagedCheckRequest): void;
  /** Stops a check run ahead that is running (its transaction ended): it gives way as it would to a check. */
  stopPreparing?(): void;
  /**
   * Computes the current view ahead, in the background (giving way to any check). Undefined when
   * nothing was computed (it gave way, or was switched off meanwhile). Rejects when the checker
   * could not run.
   */
  warm?(request: StagedWarmRequest): Promise<WarmOutcome | undefined>;
  /** Whether the person lets it compute ahead (setting check.computeAhead). */
  computesAhead?(): boolean;
}

/**
 * How often a folder's current view is computed ahead at most, when its documents changed since
 * (a person typing, a commit): each agent question would ask for one.
 */
export const WARM_EVERY_MS = 60_000;

/**
 * How often when nothing changed: the checker's worker ends after 10 minutes without work, so an
 * agent still asking questions keeps it (and what it computed) with an update that reads the files
 * again and computes nothing, instead of a whole computation after it ended.
 */
export const WARM_REFRESH_MS = 9 * 60_000;

/** How long after the last staging the check is run ahead of time: an agent staging edit after edit starts it once. */
export const PREPARE_AFTER_MS = 1_500;

/** What a revision's check said, as tools, the panel and the commit show it. */
export type RevisionCheck = { transactionId: string; revision: number; unchecked: string[] } & (
  ({ state: 'checked' } & CheckFindings) | { state: 'unavailable'; reason: string; cancelled?: true }
);

/** How long one check may run: the first check of a large project reads and binds all of it. */
export const CHECK_TIME_LIMIT_MS = 100_000;

/** The documents TypeScript's checker reads as a program: TypeScript and JavaScript. */
export const CHECKED_FILES = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;

/** The staged documents as the checker takes them, and the staged documents it cannot check. */
export function checkInput(tx: Transaction): { staged: Record<string, string | null>; unchecked: string[] } {
  const staged: Record<string, string | null> = {};
  const unchecked: string[] = [];
  for (const d of tx.effectiveDocuments()) {
    const from = d.origin?.path;
    const binary = d.origin?.binary ?? false;
    for (const p of [from, d.path]) {
      if (p !== undefined && p !== null && !CHECKED_FILES.test(p) && !unchecked.includes(p)) unchecked.push(p);
    }
    if (binary) continue;
    if (from !== undefined && from !== d.path && CHECKED_FILES.test(from)) staged[from] = null;
    if (d.path !== null && CHECKED_FILES.test(d.path)) staged[d.path] = d.text;
  }
  return { staged, unchecked };
}

/**
 * The text documents a commit writes that no check exists for before it (not TypeScript or
 * JavaScript): their language services are asked after the write instead (transaction-commit).
 */
export function uncheckedWrites(tx: Transaction, folder: string): WatchedFile[] {
  const abs = (p: string) => path.join(folder, ...p.split('/'));
  return tx
    .effectiveDocuments()
    .filter((d) => !d.origin?.binary && ![d.origin?.path, d.path].some((p) => typeof p === 'string' && CHECKED_FILES.test(p)))
    .map((d) => ({ before: d.origin ? abs(d.origin.path) : null, after: d.path === null ? null : abs(d.path) }));
}

/** Unsaved buffers of the folder, by workspace-relative path: the current view the staged one is compared with. */
export async function dirtyBuffers(editor: EditorPort, ws: Workspace): Promise<Record<string, string>> {
  const buffers: Record<string, string> = {};
  for (const d of editor.openDocuments()) {
    if (!d.isDirty || !CHECKED_FILES.test(d.absPath)) continue;
    if (!isInside(ws.fsPath, d.absPath)) continue;
    const relative = toPosix(path.relative(ws.fsPath, d.absPath));
    const doc = await editor.readDocument(d.absPath);
    if (doc) buffers[relative] = doc.text;
  }
  return buffers;
}

/**
 * One check per revision (and per state of the unsaved buffers), shared by every caller that asks
 * for it: a preview, a transaction-check and the commit of the same revision wait for the same
 * work. A newer revision's check cancels the older one's.
 */
/** One workspace's check in flight or done: the revision and buffers it is for, and how to cancel it. */
interface Running {
  key: string;
  answer: Promise<RevisionCheck>;
  abort: AbortController;
  settled?: RevisionCheck;
}

export class StagedChecks {
  private readonly running = new Map<string, Running>();
  /** Per workspace: the timer of the check run ahead after its latest staging. */
  private readonly ahead = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly checker: StagedChecker | undefined,
    private readonly unavailable: string,
  ) {}

  /** Per workspace: when its current view was last asked to be computed ahead, and that work. */
  private readonly warmed = new Map<string, { at: number; snapshot: string; running: boolean; done: Promise<WarmOutcome | undefined> }>();

  /**
   * Computes the current view of `absPath`'s project ahead of any check, in the background, so
   * that the first check after a staging computes only the staged side (one program's check
   * instead of two). Asked when an agent's question finds the document's language service loaded,
   * and started no sooner than `notBefore` (the service's proof has settled: it never competes with
   * the service's own loading); per folder at most every WARM_EVERY_MS after its documents changed,
   * and every WARM_REFRESH_MS when none did.
   */
  warm(ws: Workspace, absPath: string, buffers: () => Promise<Record<string, string>>, options: { now?: number; notBefore?: number } = {}): boolean {
    const checker = this.checker;
    const now = options.now ?? Date.now();
    if (!checker?.warm || checker.computesAhead?.() === false || !CHECKED_FILES.test(absPath) || !isInside(ws.fsPath, absPath)) return false;
    const snapshot = ws.snapshot().snapshotId;
    const last = this.warmed.get(ws.id);
    if (last && now - last.at < (last.snapshot === snapshot ? WARM_REFRESH_MS : WARM_EVERY_MS)) return false;
    const file = toPosix(path.relative(ws.fsPath, absPath));
    const entry = { at: now, snapshot, running: false, done: Promise.resolve<WarmOutcome | undefined>(undefined) };
    const wait = Math.max(0, (options.notBefore ?? now) - now);
    entry.done = (async () => {
      if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait).unref?.());
      entry.running = true;
      try {
        const outcome = await checker.warm!({ folder: ws.fsPath, files: [file], buffers: await buffers() });
        // It gave way to a check (or was switched off meanwhile): the next question asks again (a failure waits its minute).
        if (!outcome && this.warmed.get(ws.id) === entry) this.warmed.delete(ws.id);
        return outcome;
      } catch {
        return undefined;
      } finally {
        entry.running = false;
      }
    })();
    this.warmed.set(ws.id, entry);
    return true;
  }

  /** Whether a warming is computing now (not waiting for its start, not settled). */
  get warming(): boolean {
    return [...this.warmed.values()].some((w) => w.running);
  }

  /** The latest warming of each workspace, settled (benches wait for it before timing the first check). */
  async warmings(): Promise<(WarmOutcome | undefined)[]> {
    return Promise.all([...this.warmed.values()].map((w) => w.done));
  }

  /** The settled check of the transaction's current revision, if one was made (for answers that do not wait). */
  peek(ws: Workspace, tx: Transaction): RevisionCheck | undefined {
    const entry = this.running.get(ws.id);
    return entry?.settled && entry.settled.transactionId === tx.id && entry.settled.revision === tx.current ? entry.settled : undefined;
  }

  /** Why the transaction's current revision cannot be checked at all (no checker, nothing checkable staged), known without checking. */
  unavailableFor(tx: Transaction): string | undefined {
    return this.uncheckable(checkInput(tx).staged);
  }

  private uncheckable(staged: Record<string, string | null>): string | undefined {
    if (!this.checker) return this.unavailable;
    if (Object.keys(staged).length === 0) return 'No TypeScript or JavaScript document is staged: only those are checked before a commit.';
    return undefined;
  }

  /** Whether the check of the transaction's current revision was asked for (running or settled). */
  asked(ws: Workspace, tx: Transaction): boolean {
    return this.running.get(ws.id)?.key.startsWith(`${tx.id}:${tx.current}:`) ?? false;
  }

  of(ws: Workspace, tx: Transaction, buffers: Record<string, string>, timeLimitMs: number): Promise<RevisionCheck> {
    const { staged, unchecked } = checkInput(tx);
    const base = { transactionId: tx.id, revision: tx.current, unchecked };
    const reason = this.uncheckable(staged);
    if (reason !== undefined || !this.checker) return Promise.resolve({ ...base, state: 'unavailable', reason: reason ?? this.unavailable });
    const key = `${tx.id}:${tx.current}:${sha256(JSON.stringify(buffers))}`;
    const current = this.running.get(ws.id);
    if (current?.key === key) return current.answer;
    current?.abort.abort();
    const abort = new AbortController();
    const request: StagedCheckRequest = { folder: ws.fsPath, staged, buffers, deadline: Date.now() + timeLimitMs };
    const entry: Running = {
      key,
      abort,
      answer: this.checker.check(request, abort.signal).then(
        (a): RevisionCheck =>
          a.outcome === 'cancelled'
            ? { ...base, state: 'unavailable', reason: 'The check was cancelled: a newer revision or buffer state replaced it.', cancelled: true }
            : { ...base, state: 'checked', ...a },
        (error: unknown): RevisionCheck => ({
          ...base,
          state: 'unavailable',
          reason: `The checker failed: ${error instanceof Error ? error.message : String(error)}.`,
        }),
      ),
    };
    void entry.answer.then((settled) => {
      entry.settled = settled;
      // A cancelled check is not kept: asking again checks again.
      if (settled.state === 'unavailable' && this.running.get(ws.id) === entry) this.running.delete(ws.id);
    });
    this.running.set(ws.id, entry);
    return entry.answer;
  }

  /**
   * Runs the check of the transaction's current revision ahead of time (in the background, giving
   * way to any check asked), unless that revision's check was already asked for.
   */
  prepare(ws: Workspace, tx: Transaction, buffers: Record<string, string>): boolean {
    if (!this.checker?.prepare) return false;
    const { staged } = checkInput(tx);
    if (Object.keys(staged).length === 0) return false;
    if (this.running.get(ws.id)?.key === `${tx.id}:${tx.current}:${sha256(JSON.stringify(buffers))}`) return false;
    this.checker.prepare({ folder: ws.fsPath, staged, buffers });
    return true;
  }

  /**
   * Stops the check of a transaction that ended (committed or rolled back): nothing is left
   * running for it. With `ahead`, a revision staged (or reached by undo, redo or a restore) is
   * checked ahead of time PREPARE_AFTER_MS after the last such change of its workspace.
   */
  follow(
    transactions: { onDidChange(listener: (e: TransactionEvent) => void): { dispose(): void } },
    ahead?: {
      transaction(workspaceId: string): { ws: Workspace; tx: Transaction } | undefined;
      buffers(ws: Workspace): Promise<Record<string, string>>;
      delayMs?: number;
    },
  ): { dispose(): void } {
    const subscription = transactions.onDidChange((e) => {
      if (e.reason === 'committed' || e.reason === 'rolledBack') {
        // A commit changed the current view: the next question computes it ahead again, not a minute later.
        if (e.reason === 'committed') this.warmed.delete(e.workspaceId);
        clearTimeout(this.ahead.get(e.workspaceId));
        this.ahead.delete(e.workspaceId);
        this.checker?.stopPreparing?.();
        const entry = this.running.get(e.workspaceId);
        if (!entry || entry.key.split(':')[0] !== e.transactionId) return;
        entry.abort.abort();
        this.running.delete(e.workspaceId);
        return;
      }
      if (!ahead || e.reason === 'started') return;
      clearTimeout(this.ahead.get(e.workspaceId));
      const timer = setTimeout(() => {
        this.ahead.delete(e.workspaceId);
        const found = ahead.transaction(e.workspaceId);
        if (found) {
          void ahead.buffers(found.ws).then(
            (buffers) => this.prepare(found.ws, found.tx, buffers),
            () => undefined,
          );
        }
      }, ahead.delayMs ?? PREPARE_AFTER_MS);
      timer.unref?.();
      this.ahead.set(e.workspaceId, timer);
    });
    return { dispose: () => (subscription.dispose(), this.ahead.forEach((t) => clearTimeout(t)), this.ahead.clear()) };
  }

  dispose(): void {
    for (const e of this.running.values()) e.abort.abort();
    this.running.clear();
    this.ahead.forEach((t) => clearTimeout(t));
    this.ahead.clear();
  }
}

/** Introduced errors (not warnings or suggestions): what the commit policy refuses. */
export const introducedErrors = (check: RevisionCheck | undefined): StagedDiagnostic[] =>
  check?.state === 'checked' ? check.introduced.filter((d) => d.severity === 'error') : [];

/** One line per diagnostic, as a confirmation or a refusal lists them. */
export const diagnosticLine = (d: StagedDiagnostic): string => `${d.path}:${d.line}:${d.column} TS${d.code} ${d.message.split('\n')[0]}`;
