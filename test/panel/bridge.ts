import * as http from 'node:http';
import * as vscode from 'vscode';
import { registeredToolName } from '../../src/core/chain/definition';

/**
 * Loaded as the extension tests module by scripts/panel-test.mjs: instead of running tests in
 * the extension host it serves a tiny HTTP bridge on 127.0.0.1 so the browser-driven test can
 * call tools (vscode.lm.invokeTool, as an agent does), run commands and set settings. It resolves
 * (ending the "test run") when the driver posts /exit.
 */
export function run(): Promise<void> {
  const port = Number(process.env.AW_BRIDGE_PORT);
  if (!Number.isInteger(port) || port <= 0) return Promise.reject(new Error('AW_BRIDGE_PORT is not set'));
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        void handle(req.url ?? '', body).then(
          (answer) => {
            // A released bridge's connection is not kept for the driver's next request, which is for the next host.
            res.writeHead(200, { 'content-type': 'application/json', ...(req.url === '/release' ? { connection: 'close' } : {}) });
            res.end(JSON.stringify(answer ?? null));
            if (req.url === '/exit') server.close(() => resolve());
            // Before the driver reloads the window: the next extension host listens on this port while this one may live on.
            if (req.url === '/release') server.close();
          },
          (error: unknown) => {
            res.writeHead(500, { 'content-type': 'text/plain' });
            res.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
          },
        );
      });
    });
    // After a window reload the extension host before may still hold the port if the driver could not release it
    // (/release): while it shuts down, or until the server's reconnection grace time ends (panel-test.mjs sets 5 s),
    // and in CI sometimes for over 110 s. Listen again until it lets go, for as long as the driver waits for the bridge.
    const started = Date.now();
    server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' && Date.now() - started < 110_000) setTimeout(() => server.listen(port, '127.0.0.1'), 250);
      else reject(error);
    });
    server.listen(port, '127.0.0.1');
  });
}

async function handle(url: string, body: string): Promise<unknown> {
  const args = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
  switch (url) {
    case '/ping': {
      const ext = vscode.extensions.getExtension('agent-workbench.agent-workbench');
      await ext?.activate();
      return { ok: ext?.isActive === true, tools: vscode.lm.tools.filter((t) => t.name.startsWith('workbench_')).length };
    }
    case '/call': {
      const result = await vscode.lm.invokeTool(registeredToolName(String(args.tool)), { input: args.input ?? {}, toolInvocationToken: undefined });
      const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      return JSON.parse(text) as unknown;
    }
    case '/command':
      return vscode.commands.executeCommand(String(args.id), ...((args.args as unknown[] | undefined) ?? []));
    case '/config':
      await vscode.workspace.getConfiguration().update(String(args.key), args.value, vscode.ConfigurationTarget.Global);
      return true;
    case '/clipboard':
      return vscode.env.clipboard.readText();
    case '/diagnostics':
      return vscode.languages.getDiagnostics(vscode.Uri.parse(String(args.uri))).map((d) => d.message);
    case '/editors':
      return vscode.window.visibleTextEditors.map((e) => ({ uri: e.document.uri.toString(), text: e.document.getText() }));
    case '/exit':
    case '/release':
      return true;
    default:
      throw new Error(`unknown bridge route ${url}`);
  }
}
