import { diffTexts, NO_NEWLINE_MARKER } from '../transactions/diff';
import { commonPrefix } from '../transactions/textReader';
import type { DiffHunk } from '../transactions/diff';
import type { OperationalMode } from '../chain/modes';
import type { Author, ChangedDocument, ChangeKind, RevisionInfo, TransactionState } from '../transactions/types';
import type { DiagnosticSeverity, RevisionCheck, StagedDiagnostic } from '../transactions/check';
import { countOf, cutAround, nameAndFolder } from '../util/wording';

/** The hunks of the panel are transaction-preview's hunks: the same context. */
export const PANEL_CONTEXT_LINES = 3;
/** More rows than this in one file's diff are cut (the diff editor shows the rest). */
export const MAX_DIFF_ROWS = 5000;

/** At most this many diagnostics are listed for the selected file; the rest are counted. */
export const MAX_FILE_DIAGNOSTICS = 100;
/** Files no revision touches that have new errors: at most this many, each with at most MAX_ELSEWHERE_DIAGNOSTICS. */
export const MAX_ELSEWHERE_FILES = 20;
export const MAX_ELSEWHERE_DIAGNOSTICS = 10;

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
  /** What the check of this revision found in the file: its badge. Absent while checking, when unavailable, or when nothing was found. */
  problems?: FileProblems;
}

/** A file's badge: new diagnostics (the worst severity leads) and, quieter, resolved ones. */
export interface FileProblems {
  introduced: number;
  /** The worst severity introduced (absent when only resolved). */
  severity?: DiagnosticSeverity;
  resolved: number;
  /** "2 new errors, 1 resolved": the badge in words. */
  text: string;
}

/** One diagnostic as the panel lists it. */
export interface DiagnosticView {
  severity: DiagnosticSeverity;
  /** "Error", "Warning", … (shown: severity is never colour alone). */
  severityText: string;
  /** "TS2322" */
  code: string;
  message: string;
  /** 1-based: the staged text's for an introduced diagnostic, the current text's for a resolved one. */
  line: number;
  column: number;
}

/**
 * The check of the transaction's current revision: running until it settles (a newer revision
 * starts over), then what it found, or why there is none.
 */
export type CheckView =
  | { state: 'running'; revision: number; text: string }
  | { state: 'unavailable'; revision: number; text: string }
  | {
      state: 'checked';
      revision: number;
      introduced: number;
      introducedErrors: number;
      resolved: number;
      /** "2 new errors", "No new errors", "No new errors; 1 new warning". */
      text: string;
      /** "Resolves 1 error" (quieter), or absent. */
      resolvedText?: string;
      /** Quiet: what the check left out (incomplete, files it cannot check), and which TypeScript answered. */
      note: string;
    };

/** A file no revision touches where the staged text introduces (or resolves) diagnostics: importers of what changed. */
export interface ElsewhereView {
  path: string;
  name: string;
  folder: string;
  diagnostics: DiagnosticView[];
  resolved: DiagnosticView[];
  /** Diagnostics of this file not listed (over MAX_ELSEWHERE_DIAGNOSTICS). */
  more: number;
}

export interface RowView {
  kind: 'context' | 'add' | 'remove' | 'note';
  oldLine?: number;
  newLine?: number;
  /** The line, or what fits of it (see cut). */
  text: string;
  /** Characters of the line left out ("…" marks where): a line longer than ROW_TEXT_MAX shows ROW_TEXT_MAX around its change. */
  cut?: number;
}

/** Characters of a line a row shows at most: a minified line of megabytes would hold up the webview, and Open Diff shows it whole. */
export const ROW_TEXT_MAX = 1000;
/** Of those, the characters shown before the first difference of a removed line and the added line it pairs with (the change in view). */
const ROW_TEXT_BEFORE = 40;

export interface HunkView {
  index: number;
  header: string;
  originalStartLine: number;
  updatedStartLine: number;
  rows: RowView[];
  /** Introduced diagnostics on the hunk's staged lines (set by buildPanelModel). */
  diagnostics: DiagnosticView[];
  /** Resolved diagnostics on the hunk's original lines. */
  resolved: DiagnosticView[];
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
    check: CheckView;
    /** Files outside the transaction where it introduces or resolves diagnostics. */
    elsewhere: ElsewhereView[];
    /** Such files not listed (over MAX_ELSEWHERE_FILES). */
    elsewhereMore: number;
  };
  selected: null | {
    path: string;
    name: string;
    folder: string;
    previousPath?: string;
    binary: boolean;
    hunks: HunkView[];
    truncated: boolean;
    /** Introduced diagnostics of the file no hunk shown holds (file-level). */
    diagnostics: DiagnosticView[];
    /** Resolved diagnostics of the file no hunk shown holds. */
    resolved: DiagnosticView[];
    /** Diagnostics of the file not listed (over MAX_FILE_DIAGNOSTICS). */
    more: number;
  };
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
  /** The last check the panel knows of; one for another transaction or revision is ignored (shown as running). */
  check?: RevisionCheck;
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
      diagnostics: [],
      resolved: [],
    };
    for (const l of h.lines) {
      if (rows >= maxRows) {
        cutLongRows(view.rows);
        out.push(view);
        return { hunks: out, truncated: true };
      }
      rows++;
      if (l === NO_NEWLINE_MARKER) view.rows.push({ kind: 'note', text: l.slice(2) });
      else if (l[0] === '+') view.rows.push({ kind: 'add', newLine: newLine++, text: l.slice(1) });
      else if (l[0] === '-') view.rows.push({ kind: 'remove', oldLine: oldLine++, text: l.slice(1) });
      else view.rows.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text: l.slice(1) });
    }
    cutLongRows(view.rows);
    out.push(view);
  }
  return { hunks: out, truncated: false };
}

