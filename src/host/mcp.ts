import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalAnswer, ToolRunner } from '../core/chain/chain';
import type { AnyToolDefinition } from '../core/chain/definition';
import type { ApprovalSummary } from '../core/chain/toolInfo';
import { registeredToolName } from '../core/chain/definition';
import { parseProfile, profileAllows, profileHiddenContextKey } from '../core/chain/profile';
import type { ToolProfile } from '../core/chain/profile';
import { DISCOVERY_FORMAT, discoveryDir, readDiscoveryFiles, removeDiscoveryFile, writeDiscoveryFile } from '../mcp/discovery';
import { runnerDoor } from '../mcp/door';
import { offeredTools } from '../mcp/profile';
import type { Offer } from '../mcp/profile';
import type { McpHttpServer } from '../mcp/server';
import { clientSetups } from '../mcp/setup';
import { readSettings, SECTION, settingValue } from './settings';

/**
 * The MCP door's VS Code side: the settings, the server's life (off until the person turns it on),
 * the discovery file, the status bar item, the tool profile's context keys, the commit modal and
 * "Connect an Agent over MCP…". The server itself is plain Node (src/mcp/server.ts).
 */

interface McpSettings {
  enabled: boolean;
  port: number;
  allowedOrigins: string[];
  untrusted: 'read-tools' | 'nothing';
  profile: ToolProfile;
}

export function readMcpSettings(): McpSettings {
  const port = settingValue<number>('mcp.port');
  const origins = settingValue<unknown>('mcp.allowedOrigins');
  return {
    enabled: settingValue<boolean>('mcp.enabled') === true,
    port: typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0,
    allowedOrigins: Array.isArray(origins) ? origins.filter((o): o is string => typeof o === 'string') : [],
    untrusted: settingValue<string>('mcp.untrustedWorkspace') === 'nothing' ? 'nothing' : 'read-tools',
    profile: parseProfile(settingValue('toolProfile'), settingValue('toolProfileTools')),
  };
}

/** For integration tests: answer the commit confirmation instead of the person (the modal cannot be clicked from the extension host). */
export type McpConfirmHook = (summary: ApprovalSummary) => Promise<boolean>;

export interface McpControl {
  /** Starts the server if it is not running (the command does this after turning the setting on). */
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly running: boolean;
  readonly discoveryFile: string | undefined;
  setConfirmHook(hook: McpConfirmHook | undefined): void;
}

/** A confirmation's markdown as a modal's plain text: links become their words, code marks go. */
function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
}

