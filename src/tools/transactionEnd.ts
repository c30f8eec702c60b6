/** Ending a transaction: transaction-commit (with the check that may refuse it) and transaction-rollback. */
import type { ToolContext } from '../core/documents/context';
import { defineTool } from '../core/chain/definition';
import type { ApprovalSummary } from '../core/chain/toolInfo';
import { revise, ToolError } from '../core/chain/envelope';
import { collectionOutput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import type { TransactionState } from '../core/transactions/types';
import type { Transaction } from '../core/transactions/transaction';
import * as path from 'node:path';
import { diagnosticLine, introducedErrors, uncheckedWrites } from '../core/transactions/check';
import type { RevisionCheck, StagedDiagnostic } from '../core/transactions/check';
import type { WorkspaceSelector } from '../core/documents/workspaces';
import type { CommittedFile, DiagnosticsAroundWrite, ReportedDiagnostic } from '../core/documents/editorPort';
import { toPosix } from '../core/documents/paths';
import { countOf } from '../core/util/wording';
import { ANSWER_LIST_DEFAULT, limitItems } from '../core/chain/bounding';
import { collectionOf, inputSchema, limited } from './shared/common';
import type { Collection } from './shared/common';
import { MUTATION, mutationAnnotations, int, bool, transactionInput, transactionStateSchema } from './shared/mutations';
import { checkData, checkDataSchema, checkRevision } from './shared/stagedCheck';
import type { CheckData } from './shared/stagedCheck';

const CATEGORY = 'Transactions' as const;

/** What an answer shows after the transaction ended (commit or rollback): nothing to undo or commit. */
function closedState(ctx: ToolContext, tx: Transaction): TransactionState {
  const s = ctx.services.settings();
  return {
    revision: tx.current,
    revisionCount: tx.revisions.length,
    maxRevisions: s.maxRevisions,
    remainingRevisions: s.maxRevisions,
    canMutate: s.effectiveMode !== 'inspection-only',
    canUndo: false,
    canRedo: false,
    canCommit: false,
    canRollback: false,
  };
}

// ------------------------------------------------------------------ transaction-commit

const filesOutput: JsonSchema = collectionOutput(
  'Files written (sha256 of the bytes before and after; null: no file); hasMore when the answer was shortened to fit.',
  {
    type: 'object',
    properties: { path: { type: 'string' }, beforeHash: { type: ['string', 'null'] }, afterHash: { type: ['string', 'null'] } },
    required: ['path', 'beforeHash', 'afterHash'],
  },
);

export async function commitSummary(ctx: ToolContext, workspace?: WorkspaceSelector | null): Promise<ApprovalSummary> {
  const ws = ctx.workspace(workspace);
  const docs = await ctx.services.transactions.preview(ws);
  const lines = docs
    .slice(0, 50)
    .map(
      (d) => `- ${d.changeKind} \`${d.previousPath ? `${d.previousPath} → ` : ''}${d.document.path}\` (+${d.preview.addedLines} −${d.preview.removedLines})`,
    );
  if (docs.length > 50) lines.push(`- … and ${docs.length - 50} more`);
  const tx = ctx.services.transactions.active(ws.id);
  const check = tx ? await checkRevision(ctx, ws, tx, CONFIRMATION_CHECK_WAIT_MS) : undefined;
  return {
    title: `Commit ${countOf(docs.length, 'file')} to disk?`,
    message: `The agent asks to write the staged transaction in ${ws.alias}:\n\n${lines.join('\n') || '(nothing staged)'}\n\n${checkSummary(check)}\n\n[Open the review panel](command:agentWorkbench.review.open) to see the diff first.`,
  };
}

/** How long the confirmation waits for the staged-program check before it says the check is still running. */
const CONFIRMATION_CHECK_WAIT_MS = 15_000;

/** What the person reads about the check before approving a commit. */
function checkSummary(check: RevisionCheck | undefined): string {
  if (!check) return 'The TypeScript check of the staged text is still running: whether it introduces errors is not known yet.';
  if (check.state === 'unavailable') return `Not checked before commit: ${check.reason}`;
  const errors = introducedErrors(check);
  const partial = check.complete ? '' : ` (partial: ${check.reasons.join(', ')})`;
  if (errors.length === 0) {
    return `TypeScript check${partial}: no new errors in ${countOf(check.checked.length, 'file')}; ${countOf(check.resolved.length, 'error')} resolved.`;
  }
  const shown = errors.slice(0, 10).map((d) => `- ${diagnosticLine(d)}`);
  if (errors.length > 10) shown.push(`- … and ${errors.length - 10} more`);
  return `**This commit introduces ${countOf(errors.length, 'error')}**${partial}:\n\n${shown.join('\n')}`;
}

export interface CommitData {
  transaction: TransactionState;
  transactionId: string;
  files: Collection<CommittedFile>;
  check?: CheckData;
  afterCommit?: AfterCommitData;
}

/** A written document's diagnostic as the commit answer gives it (workspace-relative path). */
type AfterCommitDiagnostic = Omit<ReportedDiagnostic, 'path'> & { path: string };

/** What the language services of the documents no pre-commit check covers reported after the write. */
export interface AfterCommitData {
  introduced: Collection<AfterCommitDiagnostic>;
  resolved: Collection<AfterCommitDiagnostic>;
  /** Written documents whose service said nothing within the wait: not known to be clean. */
  silent?: string[];
}

/** How long a commit waits for the services of documents it writes (other than TypeScript/JavaScript) before and after the write. */
const BEFORE_WRITE_WAIT_MS = 2_000;
const AFTER_WRITE_WAIT_MS = 3_000;

const reportedSchema: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    line: { type: 'integer' },
    column: { type: 'integer' },
    code: { type: 'string' },
    message: { type: 'string' },
    severity: { enum: ['Error', 'Warning', 'Information', 'Hint'] },
    source: { type: 'string' },
  },
  required: ['path', 'line', 'column', 'message', 'severity'],
};

