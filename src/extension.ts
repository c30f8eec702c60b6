import * as vscode from 'vscode';
import { dirtyBuffers, StagedChecks } from './core/transactions/check';
import { stagedChecker } from './host/checker';
import type { CheckStats } from './host/checker';
import { ToolRunner } from './core/chain/chain';
import type { Services } from './core/documents/context';
import { ErrorStore } from './core/chain/errorStore';
import { CommitJournal } from './core/transactions/journal';
import { TransactionManager } from './core/transactions/manager';
import { TransactionStore } from './core/transactions/store';
import { WorkspaceRegistry } from './core/documents/workspaces';
import { trackChanges } from './host/changeTracking';
import { registerCommands } from './host/commands';
import { injectCommitFault } from './host/commit';
import { injectDocumentGone } from './host/providerCommands';
import type { CommitFault } from './host/commit';
import { registerReviewPanel } from './host/reviewPanel';
import { registerTools } from './host/registration';
import { registerMcp } from './host/mcp';
import type { McpControl } from './host/mcp';
import { keptTransactionFiles, lastCommitFiles, readStorageText, writeStorageText } from './host/transactionFiles';
import { readSettings, watchSettings } from './host/settings';
import { VsCodeHost } from './host/vscodeHost';
import { WordScanner } from './host/wordScan';
import { ALL_TOOLS } from './tools';
import { LanguageServiceCaches } from './core/documents/caches';
import { ProjectReadiness } from './core/symbols/readiness';

