/**
 * What the host asks the checker worker and what it answers. Paths in requests and answers are
 * relative to the request's folder, with '/' separators, like every path the tools show.
 */

/** How much nicer than the extension host the checker's thread runs on Linux: a check uses what the language server and the host leave. */
export const CHECK_NICE = 10;

export interface CheckRequest {
  /** Absolute path of the workspace folder the transaction belongs to. */
  folder: string;
  /** The staged documents: path → staged text, or null for a document the transaction deletes. */
  staged: Record<string, string | null>;
  /** The current text of unsaved editor buffers (the unstaged view): path → text. Every other file is read from disk. */
  buffers: Record<string, string>;
  /** Date.now() after which the check stops and answers what it has, with complete: false and reason 'time-limit'. */
  deadline?: number;
  /** The most dependents (documents importing a staged one, transitively) checked besides the staged documents; default 1,000. */
  maxDependents?: number;
}

/**
 * The current view of the projects of some documents, computed ahead of any check (every file's
 * diagnostics and declarations), so that a check asked later computes only the staged side.
 */
export interface WarmRequest {
  folder: string;
  /** Documents (folder-relative) whose projects are computed: each with its nearest tsconfig/jsconfig. */
  files: string[];
  /** The current text of unsaved editor buffers, as in CheckRequest. */
  buffers: Record<string, string>;
}

export interface WarmedResult {
  outcome: 'warmed';
  /** Config files (folder-relative) of the projects computed. */
  projects: string[];
  /** The projects' own files (not node_modules, not TypeScript's lib). */
  files: number;
  /** Of those, how many this call computed (the rest were already warm). */
  computed: number;
  durationMs: number;
}

export type WarmResult = WarmedResult | CancelledResult;

export type Severity = 'error' | 'warning' | 'suggestion' | 'message';

export interface CheckedDiagnostic {
  path: string;
  /** 1-based, in the text the list says: the staged text for `introduced`, the current text for `resolved`. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  /** TypeScript's code (2304 for TS2304). */
  code: number;
  /** The message chain flattened, one message per line. */
  message: string;
  severity: Severity;
}

export type IncompleteReason = 'dependent-cap' | 'time-limit';

export interface CheckedResult {
  outcome: 'checked';
  /** Diagnostics the staged view has and the current view has not; positions in the staged text. */
  introduced: CheckedDiagnostic[];
  /** Diagnostics the current view has and the staged view has not; positions in the current (unstaged) text. */
  resolved: CheckedDiagnostic[];
  /**
   * The documents the answer covers: the staged ones first, then their dependents. A dependent
   * that cannot see the change (nothing it imports exposes different declarations in the two
   * views) is covered without its diagnostics being computed: they are the same in both.
   */
  checked: string[];
  /** False when a dependent was left out (cap) or the time limit stopped the check; `reasons` says which. */
  complete: boolean;
  reasons: IncompleteReason[];
  /** Config files (folder-relative) of the projects checked; '' for loose files checked with default options. */
  projects: string[];
  typescriptVersion: string;
  /**
   * How much work this check did: files whose semantic diagnostics were computed (not served warm),
   * per view; dependents covered as unaffected, without computing theirs; dependents computed in
   * part (their statements that may see the change); time spent.
   */
  stats: { recomputedBase: number; recomputedStaged: number; unaffected: number; inPart: number; durationMs: number };
}

export interface CancelledResult {
  outcome: 'cancelled';
}

export type CheckResult = CheckedResult | CancelledResult;

/** workerData of the checker worker. */
export interface CheckerWorkerData {
  /** Absolute path of the `typescript` module the worker loads (VS Code's bundled one, in the host). */
  typescriptPath: string;
  /**
   * Two Int32s, read by the worker while it is busy, when no message can reach it: [0] the id of
   * the check to cancel; [1] non-zero when a check run ahead should give way (another waits).
   */
  cancel: SharedArrayBuffer;
}

/** The worker's own V8 heap (its isolate, not the host's), in bytes; after a collection when the worker can force one (node --expose-gc, in benches). */
export interface WorkerMemory {
  heapUsed: number;
  heapTotal: number;
  /** Whether a garbage collection ran just before (so heapUsed is what the warm checker keeps). */
  collected: boolean;
}

/**
 * check: answer it; prepare: the same check run ahead of time, giving way between files when
 * another waits; warm: the current view computed ahead, giving way the same.
 */
export type ToWorker =
  | { kind: 'check' | 'prepare'; id: number; request: CheckRequest }
  | { kind: 'warm'; id: number; request: WarmRequest }
  | { kind: 'cancel'; id: number }
  | { kind: 'memory'; id: number };

export type FromWorker =
  | { kind: 'ready'; typescriptVersion: string }
  | { kind: 'result'; id: number; result: CheckResult | WarmResult }
  | { kind: 'error'; id: number; message: string }
  | { kind: 'memory'; id: number; memory: WorkerMemory };