const afterCommitSchema: JsonSchema = {
  type: 'object',
  description: "Documents no pre-commit check covers (not TypeScript/JavaScript): their language service's diagnostics after the write compared with before.",
  properties: {
    introduced: collectionOf(reportedSchema),
    resolved: { ...collectionOf(reportedSchema), description: 'Positions before the write.' },
    silent: { type: 'array', items: { type: 'string' }, description: 'Written documents no service reported on in time: not known to be clean.' },
  },
  required: ['introduced', 'resolved'],
};

function afterCommitData(delta: DiagnosticsAroundWrite, folder: string): AfterCommitData {
  const relative = (p: string) => toPosix(path.relative(folder, p));
  const rel = (d: ReportedDiagnostic): AfterCommitDiagnostic => ({ ...d, path: relative(d.path) });
  return {
    introduced: limited(delta.introduced.map(rel), 10),
    resolved: limited(delta.resolved.map(rel), 10),
    ...(delta.silent.length > 0 ? { silent: delta.silent.map(relative) } : {}),
  };
}

export const transactionCommit = defineTool({
  name: 'transaction-commit',
  title: 'Transaction Commit',
  category: CATEGORY,
  ...MUTATION,
  requiresApproval: true,
  requiredPermission: 'workspace.commit',
  notApprovedCode: 'TransactionCommitNotApproved',
  description:
    'Writes the staged transaction once the person approves: checks every file still holds the text its edits were computed on, applies one workspace edit, saves, verifies the bytes; on failure every file is put back, the transaction kept. autonomous-trusted: refused (NewErrorsIntroduced) if transaction-check finds new errors, unless allowNewErrors.',
  timeoutSeconds: 120,
  inputSchema: inputSchema({ allowNewErrors: bool('Commit even if the staged TypeScript/JavaScript introduces errors.') }),
  dataSchema: {
    type: 'object',
    properties: {
      transaction: transactionStateSchema,
      transactionId: { type: 'string', format: 'uuid' },
      files: filesOutput,
      check: checkDataSchema,
      afterCommit: afterCommitSchema,
    },
    required: ['transaction', 'transactionId', 'files'],
  },
  annotations: mutationAnnotations('Transaction Commit'),
  examples: [
    {
      workflowId: 'transaction-change',
      workflowTitle: 'Stage, review and commit one change',
      step: 5,
      id: 'commit',
      title: 'Commit',
      purpose: 'Write the reviewed change.',
      expectedOutcome: 'Files written; the transaction ends.',
      request: {},
    },
  ],
  prepareApproval: (input, ctx) => commitSummary(ctx, input.workspace),
  async run(input, ctx): Promise<CommitData> {
    const ws = ctx.workspace(input.workspace);
    const settings = ctx.services.settings();
    let check: RevisionCheck | undefined;
    // Without a person to read the confirmation, the check decides: on exactly the revision written (inside the commit's turn).
    const gate =
      settings.effectiveMode === 'autonomous-trusted' && settings.newErrorsOnCommit === 'refuse' && input.allowNewErrors !== true
        ? async (tx: Transaction) => {
            check = await checkRevision(ctx, ws, tx);
            const errors = introducedErrors(check);
            if (errors.length > 0) throw newErrors(errors, check);
          }
        : undefined;
    const active = ctx.services.transactions.active(ws.id);
    const others = active ? uncheckedWrites(active, ws.fsPath) : [];
    const watch = others.length > 0 ? await ctx.editor.watchDiagnostics(others, BEFORE_WRITE_WAIT_MS) : undefined;
    let committed: Awaited<ReturnType<typeof ctx.services.transactions.commit>>;
    try {
      committed = await ctx.services.transactions.commit(ctx, ws, 'agent', gate);
    } catch (error) {
      watch?.dispose();
      throw error;
    }
    const { transaction, files } = committed;
    const afterCommit = watch ? afterCommitData(await watch.settle(AFTER_WRITE_WAIT_MS), ws.fsPath) : undefined;
    return {
      transaction: closedState(ctx, transaction),
      transactionId: transaction.id,
      files: limitItems(files, null, ANSWER_LIST_DEFAULT),
      ...(check ? { check: checkData(check, 10) } : {}),
      ...(afterCommit ? { afterCommit } : {}),
    };
  },
});

