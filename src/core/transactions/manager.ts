import { lineCounts } from './diff';
import type { LineCounts } from './diff';
import { callTool, resolveExternally, revise, ToolError } from '../chain/envelope';
import type { CommittedFile, EditorPort } from '../documents/editorPort';
import type { CommitJournal, LastCommit, RecoveryReport } from './journal';
import type { OperationalMode } from '../chain/modes';
import { joinFolder } from '../documents/paths';
import type { Workspace } from '../documents/workspaces';
import { ANSWER_LIST_DEFAULT } from '../chain/bounding';
import { mapConcurrently } from '../util/concurrency';
import { countOf } from '../util/wording';
import type {
  Author,
  ChangedDocument,
  MutationData,
  Provenance,
  Revision,
  RevisionInfo,
  StageOptions,
  StagedChange,
  StagedDocument,
  StagedFileSummary,
  StagedState,
  TransactionEvent,
  TransactionState,
} from './types';
import type { CommitFile, CommitPlan, DocumentBase } from './plan';
import { Transaction, changeKindOf, stagedComparison, stagedPath } from './transaction';
import { sha256 } from './segments';
import { planCommit } from './planner';
import { StateBuilder } from './stateBuilder';
import { drift } from './drift';

/** The calling tool's point of no return: a call cancelled or timed out before it throws there, with nothing done. */
export interface CommitPoint {
  commitPoint(): void;
}

export interface ManagerDeps {
  editor: EditorPort;
  maxRevisions: () => number;
  mode: () => OperationalMode;
  journal?: CommitJournal;
}

const MAX_FILES_PER_REVISION = 2000;
/** Reads in flight while staging: one at a time, a 1,000-file rename waited on ~3,000 file system calls in turn. */
const READ_CONCURRENCY = 16;

/** Hashes per bytes object: the host hands back the same bytes for a file read moments ago (unchanged since), so a rename staged again hashes nothing again. */
const diskHashes = new WeakMap<Uint8Array, string>();
function diskHashOf(bytes: Uint8Array): string {
  let hash = diskHashes.get(bytes);
  if (hash === undefined) diskHashes.set(bytes, (hash = sha256(bytes)));
  return hash;
}

/**
 * The staged transactions, one per workspace folder. Mutations go through `stage`, which runs
 * one at a time per workspace, so two concurrent calls never interleave half-staged revisions.
 */
export class TransactionManager {
  private readonly transactions = new Map<string, Transaction>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<(e: TransactionEvent) => void>();
  private readonly countsCache = new WeakMap<StagedDocument, LineCounts>();
  private readonly keptNotes = new Map<string, string>();
  private readonly restoredIds = new Set<string>();

  constructor(private readonly deps: ManagerDeps) {}

  active(workspaceId: string): Transaction | undefined {
    return this.transactions.get(workspaceId);
  }

  /** The provider WorkspaceRegistry feeds snapshots with. */
  revision(workspaceId: string): number | null {
    return this.transactions.get(workspaceId)?.current ?? null;
  }

