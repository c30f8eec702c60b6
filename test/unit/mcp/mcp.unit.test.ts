import * as assert from 'node:assert/strict';
import type { ToolContext } from '../../../src/core/documents/context';
import type { CancellationSignal } from '../../../src/core/chain/cancellation';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalSummary } from '../../../src/core/chain/toolInfo';
import { defineTool } from '../../../src/core/chain/definition';
import { modelInputSchema } from '../../../src/core/chain/manifest';
import type { OperationalMode } from '../../../src/core/chain/modes';
import { envelopeOutputSchema } from '../../../src/core/chain/schemas';
import { compileSchema } from '../../../src/core/chain/validation';
import {
  chooseWindow,
  containsPath,
  DISCOVERY_FORMAT,
  discoveryFileName,
  pidOfFileName,
  readDiscoveryFiles,
  writeDiscoveryFile,
} from '../../../src/mcp/discovery';
import type { DiscoveryEntry } from '../../../src/mcp/discovery';
import { runnerDoor } from '../../../src/mcp/door';
import { mcpOutputSchema, mcpToolListing } from '../../../src/mcp/listing';
import { FULL_PROFILE, offeredTools, parseProfile, profileAllows } from '../../../src/mcp/profile';
import type { Offer } from '../../../src/mcp/profile';
import { bearerMatches, newToken, refuse } from '../../../src/mcp/security';
import { McpHttpServer } from '../../../src/mcp/server';
import { clientSetups } from '../../../src/mcp/setup';
import { ALL_TOOLS } from '../../../src/tools';
import { FakeHost } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

const READ = { effect: 'Read', operationKind: 'Query' } as const;
const WRITE = { effect: 'Write', operationKind: 'Mutation' } as const;

describe('MCP door: transport rules', () => {
  const token = newToken();

  it('makes tokens of 256 random bits', () => {
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.notEqual(newToken(), token);
  });

  it('accepts only the exact bearer token', () => {
    assert.equal(bearerMatches(`Bearer ${token}`, token), true);
    assert.equal(bearerMatches(`bearer ${token}`, token), true);
    assert.equal(bearerMatches(`Bearer ${token}x`, token), false);
    assert.equal(bearerMatches(`Bearer ${token.slice(1)}`, token), false);
    assert.equal(bearerMatches(token, token), false);
    assert.equal(bearerMatches(undefined, token), false);
    assert.equal(bearerMatches([`Bearer ${token}`], token), false);
    assert.equal(bearerMatches('Bearer ', ''), false);
  });

  it('refuses a foreign Host (403), a foreign Origin (403), then a missing or wrong token (401 + WWW-Authenticate)', () => {
    const ok = { host: '127.0.0.1:4000', origin: undefined, authorization: `Bearer ${token}` };
    assert.equal(refuse(ok, 4000, token, []), undefined);
    assert.equal(refuse({ ...ok, host: 'localhost:4000' }, 4000, token, []), undefined);
    assert.equal(refuse({ ...ok, host: 'evil.example:4000' }, 4000, token, [])?.status, 403);
    assert.equal(refuse({ ...ok, host: '127.0.0.1:4001' }, 4000, token, [])?.status, 403);
    assert.equal(refuse({ ...ok, host: undefined }, 4000, token, [])?.status, 403);
    assert.equal(refuse({ ...ok, origin: 'https://evil.example' }, 4000, token, [])?.status, 403);
    assert.equal(refuse({ ...ok, origin: 'null' }, 4000, token, [])?.status, 403);
    assert.equal(refuse({ ...ok, origin: 'https://Tool.example/' }, 4000, token, ['https://tool.example']), undefined);
    const noToken = refuse({ ...ok, authorization: undefined }, 4000, token, []);
    assert.equal(noToken?.status, 401);
    assert.match(noToken!.headers['WWW-Authenticate'], /^Bearer /);
    assert.equal(refuse({ ...ok, authorization: 'Bearer nope' }, 4000, token, [])?.status, 401);
    // A foreign Host is refused before the token is looked at: a rebinding page learns nothing.
    assert.equal(refuse({ ...ok, host: 'evil.example', authorization: undefined }, 4000, token, [])?.status, 403);
  });
});

