import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CheckerClient } from '../checker/client';
import type { CheckedResult } from '../checker/protocol';
import type { StagedChecker } from '../core/transactions/check';
import { settingValue } from './settings';

/** VS Code's own TypeScript, shipped beside the built-in extensions: what its TypeScript service runs unless told otherwise. */
export function bundledTypeScript(): string | undefined {
  const builtin = vscode.extensions.getExtension('vscode.typescript-language-features')?.extensionPath;
  const candidates = [
    ...(builtin ? [path.join(builtin, '..', 'node_modules', 'typescript', 'lib', 'typescript.js')] : []),
    path.join(vscode.env.appRoot, 'extensions', 'node_modules', 'typescript', 'lib', 'typescript.js'),
  ];
  return candidates.find((c) => fs.existsSync(c));
}

/** How long a found TypeScript is trusted to be the editor's before it is looked up again (a person may switch versions). */
const EDITOR_TYPESCRIPT_TTL_MS = 30_000;

/** Uses of what TypeScript's own lib files declare (globals, and members of strings, numbers, arrays, promises): where the service finds one, its lib folder is. */
const LIB_USE =
  /\b(?:Array|Promise|Map|Set|Object|String|Number|Error|Date|JSON|Math|RegExp|Record|Partial|ReadonlyArray)\b|(?<=\.)(?:length|push|map|filter|forEach|reduce|join|slice|indexOf|includes|then|catch|toString|toFixed|toUpperCase|toLowerCase|replace|split|trim|startsWith|endsWith|keys|values|entries)\b/g;

/**
 * The TypeScript the editor's TypeScript service runs now. The service tells no other extension
 * which version it runs, but its answers come from its own lib files: the definition of a global
 * such as `Array` (or of a string's `length`) is in a lib.*.d.ts beside the typescript.js it runs. That is VS Code's bundled
 * one, a user's `typescript.tsdk`, or (only in a trusted workspace whose person selected it) the
 * workspace's own. Asked on a document of the check (read, never changed); undefined when the
 * service did not say (still starting, or no global used there).
 */
export class EditorTypeScript {
  private found: { path: string; at: number } | undefined;
  // A changed typescript.tsdk restarts the service on another version: look again at once.
  private readonly watch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('typescript.tsdk')) this.found = undefined;
  });

  dispose(): void {
    this.watch.dispose();
  }

  /** waitMs: how long to keep asking a service that answers nothing yet (starting). */
  async current(documents: readonly string[], waitMs = 10_000): Promise<string | undefined> {
    if (this.found && Date.now() - this.found.at < EDITOR_TYPESCRIPT_TTL_MS) return this.found.path;
    const probes: { uri: vscode.Uri; position: vscode.Position }[] = [];
    const open = vscode.workspace.textDocuments
      .filter((d) => d.uri.scheme === 'file' && /^(typescript|javascript)(react)?$/.test(d.languageId))
      .map((d) => d.uri.fsPath);
    // The check's own documents the editor has open first, then other TypeScript or JavaScript it
    // has open. None is opened for this: a check (a commit's included) must not open a person's
    // files; with none open the last answer stands, else VS Code's bundled TypeScript answers.
    const candidates = [...new Set([...documents.filter((d) => open.includes(d)).slice(0, 3), ...open.slice(0, 3)])];
    for (const absPath of candidates) {
      try {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(absPath));
        for (const m of [...doc.getText().matchAll(LIB_USE)].slice(0, 3)) probes.push({ uri: doc.uri, position: doc.positionAt((m.index ?? 0) + 1) });
      } catch {
        // Not a document the editor opens: no probe there.
      }
    }
    for (const deadline = Date.now() + waitMs; probes.length > 0;) {
      for (const { uri, position } of probes) {
        const targets = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
          'vscode.executeDefinitionProvider',
          uri,
          position,
        );
        for (const t of targets ?? []) {
          const target = 'targetUri' in t ? t.targetUri : t.uri;
          if (target.scheme !== 'file' || !/^lib\..*\.d\.ts$/.test(path.basename(target.fsPath))) continue;
          const module = path.join(path.dirname(target.fsPath), 'typescript.js');
          if (!fs.existsSync(module)) continue;
          this.found = { path: module, at: Date.now() };
          return module;
        }
      }
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return this.found?.path;
  }
}

