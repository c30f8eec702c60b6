import * as path from 'node:path';
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';

/*
 * A test-only extension (never in the .vsix): a real Python language server for the `python`
 * integration suite. VS Code's built-in `vscode.python` extension registers the `python` language
 * and its grammar only; this starts pyright's language server (npm `pyright`, a devDependency) for
 * python documents through vscode-languageclient, as the Python extension does for users.
 * scripts/python-lsp.mjs bundles this file into the run's extensions folder, with a link named
 * `pyright` to the package beside it.
 */

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = path.join(context.extensionPath, 'pyright', 'langserver.index.js');
  const run = { module, transport: TransportKind.ipc };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ],
  };
  client = new LanguageClient('agentWorkbenchTests.pyright', 'Pyright (Agent Workbench tests)', serverOptions, clientOptions);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
