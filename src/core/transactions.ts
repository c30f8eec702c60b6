import { createHash, randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { DocumentRef, ToolContext } from './context';
import { lineCounts } from './diff';
import type { LineCounts } from './diff';
import { callTool, resolveExternally, retry, revise, ToolError } from './envelope';
import type { CommittedFile, WorkbenchHost } from './host';
import type { CommitJournal, RecoveryReport } from './journal';
import type { OperationalMode } from './modes';
import { joinFolder } from './paths';
import type { Workspace } from './workspaces';
import { ANSWER_LIST_DEFAULT } from './bounding';
import { mapConcurrently } from './concurrency';
import { countOf } from './wording';

// ------------------------------------------------------------------ public types

export type Author = 'agent' | 'person';

export interface Provenance {
  tool: string;
  /** One line saying what the revision does. */
  summary: string;
  codeActionKind?: string;
  by?: Author;
}

/** A replacement by zero-based UTF-16 offsets. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** One change of a revision; paths are workspace-relative with forward slashes. */
export type StagedChange =
  | { kind: 'edit'; path: string; edits: OffsetEdit[] }
  | { kind: 'create'; path: string; text: string; overwrite?: boolean; ignoreIfExists?: boolean }
  | { kind: 'delete'; path: string; ignoreIfNotExists?: boolean }
  | { kind: 'rename'; from: string; to: string; overwrite?: boolean; ignoreIfExists?: boolean }
  /** Puts a staged document (by staged or base path) back to its base: path and text; a created file is dropped. */
  | { kind: 'restore'; path: string };

export interface StageOptions {
  /**
   * 'buffer': edit offsets are on the editor buffer text a language service saw; they are mapped
   * onto the staged text when they overlap no staged edit, else TransactionConflicted.
   * 'staged': edit offsets are on the staged text (as it is at that point of the change list).
   */
  basis: 'buffer' | 'staged';
  /** The text each edited path had when the edits were computed (buffer or staged, per basis); a mismatch is a conflict. */
  computedOn?: Record<string, string>;
}

/** The seed's transaction state. */
export interface TransactionState {
  revision: number;
  revisionCount: number;
  maxRevisions: number;
  remainingRevisions: number;
  canMutate: boolean;
  canUndo: boolean;
  canRedo: boolean;
  canCommit: boolean;
  canRollback: boolean;
}

export type ChangeKind = 'Added' | 'Modified' | 'Deleted' | 'Renamed';

export interface ChangedDocument {
  document: DocumentRef;
  changeKind: ChangeKind;
  /** Workspace-relative path before a rename. */
  previousPath?: string;
  preview: LineCounts;
}

export interface RevisionInfo {
  revision: number;
  tool: string;
  summary: string;
  codeActionKind?: string;
  by: Author;
  time: string;
  /** Staged paths this revision changed. */
  paths: string[];
}

/** One file a revision changed, compact: its staged path and line counts for this revision. */
export interface StagedFileSummary extends LineCounts {
  path: string;
  /** Left out when Modified. */
  changeKind?: Exclude<ChangeKind, 'Modified'>;
  previousPath?: string;
}

export interface BoundedList<T> {
  items: T[];
  hasMore: boolean;
  totalCount: number;
}

export interface MutationData {
  transaction: TransactionState;
  /** The revision staged; its paths are the documents' paths. */
  revision: Omit<RevisionInfo, 'paths'>;
  /** Files this revision changed, by path; output bounding may shorten it (hasMore). */
  documents: BoundedList<StagedFileSummary>;
  notes?: string[];
}

/** What a document was when the transaction first touched it. */
export interface DocumentBase {
  path: string;
  /** Buffer text ('' for a file that is not text). */
  text: string;
  hash: string;
  /** sha256 of the bytes on disk; null when the file is not on disk (an unsaved new buffer). */
  diskHash: string | null;
  binary: boolean;
  eol: 'LF' | 'CRLF';
  languageId: string;
}

export type Segment = { start: number; end: number } | { text: string };

/** A document in one staged state. Immutable: changes make new objects. */
export interface StagedDocument {
  readonly key: string;
  /** null for a file the transaction creates. */
  readonly origin: DocumentBase | null;
  /** Current staged path; null when deleted. */
  readonly path: string | null;
  readonly text: string;
  /** How the staged text is made of base slices and inserted text. */
  readonly segments: readonly Segment[];
  /** Only in a revision's answer: the staged path of a created file the revision removed again. */
  readonly removedPath?: string | null;
}

export type StagedState = ReadonlyMap<string, StagedDocument>;

export interface Revision {
  number: number;
  provenance: Required<Pick<Provenance, 'tool' | 'summary' | 'by'>> & { codeActionKind?: string };
  time: string;
  paths: string[];
  state: StagedState;
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

// ------------------------------------------------------------------ segments

function normalize(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if ('text' in s) {
      if (s.text === '') continue;
      if (last && 'text' in last) out[out.length - 1] = { text: last.text + s.text };
      else out.push(s);
    } else {
      if (s.start === s.end) continue;
      if (last && !('text' in last) && last.end === s.start) out[out.length - 1] = { start: last.start, end: s.end };
      else out.push(s);
    }
  }
  return out;
}

const segLength = (s: Segment): number => ('text' in s ? s.text.length : s.end - s.start);

/** Replaces [start, end) of the staged text (offsets into it) in the segment list. */
function replaceSegments(segments: readonly Segment[], start: number, end: number, text: string): Segment[] {
  const out: Segment[] = [];
  let pos = 0;
  let placed = false;
  for (const s of segments) {
    const len = segLength(s);
    const sStart = pos;
    const sEnd = pos + len;
    pos = sEnd;
    if (sEnd <= start) {
      out.push(s);
      continue;
    }
    if (!placed) {
      if (sStart < start) out.push(sliceSegment(s, 0, start - sStart));
      out.push({ text });
      placed = true;
    }
    if (sEnd > end) out.push(sliceSegment(s, Math.max(0, end - sStart), len));
  }
  if (!placed) out.push({ text });
  return normalize(out);
}

function sliceSegment(s: Segment, from: number, to: number): Segment {
  if ('text' in s) return { text: s.text.slice(from, to) };
  return { start: s.start + from, end: s.start + to };
}

export interface BaseRegion {
  start: number;
  end: number;
  text: string;
}

/** The changes from base text to staged text, as replacements of base ranges (ascending, non-overlapping). */
export function changedRegions(doc: Pick<StagedDocument, 'segments'>, baseLength: number): BaseRegion[] {
  const regions: BaseRegion[] = [];
  let cursor = 0;
  let pending = '';
  for (const s of doc.segments) {
    if ('text' in s) {
      pending += s.text;
      continue;
    }
    if (s.start > cursor || pending !== '') regions.push({ start: cursor, end: s.start, text: pending });
    cursor = s.end;
    pending = '';
  }
  if (cursor < baseLength || pending !== '') regions.push({ start: cursor, end: baseLength, text: pending });
  return regions;
}

function overlaps(edit: { start: number; end: number }, region: { start: number; end: number }): boolean {
  if (edit.start === edit.end || region.start === region.end) {
    // An insertion touching a change could land on either side of it: never guess.
    return edit.start <= region.end && region.start <= edit.end;
  }
  return edit.start < region.end && region.start < edit.end;
}

/** Staged offset of a base offset that lies in an unchanged base slice. */
function mapBaseOffset(segments: readonly Segment[], offset: number, preferEnd: boolean): number | undefined {
  let pos = 0;
  for (const s of segments) {
    const len = segLength(s);
    if (!('text' in s)) {
      const inside = preferEnd ? s.start < offset && offset <= s.end : s.start <= offset && offset < s.end;
      if (inside) return pos + (offset - s.start);
    }
    pos += len;
  }
  // An offset at the very end of the base text after an unchanged last slice, or an empty document.
  if (segments.length === 0 && offset === 0) return 0;
  let end = 0;
  for (const s of segments) {
    end += segLength(s);
  }
  const last = segments[segments.length - 1];
  if (last && !('text' in last) && last.end === offset) return end;
  return undefined;
}

/** Applies ascending, non-overlapping edits. */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): string {
  let out = '';
  let cursor = 0;
  for (const e of edits) {
    out += text.slice(cursor, e.start) + e.newText;
    cursor = e.end;
  }
  return out + text.slice(cursor);
}

