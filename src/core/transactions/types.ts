/** The transaction engine's public types: what tools stage and what answers describe. */
import type { DocumentRef } from '../documents/workspaces';
import type { LineCounts } from './diff';
import type { DocumentBase, OffsetEdit } from './plan';
import type { Segment } from './segments';

export type Author = 'agent' | 'person';

export interface Provenance {
  tool: string;
  /** One line saying what the revision does. */
  summary: string;
  codeActionKind?: string;
  by?: Author;
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
  /** For edits a language service computed across files: whether it covered the project then. */
  coverage?: StagedCoverage;
  /** A rename's names: a review may list a file's changed lines where every change is this rename. */
  rename?: RenameNames;
}

export interface RenameNames {
  from: string;
  to: string;
}

/**
 * How far the language service that computed a revision's edits saw the project. A revision
 * staged while it knew only the open files (state 'loading') is never committed: the commit
 * refuses until it is staged again.
 */
export interface StagedCoverage {
  languageId: string;
  state: 'loaded' | 'unverifiable' | 'loading';
}

/** The transaction state, in roslyn-workbench-mcp's shape. */
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

/**
 * One file a revision changed, compact: its staged path and line counts for this revision. A count
 * of 0 is left out, and so is addedLines or removedLines when it equals changedLines (a rename
 * changes lines in place only): read them back as `addedLines ?? changedLines ?? 0`.
 */
export interface StagedFileSummary extends Partial<LineCounts> {
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
  coverage?: StagedCoverage;
  rename?: RenameNames;
}

export interface TransactionEvent {
  workspaceId: string;
  transactionId: string;
  reason: 'started' | 'staged' | 'undo' | 'redo' | 'committed' | 'rolledBack' | 'restored';
  revision: number | null;
}
