import * as vscode from 'vscode';

/**
 * Waits until the language service answers document symbols for a file, and returns how long
 * that took. The TypeScript server starts lazily and needs seconds on a cold machine; code
 * that runs inside the extension host (tests, demo, bench) waits here before asking it anything.
 */
export async function waitForDocumentSymbols(uri: vscode.Uri, timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  await vscode.workspace.openTextDocument(uri);
  for (;;) {
    const symbols = await vscode.commands.executeCommand<unknown[] | undefined>('vscode.executeDocumentSymbolProvider', uri);
    if (symbols && symbols.length > 0) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`the language service gave no document symbols for ${uri.fsPath} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
