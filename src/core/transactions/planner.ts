/** The commit plan of a transaction's current revision: the file operations, in the order a commit performs them. */
import { callTool, ToolError } from '../chain/envelope';
import { joinFolder } from '../documents/paths';
import type { Workspace } from '../documents/workspaces';
import type { CommitFile, CommitPlan } from './plan';
import { changedRegions } from './segments';
import type { Transaction } from './transaction';

/** Deletes, renames, creates, then text edits, each kind by path; a text edit as the regions that changed. */
export function planCommit(workspace: Workspace, tx: Transaction): CommitPlan {
  const docs = tx.effectiveDocuments();
  if (docs.length === 0) {
    throw new ToolError(
      'InvalidRequest',
      'The transaction stages no change at its current revision; there is nothing to commit.',
      callTool('transaction-history', 'Redo revisions with transaction-history, stage a change, or roll the transaction back.'),
    );
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
      const edits =
        d.text === d.origin.text ? undefined : changedRegions(d, d.origin.text.length).map((r) => ({ start: r.start, end: r.end, newText: r.text }));
      if (d.path !== d.origin.path) {
        files.push({
          kind: 'rename',
          absPath: abs(d.origin.path),
          path: d.origin.path,
          newAbsPath: abs(d.path),
          newPath: d.path,
          base: d.origin,
          edits,
          text: d.text,
        });
      } else {
        files.push({ kind: 'modify', absPath: abs(d.path), path: d.path, base: d.origin, edits, text: d.text });
      }
    }
  }
  files.sort((a, b) => order[a.kind] - order[b.kind] || a.path.localeCompare(b.path));
  return { transactionId: tx.id, workspaceId: workspace.id, folder: workspace.fsPath, files };
}
