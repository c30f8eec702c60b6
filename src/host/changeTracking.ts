import * as vscode from 'vscode';
import type { WorkspaceRegistry } from '../core/documents/workspaces';

/** Feeds every document change (buffer or disk) of the open folders into their snapshot trackers. */
export function trackChanges(registry: WorkspaceRegistry): vscode.Disposable[] {
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const record = (kind: 'content' | 'created' | 'deleted') => (uri: vscode.Uri) => {
    if (uri.scheme === 'file') registry.recordChange(uri.fsPath, kind);
  };
  return [
    watcher,
    watcher.onDidChange(record('content')),
    watcher.onDidCreate(record('created')),
    watcher.onDidDelete(record('deleted')),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) record('content')(e.document.uri);
    }),
    vscode.workspace.onDidCreateFiles((e) => e.files.forEach(record('created'))),
    vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(record('deleted'))),
    vscode.workspace.onDidRenameFiles((e) =>
      e.files.forEach((f) => {
        record('deleted')(f.oldUri);
        record('created')(f.newUri);
      }),
    ),
  ];
}
