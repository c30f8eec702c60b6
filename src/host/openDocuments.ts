import * as vscode from 'vscode';

// The editor's open documents by file path. vscode.workspace.textDocuments builds a new array of
// every document on each read; a reference list over 40 files asked it 40 times per call.
let byPath: Map<string, vscode.TextDocument> | undefined;
let watching = false;

/** The open document of a file, if any. */
export function findOpen(absPath: string): vscode.TextDocument | undefined {
  if (!watching) {
    watching = true;
    // The list changes only when a document opens or closes (both events follow the change at once).
    vscode.workspace.onDidOpenTextDocument(() => (byPath = undefined));
    vscode.workspace.onDidCloseTextDocument(() => (byPath = undefined));
  }
  if (!byPath) {
    byPath = new Map();
    for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === 'file' && !byPath.has(d.uri.fsPath)) byPath.set(d.uri.fsPath, d);
  }
  const doc = byPath.get(absPath);
  // A closed document whose close event has not been seen yet is not open.
  return doc && !doc.isClosed ? doc : undefined;
}
