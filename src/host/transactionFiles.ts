import * as vscode from 'vscode';
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
