/** transaction-revert: the last commit's exact inverse, staged as a change to review and commit like any other. */
import { defineTool } from '../core/chain/definition';
import { revise, ToolError } from '../core/chain/envelope';
import type { ToolContext } from '../core/documents/context';
import type { Workspace } from '../core/documents/workspaces';
import type { LastCommit } from '../core/transactions/journal';
import { stagedAbsolutePath } from '../core/transactions/plan';
import { sha256 } from '../core/transactions/segments';
import type { MutationData, StagedChange } from '../core/transactions/types';
import { MUTATION, mutationAnnotations, mutationDataSchema, transactionInput } from './shared/mutations';

const changedSince = (path: string, how: string): ToolError =>
  new ToolError(
    'TransactionConflicted',
    `The last commit cannot be reverted exactly: ${path} ${how} since it was committed. Nothing was staged.`,
    revise('Change the files back by hand (edit-text), or ask the person.'),
  );

/** The inverse of the commit, checked against the files as they are now (editor and disk). */
async function inverse(ctx: ToolContext, ws: Workspace, commit: LastCommit): Promise<StagedChange[]> {
  const changes: StagedChange[] = [];
  for (const f of commit.files) {
    const now = f.newPath ?? f.path;
    const abs = stagedAbsolutePath(ws.fsPath, now);
    const bytes = await ctx.editor.readFileBytes(abs);
    if (f.afterHash === null) {
      if (bytes !== undefined) throw changedSince(now, 'was created again');
    } else {
      if (bytes === undefined) throw changedSince(now, 'was deleted');
      if (sha256(bytes) !== f.afterHash) throw changedSince(now, 'was changed on disk');
      const open = ctx.editor.openDocuments().find((d) => d.absPath === abs);
      if (open?.isDirty) throw changedSince(now, 'has unsaved changes in the editor');
    }
    if (f.kind === 'create') {
      changes.push({ kind: 'delete', path: f.path });
    } else if (f.kind === 'delete') {
      changes.push({ kind: 'create', path: f.path, text: f.before ?? '' });
    } else {
      if (f.newPath && f.newPath !== f.path) changes.push({ kind: 'rename', from: f.newPath, to: f.path });
      if (f.before !== null) {
        const current = (await ctx.editor.readDocument(abs))?.text ?? '';
        if (current !== f.before) changes.push({ kind: 'edit', path: f.path, edits: [{ start: 0, end: current.length, newText: f.before }] });
      }
    }
  }
  return changes;
}

export const transactionRevert = defineTool({
  name: 'transaction-revert',
  title: 'Transaction Revert',
  category: 'Transactions',
  ...MUTATION,
  description:
    "Stages the exact inverse of the folder's last commit (texts, creates, deletes, moves) to review and commit like any change; refused, naming the file, if one of its files changed since.",
  inputSchema: transactionInput({}),
  dataSchema: mutationDataSchema,
  annotations: mutationAnnotations('Transaction Revert'),
  examples: [
    {
      workflowId: 'transaction-change',
      workflowTitle: 'Stage, review and commit one change',
      step: 7,
      id: 'revert',
      title: 'Revert the last commit',
      purpose: 'Undo a commit that turned out wrong.',
      expectedOutcome: 'Its inverse is staged; transaction-commit writes it.',
      request: {},
    },
  ],
  async run(input, ctx): Promise<MutationData> {
    const ws = ctx.workspace(input.workspace);
    const tm = ctx.services.transactions;
    const commit = await tm.lastCommit(ws);
    if (!commit) {
      throw new ToolError(
        'NothingToRevert',
        `No commit of ${ws.alias} is kept: nothing was committed through Agent Workbench in this folder yet.`,
        revise('Nothing to revert.'),
      );
    }
    if (commit.notRevertible) {
      throw new ToolError(
        'NothingToRevert',
        `The last commit of ${ws.alias} (${commit.time}) cannot be reverted exactly: ${commit.notRevertible}.`,
        revise('Revert it by hand.'),
      );
    }
    const active = tm.active(ws.id);
    if (active && active.effectiveDocuments().length > 0) {
      throw new ToolError(
        'InvalidRequest',
        'A transaction with staged changes is open: a revert is staged on its own.',
        revise('Commit or roll back the open transaction first.'),
      );
    }
    return tm.mutate(ctx, ws, async () => ({
      provenance: { tool: 'transaction-revert', summary: `Revert the commit of ${commit.time}` },
      changes: await inverse(ctx, ws, commit),
      options: { basis: 'staged' },
    }));
  },
});