// ------------------------------------------------------------------ transaction

export class Transaction {
  readonly revisions: Revision[] = [];
  current = 0;

  constructor(
    readonly workspaceId: string,
    readonly id: string = randomUUID(),
    readonly startedAt: string = new Date().toISOString(),
  ) {}

  state(): StagedState {
    return this.current === 0 ? new Map() : this.revisions[this.current - 1].state;
  }

  /** Documents whose staged state differs from their base. */
  effectiveDocuments(): StagedDocument[] {
    return [...this.state().values()].filter(isEffective);
  }
}

function isEffective(d: StagedDocument): boolean {
  if (!d.origin) return d.path !== null;
  if (d.path === null) return true;
  return d.path !== d.origin.path || d.text !== d.origin.text;
}

export function changeKindOf(d: StagedDocument): ChangeKind {
  if (!d.origin) return d.path === null ? 'Deleted' : 'Added';
  if (d.path === null) return 'Deleted';
  if (d.path !== d.origin.path) return 'Renamed';
  return 'Modified';
}

export interface TransactionEvent {
  workspaceId: string;
  transactionId: string;
  reason: 'started' | 'staged' | 'undo' | 'redo' | 'committed' | 'rolledBack' | 'restored';
  revision: number | null;
}

/** What a commit must do to one file, with what it must find first. */
export interface CommitFile {
  kind: 'create' | 'delete' | 'rename' | 'modify';
  /** Absolute path before the commit (for create: the new file). */
  absPath: string;
  /** Workspace-relative path, for messages. */
  path: string;
  newAbsPath?: string;
  newPath?: string;
  /** Expected buffer text hash and disk bytes hash (null: not on disk); absent for create. */
  base?: DocumentBase;
  /** Edits on the base buffer text (modify, rename with changes). */
  edits?: OffsetEdit[];
  /** The staged text (create, modify, rename). */
  text?: string;
}