/** What activate() returns: enough for tests and other extensions to see what is offered. */
export interface AgentWorkbenchApi {
  version: string;
  toolNames: string[];
  /** How long activate() took, in milliseconds. */
  activationMs: number;
  /** Milliseconds from activation until its storage work was done and tools answer (Services.startup). */
  startupMs: Promise<number>;
  /** For integration tests: make the next commit fail at one file, to prove it restores everything. */
  testHooks: {
    injectCommitFault(fault: CommitFault | undefined): void;
    /** For integration tests: the next `times` runs of a provider command fail as when the extension host lost the document. */
    injectDocumentGone(command: string, times: number): void;
    mcp: McpControl;
    /** The current views computed ahead (StagedChecks.warm), once settled: benches time the first check after them. */
    checksWarmed(): Promise<unknown[]>;
    /** Whether one is computing now. */
    checksWarming(): boolean;
    /** How much work the last check did. */
    lastCheckStats(): CheckStats | undefined;
    /** Files the word scan's worker thread has answered for (a rename's residue scanned ahead). */
    wordScanFiles(): number;
    /** A call through this window's own chain and services (its transactions, review panel, checks) without vscode.lm's round trip: benches time the tools' own work. */
    invoke(name: string, input: unknown): Promise<string>;
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<AgentWorkbenchApi> {
  const started = Date.now();
  const version = (context.extension.packageJSON as { version: string }).version;
  const log = vscode.window.createOutputChannel('Agent Workbench', { log: true });
  const words = new WordScanner(vscode.Uri.joinPath(context.extensionUri, 'dist', 'word-scan-worker.js').fsPath);
  context.subscriptions.push({ dispose: () => words.dispose() });
  const host = new VsCodeHost(version, words);
  // The commit journal lives in the extension's global storage, never in the workspace.
  const journalFile = vscode.Uri.joinPath(context.globalStorageUri, 'commit-journal.json');
  const journal = new CommitJournal(
    { read: () => readStorageText(journalFile), write: (text) => writeStorageText(journalFile, text) },
    lastCommitFiles(context.globalStorageUri),
  );
  const transactions = new TransactionManager({
    editor: host,
    maxRevisions: () => readSettings().maxRevisions,
    mode: () => readSettings().effectiveMode,
    journal,
  });
  const registry = new WorkspaceRegistry(host, context.globalState, (id) => transactions.revision(id));
  // Each folder's open transaction survives a window reload (kept in global storage, checked against the files at start).
  const kept = new TransactionStore(transactions, host, keptTransactionFiles(context.globalStorageUri), (id) => registry.byId(id));
  pendingWrites = async () => void (await Promise.all([journal.flush(), kept.flush()]));
  // Round trips to storage, slow while other extensions activate (hundreds of ms here): activate()
  // returns without them and every entry point waits for them (Services.startup).
  const startup = (async () => {
    const [recovery] = await Promise.all([journal.inspect((p) => host.readFileBytes(p)), registry.sync()]);
    if (recovery.state !== 'clean') log.warn(`Commit journal: ${recovery.detail}`);
    await kept.restore(registry.all());
  })().then(
    () => Date.now() - started,
    (error: unknown) => {
      log.error(`Starting up: ${error instanceof Error ? error.message : String(error)}`);
      return Date.now() - started;
    },
  );
  const checker = stagedChecker(context.extensionUri, log);
  const services: Services = {
    editor: host,
    registry,
    errors: new ErrorStore(),
    tools: () => ALL_TOOLS,
    settings: readSettings,
    startedAt: started,
    transactions,
    readiness: new ProjectReadiness(),
    caches: new LanguageServiceCaches(),
    checks: new StagedChecks(checker.checker, checker.unavailable),
    startup: startup.then(() => undefined),
  };
  const runner = new ToolRunner(ALL_TOOLS, {
    services,
    log: (e) => {
      const line = `${e.tool} ${e.outcome} ${e.durationMs}ms ${e.bytes}B${e.truncated ? ' truncated' : ''} correlationId=${e.correlationId} door=${e.door}`;
      if (e.outcome === 'ok') log.info(line);
      else if (e.outcome === 'UnhandledException') log.error(line);
      else log.warn(line);
    },
    confirm: async (_tool, summary) => {
      try {
        const choice = await vscode.window.showWarningMessage(summary.title, { modal: true, detail: summary.message }, 'Approve');
        return choice === 'Approve';
      } catch (error) {
        return { unasked: `VS Code could not show the dialog: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  });
  const mcp = registerMcp({ context, runner, tools: ALL_TOOLS, log, version });
  context.subscriptions.push(
    watchSettings(log),
    kept,
    log,
    services.checks.follow(transactions, {
      transaction: (id) => {
        const tx = transactions.active(id);
        const ws = registry.byId(id);
        return tx && ws ? { ws, tx } : undefined;
      },
      buffers: (ws) => dirtyBuffers(host, ws),
    }),
    { dispose: () => (services.checks.dispose(), checker.dispose()) },
    ...registerTools(ALL_TOOLS, runner),
    ...trackChanges(registry),
    ...registerCommands(log),
    ...registerReviewPanel(context, { services, runner, extensionUri: context.extensionUri, log }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void startup.then(() => registry.sync())),
    ...mcp.disposables,
  );
  const activationMs = Date.now() - started;
  log.info(`Agent Workbench ${version} activated in ${activationMs} ms with ${ALL_TOOLS.length} tools; mode ${readSettings().effectiveMode}.`);
  void startup.then((ms) => log.info(`Storage checked and kept transactions restored ${ms} ms after activation started.`));
  return {
    version,
    toolNames: ALL_TOOLS.map((t) => t.name),
    activationMs,
    startupMs: startup,
    testHooks: {
      injectCommitFault,
      injectDocumentGone,
      mcp: mcp.control,
      checksWarmed: () => services.checks.warmings(),
      checksWarming: () => services.checks.warming,
      lastCheckStats: () => checker.lastStats(),
      wordScanFiles: () => words.filesAnswered,
      invoke: async (name, input) => (await runner.invoke(name, input)).text,
    },
  };
}

/** The last commit's record is written after the commit answers, a staging once changes pause: a closing window waits for both. */
let pendingWrites: (() => Promise<void>) | undefined;

export function deactivate(): Promise<void> | undefined {
  return pendingWrites?.();
}