export function registerMcp(deps: {
  context: vscode.ExtensionContext;
  runner: ToolRunner;
  tools: readonly AnyToolDefinition[];
  log: vscode.LogOutputChannel;
  version: string;
}): { disposables: vscode.Disposable[]; control: McpControl } {
  const { context, runner, tools, log, version } = deps;
  let settings = readMcpSettings();
  let server: McpHttpServer | undefined;
  let starting: Promise<void> | undefined;
  let discoveryFile: string | undefined;
  let confirmHook: McpConfirmHook | undefined;
  let lastOffered = '';
  let setupPanel: vscode.WebviewPanel | undefined;

  const status = vscode.window.createStatusBarItem('agentWorkbench.mcp', vscode.StatusBarAlignment.Left, 49);
  status.name = 'Agent Workbench MCP';
  status.command = 'agentWorkbench.mcp.connect';

  const offer = (): Offer => {
    const s = readSettings();
    return { effectiveMode: s.effectiveMode, trusted: s.trusted, profile: settings.profile, untrusted: settings.untrusted };
  };

  const confirm = async (tool: AnyToolDefinition, summary: ApprovalSummary): Promise<ApprovalAnswer> => {
    if (confirmHook) return confirmHook(summary);
    try {
      return await askPerson(summary);
    } catch (error) {
      // No answer is a refusal: nothing is written unless the person said so.
      const why = `VS Code could not show the dialog: ${error instanceof Error ? error.message : String(error)}`;
      log.warn(`MCP: could not ask the person to approve ${tool.name} (${why}); not approved.`);
      return { unasked: why };
    }
  };

  const askPerson = async (summary: ApprovalSummary): Promise<boolean> => {
    const title = `An agent connected over MCP asks: ${summary.title}`;
    const choice = await vscode.window.showWarningMessage(title, { modal: true, detail: plainText(summary.message) }, 'Commit', 'Open Review Panel First');
    if (choice !== 'Open Review Panel First') return choice === 'Commit';
    // A modal would cover the panel: after opening it, ask again in a notification the person answers once they have looked.
    await vscode.commands.executeCommand('agentWorkbench.review.open');
    const later = await vscode.window.showWarningMessage(`${title} (the staged changes are in the review panel)`, 'Commit', 'Do Not Commit');
    return later === 'Commit';
  };

  const refreshStatus = (): void => {
    if (!server) {
      status.hide();
      return;
    }
    const n = server.clients;
    status.text = `$(broadcast) MCP ${n}`;
    status.tooltip = new vscode.MarkdownString(
      `**Agent Workbench over MCP**: listening on \`${server.url}\`, ${n === 1 ? '1 client' : `${n} clients`} connected.\n\nClick for the setup of Claude Code, Codex CLI, Gemini CLI or Cursor.`,
    );
    status.show();
  };

  const folders = (): string[] => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);

  const writeDiscovery = (): void => {
    if (!server) return;
    if (discoveryFile) removeDiscoveryFile(discoveryFile);
    discoveryFile = undefined;
    const dir = discoveryDir();
    try {
      readDiscoveryFiles(dir); // removes the files of windows that died without removing their own
      discoveryFile = writeDiscoveryFile(dir, {
        format: DISCOVERY_FORMAT,
        url: server.url,
        token: server.token,
        folders: folders(),
        pid: process.pid,
        startedAt: new Date().toISOString(),
        version,
      });
    } catch (error) {
      log.warn(
        `MCP: could not write the discovery file in ${dir} (${error instanceof Error ? error.message : String(error)}); the stdio bridge will not find this window.`,
      );
    }
  };

  const start = async (): Promise<void> => {
    if (server) return;
    if (starting) return starting;
    starting = (async () => {
      // Loaded only when the server starts, from a file of its own (dist/mcp-server.js, esbuild.mjs): a window that never serves MCP does not parse the SDK.
      const { McpHttpServer } = await import('../mcp/server.js');
      const s = new McpHttpServer({
        door: runnerDoor(runner, tools, offer, confirm),
        name: 'agent-workbench',
        version,
        port: settings.port,
        allowedOrigins: () => settings.allowedOrigins,
        onClientsChanged: (n) => {
          refreshStatus();
          log.info(`MCP: ${n === 1 ? '1 client' : `${n} clients`} connected.`);
        },
        log: (m) => log.warn(m),
      });
      await s.start();
      server = s;
      lastOffered = offeredNames();
      writeDiscovery();
      refreshStatus();
      log.info(`MCP: serving ${offeredTools(tools, offer()).length} tools at ${s.url} (bearer token in the discovery file; never logged).`);
    })();
    try {
      await starting;
    } catch (error) {
      log.error(`MCP: the server did not start: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      starting = undefined;
    }
  };

  const stop = async (): Promise<void> => {
    if (starting) await starting.catch(() => undefined);
    const s = server;
    server = undefined;
    if (discoveryFile) removeDiscoveryFile(discoveryFile);
    discoveryFile = undefined;
    refreshStatus();
    if (s) {
      await s.stop();
      log.info('MCP: the server stopped.');
    }
  };

  const offeredNames = (): string =>
    offeredTools(tools, offer())
      .map((t) => t.name)
      .join(',');

  /** The profile's context keys (the `when` clause of every vscode.lm tool reads one); only changes are sent. */
  const hidden = new Set<string>();
  const applyProfile = (): void => {
    for (const tool of tools) {
      const hide = !profileAllows(settings.profile, tool);
      if (hide === hidden.has(tool.name)) continue;
      if (hide) hidden.add(tool.name);
      else hidden.delete(tool.name);
      void vscode.commands.executeCommand('setContext', profileHiddenContextKey(registeredToolName(tool.name)), hide);
    }
  };

  /**
   * After a change of mode, trust or profile: tell MCP clients when their list changed. Run after
   * the event's other listeners, so readSettings has forgotten its kept answer (settings.ts).
   */
  const offerChanged = (): void => {
    setTimeout(() => {
      const now = offeredNames();
      if (server && now !== lastOffered) server.toolsChanged();
      lastOffered = now;
    }, 0);
  };

  const onSettings = async (e: vscode.ConfigurationChangeEvent): Promise<void> => {
    if (!e.affectsConfiguration(SECTION)) return;
    const before = settings;
    settings = readMcpSettings();
    applyProfile();
    if (before.profile.name !== settings.profile.name || before.profile.tools.join() !== settings.profile.tools.join()) {
      const n = tools.filter((t) => profileAllows(settings.profile, t)).length;
      log.info(`Tool profile ${settings.profile.name}: ${n} of ${tools.length} tools offered.`);
    }
    if (!settings.enabled) {
      if (server) await stop();
      return;
    }
    if (server && before.port !== settings.port) await stop();
    if (!server) await start().catch(() => undefined);
    offerChanged();
  };

  const showSetup = async (): Promise<void> => {
    if (!readMcpSettings().enabled) await vscode.workspace.getConfiguration(SECTION).update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    settings = readMcpSettings();
    await start();
    if (!server) return;
    const setups = clientSetups({ url: server.url, token: server.token, bridgePath: path.join(context.extensionUri.fsPath, 'dist', 'mcp-stdio.js') });
    const media = vscode.Uri.joinPath(context.extensionUri, 'media');
    if (!setupPanel) {
      setupPanel = vscode.window.createWebviewPanel('agentWorkbench.mcpSetup', 'Connect an Agent over MCP', vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [media],
      });
      setupPanel.onDidDispose(() => (setupPanel = undefined));
      setupPanel.webview.onDidReceiveMessage((m: unknown) => {
        const id = typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'copy' ? (m as { id?: unknown }).id : undefined;
        const setup =
          server &&
          clientSetups({ url: server.url, token: server.token, bridgePath: path.join(context.extensionUri.fsPath, 'dist', 'mcp-stdio.js') }).find(
            (s) => s.id === id,
          );
        if (setup) void vscode.env.clipboard.writeText(setup.text);
      });
    }
    const webview = setupPanel.webview;
    const n = [...Array(16)].map(() => Math.floor(Math.random() * 36).toString(36)).join('');
    const csp = [`default-src 'none'`, `style-src 'unsafe-inline'`, `script-src 'nonce-${n}'`].join('; ');
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${csp}">
<style>body{font-family:var(--vscode-font-family);padding:0 1em}pre{background:var(--vscode-textCodeBlock-background);padding:.6em;white-space:pre-wrap;word-break:break-all}h2{margin-top:1.4em}button{color:var(--vscode-button-foreground);background:var(--vscode-button-background);border:none;padding:4px 12px;cursor:pointer}</style>
</head><body>
<h1>Connect an Agent over MCP</h1>
<p>This window serves Agent Workbench's tools at <code>${esc(server.url)}</code> (127.0.0.1 only, with a bearer token). Every call runs through the same chain as Copilot's: the operational mode, workspace trust, the review panel, and nothing is written to disk without your confirmation (or autonomous-trusted mode).</p>
<p>The stdio bridge (<code>node …/dist/mcp-stdio.js</code>) finds this window from the folder the agent starts in, so its setup survives restarts; the HTTP address and token change whenever the window restarts. Keep the token private: it lets a program on this machine call the tools.</p>
${setups.map((s) => `<h2>${esc(s.label)}</h2><p>${esc(s.where)}:</p><pre>${esc(s.text)}</pre><button data-copy="${s.id}">Copy</button>`).join('\n')}
<script nonce="${n}" src="${webview.asWebviewUri(vscode.Uri.joinPath(media, 'mcpSetup.js')).toString()}"></script>
</body></html>`;
    setupPanel.reveal();
  };

  applyProfile();
  if (settings.enabled) void start().catch(() => undefined);

  const disposables: vscode.Disposable[] = [
    status,
    vscode.workspace.onDidChangeConfiguration((e) => void onSettings(e)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => offerChanged()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => writeDiscovery()),
    vscode.commands.registerCommand('agentWorkbench.mcp.connect', () => showSetup()),
    vscode.commands.registerCommand('agentWorkbench.mcp.stop', async () => {
      await vscode.workspace.getConfiguration(SECTION).update('mcp.enabled', false, vscode.ConfigurationTarget.Global);
      await stop();
    }),
    new vscode.Disposable(() => {
      // The window is closing: the discovery file goes first (synchronously), then the sockets.
      if (discoveryFile) removeDiscoveryFile(discoveryFile);
      discoveryFile = undefined;
      setupPanel?.dispose();
      void stop();
    }),
  ];
  const control: McpControl = {
    start,
    stop,
    get running() {
      return server !== undefined;
    },
    get discoveryFile() {
      return discoveryFile;
    },
    setConfirmHook: (hook) => (confirmHook = hook),
  };
  return { disposables, control };
}