describe('MCP door: tool profiles and listing', () => {
  const tools = [
    { name: 'a', ...READ },
    { name: 'b', ...WRITE },
  ];
  const offer = (patch: Partial<Offer>): Offer => ({ effectiveMode: 'transactional', trusted: true, profile: FULL_PROFILE, untrusted: 'read-tools', ...patch });

  it('filters by profile', () => {
    assert.equal(profileAllows(parseProfile('navigation', []), tools[1]), false);
    assert.equal(profileAllows(parseProfile('navigation', []), tools[0]), true);
    assert.equal(profileAllows(parseProfile('custom', ['b']), tools[1]), true);
    assert.equal(profileAllows(parseProfile('custom', ['b']), tools[0]), false);
    assert.equal(parseProfile('bogus', 'x').name, 'full');
  });

  it('offers the read tools in inspection-only mode and untrusted workspaces, nothing if the person says so', () => {
    assert.deepEqual(
      offeredTools(tools, offer({})).map((t) => t.name),
      ['a', 'b'],
    );
    assert.deepEqual(
      offeredTools(tools, offer({ effectiveMode: 'inspection-only' })).map((t) => t.name),
      ['a'],
    );
    assert.deepEqual(
      offeredTools(tools, offer({ trusted: false, effectiveMode: 'inspection-only' })).map((t) => t.name),
      ['a'],
    );
    assert.deepEqual(offeredTools(tools, offer({ trusted: false, effectiveMode: 'inspection-only', untrusted: 'nothing' })), []);
    assert.deepEqual(
      offeredTools(tools, offer({ profile: parseProfile('navigation', []) })).map((t) => t.name),
      ['a'],
    );
  });

  it('the output schema is the envelope said shortly: every envelope the full schema accepts, it accepts; the listing stays under 200 KB', async () => {
    const h = await createHarness({ host: sampleHost() });
    const answers = [
      (await h.runner.invoke('workspace-list', {})).envelope,
      (await h.runner.invoke('get-document-outline', { document: { path: 'nope.ts' } })).envelope,
      (await h.runner.invoke('find-references', { symbol: {} })).envelope,
    ];
    let checked = 0;
    for (const tool of ALL_TOOLS) {
      const short = compileSchema(mcpOutputSchema(tool.dataSchema));
      const full = compileSchema(envelopeOutputSchema(tool.dataSchema));
      for (const envelope of answers) {
        if (!full(envelope)) continue;
        checked++;
        assert.ok(short(envelope), `${tool.name}: ${JSON.stringify(short.errors)}`);
      }
      assert.ok(!short({ ok: false, error: { code: 'X' } }), `${tool.name}: a failure without a message passed`);
      assert.ok(!short({ ok: true, data: {} }), `${tool.name}: a success without a snapshot passed`);
    }
    assert.ok(checked >= 2 * ALL_TOOLS.length + 1, `only ${checked} envelopes were checked`);
    const bytes = ALL_TOOLS.reduce((n, t) => n + JSON.stringify(mcpToolListing(t)).length, 0);
    assert.ok(bytes < 200_000, `tools/list is ${bytes} B`);
  });

  it('lists every tool with its canonical name, title, input schema, the envelope as output schema and the annotations', () => {
    for (const tool of ALL_TOOLS) {
      const l = mcpToolListing(tool);
      assert.equal(l.name, tool.name);
      assert.equal(l.title, tool.title);
      assert.equal(l.description, tool.description);
      assert.deepEqual(l.inputSchema, modelInputSchema(tool.inputSchema));
      assert.equal(l.inputSchema.type, 'object');
      assert.deepEqual(l.outputSchema, mcpOutputSchema(tool.dataSchema));
      assert.equal(l.outputSchema.type, 'object');
      assert.equal(l.annotations.readOnlyHint, tool.annotations.readOnlyHint);
      assert.equal(l.annotations.destructiveHint, tool.annotations.destructiveHint);
      assert.equal(l.annotations.idempotentHint, tool.annotations.idempotentHint);
      assert.equal(l.annotations.openWorldHint, tool.annotations.openWorldHint);
    }
  });

  it('writes setup text for each client with the bridge path, the URL and the token', () => {
    const setups = clientSetups({ url: 'http://127.0.0.1:4000/mcp', token: 'T0K', bridgePath: '/ext dir/dist/mcp-stdio.js' });
    assert.deepEqual(
      setups.map((s) => s.id),
      ['claude', 'codex', 'gemini', 'cursor', 'other'],
    );
    const claude = setups[0].text;
    assert.match(claude, /claude mcp add agent-workbench -- node '\/ext dir\/dist\/mcp-stdio.js'/);
    assert.match(claude, /claude mcp add --transport http agent-workbench http:\/\/127\.0\.0\.1:4000\/mcp --header 'Authorization: Bearer T0K'/);
    assert.match(setups[1].text, /\[mcp_servers\.agent-workbench\]\ncommand = "node"\nargs = \["\/ext dir\/dist\/mcp-stdio.js"\]/);
    for (const s of setups.slice(2, 4)) {
      assert.deepEqual(JSON.parse(s.text.split('\n\n//')[0]), { mcpServers: { 'agent-workbench': { command: 'node', args: ['/ext dir/dist/mcp-stdio.js'] } } });
    }
  });
});

