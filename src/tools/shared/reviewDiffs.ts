/** Every changed document's diff as one text, within an output budget: transaction-preview's diffs and a rename's review. */
import { diffTexts, hunkText } from '../../core/transactions/diff';
import type { DiffHunk, LineCounts, TextDiff } from '../../core/transactions/diff';
import { hunkWordText } from '../../core/transactions/wordDiff';
import { renameRows } from '../../core/transactions/renameRows';
import type { RenameRow } from '../../core/transactions/renameRows';
import { utf8Bytes } from '../../core/chain/bounding';
import { collectionOutput } from '../../core/chain/schemas';
import type { JsonSchema } from '../../core/chain/schemas';
import type { ChangedDocument, StagedDocument } from '../../core/transactions/types';
import { countOf } from '../../core/util/wording';
import { changeKindOf, stagedComparison, stagedPath } from '../../core/transactions/transaction';
import type { Collection } from './common';

/**
 * A changed document in diffs: its path, its change kind unless Modified, and its diff as one
 * text (the hunks as `git diff --word-diff` or `diff -u` prints them, without the file header).
 * Line counts only where the diff does not say them (left out or truncated).
 */
export interface PathDiff {
  path: string;
  changeKind?: ChangedDocument['changeKind'];
  previousPath?: string;
  diff?: string;
  /** A rename's review: its changed lines, when each is the rename and nothing else (renameRows). */
  lines?: RenameRow[];
  truncated?: true;
  addedLines?: number;
  removedLines?: number;
  changedLines?: number;
}

export const pathDiffsSchema = (description: string, more: Record<string, JsonSchema> = {}): JsonSchema =>
  collectionOutput(description, {
    type: 'object',
    properties: {
      path: { type: 'string' },
      changeKind: { type: 'string', enum: ['Added', 'Deleted', 'Renamed'], description: 'Left out when Modified.' },
      previousPath: { type: 'string' },
      diff: { type: 'string', description: "Its hunks in format, '\\n'-separated; words cuts a long line around its changes (…). Left out when nothing fit." },
      ...more,
      truncated: { type: 'boolean', enum: [true], description: 'Hunks (or the whole diff) were left out to fit: ask with document.' },
      addedLines: { type: 'integer', description: 'Line counts only when diff is left out or truncated (else the diff says them).' },
      removedLines: { type: 'integer' },
      changedLines: { type: 'integer' },
    },
    required: ['path'],
  });

/** The `lines` of a rename's file in diffs (renameRows), said `when`. */
export const renameLinesSchema = (when: string): Record<string, JsonSchema> => ({
  lines: {
    type: 'array',
    items: { type: 'array', items: { type: ['integer', 'string'] }, minItems: 2, maxItems: 2 },
    description: `${when}: instead of diff, [line, staged text] of each changed line; each newName in it was the old name.`,
  },
});

/** Documents described at most (each costs a diff for its line counts); the rest are counted and named in the note. */
export const DIFF_DOCUMENTS_MAX = 200;
/** Room kept for the rest of an answer beside its diffs. */
export const DIFF_RESERVE_BYTES = 1024;
/** Room kept for the note that says what was left out of diffs. */
export const NOTE_RESERVE_BYTES = 512;

/** The diff (hunks and line counts) from a document's content before the transaction to its staged content. */
export function stagedDiff(staged: StagedDocument, contextLines: number): TextDiff {
  const { original, updated } = stagedComparison(staged);
  return diffTexts(original, updated, contextLines);
}

/** The unified hunks from a document's content before the transaction to its staged content. */
export const stagedHunks = (staged: StagedDocument, contextLines: number): DiffHunk[] => stagedDiff(staged, contextLines).hunks;

/** The hunks that fit in `budget` bytes (each as JSON, or as its text), in order, their texts when asText is given, and the bytes they take. */
export function hunksWithin(all: DiffHunk[], budget: number, asText?: (h: DiffHunk) => string): { hunks: DiffHunk[]; texts: string[]; used: number } {
  const hunks: DiffHunk[] = [];
  const texts: string[] = [];
  let used = 0;
  for (const h of all) {
    const text = asText?.(h);
    const size = utf8Bytes(JSON.stringify(text ?? h)) + 1;
    if (used + size > budget) break;
    hunks.push(h);
    if (text !== undefined) texts.push(text);
    used += size;
  }
  return { hunks, texts, used };
}

