import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalSummary } from '../../src/core/chain/toolInfo';
import { defineTool } from '../../src/core/chain/definition';
import type { Envelope } from '../../src/core/chain/envelope';
import { DISCOVERY_FORMAT, discoveryDir, writeDiscoveryFile } from '../../src/mcp/discovery';
import type { DiscoveryEntry } from '../../src/mcp/discovery';
import { McpHttpServer } from '../../src/mcp/server';
import type { AgentWorkbenchApi } from '../../src/extension';
import { ALL_TOOLS } from '../../src/tools';
import { activateExtension, assertValidEnvelope, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

/**
 * The MCP door in a real VS Code (suite "mcp": agentWorkbench.mcp.enabled in the user settings):
 * the official SDK's client against the server the extension started, next to invokeTool.
 */

const READ_TOOLS = ALL_TOOLS.filter((t) => t.effect === 'Read' && t.operationKind === 'Query').map((t) => t.name);
const EXTENSION_ROOT = path.resolve(__dirname, '..', '..', '..');
const BRIDGE = path.join(EXTENSION_ROOT, 'dist', 'mcp-stdio.js');

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readEntry(file: string): DiscoveryEntry {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as DiscoveryEntry;
}

async function connect(entry: DiscoveryEntry): Promise<Client> {
  const client = new Client({ name: 'integration', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
  return client;
}

async function mcpCall(client: Client, name: string, args: Record<string, unknown>): Promise<{ envelope: Envelope; isError: boolean; text: string }> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { type: string; text: string }[])[0].text;
  assert.deepEqual(JSON.parse(text), r.structuredContent, 'the text part is the structured envelope');
  assertValidEnvelope(name, r.structuredContent);
  return { envelope: r.structuredContent as unknown as Envelope, isError: r.isError === true, text };
}

/** Resolves on the next notifications/tools/list_changed. */
function nextListChange(client: Client): Promise<void> {
  return new Promise((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
}

function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? resolve({ status: -1, headers: {}, body: e.code }) : reject(e),
    );
    req.end(body);
  });
}

const config = () => vscode.workspace.getConfiguration('agentWorkbench');
const selection = (file: string, selectedText: string) => ({ selection: { document: { path: file }, selectedText } });