describe('MCP door: discovery files', () => {
  let dir: string;
  beforeEach(() => (dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aw-disc-')), 'mcp')));
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));
  const entry = (patch: Partial<DiscoveryEntry>): DiscoveryEntry => ({
    format: DISCOVERY_FORMAT,
    url: 'http://127.0.0.1:1/mcp',
    token: 't',
    folders: ['/w/a'],
    pid: process.pid,
    startedAt: '2026-01-01T00:00:00Z',
    version: '0',
    ...patch,
  });

  it('names files by pid with a random part', () => {
    const name = discoveryFileName(42);
    assert.match(name, /^window-42-[0-9a-f]{16}\.json$/);
    assert.equal(pidOfFileName(name), 42);
    assert.equal(pidOfFileName('window-42.json'), undefined);
  });

  it('creates the directory 0700 and the file 0600, exclusively', function () {
    if (process.platform === 'win32') this.skip();
    const file = writeDiscoveryFile(dir, entry({}));
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(
      readDiscoveryFiles(dir).map((f) => f.entry.url),
      ['http://127.0.0.1:1/mcp'],
    );
    fs.chmodSync(dir, 0o755);
    writeDiscoveryFile(dir, entry({}));
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700, 'an existing directory is tightened');
  });

  it('removes the files of dead processes while reading', () => {
    const live = writeDiscoveryFile(dir, entry({}));
    const dead = writeDiscoveryFile(dir, entry({ pid: 999_999_1 }));
    const found = readDiscoveryFiles(dir, (pid) => pid === process.pid);
    assert.deepEqual(
      found.map((f) => f.file),
      [live],
    );
    assert.equal(fs.existsSync(dead), false);
  });

  it('picks the window whose folder holds the directory, the deepest first, and never guesses', () => {
    const mono = entry({ folders: ['/w/mono'], url: 'mono' });
    const pkg = entry({ folders: ['/w/other', '/w/mono/packages/pkg'], url: 'pkg' });
    assert.equal(chooseWindow([mono, pkg], '/w/mono/packages/pkg/src')?.url, 'pkg');
    assert.equal(chooseWindow([mono, pkg], '/w/mono/src')?.url, 'mono');
    assert.equal(chooseWindow([mono, pkg], '/w/other')?.url, 'pkg');
    assert.equal(chooseWindow([mono, pkg], '/w/monorepo'), undefined);
    assert.equal(chooseWindow([mono, pkg], '/elsewhere'), undefined);
    assert.equal(containsPath('/w/a', '/w/a'), true);
    assert.equal(containsPath('/w/a', '/w/ab'), false);
  });
});

