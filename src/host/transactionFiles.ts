import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { LastCommitStore } from '../core/transactions/journal';
import type { KeptTransactionFiles } from '../core/transactions/store';

/**
 * Kept transactions as files in the extension's global storage (never in the workspace):
 * transactions/<workspaceId>.json, written to a temporary file and renamed over, so a window
 * reload in the middle of a write leaves the previous version whole.
 */
export function keptTransactionFiles(storage: vscode.Uri): KeptTransactionFiles {
  const dir = vscode.Uri.joinPath(storage, 'transactions');
  const file = (id: string): vscode.Uri => vscode.Uri.joinPath(dir, `${id.replace(/[^\w-]/g, '_')}.json`);
  return {
    read: async (id) => {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(file(id)));
      } catch {
        return undefined;
      }
    },
    write: async (id, text) => {
      await vscode.workspace.fs.createDirectory(dir);
      const temporary = vscode.Uri.joinPath(dir, `${id.replace(/[^\w-]/g, '_')}.json.tmp`);
      await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(text));
      await vscode.workspace.fs.rename(temporary, file(id), { overwrite: true });
    },
    remove: async (id) => {
      try {
        await vscode.workspace.fs.delete(file(id));
      } catch {
        // Already gone.
      }
    },
  };
}

/** The last commit of each workspace folder (for transaction-revert): a file per folder, named by a hash of its path. */
export function lastCommitFiles(storage: vscode.Uri): LastCommitStore {
  const dir = vscode.Uri.joinPath(storage, 'last-commits');
  const file = (folder: string): vscode.Uri => vscode.Uri.joinPath(dir, `${createHash('sha256').update(folder).digest('hex').slice(0, 24)}.json`);
  return {
    read: async (folder) => {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(file(folder)));
      } catch {
        return undefined;
      }
    },
    write: async (folder, text) => {
      await vscode.workspace.fs.createDirectory(dir);
      const temporary = vscode.Uri.joinPath(dir, `${process.pid}.tmp`);
      await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(text));
      await vscode.workspace.fs.rename(temporary, file(folder), { overwrite: true });
    },
  };
}