/**
 * Rows longer than ROW_TEXT_MAX cut to that many characters: a removed line and the added line
 * at the same place in the block after it from just before where they first differ (so the change
 * shows), any other row from its start.
 */
function cutLongRows(rows: RowView[]): void {
  // at: where the row's line first differs from its pair's (0 for a row without one).
  const cutAt = (row: RowView, at: number) => {
    const { text, cut } = cutAround(row.text, at, ROW_TEXT_MAX, ROW_TEXT_BEFORE);
    if (cut > 0) Object.assign(row, { text, cut });
  };
  for (let i = 0; i < rows.length;) {
    if (rows[i].kind !== 'remove') {
      cutAt(rows[i++], 0);
      continue;
    }
    let removed = i;
    while (removed < rows.length && rows[removed].kind === 'remove') removed++;
    let added = removed;
    while (added < rows.length && rows[added].kind === 'add') added++;
    // Where each pair first differs, from the lines whole (a row is cut only after).
    const pairs = Math.min(removed - i, added - removed);
    const firstDiffers = Array.from({ length: pairs }, (_, k) => {
      const [a, b] = [rows[i + k].text, rows[removed + k].text];
      return commonPrefix(a, b, Math.min(a.length, b.length));
    });
    for (let k = i; k < added; k++) {
      const pair = k < removed ? k - i : k - removed;
      cutAt(rows[k], pair < pairs ? firstDiffers[pair] : 0);
    }
    i = added;
  }
}

const SEVERITY_TEXT: Record<DiagnosticSeverity, string> = { error: 'Error', warning: 'Warning', suggestion: 'Suggestion', message: 'Message' };
const SEVERITY_ORDER: readonly DiagnosticSeverity[] = ['error', 'warning', 'suggestion', 'message'];

export function diagnosticView(d: StagedDiagnostic): DiagnosticView {
  return { severity: d.severity, severityText: SEVERITY_TEXT[d.severity], code: `TS${d.code}`, message: d.message, line: d.line, column: d.column };
}

/**
 * The hunk whose rows show line `line` (1-based) of the staged text ('new', where introduced
 * diagnostics are) or of the original text ('old', where resolved ones are); undefined when none
 * does, and the diagnostic belongs to the file.
 */
export function hunkOfLine(hunks: readonly HunkView[], line: number, side: 'new' | 'old' = 'new'): number | undefined {
  return hunks.find((h) => h.rows.some((r) => (side === 'new' ? r.newLine : r.oldLine) === line))?.index;
}

/** "2 new errors", "1 new warning": one phrase per severity found, the worst first. */
function severityCounts(list: readonly StagedDiagnostic[], adjective: string): string[] {
  return SEVERITY_ORDER.flatMap((severity) => {
    const n = list.filter((d) => d.severity === severity).length;
    return n > 0 ? [countOf(n, `${adjective}${severity}`)] : [];
  });
}

/** The check as the panel says it: running unless the check is of this transaction's current revision. */
export function checkView(check: RevisionCheck | undefined, transactionId: string, revision: number): CheckView {
  if (check?.transactionId !== transactionId || check.revision !== revision) {
    return { state: 'running', revision, text: `Checking revision ${revision} for new TypeScript errors…` };
  }
  if (check.state === 'unavailable') return { state: 'unavailable', revision, text: `Not checked: ${check.reason}` };
  const introducedErrors = check.introduced.filter((d) => d.severity === 'error').length;
  const phrases = severityCounts(check.introduced, 'new ');
  const text = introducedErrors > 0 ? phrases.join(', ') : phrases.length > 0 ? `No new errors; ${phrases.join(', ')}` : 'No new errors';
  const notes = [
    ...(check.complete ? [] : [`checked in part (${check.reasons.join(', ')})`]),
    ...(check.unchecked.length > 0 ? [`not checked: ${check.unchecked.join(', ')} (only TypeScript and JavaScript are)`] : []),
    `${countOf(check.checked.length, 'file')} compared`,
    `TypeScript ${check.typescriptVersion}`,
  ];
  return {
    state: 'checked',
    revision,
    introduced: check.introduced.length,
    introducedErrors,
    resolved: check.resolved.length,
    text,
    ...(check.resolved.length > 0 ? { resolvedText: `Resolves ${severityCounts(check.resolved, '').join(', ')}` } : {}),
    note: notes.join(' · '),
  };
}