/** A test-only query tool whose body the test gives: slow, cancellable, or both. */
function slowQuery<O>(description: string, run: (input: Record<string, never>, ctx: ToolContext, token: CancellationSignal) => Promise<O>) {
  return defineTool({
    name: 'slow-query',
    title: 'Slow',
    category: 'Workspaces',
    operationKind: 'Query',
    description,
    effect: 'Read',
    requiresApproval: false,
    requiredPermission: null,
    safeToRepeat: true,
    timeoutSeconds: 20,
    maxOutputBytes: 0,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSchema: { type: 'object' },
    annotations: { title: 'Slow', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    examples: [],
    run,
  });
}

/** An MCP server over the real tools and a FakeHost workspace, as the extension builds it. */
async function serve(
  h: Harness,
  options: { untrusted?: 'read-tools' | 'nothing'; maxBodyBytes?: number; profile?: Offer['profile']; tools?: typeof ALL_TOOLS; idleSessionMs?: number } = {},
) {
  const confirmations: ApprovalSummary[] = [];
  let answer = false;
  const door = runnerDoor(
    h.runner,
    options.tools ?? ALL_TOOLS,
    () => {
      const s = h.effectiveSettings();
      return { effectiveMode: s.effectiveMode, trusted: s.trusted, profile: options.profile ?? FULL_PROFILE, untrusted: options.untrusted ?? 'read-tools' };
    },
    async (_tool, summary) => {
      confirmations.push(summary);
      return answer;
    },
  );
  const server = new McpHttpServer({
    door,
    name: 'agent-workbench',
    version: 'test',
    maxBodyBytes: options.maxBodyBytes,
    progressIntervalMs: 50,
    idleSessionMs: options.idleSessionMs,
  });
  await server.start();
  return { server, confirmations, approve: (a: boolean) => (answer = a) };
}

async function connect(server: McpHttpServer): Promise<Client> {
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
  return client;
}

function sampleHost(): FakeHost {
  const host = new FakeHost();
  host.addFolder('app', { 'src/greeter.ts': 'export function greet(name: string) {\n  return `hi ${name}`;\n}\n' });
  return host;
}

describe('MCP door: the server over the real runner', function () {
  // The SDK's client compiles every listed output schema with ajv (about 6 s for all 42 tools on a slow machine).
  this.timeout(60_000);
  let h: Harness;
  let s: Awaited<ReturnType<typeof serve>>;
  afterEach(async () => s?.server.stop());

  it('lists the tools and answers calls with the same envelope as the runner, structured and as text', async () => {
    h = await createHarness({ host: sampleHost() });
    s = await serve(h);
    const client = await connect(s.server);
    assert.equal(s.server.clients, 1);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ALL_TOOLS.map((t) => t.name),
    );
    const status = tools.find((t) => t.name === 'server-status')!;
    assert.equal(status.annotations?.readOnlyHint, true);
    assert.ok(status.outputSchema);
    const result = await client.callTool({ name: 'workspace-list', arguments: {} });
    const direct = await h.runner.invoke('workspace-list', {});
    assert.equal(result.isError, false);
    assert.deepEqual(result.structuredContent, direct.envelope);
    assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), direct.envelope);
    assert.equal(h.logs.at(-2)?.door, 'mcp');
    assert.equal(h.logs.at(-1)?.door, 'vscode.lm');
    await client.close();
  });

  it('sets isError on a failed envelope', async () => {
    h = await createHarness({ host: sampleHost() });
    s = await serve(h);
    const client = await connect(s.server);
    const result = await client.callTool({ name: 'get-document-outline', arguments: { document: { path: 'nope.ts' } } });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'DocumentNotFound');
    const invalid = await client.callTool({ name: 'get-document-outline', arguments: { document: { path: 1 } } });
    assert.equal((invalid.structuredContent as { error: { code: string } }).error.code, 'InvalidRequest');
    const unknown = await client.callTool({ name: 'no-such-tool', arguments: {} });
    assert.equal(unknown.isError, true);
    await client.close();
  });

  it('asks the person before a commit in transactional mode, refuses in approval-required, commits in autonomous-trusted', async () => {
    h = await createHarness({ host: sampleHost() });
    s = await serve(h);
    const client = await connect(s.server);
    const stage = async () =>
      client.callTool({
        name: 'edit-text',
        arguments: { edits: [{ location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'hi ' } }, newText: 'hello ' }] },
      });
    const staged = await stage();
    assert.equal(staged.isError, false, JSON.stringify(staged.structuredContent));
    const refused = await client.callTool({ name: 'transaction-commit', arguments: {} });
    assert.equal(s.confirmations.length, 1);
    assert.match(s.confirmations[0].title, /Commit 1 file/);
    assert.match(s.confirmations[0].message, /src\/greeter\.ts` \(\+1 −1\)/);
    assert.equal((refused.structuredContent as { error: { code: string } }).error.code, 'TransactionCommitNotApproved');
    const file = h.host.abs(h.host.folders()[0], 'src/greeter.ts');
    assert.match(h.host.diskText(file) ?? '', /hi \$/);
    h.setSettings({ operationalMode: 'approval-required' as OperationalMode });
    const external = await client.callTool({ name: 'transaction-commit', arguments: {} });
    assert.equal((external.structuredContent as { continuation: { kind: string } }).continuation.kind, 'ResolveExternally');
    h.setSettings({ operationalMode: 'transactional' });
    s.approve(true);
    const committed = await client.callTool({ name: 'transaction-commit', arguments: {} });
    assert.equal(committed.isError, false, JSON.stringify(committed.structuredContent));
    assert.match(h.host.diskText(file) ?? '', /hello \$/);
    await client.close();
  });

  it('in inspection-only mode lists only read tools, refuses a write tool called by name, and says list_changed when the mode changes', async () => {
    h = await createHarness({ host: sampleHost() });
    s = await serve(h);
    const client = await connect(s.server);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    h.setSettings({ operationalMode: 'inspection-only' });
    // The client opens its notification stream (GET) just after connecting; a notification sent before is not kept.
    const timer = setInterval(() => s.server.toolsChanged(), 100);
    await changed.finally(() => clearInterval(timer));
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    assert.ok(
      tools.every((t) => t.annotations?.readOnlyHint === true),
      tools.map((t) => t.name).join(),
    );
    assert.ok(!tools.some((t) => t.name === 'rename-symbol'));
    const refused = await client.callTool({
      name: 'edit-text',
      arguments: { edits: [{ location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'hi ' } }, newText: 'x' }] },
    });
    assert.equal((refused.structuredContent as { error: { code: string } }).error.code, 'SourceMutationDisabled');
    assert.equal(h.transactions.revision(h.registry.all()[0].id), null);
    await client.close();
  });

  it('in an untrusted workspace set to "nothing" lists nothing and refuses every call', async () => {
    const host = sampleHost();
    host.trusted = false;
    h = await createHarness({ host });
    s = await serve(h, { untrusted: 'nothing' });
    const client = await connect(s.server);
    assert.deepEqual((await client.listTools()).tools, []);
    const refused = await client.callTool({ name: 'server-status', arguments: {} });
    assert.equal(refused.isError, true);
    await client.close();
  });

  it('refuses a tool outside the profile, called by name', async () => {
    h = await createHarness({ host: sampleHost() });
    s = await serve(h, { profile: parseProfile('navigation', []) });
    const client = await connect(s.server);
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t) => t.name === 'edit-text'));
    const refused = await client.callTool({ name: 'transaction-start', arguments: {} });
    assert.match((refused.structuredContent as { error: { message: string } }).error.message, /tool profile/);
    await client.close();
  });

  it("cancels the call's token on notifications/cancelled, and sends progress when asked", async () => {
    let cancelled = false;
    const slow = slowQuery(
      'Waits until cancelled.',
      (_input, _ctx, token) =>
        new Promise<Record<string, never>>((resolve) => {
          token.onCancellationRequested(() => {
            cancelled = true;
            resolve({});
          });
        }),
    );
    h = await createHarness({ host: sampleHost(), tools: [slow] as never });
    s = await serve(h, { tools: [slow] as never });
    const client = await connect(s.server);
    const abort = new AbortController();
    let progress = 0;
    const call = client.callTool({ name: 'slow-query', arguments: {} }, undefined, {
      signal: abort.signal,
      onprogress: () => {
        progress++;
        if (progress === 2) abort.abort('enough');
      },
    });
    await assert.rejects(call);
    for (let i = 0; i < 50 && !cancelled; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(cancelled, true, 'the tool saw its token cancelled');
    assert.ok(progress >= 2);
    for (let i = 0; i < 50 && h.logs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(h.logs[0]?.outcome, 'Cancelled');
    await client.close();
  });
});

describe('MCP door: sessions whose client went away', () => {
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const headers = (server: McpHttpServer, session?: string): Record<string, string> => ({
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${server.token}`,
    ...(session ? { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-11-25' } : {}),
  });
  const until = async (what: string, check: () => boolean, ms = 3000): Promise<void> => {
    for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 10))) if (Date.now() > end) assert.fail(`never: ${what}`);
  };

  it('closes a session nobody used for the idle time, and its id is then refused with 404', async () => {
    const h = await createHarness({ host: sampleHost() });
    const s = await serve(h, { idleSessionMs: 150 });
    try {
      const r = await fetch(s.server.url, { method: 'POST', headers: headers(s.server), body: init });
      assert.equal(r.status, 200);
      await r.text();
      const id = r.headers.get('mcp-session-id');
      assert.ok(id);
      assert.equal(s.server.clients, 1);
      await until('the idle session is closed', () => s.server.clients === 0);
      const again = await fetch(s.server.url, {
        method: 'POST',
        headers: headers(s.server, id),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      });
      assert.equal(again.status, 404);
    } finally {
      await s.server.stop();
    }
  });

  it('keeps a session while a call runs longer than the idle time', async () => {
    const slow = slowQuery('Answers after 600 ms.', () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 600)));
    const h = await createHarness({ host: sampleHost(), tools: [slow] as never });
    const s = await serve(h, { tools: [slow] as never, idleSessionMs: 150 });
    try {
      const client = await connect(s.server);
      const result = await client.callTool({ name: 'slow-query', arguments: {} });
      assert.equal(result.isError, false);
      assert.deepEqual((result.structuredContent as { data: unknown }).data, { done: true });
      await client.close();
    } finally {
      await s.server.stop();
    }
  });
});