  onDidChange(listener: (e: TransactionEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(tx: Transaction, reason: TransactionEvent['reason'], revision: number | null = tx.current): void {
    for (const l of [...this.listeners]) {
      try {
        l({ workspaceId: tx.workspaceId, transactionId: tx.id, reason, revision });
      } catch {
        // A listener's failure must not undo a staged change.
      }
    }
  }

  /** Runs `fn` after every earlier call for the same workspace has finished. */
  exclusive<T>(workspaceId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(workspaceId) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(workspaceId, settled);
    void settled.then(() => {
      if (this.queues.get(workspaceId) === settled) this.queues.delete(workspaceId);
    });
    return run;
  }

  state(tx: Transaction | undefined): TransactionState | null {
    if (!tx) return null;
    const max = this.deps.maxRevisions();
    const mode = this.deps.mode();
    const remaining = Math.max(0, max - tx.current);
    const hasChanges = tx.effectiveDocuments().length > 0;
    return {
      revision: tx.current,
      revisionCount: tx.revisions.length,
      maxRevisions: max,
      remainingRevisions: remaining,
      canMutate: mode !== 'inspection-only' && remaining > 0,
      canUndo: tx.current > 0,
      canRedo: tx.current < tx.revisions.length,
      canCommit: mode !== 'inspection-only' && hasChanges,
      canRollback: true,
    };
  }

  start(workspace: Workspace): { transaction: Transaction; started: boolean } {
    const existing = this.transactions.get(workspace.id);
    if (existing) return { transaction: existing, started: false };
    const tx = new Transaction(workspace.id);
    this.transactions.set(workspace.id, tx);
    this.emit(tx, 'started');
    return { transaction: tx, started: true };
  }

  require(workspace: Workspace): Transaction {
    const tx = this.transactions.get(workspace.id);
    if (!tx) {
      throw new ToolError(
        'NoActiveTransaction',
        `No transaction is active in ${workspace.alias}; nothing is staged.`,
        callTool('transaction-start', 'Stage a change with a mutation tool (it starts a transaction), or call transaction-start.'),
      );
    }
    return tx;
  }

  /** The staged document at a staged path, 'gone' when the transaction deleted or moved it away, undefined when not staged. */
  stagedView(workspace: Workspace, relativePath: string): StagedDocument | 'gone' | undefined {
    const tx = this.transactions.get(workspace.id);
    if (!tx) return undefined;
    let gone = false;
    for (const d of tx.state().values()) {
      if (d.path === relativePath) return d;
      if (d.origin?.path === relativePath) gone = true;
    }
    return gone ? 'gone' : undefined;
  }

  /** The staged text of a path, or undefined when the path is not staged (or staged as deleted). */
  stagedText(workspace: Workspace, relativePath: string): string | undefined {
    const v = this.stagedView(workspace, relativePath);
    return v && v !== 'gone' ? v.text : undefined;
  }

  /** Where a moved or deleted base path went, for messages. */
  whereIs(workspace: Workspace, basePath: string): string | null | undefined {
    const tx = this.transactions.get(workspace.id);
    for (const d of tx?.state().values() ?? []) if (d.origin?.path === basePath) return d.path;
    return undefined;
  }

  counts(d: StagedDocument): LineCounts {
    let c = this.countsCache.get(d);
    if (!c) {
      const { original, updated } = stagedComparison(d);
      c = lineCounts(original, updated);
      this.countsCache.set(d, c);
    }
    return c;
  }

  async describe(workspace: Workspace, d: StagedDocument, counts: LineCounts = this.counts(d)): Promise<ChangedDocument> {
    const p = stagedPath(d);
    const project = await workspace.projectFor(p);
    const out: ChangedDocument = {
      document: { documentId: workspace.documentId(p), path: p, projectId: project.projectId },
      changeKind: changeKindOf(d),
      preview: counts,
    };
    if (d.origin && d.path !== null && d.path !== d.origin.path) out.previousPath = d.origin.path;
    return out;
  }

  async preview(workspace: Workspace): Promise<ChangedDocument[]> {
    return Promise.all(this.changedDocuments(workspace).map((d) => this.describe(workspace, d)));
  }

  /** The documents the transaction changes, in path order, not yet described (line counts cost a diff each). */
  changedDocuments(workspace: Workspace): StagedDocument[] {
    const tx = this.transactions.get(workspace.id);
    if (!tx) return [];
    return tx.effectiveDocuments().sort((a, b) => (a.path ?? a.origin?.path ?? '').localeCompare(b.path ?? b.origin?.path ?? ''));
  }

  /** Revisions with their provenance, oldest first. */
  history(workspace: Workspace): RevisionInfo[] {
    const tx = this.transactions.get(workspace.id);
    return (tx?.revisions ?? []).map(revisionInfo);
  }

  /** Moves the current revision back (undo) or forward (redo). */
  move(workspace: Workspace, direction: 'undo' | 'redo', steps = 1): Transaction {
    const tx = this.require(workspace);
    const target = direction === 'undo' ? tx.current - steps : tx.current + steps;
    if (target < 0 || target > tx.revisions.length) {
      throw new ToolError(
        'InvalidRequest',
        direction === 'undo'
          ? `Cannot undo ${countOf(steps, 'revision')}: the transaction is at revision ${tx.current}.`
          : `Cannot redo ${countOf(steps, 'revision')}: revision ${tx.current} is followed by ${countOf(tx.revisions.length - tx.current, 'undone revision')}.`,
        revise('Check canUndo/canRedo and revisionCount in transaction-history, then ask for fewer steps.'),
      );
    }
    tx.current = target;
    this.emit(tx, direction);
    return tx;
  }

  /**
   * Discards the active transaction, in the workspace's queue like a commit: after the mutations
   * before it. `check` may refuse (throw) on what it finds, such as a revision the person has not seen.
   */
  rollback(ctx: CommitPoint | undefined, workspace: Workspace, check?: (tx: Transaction) => void): Promise<Transaction> {
    return this.exclusive(workspace.id, async () => {
      const tx = this.require(workspace);
      check?.(tx);
      ctx?.commitPoint();
      this.transactions.delete(workspace.id);
      this.emit(tx, 'rolledBack', null);
      return tx;
    });
  }

  /** After a successful commit: the transaction is done. */
  finish(workspace: Workspace, tx: Transaction): void {
    if (this.transactions.get(workspace.id) === tx) this.transactions.delete(workspace.id);
    this.emit(tx, 'committed', null);
  }

  // -------------------------------------------------------------- staging

  private async readBase(workspace: Workspace, relativePath: string): Promise<DocumentBase | undefined> {
    const abs = joinFolder(workspace.fsPath, relativePath);
    const host = this.deps.editor;
    const { doc, bytes } = host.readDocumentAndBytes
      ? await host.readDocumentAndBytes(abs)
      : { doc: await host.readDocument(abs), bytes: await host.readFileBytes(abs) };
    if (!doc && !bytes) return undefined;
    // A saved buffer of a file no longer on disk is what the editor kept of a file moved or deleted: there is no such document.
    if (!bytes && doc && !doc.isDirty) return undefined;
    if (doc?.lossyEncoding) {
      throw new ToolError(
        'InvalidRequest',
        `${relativePath} is not valid ${doc.lossyEncoding}, the encoding the editor reads it with: bytes it cannot decode show as replacement characters, so writing the file would change bytes nobody edited. Nothing was staged.`,
        resolveExternally(
          `Ask the person to reopen ${relativePath} in its own encoding ("Reopen with Encoding", or files.encoding for the file); then stage again.`,
        ),
        { path: relativePath, encoding: doc.lossyEncoding },
      );
    }
    const text = doc?.text ?? '';
    return {
      path: relativePath,
      text,
      diskHash: bytes ? diskHashOf(bytes) : null,
      binary: !doc,
      eol: doc?.eol ?? 'LF',
      languageId: doc?.languageId ?? 'plaintext',
    };
  }

  /**
   * Stages one revision. Runs after earlier mutations of the workspace; the reads happen
   * first, then ctx.commitPoint() (a cancelled call stops there with nothing staged), then
   * the revision is added in one synchronous step.
   */
  stage(
    ctx: CommitPoint | undefined,
    workspace: Workspace,
    provenance: Provenance,
    changes: readonly StagedChange[],
    options: StageOptions,
  ): Promise<MutationData> {
    return this.exclusive(workspace.id, () => this.stageNow(ctx, workspace, provenance, changes, options));
  }

  /**
   * Resolves and stages in one turn of the workspace's queue: `build` reads the staged text
   * (ctx.location(..., 'staged')) with no other mutation in between, so its offsets cannot go stale.
   */
  mutate(
    ctx: CommitPoint | undefined,
    workspace: Workspace,
    build: () => Promise<{ provenance: Provenance; changes: readonly StagedChange[]; options: StageOptions }>,
  ): Promise<MutationData> {
    return this.exclusive(workspace.id, async () => {
      const b = await build();
      return this.stageNow(ctx, workspace, b.provenance, b.changes, b.options);
    });
  }

  private stageNow(
    ctx: CommitPoint | undefined,
    workspace: Workspace,
    provenance: Provenance,
    changes: readonly StagedChange[],
    options: StageOptions,
  ): Promise<MutationData> {
    return (async () => {
      if (changes.length === 0) {
        throw new ToolError('InvalidRequest', 'There is nothing to stage: the change is empty.', revise('Describe at least one edit or file operation.'));
      }
      const existing = this.transactions.get(workspace.id);
      const max = this.deps.maxRevisions();
      if (existing && existing.current >= max) {
        throw new ToolError(
          'RevisionCapacityReached',
          `The transaction holds ${existing.current} of at most ${max} revisions; nothing was staged.`,
          callTool(
            'transaction-history',
            'Undo revisions you no longer need with transaction-history (action "undo"), or commit or roll back the transaction, then stage again.',
          ),
        );
      }
      const before: StagedState = existing?.state() ?? new Map();
      const bases = new Map<string, DocumentBase | undefined>();
      const paths = new Set<string>();
      for (const c of changes) {
        if (c.kind === 'rename') {
          paths.add(c.from);
          paths.add(c.to);
        } else if (c.kind !== 'restore') paths.add(c.path);
      }
      if (paths.size > MAX_FILES_PER_REVISION) {
        throw new ToolError('InvalidRequest', `One revision may touch at most ${MAX_FILES_PER_REVISION} files.`, revise('Split the change.'));
      }
      const stagedPaths = new Set<string>();
      for (const d of before.values()) {
        if (d.path !== null) stagedPaths.add(d.path);
        if (d.origin) stagedPaths.add(d.origin.path);
      }
      const unstaged = [...paths].filter((p) => !stagedPaths.has(p));
      const read = await mapConcurrently(unstaged, READ_CONCURRENCY, (p) => this.readBase(workspace, p));
      unstaged.forEach((p, i) => bases.set(p, read[i]));
      const builder = new StateBuilder(before, bases, workspace);
      for (const c of changes) builder.apply(c, options);
      builder.dropUntouched();
      const touched = builder.touched();
      if (touched.length === 0) {
        throw new ToolError(
          'InvalidRequest',
          'The change leaves every document as it is staged already; nothing was staged.',
          revise('Check the staged text (transaction-preview or get-code-context with view "staged") and describe a real change.'),
        );
      }
      // Described before the point of no return: after it nothing may fail. Only the listed ones
      // are counted (a diff each); transaction-preview counts the others when it shows them.
      const listed = [...touched].sort((a, b) => stagedPath(a).localeCompare(stagedPath(b))).slice(0, ANSWER_LIST_DEFAULT);
      const items = listed.map((d): StagedFileSummary => {
        const previous = before.get(d.key);
        // Against the base these are the counts transaction-preview shows: cached for it.
        const counts = previous ? lineCounts(previous.path === null ? '' : previous.text, d.path === null ? '' : d.text) : this.counts(d);
        const kind = changeKindOf(d);
        return {
          path: stagedPath(d),
          ...(kind === 'Modified' ? {} : { changeKind: kind }),
          ...(d.origin && d.path !== null && d.path !== d.origin.path ? { previousPath: d.origin.path } : {}),
          ...compactCounts(counts),
        };
      });
      ctx?.commitPoint();
      const { transaction: tx } = this.start(workspace);
      tx.revisions.splice(tx.current);
      const by = provenance.by ?? 'agent';
      const revision: Revision = {
        number: tx.current + 1,
        provenance: {
          tool: provenance.tool,
          summary: provenance.summary,
          by,
          ...(provenance.codeActionKind ? { codeActionKind: provenance.codeActionKind } : {}),
        },
        time: new Date().toISOString(),
        paths: touched.map((d) => d.path ?? d.origin?.path ?? '').sort(),
        state: builder.state,
        ...(options.coverage ? { coverage: { ...options.coverage } } : {}),
        ...(options.rename ? { rename: { from: options.rename.from, to: options.rename.to } } : {}),
      };
      tx.revisions.push(revision);
      tx.current = revision.number;
      this.emit(tx, 'staged');
      return {
        transaction: this.state(tx) as TransactionState,
        revision: { revision: revision.number, ...revision.provenance, time: revision.time },
        documents: { items, hasMore: touched.length > items.length, totalCount: touched.length },
        ...(builder.notes.length > 0 ? { notes: builder.notes } : {}),
      };
    })();
  }

  // -------------------------------------------------------------- commit

  recovery(): RecoveryReport {
    const journal = this.deps.journal?.recovery() ?? { state: 'clean', detail: 'No interrupted commit was found at start.' };
    const notes = [...this.keptNotes.values()];
    if (notes.length === 0) return journal;
    const restored = [...this.keptNotes.keys()].some((id) => this.restoredIds.has(id));
    return { state: journal.state === 'clean' && restored ? 'recovered' : journal.state, detail: [journal.detail, ...notes].join(' ') };
  }

  /** The last commit of the workspace's folder, as the journal keeps it for a revert. */
  lastCommit(workspace: Workspace): Promise<LastCommit | undefined> {
    return this.deps.journal?.lastCommit(workspace.fsPath) ?? Promise.resolve(undefined);
  }

  /** What the transaction store says about a workspace's transaction across restarts (server-status shows it); undefined clears it. */
  notePersistence(workspaceId: string, note: string | undefined, restored = false): void {
    if (note === undefined) this.keptNotes.delete(workspaceId);
    else this.keptNotes.set(workspaceId, note);
    if (restored) this.restoredIds.add(workspaceId);
    else this.restoredIds.delete(workspaceId);
  }

  /** Installs a transaction read back after a restart, unless the workspace already has one. */
  adopt(tx: Transaction): boolean {
    if (this.transactions.has(tx.workspaceId)) return false;
    this.transactions.set(tx.workspaceId, tx);
    this.emit(tx, 'restored');
    return true;
  }

  /** What changed under a planned file since it was staged (drift.ts), read through the editor port. */
  private async drift(f: CommitFile): Promise<string | undefined> {
    const host = this.deps.editor;
    const exists = async (abs: string) => (await host.realPath(abs)) !== undefined;
    if (f.kind === 'create') return drift(f, { bytes: (await exists(f.absPath)) ? new Uint8Array() : undefined });
    const bytes = (await host.readFileBytes(f.absPath)) ?? undefined;
    const editorText = f.base && !f.base.binary ? ((await host.readDocument(f.absPath))?.text ?? '') : undefined;
    return drift(f, { bytes, targetExists: f.newAbsPath ? await exists(f.newAbsPath) : false, editorText });
  }

  /**
   * Commits the active transaction: checks every file (editor and disk) against its base, then
   * (point of no return) has the host apply one edit, save and verify, restoring on failure.
   * The transaction ends only when everything was written.
   */
  /** `gate` runs in the workspace's queue before anything is written, on exactly the revision committed; it refuses by throwing. */
  commit(
    ctx: CommitPoint | undefined,
    workspace: Workspace,
    by: Author,
    gate?: (tx: Transaction) => Promise<void>,
  ): Promise<{ transaction: Transaction; files: CommittedFile[] }> {
    return this.exclusive(workspace.id, async () => {
      const { tx, plan } = this.commitPlan(workspace);
      const partial = tx.revisions.slice(0, tx.current).find((r) => r.coverage?.state === 'loading');
      if (partial) throw stagedWhileLoading(partial, by);
      await gate?.(tx);
      for (const f of plan.files) {
        const problem = await this.drift(f);
        if (problem) throw conflictError(problem, f.path, by);
      }
      ctx?.commitPoint();
      await this.deps.journal?.begin(plan);
      const outcome = await this.deps.editor.commitFiles(plan);
      if (!outcome.ok) {
        await this.deps.journal?.end(plan.transactionId, outcome.restored ? 'restored' : 'failed', undefined, outcome.message);
        this.emit(tx, 'staged');
        if (outcome.code === 'TransactionConflicted') throw conflictError(outcome.message.replace(/\.$/, ''), outcome.path, by);
        throw new ToolError(
          'CommitFailed',
          `The commit failed at ${outcome.path}: ${outcome.message}. ${outcome.restored ? 'Every file was put back byte for byte; the transaction is kept.' : `Restoring was incomplete: ${outcome.restoreProblems.join('; ')}. The transaction is kept.`}`,
          outcome.restored
            ? outcome.resolution
              ? resolveExternally(outcome.resolution)
              : { kind: 'RetryRequest', instruction: 'Retry transaction-commit once; if it fails again, tell the person which file failed.' }
            : resolveExternally('Tell the person the commit failed halfway and which files could not be restored; they must check them (git diff).'),
          outcome,
        );
      }
      await this.deps.journal?.end(plan.transactionId, 'committed', outcome.files);
      this.finish(workspace, tx);
      return { transaction: tx, files: outcome.files };
    });
  }

  /** The file operations a commit performs, in order: deletes, renames, creates, then text edits (planner.ts). */
  commitPlan(workspace: Workspace): { tx: Transaction; plan: CommitPlan } {
    const tx = this.require(workspace);
    return { tx, plan: planCommit(workspace, tx) };
  }
}

/** A revision a language service computed from the open files only: staging it again is the only way to a complete edit. */
function stagedWhileLoading(r: Revision, by: Author): ToolError {
  const languageId = r.coverage?.languageId ?? 'the';
  return new ToolError(
    'LanguageServiceStarting',
    `Revision ${r.number} (${r.provenance.summary}) was staged while the ${languageId} language service was still loading the project, so its edits may miss files nobody had open. Nothing was written; the transaction is kept.`,
    by === 'person'
      ? resolveExternally(`Undo revision ${r.number} and ask the agent to stage it again, or roll the transaction back.`)
      : callTool(
          'transaction-history',
          `Undo back to revision ${r.number - 1} with transaction-history (action "undo"), stage the same change again (${r.provenance.tool}), then commit.`,
        ),
    { revision: r.number, languageId },
  );
}

function conflictError(problem: string, path: string, by: Author): ToolError {
  return new ToolError(
    'TransactionConflicted',
    `${problem}. Nothing was written; the transaction is kept.`,
    by === 'person'
      ? resolveExternally(`Save or revert ${path}, or roll the transaction back.`)
      : resolveExternally(
          `Tell the person ${path} changed. To keep their change: transaction-rollback, then stage your edits again on the current text. To keep the staged edits: ask them to revert ${path}, then call transaction-commit again.`,
        ),
    { path },
  );
}

function revisionInfo(r: Revision): RevisionInfo {
  return { revision: r.number, ...r.provenance, time: r.time, paths: r.paths };
}

/** Line counts as a revision's answer lists them (StagedFileSummary): what can be read back is left out. */
export function compactCounts(c: LineCounts): Partial<LineCounts> {
  // changedLines is at most either count, so a count left out reads back unambiguously.
  return {
    ...(c.addedLines > c.changedLines ? { addedLines: c.addedLines } : {}),
    ...(c.removedLines > c.changedLines ? { removedLines: c.removedLines } : {}),
    ...(c.changedLines > 0 ? { changedLines: c.changedLines } : {}),
  };
}