/** The rows that fit in `budget` bytes as JSON, in order. */
function rowsWithin(rows: readonly RenameRow[], budget: number): RenameRow[] {
  let used = 0;
  let n = 0;
  while (n < rows.length && (used += utf8Bytes(JSON.stringify(rows[n])) + 1) <= budget) n++;
  return rows.slice(0, n);
}

export interface DiffsOptions {
  /** A word diff (git's --word-diff=plain) rather than diff -u. */
  words: boolean;
  contextLines: number;
  /** Bytes the diffs may take, the note's reserve included. */
  budget: number;
  /** How the note tells the agent to get one document's whole diff. */
  askOne: string;
  /** A rename's names: a document whose every change is the rename answers its changed lines instead of its diff. */
  rename?: { from: string; to: string };
}

/**
 * The first DIFF_DOCUMENTS_MAX changed documents in order, each with what fits of its diff; once
 * the budget runs out the next are listed with their line counts only (`counts`, asked only for
 * those: a diff says its own) while those fit, and the note names them and those not listed.
 */
export function documentDiffs(
  changed: readonly StagedDocument[],
  counts: (d: StagedDocument) => LineCounts,
  options: DiffsOptions,
): { diffs: Collection<PathDiff>; note?: string } {
  const items: PathDiff[] = [];
  const textOf = options.words ? hunkWordText : hunkText;
  let left = options.budget - NOTE_RESERVE_BYTES;
  let out = false; // the budget ran out: the rest are listed with their counts only
  for (const staged of changed.slice(0, DIFF_DOCUMENTS_MAX)) {
    const item: PathDiff = { path: stagedPath(staged) };
    const kind = changeKindOf(staged);
    if (kind !== 'Modified') item.changeKind = kind;
    if (staged.origin && staged.path !== null && staged.path !== staged.origin.path) item.previousPath = staged.origin.path;
    let lines: LineCounts;
    if (out) {
      lines = counts(staged);
      if (lines.addedLines + lines.removedLines > 0) item.truncated = true;
    } else {
      const { hunks: all, ...whole } = stagedDiff(staged, options.contextLines);
      lines = whole;
      const room = left - utf8Bytes(JSON.stringify(item)) - 64;
      const rows = options.rename && renameRows(all, options.rename.from, options.rename.to);
      let shown: number;
      let total: number;
      if (rows) {
        const fit = rowsWithin(rows, room);
        if (fit.length > 0) item.lines = fit;
        [shown, total] = [fit.length, rows.length];
      } else {
        const { hunks, texts } = hunksWithin(all, room, textOf);
        if (hunks.length > 0) item.diff = texts.join('\n');
        [shown, total] = [hunks.length, all.length];
      }
      if (shown < total) {
        item.truncated = true;
        out = true;
      }
    }
    if (item.truncated || (item.diff === undefined && item.lines === undefined)) {
      Object.assign(item, { addedLines: lines.addedLines, removedLines: lines.removedLines, changedLines: lines.changedLines });
    }
    const size = utf8Bytes(JSON.stringify(item)) + 1;
    // Listed with its counts only while they fit: past that, the note names what is left.
    if (out && size > left) break;
    left -= size;
    items.push(item);
  }
  const diffs = { items, hasMore: items.length < changed.length, totalCount: changed.length };
  const cut = items.filter((d) => d.truncated).map((d) => d.path);
  if (!diffs.hasMore && cut.length === 0) return { diffs };
  const rest = changed.slice(items.length).map(stagedPath);
  const partial = items.filter((d) => d.truncated && (d.diff !== undefined || d.lines !== undefined)).map((d) => d.path);
  const without = cut.length - partial.length;
  const named = [...cut, ...rest];
  const note =
    `Whole diffs of ${items.length - cut.length} of ${countOf(changed.length, 'changed document')} fit the output limit` +
    (partial.length > 0 ? `; ${partial.join(', ')} lost ${options.rename ? 'hunks or lines' : 'hunks'} from its end` : '') +
    (without > 0 ? `; ${countOf(without, 'document')} listed without ${without === 1 ? 'its' : 'their'} diff` : '') +
    `. ${options.askOne} for ${named.slice(0, 5).join(', ')}${named.length > 5 ? ', …' : ''} (one call each), or with fewer contextLines.`;
  return { diffs, note };
}