describe('MCP door: raw HTTP refusals', () => {
  let h: Harness;
  let s: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    h = await createHarness({ host: sampleHost() });
    s = await serve(h, { maxBodyBytes: 64 * 1024 });
  });
  after(async () => s.server.stop());
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(s.server.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${s.server.token}`, ...headers },
      body,
    });

  it('answers 401 with WWW-Authenticate without a token or with a wrong one', async () => {
    for (const auth of ['', 'Bearer wrong', `Basic ${s.server.token}`]) {
      const r = await post(JSON.stringify(init), { Authorization: auth });
      assert.equal(r.status, 401);
      assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.ok(!(await r.text()).includes(s.server.token));
    }
    assert.equal(s.server.clients, 0);
  });

  it("answers 403 to another site's Origin and to a foreign Host", async () => {
    assert.equal((await post(JSON.stringify(init), { Origin: 'https://evil.example' })).status, 403);
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        s.server.url,
        {
          method: 'POST',
          headers: { Host: `evil.example:${s.server.listeningPort}`, Authorization: `Bearer ${s.server.token}`, 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    assert.equal(status, 403);
    assert.equal(s.server.clients, 0);
  });

  it('answers 413 to an oversized body and JSON-RPC errors to malformed requests, changing nothing', async () => {
    assert.equal((await post(JSON.stringify({ ...init, padding: 'x'.repeat(100 * 1024) }))).status, 413);
    const notJson = await post('{"jsonrpc": "2.0", ');
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as { error: { code: number } }).error.code, -32700);
    const notRpc = await post(JSON.stringify({ hello: 'world' }));
    assert.equal(notRpc.status, 400);
    assert.equal(((await notRpc.json()) as { error: { code: number } }).error.code, -32600);
    const noSession = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'transaction-start', arguments: {} } }));
    assert.equal(noSession.status, 400);
    const unknownSession = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'Mcp-Session-Id': 'not-a-session' });
    assert.equal(unknownSession.status, 404);
    assert.equal(s.server.clients, 0);
    assert.equal(h.logs.length, 0, 'no tool ran');
  });
});

describe('MCP door: the stdio bridge', function () {
  this.timeout(60_000);
  const bridge = path.resolve(__dirname, '..', '..', '..', 'src', 'mcp', 'stdioBridge.js');

  it('relays to the window whose folder holds the directory, refuses when none does, and exits when the window is gone', async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bridge-'));
    const dir = path.join(scratch, 'mcp');
    const project = path.join(scratch, 'project');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    const h = await createHarness({ host: sampleHost() });
    const s = await serve(h);
    const file = writeDiscoveryFile(dir, {
      format: DISCOVERY_FORMAT,
      url: s.server.url,
      token: s.server.token,
      folders: [project],
      pid: process.pid,
      startedAt: new Date().toISOString(),
      version: 'test',
    });
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const env = { ...process.env, AGENT_WORKBENCH_MCP_DIR: dir } as Record<string, string>;
    try {
      const client = new Client({ name: 'bridge', version: '1' });
      const transport = new StdioClientTransport({ command: process.execPath, args: [bridge], cwd: path.join(project, 'src'), env, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      await client.connect(transport);
      const status = await client.callTool({ name: 'workspace-list', arguments: {} });
      assert.equal(status.isError, false);
      const closed = new Promise<void>((resolve) => (client.onclose = () => resolve()));
      await s.server.stop();
      await assert.rejects(client.callTool({ name: 'workspace-list', arguments: {} }));
      await closed;
      assert.match(stderr, /is gone/);

      const elsewhere = new Client({ name: 'bridge', version: '1' });
      const refused = new StdioClientTransport({ command: process.execPath, args: [bridge], cwd: scratch, env, stderr: 'pipe' });
      let why = '';
      refused.stderr?.on('data', (c: Buffer) => (why += c.toString()));
      await assert.rejects(elsewhere.connect(refused));
      assert.match(why, /no window serving MCP has .* in its workspace/);
    } finally {
      fs.rmSync(file, { force: true });
      await s.server.stop();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
