import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CheckerClient } from '../checker/client';
import type { StagedChecker } from '../core/transactions/check';

/**
 * VS Code's own TypeScript, the one its TypeScript service runs: shipped beside the built-in
 * extensions. A workspace's own TypeScript version is not used (it would run the workspace's code).
 */
export function bundledTypeScript(): string | undefined {
  const builtin = vscode.extensions.getExtension('vscode.typescript-language-features')?.extensionPath;
  const candidates = [
    ...(builtin ? [path.join(builtin, '..', 'node_modules', 'typescript', 'lib', 'typescript.js')] : []),
    path.join(vscode.env.appRoot, 'extensions', 'node_modules', 'typescript', 'lib', 'typescript.js'),
  ];
  return candidates.find((c) => fs.existsSync(c));
}

/** The staged-program checker over a worker thread (dist/check-worker.js), or why there is none. */
export function stagedChecker(extensionUri: vscode.Uri): { checker?: StagedChecker; unavailable: string; dispose(): void } {
  const typescriptPath = bundledTypeScript();
  const workerPath = path.join(extensionUri.fsPath, 'dist', 'check-worker.js');
  if (!typescriptPath) {
    return { unavailable: "VS Code's bundled TypeScript was not found, so staged text cannot be checked before a commit.", dispose: () => undefined };
  }
  if (!fs.existsSync(workerPath)) return { unavailable: `The checker's worker (${workerPath}) is missing from the extension.`, dispose: () => undefined };
  const client = new CheckerClient({ typescriptPath, workerPath });
  return {
    checker: {
      check: async (request, signal) => {
        const result = await client.check(request, signal);
        return result.outcome === 'cancelled' ? result : { ...result, reasons: [...result.reasons] };
      },
    },
    unavailable: '',
    dispose: () => void client.dispose(),
  };
}
