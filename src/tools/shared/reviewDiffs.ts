/** Every changed document's diff as one text, within an output budget: transaction-preview's diffs and a rename's review. */
import { diffTexts, hunkText } from '../../core/transactions/diff';
import { hunkWordText } from '../../core/transactions/wordDiff';
import type { DiffHunk } from '../../core/transactions/diff';
import { utf8Bytes } from '../../core/chain/bounding';
import { collectionOutput } from '../../core/chain/schemas';
import type { JsonSchema } from '../../core/chain/schemas';
import type { ChangedDocument, StagedDocument } from '../../core/transactions/types';
import { countOf } from '../../core/util/wording';
import { stagedPath } from '../../core/transactions/transaction';
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
  truncated?: true;
  addedLines?: number;
  removedLines?: number;
  changedLines?: number;
}

export const pathDiffsSchema = (description: string): JsonSchema =>
  collectionOutput(description, {
    type: 'object',
    properties: {
      path: { type: 'string' },
      changeKind: { type: 'string', enum: ['Added', 'Deleted', 'Renamed'], description: 'Left out when Modified.' },
      previousPath: { type: 'string' },
      diff: { type: 'string', description: "Its hunks in format, '\\n'-separated; words cuts a long line around its changes (…). Left out when nothing fit." },
      truncated: { type: 'boolean', enum: [true], description: 'Hunks (or the whole diff) were left out to fit: ask with document.' },
      addedLines: { type: 'integer', description: 'Line counts only when diff is left out or truncated (else the diff says them).' },
      removedLines: { type: 'integer' },
      changedLines: { type: 'integer' },
    },
    required: ['path'],
  });

/** Documents described at most (each costs a diff for its line counts); the rest are counted and named in the note. */
export const DIFF_DOCUMENTS_MAX = 200;
/** Room kept for the rest of an answer beside its diffs. */
export const DIFF_RESERVE_BYTES = 1024;
/** Room kept for the note that says what was left out of diffs. */
export const NOTE_RESERVE_BYTES = 512;

/** The unified hunks from a document's content before the transaction to its staged content. */
export function stagedHunks(staged: StagedDocument, contextLines: number): DiffHunk[] {
  const original = staged.origin && !staged.origin.binary ? staged.origin.text : '';
  const updated = staged.path === null ? '' : staged.text;
  return diffTexts(original, updated, contextLines).hunks;
}

/** The hunks that fit in `budget` bytes (each as JSON, or as its text), in order, and the bytes they take. */
export function hunksWithin(all: DiffHunk[], budget: number, asText?: (h: DiffHunk) => string): { hunks: DiffHunk[]; used: number } {
  const hunks: DiffHunk[] = [];
  let used = 0;
  for (const h of all) {
    const size = utf8Bytes(JSON.stringify(asText ? asText(h) : h)) + 1;
    if (used + size > budget) break;
    hunks.push(h);
    used += size;
  }
  return { hunks, used };
}

export interface DiffsOptions {
  /** A word diff (git's --word-diff=plain) rather than diff -u. */
  words: boolean;
  contextLines: number;
  /** Bytes the diffs may take, the note's reserve included. */
  budget: number;
  /** How the note tells the agent to get one document's whole diff. */
  askOne: string;
}

/**
 * Each described document in order with what fits of its diff; once the budget runs out the rest
 * are listed with their line counts only, and the note names them (and those not described).
 */
export function documentDiffs(
  changed: readonly StagedDocument[],
  described: readonly ChangedDocument[],
  options: DiffsOptions,
): { diffs: Collection<PathDiff>; note?: string } {
  const items: PathDiff[] = [];
  const textOf = options.words ? hunkWordText : hunkText;
  let left = options.budget - NOTE_RESERVE_BYTES;
  let out = false; // the budget ran out: the rest are listed with their counts only
  // described may be the first of changed only (a preview lists at most so many documents).
  for (const [i, entry] of described.entries()) {
    const staged = changed[i];
    const item: PathDiff = { path: entry.document?.path ?? staged.path ?? staged.origin?.path ?? '' };
    if (entry.changeKind !== 'Modified') item.changeKind = entry.changeKind;
    if (entry.previousPath !== undefined) item.previousPath = entry.previousPath;
    const all = out ? [] : stagedHunks(staged, options.contextLines);
    const { hunks } = hunksWithin(all, left - utf8Bytes(JSON.stringify(item)) - 64, textOf);
    if (hunks.length > 0) item.diff = hunks.map(textOf).join('\n');
    if (hunks.length < all.length || (out && entry.preview.addedLines + entry.preview.removedLines > 0)) {
      item.truncated = true;
      out = true;
    }
    if (item.truncated || item.diff === undefined) Object.assign(item, entry.preview);
    left -= utf8Bytes(JSON.stringify(item)) + 1;
    items.push(item);
  }
  const diffs = { items, hasMore: items.length < changed.length, totalCount: changed.length };
  const cut = items.filter((d) => d.truncated).map((d) => d.path);
  if (!diffs.hasMore && cut.length === 0) return { diffs };
  const rest = changed.slice(items.length).map(stagedPath);
  const partial = items.filter((d) => d.truncated && d.diff !== undefined).map((d) => d.path);
  const without = cut.length - partial.length;
  const named = [...cut, ...rest];
  const note =
    `Whole diffs of ${items.length - cut.length} of ${countOf(changed.length, 'changed document')} fit the output limit` +
    (partial.length > 0 ? `; ${partial.join(', ')} lost hunks from its end` : '') +
    (without > 0 ? `; ${countOf(without, 'document')} listed without ${without === 1 ? 'its' : 'their'} diff` : '') +
    `. ${options.askOne} for ${named.slice(0, 5).join(', ')}${named.length > 5 ? ', …' : ''} (one call each), or with fewer contextLines.`;
  return { diffs, note };
}
