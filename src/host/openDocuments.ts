import * as vscode from 'vscode';

/** An open document as the core sees it; isDirty is read from the document each time. */
export type OpenDocument = { readonly absPath: string; readonly languageId: string; readonly isDirty: boolean };

// The editor's open documents by file path. vscode.workspace.textDocuments builds a new array of
// every document on each read; a reference list over 40 files asked it 40 times per call, and
// every query's readiness verdict reads the list again.
let byPath: Map<string, vscode.TextDocument> | undefined;
let list: readonly OpenDocument[] | undefined;
let watching = false;

function documents(): Map<string, vscode.TextDocument> {
  if (!watching) {
    watching = true;
    // The list changes only when a document opens or closes (a language change is a close and an open).
    const forget = () => {
      byPath = undefined;
      list = undefined;
    };
    vscode.workspace.onDidOpenTextDocument(forget);
    vscode.workspace.onDidCloseTextDocument(forget);
  }
  if (!byPath) {
    byPath = new Map();
    for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === 'file' && !byPath.has(d.uri.fsPath)) byPath.set(d.uri.fsPath, d);
  }
  return byPath;
}

/** The open document of a file, if any. */
export function findOpen(absPath: string): vscode.TextDocument | undefined {
  const doc = documents().get(absPath);
  // A closed document whose close event has not been seen yet is not open.
  return doc && !doc.isClosed ? doc : undefined;
}

/** The open file documents: the same array until a document opens or closes, so callers may keep what they derive from it. */
export function openDocumentList(): readonly OpenDocument[] {
  const docs = documents();
  // A closed document whose close event has not been seen yet is not open.
  if (list && !anyClosed(docs)) return list;
  list = Object.freeze(
    [...docs.values()]
      .filter((d) => !d.isClosed)
      .map((d): OpenDocument => ({
        absPath: d.uri.fsPath,
        languageId: d.languageId,
        get isDirty() {
          return d.isDirty;
        },
      })),
  );
  return list;
}

function anyClosed(docs: Map<string, vscode.TextDocument>): boolean {
  for (const d of docs.values()) if (d.isClosed) return true;
  return false;
}
