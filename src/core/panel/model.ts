import { diffTexts, NO_NEWLINE_MARKER } from '../transactions/diff';
import type { DiffHunk } from '../transactions/diff';
import type { OperationalMode } from '../chain/modes';
import type { Author, ChangedDocument, ChangeKind, RevisionInfo, TransactionState } from '../transactions/types';
import { countOf, nameAndFolder } from '../util/wording';

/** The hunks of the panel are transaction-preview's hunks: the same context. */
export const PANEL_CONTEXT_LINES = 3;
/** More rows than this in one file's diff are cut (the diff editor shows the rest). */
export const MAX_DIFF_ROWS = 5000;

export interface WorkspaceView {
  id: string;
  alias: string;
}

export interface RevisionView {
  revision: number;
  tool: string;
  summary: string;
  by: Author;
  time: string;
  paths: string[];
  /** applied: at or below the current revision; undone: above it (Redo brings it back). */
  status: 'applied' | 'current' | 'undone';
}

export interface FileView {
  path: string;
  /** Shown first: in a narrow panel the name is what tells files of one folder apart. */
  name: string;
  /** Shown dimmed after the name, cut first when the row is short of room; '' at the top of the folder. */
  folder: string;
  previousPath?: string;
  changeKind: ChangeKind;
  added: number;
  removed: number;
  changed: number;
  selected: boolean;
  /** The whole path, where it moved from and its line counts, in words (the accessible name). */
  description: string;
}

export interface RowView {
  kind: 'context' | 'add' | 'remove' | 'note';
  oldLine?: number;
  newLine?: number;
  text: string;
}

export interface HunkView {
  index: number;
  header: string;
  originalStartLine: number;
  updatedStartLine: number;
  rows: RowView[];
}

export interface Outcome {
  ok: boolean;
  /** What was done or refused, for the person. */
  message: string;
  code?: string;
}

export interface PanelModel {
  workspaces: WorkspaceView[];
  workspace: WorkspaceView | null;
  mode: OperationalMode;
  /** approval-required: agents cannot commit, the person commits here. */
  personCommits: boolean;
  transaction: null | {
    id: string;
    state: TransactionState;
    revisions: RevisionView[];
    files: FileView[];
    totals: { files: number; added: number; removed: number };
    /** "1 file", "3 files". */
    filesText: string;
  };
  selected: null | { path: string; name: string; folder: string; previousPath?: string; binary: boolean; hunks: HunkView[]; truncated: boolean };
  outcome: Outcome | null;
}

export interface PanelInput {
  workspaces: WorkspaceView[];
  workspace: WorkspaceView | null;
  mode: OperationalMode;
  transaction: null | { id: string; state: TransactionState; history: RevisionInfo[]; documents: ChangedDocument[] };
  /** The selected file's base and staged text (empty for a side that does not exist). */
  selected: null | { path: string; original: string; updated: string; binary: boolean };
  outcome?: Outcome | null;
}

/** The file to show: the one selected before if it is still changed, else the first. */
export function chooseSelection(documents: readonly ChangedDocument[], previous: string | undefined): string | undefined {
  if (previous && documents.some((d) => d.document.path === previous)) return previous;
  return documents[0]?.document.path;
}

