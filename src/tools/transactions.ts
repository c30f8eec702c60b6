/** Transactions while they are open: transaction-start, transaction-preview and transaction-history (ending one: transactionEnd.ts). */
import type { DocumentSelector } from '../core/documents/context';
import { defineTool } from '../core/chain/definition';
import type { DiffHunk } from '../core/transactions/diff';
import { revise, ToolError } from '../core/chain/envelope';
import { ANSWER_LIST_DEFAULT, limitItems, utf8Bytes } from '../core/chain/bounding';
import { boundedString, collectionOutput, documentRefOutput, INT32_MAX, MAX_PATH_LENGTH, projectSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import type { ChangedDocument, RevisionInfo, StagedDocument, TransactionState } from '../core/transactions/types';
import { checkSummaryOf, checkSummarySchema } from './shared/stagedCheck';
import type { CheckSummary } from './shared/stagedCheck';
import type { Workspace } from '../core/documents/workspaces';
import { stagedPath } from '../core/transactions/transaction';
import { DIFF_DOCUMENTS_MAX, DIFF_RESERVE_BYTES, documentDiffs, hunksWithin, pathDiffsSchema, renameLinesSchema, stagedHunks } from './shared/reviewDiffs';
import type { PathDiff } from './shared/reviewDiffs';
import { inputSchema, QUERY, queryAnnotations } from './shared/common';
import {
  MUTATION,
  mutationAnnotations,
  int,
  bool,
  transactionInput,
  transactionStateSchema,
  changedDocumentSchema,
  revisionInfoSchema,
} from './shared/mutations';
import type { Collection } from './shared/common';

const CATEGORY = 'Transactions' as const;

// ------------------------------------------------------------------ transaction-start

export interface TransactionStartData {
  transaction: TransactionState | null;
  transactionId: string;
  started: boolean;
}

export const transactionStart = defineTool({
  name: 'transaction-start',
  title: 'Transaction Start',
  category: CATEGORY,
  ...MUTATION,
  safeToRepeat: true,
  description:
    'Starts a staged transaction in the workspace, or returns the active one. Optional: mutation tools start one themselves. Nothing is written until transaction-commit.',
  inputSchema: transactionInput({}),
  dataSchema: {
    type: 'object',
    properties: {
      transaction: transactionStateSchema,
      transactionId: { type: 'string', format: 'uuid' },
      started: bool('False when a transaction was already active.'),
    },
    required: ['transaction', 'transactionId', 'started'],
  },
  annotations: { ...mutationAnnotations('Transaction Start'), idempotentHint: true },
  examples: [
    {
      workflowId: 'transaction-change',
      workflowTitle: 'Stage, review and commit one change',
      step: 1,
      id: 'start',
      title: 'Start a transaction',
      purpose: 'Open a transaction before staging.',
      expectedOutcome: 'Revision 0, nothing staged.',
      request: {},
    },
  ],
  async run(input, ctx): Promise<TransactionStartData> {
    const ws = ctx.workspace(input.workspace);
    const { transaction, started } = await ctx.services.transactions.exclusive(ws.id, async () => {
      ctx.commitPoint();
      return ctx.services.transactions.start(ws);
    });
    return { transaction: ctx.services.transactions.state(transaction), transactionId: transaction.id, started };
  },
});

// ------------------------------------------------------------------ transaction-preview

const previewDocumentInput = {
  description: 'The one document to diff; omit for all.',
  type: ['object', 'null'],
  properties: {
    project: projectSelectorInput,
    path: boundedString('Workspace-relative path.', MAX_PATH_LENGTH, { minLength: 1 }),
    documentId: boundedString('Workspace-local document ID.', MAX_PATH_LENGTH, { minLength: 1 }),
  },
  additionalProperties: false,
} as const;

const hunkSchema: JsonSchema = {
  type: 'object',
  properties: {
    originalStartLine: int('One-based starting line in the original document.'),
    originalLineCount: int('Number of original-document lines covered by the hunk.'),
    updatedStartLine: int('One-based starting line in the updated document.'),
    updatedLineCount: int('Number of updated-document lines covered by the hunk.'),
    lines: { description: 'Unified-diff content lines prefixed with space, +, or -.', type: 'array', items: { type: 'string' } },
  },
};

const documentDiffSchema: JsonSchema = {
  type: 'object',
  properties: {
    document: { ...documentRefOutput, type: ['object', 'null'], description: 'Document for which the detailed diff was produced.' },
    hunks: { description: 'Changed regions in unified-diff form.', type: 'array', items: hunkSchema },
    truncated: bool('Whether one or more diff hunks were omitted from the response.'),
  },
};

interface DocumentDiff {
  document: ChangedDocument['document'] | null;
  hunks: DiffHunk[];
  truncated: boolean;
}

/** What transaction-preview answers: the changed documents (and the asked document's diff), or with includeDiff alone every document's diff. */
export type PreviewData = {
  transaction: TransactionState | null;
  documentCount: number;
  documentsTruncated: boolean;
  note?: string;
  check?: CheckSummary;
} & ({ documents: ChangedDocument[]; diff: DocumentDiff | null } | { diffs: Collection<PathDiff> });

export const transactionPreview = defineTool({
  name: 'transaction-preview',
  title: 'Transaction Preview',
  category: CATEGORY,
  ...QUERY,
  description:
    "Previews the staged transaction: changed documents with changeKind and line counts. includeDiff: with document, its unified hunks (diff); without, every changed document's diff in format (diffs, not documents; cut to fit: truncated, note).",
  inputSchema: inputSchema({
    document: previewDocumentInput,
    includeDiff: { type: 'boolean' },
    contextLines: { description: 'Around each change; default 3, or 0 for words.', type: 'integer', minimum: 0, maximum: INT32_MAX },
    format: {
      description:
        "diffs' text: words (default; git's --word-diff, [-old-]{+new+}; lines [[line, staged text]] where a file's changes are the transaction's one rename) or unified (diff -u).",
      type: 'string',
      enum: ['words', 'unified'],
    },
  }),
  dataSchema: {
    type: ['object', 'null'],
    properties: {
      transaction: transactionStateSchema,
      documents: {
        description: 'The changed documents in the preview; with document, that one only (documentCount counts them all).',
        type: 'array',
        items: changedDocumentSchema,
      },
      documentCount: int('How many documents the transaction changes; documents may list fewer (documentsTruncated).'),
      documentsTruncated: bool('Whether documents were left out to fit the output limit.'),
      diff: { ...documentDiffSchema, description: 'The optional detailed diff.', type: ['object', 'null'] },
      diffs: pathDiffsSchema(
        'With includeDiff and no document, instead of documents: every changed document, in path order, with its unified diff; diffs are cut from the end to fit the output limit (truncated, note). totalCount: changed documents.',
        renameLinesSchema("In words, when the transaction holds one rename (rename-symbol's revision) and it is a file's every change"),
      ),
      note: { type: 'string', description: 'What was left out of diffs and how to get it.' },
      check: checkSummarySchema,
    },
  },
  annotations: queryAnnotations('Transaction Preview'),
  roslynWorkbenchDifferences:
    'Data: changeKind may also be Renamed, with previousPath (the path before the move). documents is a plain array as in roslyn-workbench-mcp, so it cannot carry hasMore: ' +
    'documentCount (how many documents the transaction changes) and documentsTruncated (true when documents were left out to fit the output limit) are added next to it; ' +
    'the selected diff is kept whole first, documents give way. ' +
    'includeDiff without document (not in roslyn-workbench-mcp) answers diffs instead of documents: every changed document by path (changeKind unless Modified), its hunks as one text (a word diff as git prints it, or with format unified diff -u), ' +
    'cut from the end to fit the output limit (truncated; line counts given where the diff does not say them), with a note naming the documents to ask for one at a time. ' +
    'With document, documents lists that document only (documentCount still counts every changed document).',
  examples: [
    {
      workflowId: 'transaction-change',
      workflowTitle: 'Stage, review and commit one change',
      step: 3,
      id: 'preview-transaction',
      title: 'Preview staged changes',
      purpose: 'Inspect a focused diff before deciding whether to commit or roll back the transaction.',
      expectedOutcome: 'A three-line-context diff is returned for the selected document without writing files.',
      request: { document: { path: 'src/greeter.ts' }, includeDiff: true, contextLines: 3 },
    },
  ],
  async run(input, ctx): Promise<PreviewData> {
    const ws = ctx.workspace(input.workspace);
    const tm = ctx.services.transactions;
    const tx = tm.active(ws.id);
    const changed = tm.changedDocuments(ws);
    let diff: DocumentDiff | null = null;
    let diffs: { items: PathDiff[]; hasMore: boolean; totalCount: number } | undefined;
    let note: string | undefined;
    let shownDocuments: ChangedDocument[] = [];
    if (!input.includeDiff) {
      // Only the listed documents are described (their line counts cost a diff each; a diff says its own).
      shownDocuments = await Promise.all(changed.slice(0, DIFF_DOCUMENTS_MAX).map((d) => tm.describe(ws, d)));
    } else {
      const selected = input.document && (input.document.path !== undefined || input.document.documentId !== undefined) ? input.document : undefined;
      // A word diff (every document's, unless format unified) says each change in its line: no context unless asked.
      const words = !selected && input.format !== 'unified';
      const contextLines = input.contextLines ?? (words ? 0 : 3);
      if (selected) {
        const staged = findChanged(ws, selected, changed);
        const entry = await tm.describe(ws, staged);
        // The answer lists the asked document alone beside its diff.
        const budget = ctx.maxOutputBytes - utf8Bytes(JSON.stringify([entry])) - utf8Bytes(JSON.stringify(tm.state(tx))) - DIFF_RESERVE_BYTES;
        const all = stagedHunks(staged, contextLines);
        const { hunks } = hunksWithin(all, budget);
        diff = { document: entry.document, hunks, truncated: hunks.length < all.length };
        // The list is the asked document's entry: the others are what a call without document lists.
        shownDocuments = [entry];
      } else {
        // Every changed document in order, each with what fits of its diff; the list of documents is not repeated beside them.
        const room = ctx.maxOutputBytes - utf8Bytes(JSON.stringify(tm.state(tx))) - DIFF_RESERVE_BYTES;
        // With one rename staged, a file whose every change is that rename lists its changed lines (with two, lines could not say whose).
        const renames = words && tx ? tx.renames() : [];
        ({ diffs, note } = documentDiffs(changed, (d) => tm.counts(d), {
          words,
          contextLines,
          budget: room,
          askOne: 'Ask with document',
          ...(renames.length === 1 ? { rename: renames[0] } : {}),
        }));
      }
    }
    const truncated = diff ? false : changed.length > shownDocuments.length;
    const check = tx && changed.length > 0 ? { check: await checkSummaryOf(ctx, ws, tx) } : {};
    if (diffs) {
      return { transaction: tm.state(tx), documentCount: changed.length, documentsTruncated: diffs.hasMore, diffs, ...(note ? { note } : {}), ...check };
    }
    return {
      transaction: tm.state(tx),
      documents: shownDocuments,
      documentCount: changed.length,
      documentsTruncated: truncated,
      diff,
      ...(note ? { note } : {}),
      ...check,
    };
  },
});

function findChanged(ws: Workspace, selector: DocumentSelector, changed: StagedDocument[]): StagedDocument {
  const wanted =
    selector.documentId !== undefined
      ? changed.map(stagedPath).find((p) => ws.documentId(p) === selector.documentId)
      : selector.path?.replace(/\\/g, '/').replace(/^\.\//, '');
  const hit = changed.find((d) => stagedPath(d) === wanted || (d.origin !== null && d.path !== null && d.origin.path !== d.path && d.origin.path === wanted));
  if (hit) return hit;
  throw new ToolError(
    'DocumentNotFound',
    `${selector.path ?? selector.documentId} has no staged change in ${ws.alias}. Changed documents: ${changed.map(stagedPath).slice(0, 20).join(', ') || 'none'}.`,
    revise('Name one of the changed documents (its staged path).'),
  );
}

// ------------------------------------------------------------------ transaction-history

export interface HistoryData {
  transaction: TransactionState | null;
  revisions: Collection<Omit<RevisionInfo, 'paths'> & { paths: Collection<string>; active: boolean }>;
}

export const transactionHistory = defineTool({
  name: 'transaction-history',
  title: 'Transaction History',
  category: CATEGORY,
  ...MUTATION,
  description:
    'Lists the staged transaction\'s revisions with their provenance (tool, summary, code action kind, by), or moves through them: action "undo" goes back steps revisions (default 1), "redo" forward. Staging after an undo drops the undone revisions.',
  inputSchema: transactionInput({
    action: { type: 'string', enum: ['list', 'undo', 'redo'], default: 'list' },
    steps: { type: 'integer', minimum: 1, maximum: 1000, default: 1 },
  }),
  dataSchema: {
    type: 'object',
    properties: {
      transaction: transactionStateSchema,
      revisions: {
        type: 'object',
        properties: {
          items: {
            type: 'array',
            items: {
              ...revisionInfoSchema,
              properties: {
                ...(revisionInfoSchema.properties as Record<string, JsonSchema>),
                paths: collectionOutput('Staged paths the revision changed.', { type: 'string' }),
                active: bool('False for an undone revision that redo would restore.'),
              },
            },
          },
          hasMore: { type: 'boolean' },
          totalCount: { type: 'integer' },
        },
        required: ['items', 'hasMore', 'totalCount'],
      },
    },
    required: ['transaction', 'revisions'],
  },
  annotations: mutationAnnotations('Transaction History'),
  examples: [
    {
      workflowId: 'transaction-change',
      workflowTitle: 'Stage, review and commit one change',
      step: 4,
      id: 'undo',
      title: 'Undo the last revision',
      purpose: 'Take back the last staged change.',
      expectedOutcome: 'The revision moves back by one; redo is possible.',
      request: { action: 'undo' },
    },
  ],
  async run(input, ctx): Promise<HistoryData> {
    const ws = ctx.workspace(input.workspace);
    const tm = ctx.services.transactions;
    const action = input.action ?? 'list';
    let tx = tm.active(ws.id);
    if (action !== 'list') {
      tx = await tm.exclusive(ws.id, async () => {
        tm.require(ws);
        ctx.commitPoint();
        return tm.move(ws, action, input.steps ?? 1);
      });
    } else if (!tx) tm.require(ws);
    const items = tm
      .history(ws)
      .map((r: RevisionInfo) => ({ ...r, paths: limitItems(r.paths, null, ANSWER_LIST_DEFAULT), active: r.revision <= (tx?.current ?? 0) }));
    return { transaction: tm.state(tx), revisions: { items, hasMore: false, totalCount: items.length } };
  },
});