function fileProblems(introduced: readonly StagedDiagnostic[], resolved: readonly StagedDiagnostic[]): FileProblems | undefined {
  if (introduced.length === 0 && resolved.length === 0) return undefined;
  const severity = SEVERITY_ORDER.find((s) => introduced.some((d) => d.severity === s));
  return {
    introduced: introduced.length,
    ...(severity ? { severity } : {}),
    resolved: resolved.length,
    text: [...severityCounts(introduced, 'new '), ...(resolved.length > 0 ? [`${resolved.length} resolved`] : [])].join(', '),
  };
}

const byPosition = (a: StagedDiagnostic, b: StagedDiagnostic): number => a.line - b.line || a.column - b.column;

/** What the panel shows, derived from the transaction state and its preview. */
export function buildPanelModel(input: PanelInput): PanelModel {
  const tx = input.transaction;
  let transaction: PanelModel['transaction'] = null;
  // Only a finished check of exactly this revision is shown; an older one is as good as none.
  const check =
    tx && input.check?.transactionId === tx.id && input.check.revision === tx.state.revision && input.check.state === 'checked' ? input.check : undefined;
  const introducedIn = (...paths: (string | undefined)[]): StagedDiagnostic[] => (check?.introduced ?? []).filter((d) => paths.includes(d.path));
  const resolvedIn = (...paths: (string | undefined)[]): StagedDiagnostic[] => (check?.resolved ?? []).filter((d) => paths.includes(d.path));
  if (tx) {
    const current = tx.state.revision;
    const files: FileView[] = tx.documents.map((d) => {
      const problems = fileProblems(introducedIn(d.document.path), resolvedIn(d.document.path, d.previousPath));
      return {
        path: d.document.path,
        ...nameAndFolder(d.document.path),
        ...(d.previousPath ? { previousPath: d.previousPath } : {}),
        changeKind: d.changeKind,
        added: d.preview.addedLines,
        removed: d.preview.removedLines,
        changed: d.preview.changedLines,
        selected: d.document.path === input.selected?.path,
        description: `${d.changeKind} ${d.document.path}${d.previousPath ? ` (moved from ${d.previousPath})` : ''}: ${countOf(d.preview.addedLines, 'line')} added, ${d.preview.removedLines} removed${problems ? `; ${problems.text}` : ''}`,
        ...(problems ? { problems } : {}),
      };
    });
    const staged = new Set(files.flatMap((f) => [f.path, ...(f.previousPath ? [f.previousPath] : [])]));
    const others = [...new Set([...(check?.introduced ?? []), ...(check?.resolved ?? [])].map((d) => d.path))].filter((p) => !staged.has(p));
    const elsewhere = others.slice(0, MAX_ELSEWHERE_FILES).map((path): ElsewhereView => {
      const introduced = introducedIn(path).sort(byPosition);
      const resolved = resolvedIn(path).sort(byPosition);
      const shown = introduced.slice(0, MAX_ELSEWHERE_DIAGNOSTICS);
      const resolvedShown = resolved.slice(0, Math.max(0, MAX_ELSEWHERE_DIAGNOSTICS - shown.length));
      return {
        path,
        ...nameAndFolder(path),
        diagnostics: shown.map(diagnosticView),
        resolved: resolvedShown.map(diagnosticView),
        more: introduced.length + resolved.length - shown.length - resolvedShown.length,
      };
    });
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
      check: checkView(input.check, tx.id, current),
      elsewhere,
      elsewhereMore: others.length - elsewhere.length,
    };
  }
  let selected: PanelModel['selected'] = null;
  const file = input.selected && transaction?.files.find((f) => f.path === input.selected?.path);
  if (input.selected && file) {
    const s = input.selected;
    const { hunks, truncated } = s.binary ? { hunks: [], truncated: false } : hunkViews(diffTexts(s.original, s.updated, PANEL_CONTEXT_LINES).hunks);
    const introduced = introducedIn(s.path).sort(byPosition);
    const resolved = resolvedIn(s.path, file.previousPath).sort(byPosition);
    const diagnostics: DiagnosticView[] = [];
    const resolvedHere: DiagnosticView[] = [];
    const listed = [...introduced.map((d) => ({ d, side: 'new' as const })), ...resolved.map((d) => ({ d, side: 'old' as const }))].slice(
      0,
      MAX_FILE_DIAGNOSTICS,
    );
    for (const { d, side } of listed) {
      const at = hunkOfLine(hunks, d.line, side);
      const hunk = at === undefined ? undefined : hunks[at];
      if (side === 'new') (hunk ? hunk.diagnostics : diagnostics).push(diagnosticView(d));
      else (hunk ? hunk.resolved : resolvedHere).push(diagnosticView(d));
    }
    selected = {
      path: s.path,
      name: file.name,
      folder: file.folder,
      ...(file.previousPath ? { previousPath: file.previousPath } : {}),
      binary: s.binary,
      hunks,
      truncated,
      diagnostics,
      resolved: resolvedHere,
      more: introduced.length + resolved.length - listed.length,
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
