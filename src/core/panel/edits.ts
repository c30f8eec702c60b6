import { diffTexts, splitLinesKeepEnds } from '../transactions/diff';
import type { DiffHunk } from '../transactions/diff';
import { PANEL_CONTEXT_LINES } from './model';
import type { OffsetEdit } from '../transactions/plan';

/** Zero-based index of a hunk's first line (a zero count names the line before, as diff -u does). */
const firstIndex = (start: number, count: number): number => (count === 0 ? start : start - 1);

function lineOffsets(lines: readonly string[]): number[] {
  const offsets = [0];
  for (const l of lines) offsets.push(offsets[offsets.length - 1] + l.length);
  return offsets;
}

/** The edit of `updated` that puts one hunk's lines back as they are in `original`. */
function revertEdit(original: string[], updatedOffsets: number[], h: DiffHunk): OffsetEdit {
  const o = firstIndex(h.originalStartLine, h.originalLineCount);
  const u = firstIndex(h.updatedStartLine, h.updatedLineCount);
  return {
    start: updatedOffsets[u],
    end: updatedOffsets[u + h.updatedLineCount],
    newText: original.slice(o, o + h.originalLineCount).join(''),
  };
}

/**
 * The edit (on the staged text) that discards one hunk of the panel's diff, or undefined when the
 * hunk is not there (any more) or is not the one the person saw (its start lines differ).
 */
export function discardHunkEdit(
  original: string,
  updated: string,
  index: number,
  seen?: { originalStartLine: number; updatedStartLine: number },
): OffsetEdit | undefined {
  const { hunks } = diffTexts(original, updated, PANEL_CONTEXT_LINES);
  const h = hunks[index];
  if (!h) return undefined;
  if (seen && (seen.originalStartLine !== h.originalStartLine || seen.updatedStartLine !== h.updatedStartLine)) return undefined;
  const updatedLines = splitLinesKeepEnds(updated);
  return revertEdit(splitLinesKeepEnds(original), lineOffsets(updatedLines), h);
}

/**
 * Line-level replacements that turn `from` into `to` (ascending, non-overlapping offsets on
 * `from`): a person's edit of the staged text becomes a small edit, not a whole-file rewrite.
 */
export function minimalEdits(from: string, to: string): OffsetEdit[] {
  if (from === to) return [];
  const { hunks } = diffTexts(from, to, 0);
  const fromLines = splitLinesKeepEnds(from);
  const toLines = splitLinesKeepEnds(to);
  const offsets = lineOffsets(fromLines);
  return hunks.map((h) => {
    const f = firstIndex(h.originalStartLine, h.originalLineCount);
    const t = firstIndex(h.updatedStartLine, h.updatedLineCount);
    return { start: offsets[f], end: offsets[f + h.originalLineCount], newText: toLines.slice(t, t + h.updatedLineCount).join('') };
  });
}