export interface CommitPlan {
  transactionId: string;
  workspaceId: string;
  folder: string;
  files: CommitFile[];
}

export interface ManagerDeps {
  host: WorkbenchHost;
  maxRevisions: () => number;
  mode: () => OperationalMode;
  journal?: CommitJournal;
}

const MAX_FILES_PER_REVISION = 2000;
/** Reads in flight while staging: one at a time, a 1,000-file rename waited on ~3,000 file system calls in turn. */
const READ_CONCURRENCY = 16;


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
      throw new ToolError('NoActiveTransaction', `No transaction is active in ${workspace.alias}; nothing is staged.`, callTool('transaction-start', 'Stage a change with a mutation tool (it starts a transaction), or call transaction-start.'));
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
      c = lineCounts(d.origin && !d.origin.binary ? d.origin.text : '', d.path === null ? '' : d.text);
      this.countsCache.set(d, c);
    }
    return c;
  }

  async describe(workspace: Workspace, d: StagedDocument, counts: LineCounts = this.counts(d)): Promise<ChangedDocument> {
    const p = d.path ?? d.origin?.path ?? d.removedPath ?? '';
    const project = await workspace.projectFor(p);
    const out: ChangedDocument = { document: { documentId: workspace.documentId(p), path: p, projectId: project.projectId }, changeKind: changeKindOf(d), preview: counts };
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

  rollback(workspace: Workspace): Transaction {
    const tx = this.require(workspace);
    this.transactions.delete(workspace.id);
    this.emit(tx, 'rolledBack', null);
    return tx;
  }

  /** After a successful commit: the transaction is done. */
  finish(workspace: Workspace, tx: Transaction): void {
    if (this.transactions.get(workspace.id) === tx) this.transactions.delete(workspace.id);
    this.emit(tx, 'committed', null);
  }

  // -------------------------------------------------------------- staging

  private async readBase(workspace: Workspace, relativePath: string): Promise<DocumentBase | undefined> {
    const abs = joinFolder(workspace.fsPath, relativePath);
    const host = this.deps.host;
    const { doc, bytes } = host.readDocumentAndBytes ? await host.readDocumentAndBytes(abs) : { doc: await host.readDocument(abs), bytes: await host.readFileBytes(abs) };
    if (!doc && !bytes) return undefined;
    const text = doc?.text ?? '';
    return {
      path: relativePath,
      text,
      hash: sha256(text),
      diskHash: bytes ? sha256(bytes) : null,
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
  stage(ctx: ToolContext | undefined, workspace: Workspace, provenance: Provenance, changes: readonly StagedChange[], options: StageOptions): Promise<MutationData> {
    return this.exclusive(workspace.id, () => this.stageNow(ctx, workspace, provenance, changes, options));
  }

  /**
   * Resolves and stages in one turn of the workspace's queue: `build` reads the staged text
   * (ctx.location(..., 'staged')) with no other mutation in between, so its offsets cannot go stale.
   */
  mutate(ctx: ToolContext | undefined, workspace: Workspace, build: () => Promise<{ provenance: Provenance; changes: readonly StagedChange[]; options: StageOptions }>): Promise<MutationData> {
    return this.exclusive(workspace.id, async () => {
      const b = await build();
      return this.stageNow(ctx, workspace, b.provenance, b.changes, b.options);
    });
  }

  private stageNow(ctx: ToolContext | undefined, workspace: Workspace, provenance: Provenance, changes: readonly StagedChange[], options: StageOptions): Promise<MutationData> {
    return (async () => {
      if (changes.length === 0) throw new ToolError('InvalidRequest', 'There is nothing to stage: the change is empty.', revise('Describe at least one edit or file operation.'));
      const existing = this.transactions.get(workspace.id);
      const max = this.deps.maxRevisions();
      if (existing && existing.current >= max) {
        throw new ToolError(
          'RevisionCapacityReached',
          `The transaction holds ${existing.current} of at most ${max} revisions; nothing was staged.`,
          callTool('transaction-history', 'Undo revisions you no longer need with transaction-history (action "undo"), or commit or roll back the transaction, then stage again.'),
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
      if (paths.size > MAX_FILES_PER_REVISION) throw new ToolError('InvalidRequest', `One revision may touch at most ${MAX_FILES_PER_REVISION} files.`, revise('Split the change.'));
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
        throw new ToolError('InvalidRequest', 'The change leaves every document as it is staged already; nothing was staged.', revise('Check the staged text (transaction-preview or get-code-context with view "staged") and describe a real change.'));
      }
      // Described before the point of no return: after it nothing may fail. Only the listed ones
      // are counted (a diff each); transaction-preview counts the others when it shows them.
      const pathOf = (d: StagedDocument): string => d.path ?? d.origin?.path ?? d.removedPath ?? '';
      const listed = [...touched].sort((a, b) => pathOf(a).localeCompare(pathOf(b))).slice(0, ANSWER_LIST_DEFAULT);
      const items = listed.map((d): StagedFileSummary => {
        const previous = before.get(d.key);
        // Against the base these are the counts transaction-preview shows: cached for it.
        const counts = previous ? lineCounts(previous.path === null ? '' : previous.text, d.path === null ? '' : d.text) : this.counts(d);
        const kind = changeKindOf(d);
        return { path: pathOf(d), ...(kind === 'Modified' ? {} : { changeKind: kind }), ...(d.origin && d.path !== null && d.path !== d.origin.path ? { previousPath: d.origin.path } : {}), ...counts };
      });
      ctx?.commitPoint();
      const { transaction: tx } = this.start(workspace);
      tx.revisions.splice(tx.current);
      const by = provenance.by ?? 'agent';
      const revision: Revision = {
        number: tx.current + 1,
        provenance: { tool: provenance.tool, summary: provenance.summary, by, ...(provenance.codeActionKind ? { codeActionKind: provenance.codeActionKind } : {}) },
        time: new Date().toISOString(),
        paths: touched.map((d) => d.path ?? d.origin?.path ?? '').sort(),
        state: builder.state,
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

  /** What changed under a planned file since it was staged, or undefined when it still holds its base. */
  private async drift(f: CommitFile): Promise<string | undefined> {
    const host = this.deps.host;
    if (f.kind === 'create') return (await host.realPath(f.absPath)) !== undefined ? `${f.path} exists now, but the transaction creates it` : undefined;
    if (f.newAbsPath && (await host.realPath(f.newAbsPath)) !== undefined) return `${f.newPath} exists now, but the transaction moves ${f.path} there`;
    const base = f.base;
    if (!base) return undefined;
    const bytes = await host.readFileBytes(f.absPath);
    if (!bytes && base.diskHash !== null) return `${f.path} was deleted after it was staged`;
    if (bytes && sha256(bytes) !== base.diskHash) return `${f.path} changed on disk after it was staged`;
    if (!base.binary) {
      const doc = await host.readDocument(f.absPath);
      if ((doc?.text ?? '') !== base.text) return `${f.path} changed in the editor after it was staged`;
    }
    return undefined;
  }

  /**
   * Commits the active transaction: checks every file (editor and disk) against its base, then
   * (point of no return) has the host apply one edit, save and verify, restoring on failure.
   * The transaction ends only when everything was written.
   */
  commit(ctx: ToolContext | undefined, workspace: Workspace, by: Author): Promise<{ transaction: Transaction; files: CommittedFile[] }> {
    return this.exclusive(workspace.id, async () => {
      const { tx, plan } = this.commitPlan(workspace);
      for (const f of plan.files) {
        const problem = await this.drift(f);
        if (problem) throw conflictError(problem, f.path, by);
      }
      ctx?.commitPoint();
      await this.deps.journal?.begin(plan);
      const outcome = await this.deps.host.commitFiles(plan);
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

  /** The file operations a commit performs, in order: deletes, renames, creates, then text edits. */
  commitPlan(workspace: Workspace): { tx: Transaction; plan: CommitPlan } {
    const tx = this.require(workspace);
    const docs = tx.effectiveDocuments();
    if (docs.length === 0) {
      throw new ToolError('InvalidRequest', 'The transaction stages no change at its current revision; there is nothing to commit.', callTool('transaction-history', 'Redo revisions with transaction-history, stage a change, or roll the transaction back.'));
    }
    const abs = (p: string): string => joinFolder(workspace.fsPath, p);
    const files: CommitFile[] = [];
    const order = { delete: 0, rename: 1, create: 2, modify: 3 };
    for (const d of docs) {
      if (!d.origin) {
        files.push({ kind: 'create', absPath: abs(d.path as string), path: d.path as string, text: d.text });
      } else if (d.path === null) {
        files.push({ kind: 'delete', absPath: abs(d.origin.path), path: d.origin.path, base: d.origin });
      } else {
        const edits = d.text === d.origin.text ? undefined : changedRegions(d, d.origin.text.length).map((r) => ({ start: r.start, end: r.end, newText: r.text }));
        if (d.path !== d.origin.path) {
          files.push({ kind: 'rename', absPath: abs(d.origin.path), path: d.origin.path, newAbsPath: abs(d.path), newPath: d.path, base: d.origin, edits, text: d.text });
        } else {
          files.push({ kind: 'modify', absPath: abs(d.path), path: d.path, base: d.origin, edits, text: d.text });
        }
      }
    }
    files.sort((a, b) => order[a.kind] - order[b.kind] || a.path.localeCompare(b.path));
    return { tx, plan: { transactionId: tx.id, workspaceId: workspace.id, folder: workspace.fsPath, files } };
  }
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

/** Applies changes to a copy of a staged state, validating each against what is staged at that point. */
class StateBuilder {
  readonly state: Map<string, StagedDocument>;
  readonly notes: string[] = [];
  private readonly changedKeys = new Set<string>();
  private createdCount = 0;
  /** Keys by staged path and by base path, so a revision over thousands of files finds each in O(1). */
  private readonly byPath = new Map<string, Set<string>>();
  private readonly byOrigin = new Map<string, Set<string>>();

  constructor(
    private readonly before: StagedState,
    private readonly bases: Map<string, DocumentBase | undefined>,
    private readonly workspace: Workspace,
  ) {
    this.state = new Map(before);
    for (const d of before.values()) this.index(d, 1);
  }

  private index(d: StagedDocument, add: 1 | -1): void {
    const at = (map: Map<string, Set<string>>, p: string): void => {
      let keys = map.get(p);
      if (add === 1) {
        if (!keys) map.set(p, (keys = new Set()));
        keys.add(d.key);
      } else if (keys) {
        keys.delete(d.key);
        if (keys.size === 0) map.delete(p);
      }
    };
    if (d.path !== null) at(this.byPath, d.path);
    if (d.origin) at(this.byOrigin, d.origin.path);
  }

  private put(d: StagedDocument): void {
    const old = this.state.get(d.key);
    if (old) this.index(old, -1);
    this.state.set(d.key, d);
    this.index(d, 1);
  }

  private remove(key: string): void {
    const old = this.state.get(key);
    if (old) this.index(old, -1);
    this.state.delete(key);
  }

  /** The first document (in state order) whose staged or base path is p. */
  private find(by: 'path' | 'origin', p: string): StagedDocument | undefined {
    const keys = (by === 'path' ? this.byPath : this.byOrigin).get(p);
    if (!keys) return undefined;
    if (keys.size === 1) return this.state.get(keys.values().next().value as string);
    for (const d of this.state.values()) if ((by === 'path' ? d.path : d.origin?.path) === p) return d;
    return undefined;
  }

  /** Documents this revision changed; a created file it removed again appears with path null. */
  touched(): StagedDocument[] {
    const out: StagedDocument[] = [];
    for (const key of this.changedKeys) {
      const now = this.state.get(key);
      const was = this.before.get(key);
      if (now && was && now.path === was.path && now.text === was.text) continue;
      if (!now && !was) continue;
      if (now && !was && !isEffective(now) && now.origin) continue;
      out.push(now ?? { ...(was as StagedDocument), path: null, removedPath: was?.path ?? null });
    }
    return out;
  }

  /** Documents only read into the state (never changed) stay unstaged, so they keep following the editor. */
  dropUntouched(): void {
    for (const key of [...this.state.keys()]) if (!this.before.has(key) && !this.changedKeys.has(key)) this.remove(key);
  }

  private set(d: StagedDocument): void {
    this.put(d);
    this.changedKeys.add(d.key);
  }

  /** The live staged document at a path, taking it from disk into the state when first touched. */
  private live(p: string): StagedDocument | undefined {
    const at = this.find('path', p);
    if (at) return at;
    if (this.find('origin', p)) return undefined;
    const base = this.bases.get(p);
    if (!base) return undefined;
    const d: StagedDocument = { key: p, origin: base, path: p, text: base.text, segments: base.text === '' ? [] : [{ start: 0, end: base.text.length }] };
    this.put(d);
    return d;
  }

  /** The document a language service saw at a buffer path (its base path), wherever it is staged now. */
  private byBasePath(p: string): StagedDocument | undefined {
    return this.find('origin', p) ?? this.live(p);
  }

  apply(c: StagedChange, options: StageOptions): void {
    switch (c.kind) {
      case 'edit':
        return options.basis === 'buffer' ? this.editBuffer(c.path, c.edits, options.computedOn?.[c.path]) : this.editStaged(c.path, c.edits, options.computedOn?.[c.path]);
      case 'create':
        return this.create(c);
      case 'delete':
        return this.delete(c);
      case 'rename':
        return this.rename(c);
      case 'restore':
        return this.restore(c.path);
    }
  }

  private restore(p: string): void {
    const d = [...this.state.values()].find((x) => x.path === p) ?? [...this.state.values()].find((x) => x.origin?.path === p);
    if (!d) throw new ToolError('DocumentNotFound', `${p} has no staged change to discard.`, revise('Name a document listed by transaction-preview.'));
    if (!d.origin) {
      this.remove(d.key);
      this.changedKeys.add(d.key);
      return;
    }
    const occupant = [...this.state.values()].find((x) => x !== d && x.path === d.origin?.path);
    if (occupant) throw new ToolError('TransactionConflicted', `${d.origin.path} is taken by another staged file; discard that one first.`, revise(`Discard ${d.origin.path} first.`));
    this.set({ ...d, path: d.origin.path, text: d.origin.text, segments: d.origin.text === '' ? [] : [{ start: 0, end: d.origin.text.length }] });
  }

  private checkedEdits(p: string, edits: readonly OffsetEdit[], length: number): OffsetEdit[] {
    const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 0; i < sorted.length; i++) {
      const e = sorted[i];
      if (!(Number.isInteger(e.start) && Number.isInteger(e.end) && 0 <= e.start && e.start <= e.end && e.end <= length)) {
        throw new ToolError('InvalidRequest', `An edit of ${p} spans ${e.start}..${e.end}, outside its ${length} UTF-16 code units.`, revise('Resolve the location again against the staged text.'));
      }
      if (i > 0 && sorted[i - 1].end > e.start) {
        throw new ToolError('InvalidRequest', `Two edits of ${p} overlap (${sorted[i - 1].start}..${sorted[i - 1].end} and ${e.start}..${e.end}).`, revise('Give non-overlapping replacements, or merge them into one.'));
      }
    }
    return sorted;
  }

  private editStaged(p: string, edits: readonly OffsetEdit[], computedOn?: string): void {
    const d = this.live(p);
    if (!d) throw this.missing(p);
    if (computedOn !== undefined && computedOn !== d.text) {
      throw new ToolError('TransactionConflicted', `The staged text of ${p} changed (another call staged a revision) after this edit was resolved against it; nothing was staged.`, retry('Resolve the location again and repeat the request.'));
    }
    if (d.origin?.binary) throw new ToolError('InvalidRequest', `${p} is not a text document; it cannot be edited.`, revise('Edit text files only.'));
    const sorted = this.checkedEdits(p, edits, d.text.length);
    let segments: readonly Segment[] = d.segments;
    for (let i = sorted.length - 1; i >= 0; i--) segments = replaceSegments(segments, sorted[i].start, sorted[i].end, sorted[i].newText);
    this.set({ ...d, text: applyOffsetEdits(d.text, sorted), segments });
  }

  private editBuffer(p: string, edits: readonly OffsetEdit[], computedOn: string | undefined): void {
    const d = this.byBasePath(p);
    if (!d || !d.origin) {
      throw new ToolError('TransactionConflicted', `The language service edited ${p}, which exists only in the staged transaction; its edits cannot be placed.`, revise('Make this change with edit-text on the staged text instead.'));
    }
    if (d.path === null) {
      throw new ToolError('TransactionConflicted', `The language service edited ${p}, which the transaction deletes.`, callTool('transaction-history', 'Undo the revision that deletes it (transaction-history action "undo"), or leave this file out.'));
    }
    if (computedOn !== undefined && computedOn !== d.origin.text) {
      throw new ToolError(
        'TransactionConflicted',
        `${p} changed in the editor after the transaction first staged it, so the language service's edits were computed on different text than the staged edits.`,
        resolveExternally('Ask the person whether to keep the editor change (then roll back the transaction with transaction-rollback and stage again) or undo it in the editor, then retry.'),
      );
    }
    const sorted = this.checkedEdits(p, edits, d.origin.text.length);
    const regions = changedRegions(d, d.origin.text.length);
    const mapped: OffsetEdit[] = [];
    for (const e of sorted) {
      const hit = regions.find((r) => overlaps(e, r));
      if (hit) {
        const pos = new LineCounter(d.origin.text);
        throw new ToolError(
          'TransactionConflicted',
          `The language service's edit of ${p} at line ${pos.line(e.start)} overlaps a change already staged at line ${pos.line(hit.start)}${hit.end > hit.start ? `-${pos.line(hit.end)}` : ''}. Nothing was staged (never a silent merge).`,
          callTool('transaction-history', 'Either undo the staged revision that touches those lines (transaction-history action "undo") and repeat this request, or make the change by hand with edit-text on the staged text.'),
          { path: p, edit: e, stagedRegion: { start: hit.start, end: hit.end } },
        );
      }
      const start = mapBaseOffset(d.segments, e.start, false);
      const end = e.start === e.end ? start : mapBaseOffset(d.segments, e.end, true);
      if (start === undefined || end === undefined) throw new Error(`base offset ${e.start}..${e.end} of ${p} did not map onto the staged text`);
      mapped.push({ start, end, newText: e.newText });
    }
    this.editStaged(d.path, mapped);
  }

  private missing(p: string): ToolError {
    const moved = [...this.state.values()].find((d) => d.origin?.path === p);
    if (moved) {
      return new ToolError(
        'DocumentNotFound',
        moved.path === null ? `${p} is deleted in the staged transaction.` : `${p} is moved to ${moved.path} in the staged transaction.`,
        revise(moved.path === null ? 'Leave it out, or undo the deletion with transaction-history.' : `Use the staged path ${moved.path}.`),
      );
    }
    return new ToolError('DocumentNotFound', `No document at ${p} in folder ${this.workspace.alias} (staged or on disk).`, revise('Check the path.'));
  }

  private create(c: Extract<StagedChange, { kind: 'create' }>): void {
    const existing = this.live(c.path);
    if (existing) {
      if (c.ignoreIfExists) {
        this.notes.push(`${c.path} already exists; left as it is (ignoreIfExists).`);
        return;
      }
      if (!c.overwrite) throw new ToolError('InvalidRequest', `${c.path} already exists${existing.origin ? '' : ' in the staged transaction'}.`, revise('Choose another path, or set overwrite to replace it.'));
      this.set({ ...existing, text: c.text, segments: c.text === '' ? [] : [{ text: c.text }] });
      return;
    }
    const key = `+${c.path}#${this.before.size + this.createdCount++}`;
    this.set({ key, origin: null, path: c.path, text: c.text, segments: c.text === '' ? [] : [{ text: c.text }] });
  }

  private delete(c: Extract<StagedChange, { kind: 'delete' }>): void {
    const d = this.live(c.path);
    if (!d) {
      if (c.ignoreIfNotExists) return;
      throw this.missing(c.path);
    }
    if (!d.origin) {
      this.remove(d.key);
      this.changedKeys.add(d.key);
      return;
    }
    this.set({ ...d, path: null });
  }

  private rename(c: Extract<StagedChange, { kind: 'rename' }>): void {
    if (c.from === c.to) throw new ToolError('InvalidRequest', `Moving ${c.from} onto itself changes nothing.`, revise('Give a different target path.'));
    const d = this.live(c.from);
    if (!d) throw this.missing(c.from);
    const target = this.live(c.to);
    if (target) {
      if (c.ignoreIfExists) {
        this.notes.push(`${c.to} already exists; ${c.from} was not moved (ignoreIfExists).`);
        return;
      }
      if (!c.overwrite) throw new ToolError('InvalidRequest', `${c.to} already exists.`, revise('Choose another target path, or set overwrite to replace it.'));
      this.delete({ kind: 'delete', path: c.to });
    }
    this.set({ ...d, path: c.to });
  }
}

/** One-based line numbers of offsets, for messages. */
class LineCounter {
  constructor(private readonly text: string) {}
  line(offset: number): number {
    let n = 1;
    for (let i = 0; i < offset && i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) n++;
    return n;
  }
}

/** A staged path's absolute path, for hosts. */
export const stagedAbsolutePath = (folder: string, relativePath: string): string => path.join(folder, ...relativePath.split('/'));