function newErrors(errors: StagedDiagnostic[], check: RevisionCheck | undefined): ToolError {
  const list = errors.slice(0, 5).map(diagnosticLine).join('; ');
  return new ToolError(
    'NewErrorsIntroduced',
    `Nothing was written: revision ${check?.revision} introduces ${countOf(errors.length, 'error')} (${list}${errors.length > 5 ? '; …' : ''}).`,
    revise('Fix them and stage again (transaction-check lists them all), or commit with allowNewErrors: true.'),
  );
}

// ------------------------------------------------------------------ transaction-rollback

export interface RollbackData {
  transaction: TransactionState;
  transactionId: string;
  discardedRevisions: number;
}

export const transactionRollback = defineTool({
  name: 'transaction-rollback',
  title: 'Transaction Rollback',
  category: CATEGORY,
  ...MUTATION,
  description: 'Discards the whole staged transaction (every revision). Files on disk are not touched.',
  inputSchema: transactionInput({}),
  dataSchema: {
    type: 'object',
    properties: {
      transaction: transactionStateSchema,
      transactionId: { type: 'string', format: 'uuid' },
      discardedRevisions: int('Revisions that were discarded (including undone ones).'),
    },
    required: ['transaction', 'transactionId', 'discardedRevisions'],
  },
  annotations: mutationAnnotations('Transaction Rollback'),
  examples: [
    {
      workflowId: 'transaction-change',
      workflowTitle: 'Stage, review and commit one change',
      step: 6,
      id: 'rollback',
      title: 'Roll back',
      purpose: 'Drop everything staged.',
      expectedOutcome: 'No transaction is active.',
      request: {},
    },
  ],
  async run(input, ctx): Promise<RollbackData> {
    const ws = ctx.workspace(input.workspace);
    const tm = ctx.services.transactions;
    const tx = await tm.rollback(ctx, ws);
    return { transaction: closedState(ctx, tx), transactionId: tx.id, discardedRevisions: tx.revisions.length };
  },
});
