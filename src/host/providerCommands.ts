/**
 * VS Code's execute*Provider commands, run from one place. A command about a document the extension
 * host no longer holds fails with "Unable to retrieve document from URI": the window drops a
 * model nobody shows a while after an extension opened it, and reloads one whose file changed on
 * disk. That says nothing about the code (a bench run of about 110 renames on effect's sources met
 * it once, and the agent was told to fix its request), so the document is opened again and the
 * command asked again.
 */
import * as vscode from 'vscode';

const DOCUMENT_GONE = /Unable to retrieve document from URI/i;
/** Asked again at most this many times, after these pauses (ms): the window answers a reopened document at once. */
const PAUSES_MS = [0, 250];

/** For integration tests: the next `times` runs of `command` fail as VS Code does when the extension host lost the document. */
let injected: { command: string; times: number } | undefined;
export function injectDocumentGone(command: string, times: number): void {
  injected = times > 0 ? { command, times } : undefined;
}

/** Whether an error from a provider command says the extension host did not have the document. */
export function isDocumentGone(error: unknown): boolean {
  return DOCUMENT_GONE.test(error instanceof Error ? error.message : String(error));
}

/** Runs the command; when the document in its first argument was gone, opens it again and asks again. Other failures are thrown. */
export async function executeProvider<T>(command: string, ...args: unknown[]): Promise<T | undefined> {
  const uri = args[0] instanceof vscode.Uri ? args[0] : undefined;
  for (let retry = 0; ; retry++) {
    try {
      if (injected?.command === command && uri) {
        if (--injected.times <= 0) injected = undefined;
        throw new Error(`Unable to retrieve document from URI '${uri.toString()}'`);
      }
      return await vscode.commands.executeCommand<T>(command, ...args);
    } catch (error) {
      if (!uri || retry >= PAUSES_MS.length || !isDocumentGone(error)) throw error;
      if (PAUSES_MS[retry] > 0) await new Promise((resolve) => setTimeout(resolve, PAUSES_MS[retry]));
      try {
        await vscode.workspace.openTextDocument(uri);
      } catch {
        throw error;
      }
    }
  }
}

/** executeProvider, undefined when it fails (no provider, or the provider threw). */
export async function tryProvider<T>(command: string, ...args: unknown[]): Promise<T | undefined> {
  try {
    return await executeProvider<T>(command, ...args);
  } catch {
    return undefined;
  }
}
