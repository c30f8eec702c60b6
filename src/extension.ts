import * as vscode from 'vscode';
import { ToolRunner } from './core/chain';
import { ErrorStore } from './core/errorStore';
import { WorkspaceRegistry } from './core/workspaces';
import { trackChanges } from './host/changeTracking';
import { registerCommands } from './host/commands';
import { registerTools } from './host/registration';
import { readSettings } from './host/settings';
import { VsCodeHost } from './host/vscodeHost';
import { ALL_TOOLS } from './tools';

/** What activate() returns: enough for tests and other extensions to see what is offered. */
export interface AgentWorkbenchApi {
  version: string;
  toolNames: string[];
  /** How long activate() took, in milliseconds. */
  activationMs: number;
}

export async function activate(context: vscode.ExtensionContext): Promise<AgentWorkbenchApi> {
  const started = Date.now();
  const version = (context.extension.packageJSON as { version: string }).version;
  const log = vscode.window.createOutputChannel('Agent Workbench', { log: true });
  const host = new VsCodeHost(version);
  const registry = new WorkspaceRegistry(host, context.globalState);
  await registry.sync();
  const runner = new ToolRunner(ALL_TOOLS, {
    services: { host, registry, errors: new ErrorStore(), tools: () => ALL_TOOLS, settings: readSettings, startedAt: started },
    log: (e) => {
      const line = `${e.tool} ${e.outcome} ${e.durationMs}ms ${e.bytes}B${e.truncated ? ' truncated' : ''} correlationId=${e.correlationId}`;
      if (e.outcome === 'ok') log.info(line);
      else if (e.outcome === 'UnhandledException') log.error(line);
      else log.warn(line);
    },
    confirm: async (_tool, summary) => {
      const choice = await vscode.window.showWarningMessage(summary.title, { modal: true, detail: summary.message }, 'Approve');
      return choice === 'Approve';
    },
  });
  context.subscriptions.push(
    log,
    ...registerTools(ALL_TOOLS, runner),
    ...trackChanges(registry),
    ...registerCommands(log),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void registry.sync()),
  );
  const activationMs = Date.now() - started;
  log.info(`Agent Workbench ${version} activated in ${activationMs} ms with ${ALL_TOOLS.length} tools; mode ${readSettings().effectiveMode}.`);
  return { version, toolNames: ALL_TOOLS.map((t) => t.name), activationMs };
}

export function deactivate(): void {}
