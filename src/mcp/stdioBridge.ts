/**
 * The stdio bridge (dist/mcp-stdio.js): `node <extension>/dist/mcp-stdio.js`, started by a
 * stdio-only MCP client. It finds the VS Code window whose workspace folder holds the current
 * directory (discovery files, src/mcp/discovery.ts) and relays every JSON-RPC message between
 * stdin/stdout and that window's Streamable HTTP endpoint, with the window's token. It keeps no
 * state of its own and never picks a window that does not hold the directory.
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { chooseWindow, discoveryDir, readDiscoveryFiles } from './discovery';

function fail(message: string): never {
  process.stderr.write(`agent-workbench mcp-stdio: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const cwd = process.env.AGENT_WORKBENCH_CWD ?? process.cwd();
  const dir = discoveryDir();
  const entries = readDiscoveryFiles(dir).map((f) => f.entry);
  const window = chooseWindow(entries, cwd);
  if (!window) {
    const open = entries.flatMap((e) => e.folders);
    fail(
      entries.length === 0
        ? `no VS Code window serves Agent Workbench over MCP (no discovery file in ${dir}). Run "Agent Workbench: Connect an Agent over MCP…" in the window of this folder.`
        : `no window serving MCP has ${cwd} in its workspace; open folders: ${open.join(', ')}. Start the client from inside one of them.`,
    );
  }
  const remote = new StreamableHTTPClientTransport(new URL(window.url), { requestInit: { headers: { Authorization: `Bearer ${window.token}` } } });
  const local = new StdioServerTransport();
  let closing = false;
  const close = async (code: number) => {
    if (closing) return;
    closing = true;
    await Promise.allSettled([remote.close(), local.close()]);
    process.exit(code);
  };
  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: unknown) => {
      // The window closed or restarted (its server and session are gone): end, so the client starts the bridge again and
      // it finds the window anew, rather than answering errors for ever.
      const status = error instanceof StreamableHTTPError ? error.code : undefined;
      if (
        status === 404 ||
        status === 401 ||
        (error instanceof Error && /fetch failed|ECONNREFUSED/.test(`${error.message} ${String((error as { cause?: unknown }).cause)}`))
      ) {
        process.stderr.write(
          `agent-workbench mcp-stdio: the VS Code window at ${window.url} is gone (${error instanceof Error ? error.message : String(error)}); exiting.\n`,
        );
        void close(1);
        return;
      }
      const id = 'id' in message && 'method' in message ? message.id : undefined;
      // A request the window could not take still gets an answer, so the client does not wait forever.
      if (id !== undefined) {
        void local.send({
          jsonrpc: '2.0',
          id,
          error: { code: -32603, message: `The VS Code window did not answer: ${error instanceof Error ? error.message : String(error)}` },
        });
      } else process.stderr.write(`agent-workbench mcp-stdio: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    // The HTTP transport sends the negotiated protocol version on every later request (MCP-Protocol-Version).
    if ('result' in message && message.result && typeof (message.result as { protocolVersion?: unknown }).protocolVersion === 'string') {
      remote.setProtocolVersion((message.result as { protocolVersion: string }).protocolVersion);
    }
    void local.send(message);
  };
  remote.onerror = (error) => process.stderr.write(`agent-workbench mcp-stdio: ${error.message}\n`);
  local.onclose = () => void close(0);
  remote.onclose = () => void close(0);
  process.stdin.on('end', () => void close(0));
  await remote.start();
  await local.start();
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