/** How much work the last check did (CheckedResult.stats). */
export type CheckStats = CheckedResult['stats'];

/** The staged-program checker over a worker thread (dist/check-worker.js), or why there is none. */
export function stagedChecker(
  extensionUri: vscode.Uri,
  log?: vscode.LogOutputChannel,
): { checker?: StagedChecker; unavailable: string; dispose(): void; lastStats(): CheckStats | undefined } {
  const bundled = bundledTypeScript();
  const workerPath = path.join(extensionUri.fsPath, 'dist', 'check-worker.js');
  if (!bundled) {
    return {
      unavailable: "VS Code's bundled TypeScript was not found, so staged text cannot be checked before a commit.",
      dispose: () => undefined,
      lastStats: () => undefined,
    };
  }
  if (!fs.existsSync(workerPath)) {
    return { unavailable: `The checker's worker (${workerPath}) is missing from the extension.`, dispose: () => undefined, lastStats: () => undefined };
  }
  const editor = new EditorTypeScript();
  // Read on every agent question (a proof of readiness may start the warming): kept until the setting changes.
  let ahead: boolean | undefined;
  const aheadWatch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('agentWorkbench.check.computeAhead')) ahead = undefined;
  });
  const computesAhead = (): boolean => (ahead ??= settingValue<boolean>('check.computeAhead') !== false);
  let last: CheckStats | undefined;
  let client: { typescriptPath: string; client: CheckerClient } | undefined;
  /** The checker runs the editor's TypeScript; another one than VS Code's only in a trusted workspace (it runs code from disk). */
  const clientFor = async (folder: string, relativePaths: string[]): Promise<CheckerClient> => {
    const documents = relativePaths.map((p) => path.join(folder, ...p.split('/'))).filter((p) => fs.existsSync(p));
    const wanted = vscode.workspace.isTrusted ? ((await editor.current(documents).catch(() => undefined)) ?? bundled) : bundled;
    if (client?.typescriptPath !== wanted) {
      if (client) log?.info(`The checker now runs ${wanted} (was ${client.typescriptPath}): what it computed is dropped.`);
      void client?.client.dispose();
      client = { typescriptPath: wanted, client: new CheckerClient({ typescriptPath: wanted, workerPath }) };
    }
    return client.client;
  };
  return {
    checker: {
      check: async (request, signal) => {
        const result = await (await clientFor(request.folder, stagedPaths(request.staged))).check(request, signal);
        if (result.outcome === 'cancelled') return result;
        last = result.stats;
        const { recomputedBase, recomputedStaged, unaffected, inPart, durationMs } = result.stats;
        log?.info(
          `Checked ${result.checked.length} documents in ${durationMs} ms: ${recomputedBase} computed in the current view, ${recomputedStaged} in the staged one (${inPart} of them in part), ${unaffected} unaffected.`,
        );
        return { ...result, reasons: [...result.reasons] };
      },
      prepare: (request) => {
        void clientFor(request.folder, stagedPaths(request.staged)).then(
          (c) => c.prepare(request).catch(() => undefined),
          () => undefined,
        );
      },
      stopPreparing: () => client?.client.stopPreparing(),
      computesAhead,
      warm: async (request) => {
        if (!computesAhead()) return undefined;
        const result = await (await clientFor(request.folder, request.files)).warm(request);
        if (result.outcome !== 'warmed') return undefined;
        log?.info(`Computed the current view ahead: ${result.computed} of ${result.files} files of ${result.projects.join(', ')} in ${result.durationMs} ms.`);
        return result;
      },
    },
    unavailable: '',
    lastStats: () => last,
    dispose: () => {
      editor.dispose();
      aheadWatch.dispose();
      void client?.client.dispose();
    },
  };
}

/** The staged documents that exist as text (not deleted): the ones the editor's TypeScript is asked on. */
const stagedPaths = (staged: Record<string, string | null>): string[] => Object.keys(staged).filter((p) => staged[p] !== null);
