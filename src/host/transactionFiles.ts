import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import type { LastCommitStore } from '../core/transactions/journal';
import type { KeptTransactionFiles } from '../core/transactions/store';

/**
 * Kept transactions as files in the extension's global storage (never in the workspace):
 * transactions/<workspaceId>.json, written to a temporary file and renamed over, so a window
 * reload in the middle of a write leaves the previous version whole. Through node's fs on this
 * machine's disk, as the journal is (readStorageText): not a round trip through the editor.
 */
export function keptTransactionFiles(storage: vscode.Uri): KeptTransactionFiles {
  const dir = vscode.Uri.joinPath(storage, 'transactions');
  const name = (id: string) => id.replace(/[^\w-]/g, '_');
  const file = (id: string): vscode.Uri => vscode.Uri.joinPath(dir, `${name(id)}.json`);
  return {
    read: (id) => readStorageText(file(id)),
    write: (id, text) => writeStorageText(file(id), text, vscode.Uri.joinPath(dir, `${name(id)}.json.tmp`)),
    remove: async (id) => {
      try {
        if (file(id).scheme === 'file') await fs.rm(file(id).fsPath, { force: true });
        else await vscode.workspace.fs.delete(file(id));
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * A text file in the extension's storage, read whole, or written to `temporary` and renamed over it.
 * On this machine's disk (a file URI) through node's fs: workspace.fs goes through the editor, a
 * round trip carrying the whole text, and a commit's journal and last commit (its files' texts
 * before, 15 MB for a rename across 160 files of a large code base) took 2 s that way.
 */
export async function readStorageText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return uri.scheme === 'file' ? await fs.readFile(uri.fsPath, 'utf8') : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

export async function writeStorageText(uri: vscode.Uri, text: string, temporary?: vscode.Uri): Promise<void> {
  const dir = vscode.Uri.joinPath(uri, '..');
  if (uri.scheme === 'file') {
    await fs.mkdir(dir.fsPath, { recursive: true });
    if (!temporary) return fs.writeFile(uri.fsPath, text);
    await fs.writeFile(temporary.fsPath, text);
    return fs.rename(temporary.fsPath, uri.fsPath);
  }
  await vscode.workspace.fs.createDirectory(dir);
  if (!temporary) return vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(text));
  await vscode.workspace.fs.rename(temporary, uri, { overwrite: true });
}

/** The last commit of each workspace folder (for transaction-revert): a file per folder, named by a hash of its path. */
export function lastCommitFiles(storage: vscode.Uri): LastCommitStore {
  const dir = vscode.Uri.joinPath(storage, 'last-commits');
  const file = (folder: string): vscode.Uri => vscode.Uri.joinPath(dir, `${createHash('sha256').update(folder).digest('hex').slice(0, 24)}.json`);
  return {
    read: (folder) => readStorageText(file(folder)),
    write: (folder, text) => writeStorageText(file(folder), text, vscode.Uri.joinPath(dir, `${process.pid}.tmp`)),
  };
}