describe('the MCP door', function () {
  let api: AgentWorkbenchApi;
  let entry: DiscoveryEntry;
  let client: Client;

  before(async function () {
    api = await activateExtension();
    const file = await until('the discovery file', () => api.testHooks.mcp.discoveryFile);
    entry = readEntry(file);
    client = await connect(entry);
    await waitForSymbols('src/greeter.ts');
  });

  after(async function () {
    await client?.close();
  });

  it('writes a discovery file 0600 in a 0700 directory, naming this window', function () {
    const file = api.testHooks.mcp.discoveryFile!;
    assert.equal(path.dirname(file), discoveryDir());
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(entry.format, DISCOVERY_FORMAT);
    assert.equal(entry.pid, process.pid);
    assert.deepEqual(entry.folders, [workspaceRoot()]);
    assert.match(entry.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(Buffer.from(entry.token, 'base64url').length >= 32);
  });

  it('lists every tool with its canonical name, title, schemas and annotations', async function () {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ALL_TOOLS.map((t) => t.name),
    );
    for (const t of tools) {
      const def = ALL_TOOLS.find((d) => d.name === t.name)!;
      assert.equal(t.title, def.title);
      assert.equal(t.description, def.description);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.outputSchema?.type, 'object');
      assert.deepEqual(
        {
          readOnlyHint: t.annotations?.readOnlyHint,
          destructiveHint: t.annotations?.destructiveHint,
          idempotentHint: t.annotations?.idempotentHint,
          openWorldHint: t.annotations?.openWorldHint,
        },
        {
          readOnlyHint: def.annotations.readOnlyHint,
          destructiveHint: def.annotations.destructiveHint,
          idempotentHint: def.annotations.idempotentHint,
          openWorldHint: def.annotations.openWorldHint,
        },
      );
    }
  });

  it('answers navigation calls with the same envelopes as invokeTool', async function () {
    const calls: [string, Record<string, unknown>][] = [
      ['go-to-definition', { location: selection('src/greeter.ts', 'formatName(name)') }],
      ['find-references', { symbol: { location: selection('src/util.ts', 'formatName') } }],
      ['get-document-outline', { document: { path: 'src/greeter.ts' } }],
      ['search-symbols', { query: 'Greeter' }],
    ];
    for (const [tool, input] of calls) {
      const viaLm = await invoke(tool, input);
      const viaMcp = await mcpCall(client, tool, input);
      assert.equal(viaMcp.isError, !viaLm.ok);
      assert.deepEqual(viaMcp.envelope, viaLm, `${tool}: the MCP envelope differs from invokeTool's`);
      expectOk(viaMcp.envelope);
    }
  });

  it('refuses raw requests without the token, with a wrong one, from another Origin or Host, oversized or malformed, and stages nothing', async function () {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const auth = { Authorization: `Bearer ${entry.token}` };
    const port = new URL(entry.url).port;
    const noToken = await rawPost(entry.url, init, {});
    assert.equal(noToken.status, 401);
    assert.match(String(noToken.headers['www-authenticate']), /^Bearer/);
    assert.equal((await rawPost(entry.url, init, { Authorization: 'Bearer not-the-token' })).status, 401);
    assert.equal((await rawPost(entry.url, init, { ...auth, Origin: 'https://evil.example' })).status, 403);
    assert.equal((await rawPost(entry.url, init, { ...auth, Host: `evil.example:${port}` })).status, 403);
    const big = await rawPost(
      entry.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create-file', arguments: { document: { path: 'big.txt' }, text: 'x'.repeat(5 * 1024 * 1024) } },
      }),
      auth,
    );
    assert.ok(big.status === 413 || big.status === -1, `oversized body: ${big.status}`);
    const parse = await rawPost(entry.url, '{"jsonrpc":"2.0","id":1,"method":', auth);
    assert.equal(parse.status, 400);
    assert.equal((JSON.parse(parse.body) as { error: { code: number } }).error.code, -32700);
    const notRpc = await rawPost(
      entry.url,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'transaction-start', arguments: {} } }),
      auth,
    );
    assert.equal(notRpc.status, 400);
    const preview = expectOk<{ transaction: unknown }>(await invoke('transaction-preview', {}));
    assert.equal(preview.data.transaction, null, 'nothing was staged');
    assert.equal(fs.existsSync(path.join(workspaceRoot(), 'big.txt')), false);
  });

  it("stages a rename over MCP into the same transaction the review panel shows, and commits only with the person's confirmation", async function () {
    const root = workspaceRoot();
    const files = ['src/util.ts', 'src/greeter.ts'];
    const before = files.map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
    const staged = await mcpCall(client, 'rename-symbol', { symbol: { location: selection('src/util.ts', 'formatName') }, newName: 'formatPersonName' });
    assert.equal(staged.isError, false, staged.text);
    // The same transaction through the other door (the review panel reads the same manager).
    const preview = expectOk<{ documents: { document: { path: string } }[] }>(await invoke('transaction-preview', {}));
    assert.deepEqual(preview.data.documents.map((d) => d.document.path).sort(), [...files].sort());
    await vscode.commands.executeCommand('agentWorkbench.review.open');

    // transactional: the person is asked (files and line counts); declining writes nothing.
    const asked: ApprovalSummary[] = [];
    api.testHooks.mcp.setConfirmHook(async (summary) => {
      asked.push(summary);
      return false;
    });
    try {
      const declined = await mcpCall(client, 'transaction-commit', {});
      assert.equal(declined.isError, true);
      assert.equal((declined.envelope as { error: { code: string } }).error.code, 'TransactionCommitNotApproved');
      assert.equal(asked.length, 1);
      assert.match(asked[0].title, /Commit 2 files/);
      assert.match(asked[0].message, /src\/util\.ts` \(\+\d+ −\d+\)/);
      assert.match(asked[0].message, /command:agentWorkbench\.review\.open/);
      assert.deepEqual(
        files.map((f) => fs.readFileSync(path.join(root, f), 'utf8')),
        before,
      );

      // approval-required: refused with ResolveExternally, nobody asked.
      await config().update('operationalMode', 'approval-required', vscode.ConfigurationTarget.Global);
      const refused = await mcpCall(client, 'transaction-commit', {});
      assert.equal((refused.envelope as { continuation: { kind: string } }).continuation.kind, 'ResolveExternally');
      assert.equal(asked.length, 1);
      await config().update('operationalMode', undefined, vscode.ConfigurationTarget.Global);

      // The person approves: written, byte for byte what was staged.
      api.testHooks.mcp.setConfirmHook(async (summary) => {
        asked.push(summary);
        return true;
      });
      const committed = await mcpCall(client, 'transaction-commit', {});
      assert.equal(committed.isError, false, committed.text);
      assert.equal(asked.length, 2);
      assert.deepEqual(
        files.map((f) => fs.readFileSync(path.join(root, f), 'utf8')),
        before.map((text) => text.replace(/\bformatName\b/g, 'formatPersonName')),
      );
    } finally {
      api.testHooks.mcp.setConfirmHook(undefined);
      await config().update('operationalMode', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('commits without asking in autonomous-trusted mode', async function () {
    const root = workspaceRoot();
    const before = fs.readFileSync(path.join(root, 'src/util.ts'), 'utf8');
    await config().update('operationalMode', 'autonomous-trusted', vscode.ConfigurationTarget.Global);
    try {
      expectOk(
        (
          await mcpCall(client, 'edit-text', {
            edits: [{ location: selection('src/util.ts', "DEFAULT_NAME = 'world'"), newText: "DEFAULT_NAME = 'everyone'" }],
          })
        ).envelope,
      );
      expectOk((await mcpCall(client, 'transaction-commit', {})).envelope);
      assert.equal(fs.readFileSync(path.join(root, 'src/util.ts'), 'utf8'), before.replace("'world'", "'everyone'"));
    } finally {
      await config().update('operationalMode', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('in inspection-only mode says list_changed, lists only read tools and refuses a write tool called by name', async function () {
    const changed = nextListChange(client);
    await config().update('operationalMode', 'inspection-only', vscode.ConfigurationTarget.Global);
    try {
      await changed;
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        READ_TOOLS,
      );
      const refused = await mcpCall(client, 'rename-symbol', { symbol: { location: selection('src/util.ts', 'DEFAULT_NAME') }, newName: 'X' });
      assert.equal(refused.isError, true);
      assert.equal((refused.envelope as { error: { code: string } }).error.code, 'SourceMutationDisabled');
    } finally {
      const back = nextListChange(client);
      await config().update('operationalMode', undefined, vscode.ConfigurationTarget.Global);
      await back;
    }
    assert.equal((await client.listTools()).tools.length, ALL_TOOLS.length);
  });

  it('applies the tool profile to the MCP list and refuses other tools by name', async function () {
    const changed = nextListChange(client);
    await config().update('toolProfile', 'navigation', vscode.ConfigurationTarget.Global);
    try {
      await changed;
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        READ_TOOLS,
      );
      // The Copilot door hides the others through their `when` clauses (a context key per tool, see the manifest's unit test);
      // vscode.lm.tools lists disabled tools too, so the extension host cannot observe it.
      const refused = await mcpCall(client, 'transaction-start', {});
      assert.match((refused.envelope as { error: { message: string } }).error.message, /tool profile/);
    } finally {
      await config().update('toolProfile', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('reaches the window holding the current directory through the stdio bridge, never another one', async function () {
    const dir = discoveryDir();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-other-window-'));
    // Two other "windows": one on an unrelated folder, one on the folder that holds this workspace (the deeper folder must win).
    const decoyTool = defineTool<object, Record<string, never>>({
      ...ALL_TOOLS.find((t) => t.name === 'workspace-list')!,
      name: 'decoy-window',
      run: async () => ({}),
    } as never);
    const decoys: { server: McpHttpServer; file: string }[] = [];
    for (const folder of [elsewhere, path.dirname(workspaceRoot())]) {
      const server = new McpHttpServer({
        door: { tools: () => [decoyTool], call: async () => ({ envelope: { ok: true, data: {}, snapshot: null } as never, text: '{}' }) },
        name: 'decoy',
        version: '0',
      });
      await server.start();
      const file = writeDiscoveryFile(dir, {
        format: DISCOVERY_FORMAT,
        url: server.url,
        token: server.token,
        folders: [folder],
        pid: process.pid,
        startedAt: new Date(Date.now() + 1000).toISOString(),
        version: '0',
      });
      decoys.push({ server, file });
    }
    const viaBridge = async (cwd: string) => {
      const c = new Client({ name: 'bridge-test', version: '1' });
      await c.connect(
        new StdioClientTransport({ command: process.execPath, args: [BRIDGE], cwd, env: { ...process.env } as Record<string, string>, stderr: 'pipe' }),
      );
      try {
        return (await c.listTools()).tools.map((t) => t.name);
      } finally {
        await c.close();
      }
    };
    try {
      assert.deepEqual(
        await viaBridge(path.join(workspaceRoot(), 'src')),
        ALL_TOOLS.map((t) => t.name),
      );
      assert.deepEqual(await viaBridge(elsewhere), ['decoy-window']);
      // A call through the bridge is a call through the chain.
      const c = new Client({ name: 'bridge-call', version: '1' });
      await c.connect(
        new StdioClientTransport({ command: process.execPath, args: [BRIDGE], cwd: workspaceRoot(), env: { ...process.env } as Record<string, string> }),
      );
      const viaMcp = await c.callTool({ name: 'get-document-outline', arguments: { document: { path: 'src/util.ts' } } });
      assert.deepEqual(viaMcp.structuredContent, await invoke('get-document-outline', { document: { path: 'src/util.ts' } }));
      await c.close();
    } finally {
      for (const d of decoys) {
        fs.rmSync(d.file, { force: true });
        await d.server.stop();
      }
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('removes its discovery file and stops listening when turned off, and starts again when turned on', async function () {
    const file = api.testHooks.mcp.discoveryFile!;
    await config().update('mcp.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      await until('the server to stop', () => !api.testHooks.mcp.running);
      assert.equal(fs.existsSync(file), false);
      const refused = await fetch(entry.url, { method: 'POST', body: '{}' }).then(
        () => 'answered',
        () => 'refused',
      );
      assert.equal(refused, 'refused');
    } finally {
      await config().update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    }
    const again = await until('a new discovery file', () => api.testHooks.mcp.discoveryFile);
    assert.notEqual(again, file);
    assert.notEqual(readEntry(again).token, entry.token, 'a new server gets a new token');
  });
});