/** The unified hunks of one file as panel rows with old and new line numbers. */
export function hunkViews(hunks: readonly DiffHunk[], maxRows = MAX_DIFF_ROWS): { hunks: HunkView[]; truncated: boolean } {
  const out: HunkView[] = [];
  let rows = 0;
  for (const [index, h] of hunks.entries()) {
    if (rows >= maxRows) return { hunks: out, truncated: true };
    let oldLine = h.originalLineCount === 0 ? h.originalStartLine + 1 : h.originalStartLine;
    let newLine = h.updatedLineCount === 0 ? h.updatedStartLine + 1 : h.updatedStartLine;
    const view: HunkView = {
      index,
      header: `@@ -${h.originalStartLine},${h.originalLineCount} +${h.updatedStartLine},${h.updatedLineCount} @@`,
      originalStartLine: h.originalStartLine,
      updatedStartLine: h.updatedStartLine,
      rows: [],
    };
    for (const l of h.lines) {
      if (rows >= maxRows) {
        out.push(view);
        return { hunks: out, truncated: true };
      }
      rows++;
      if (l === NO_NEWLINE_MARKER) view.rows.push({ kind: 'note', text: l.slice(2) });
      else if (l[0] === '+') view.rows.push({ kind: 'add', newLine: newLine++, text: l.slice(1) });
      else if (l[0] === '-') view.rows.push({ kind: 'remove', oldLine: oldLine++, text: l.slice(1) });
      else view.rows.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text: l.slice(1) });
    }
    out.push(view);
  }
  return { hunks: out, truncated: false };
}

/** What the panel shows, derived from the transaction state and its preview. */
export function buildPanelModel(input: PanelInput): PanelModel {
  const tx = input.transaction;
  let transaction: PanelModel['transaction'] = null;
  if (tx) {
    const current = tx.state.revision;
    const files: FileView[] = tx.documents.map((d) => ({
      path: d.document.path,
      ...nameAndFolder(d.document.path),
      ...(d.previousPath ? { previousPath: d.previousPath } : {}),
      changeKind: d.changeKind,
      added: d.preview.addedLines,
      removed: d.preview.removedLines,
      changed: d.preview.changedLines,
      selected: d.document.path === input.selected?.path,
      description: `${d.changeKind} ${d.document.path}${d.previousPath ? ` (moved from ${d.previousPath})` : ''}: ${countOf(d.preview.addedLines, 'line')} added, ${d.preview.removedLines} removed`,
    }));
    transaction = {
      id: tx.id,
      state: tx.state,
      revisions: tx.history.map((r) => ({
        revision: r.revision,
        tool: r.tool,
        summary: r.summary,
        by: r.by,
        time: r.time,
        paths: r.paths,
        status: r.revision === current ? 'current' : r.revision < current ? 'applied' : 'undone',
      })),
      files,
      totals: { files: files.length, added: files.reduce((n, f) => n + f.added, 0), removed: files.reduce((n, f) => n + f.removed, 0) },
      filesText: countOf(files.length, 'file'),
    };
  }
  let selected: PanelModel['selected'] = null;
  const file = input.selected && transaction?.files.find((f) => f.path === input.selected?.path);
  if (input.selected && file) {
    const s = input.selected;
    const { hunks, truncated } = s.binary ? { hunks: [], truncated: false } : hunkViews(diffTexts(s.original, s.updated, PANEL_CONTEXT_LINES).hunks);
    selected = {
      path: s.path,
      name: file.name,
      folder: file.folder,
      ...(file.previousPath ? { previousPath: file.previousPath } : {}),
      binary: s.binary,
      hunks,
      truncated,
    };
  }
  return {
    workspaces: input.workspaces,
    workspace: input.workspace,
    mode: input.mode,
    personCommits: input.mode === 'approval-required',
    transaction,
    selected,
    outcome: input.outcome ?? null,
  };
}

/** The status bar text: staged file count and revision, or nothing staged. */
export function statusSummary(model: Pick<PanelModel, 'transaction'>): { text: string; tooltip: string } {
  const tx = model.transaction;
  if (!tx) return { text: '$(git-compare) 0 staged', tooltip: 'Agent Workbench: nothing is staged. Click to open the review panel.' };
  const n = tx.totals.files;
  return {
    text: `$(git-compare) ${n} staged · r${tx.state.revision}`,
    tooltip: `Agent Workbench: ${countOf(n, 'file')} staged (+${tx.totals.added} −${tx.totals.removed}) at revision ${tx.state.revision} of ${tx.state.revisionCount}. Click to review.`,
  };
}
