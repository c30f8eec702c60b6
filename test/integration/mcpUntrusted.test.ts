import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as fs from 'node:fs';
import type { DiscoveryEntry } from '../../src/mcp/discovery';
import { ALL_TOOLS } from '../../src/tools';
import { activateExtension, digestTree, expectOk, invoke, workspaceRoot } from './helpers';

/** The MCP door in an untrusted workspace (suite "mcp-untrusted"): the read tools only, writes refused by name. */
describe('the MCP door in an untrusted workspace', function () {
  it('lists only the read tools and refuses a write tool called by name, staging nothing', async function () {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await activateExtension();
    const end = Date.now() + 20_000;
    while (!api.testHooks.mcp.discoveryFile && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const entry = JSON.parse(fs.readFileSync(api.testHooks.mcp.discoveryFile!, 'utf8')) as DiscoveryEntry;
    const client = new Client({ name: 'untrusted', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
    const digest = digestTree(workspaceRoot());
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ALL_TOOLS.filter((t) => t.effect === 'Read' && t.operationKind === 'Query').map((t) => t.name),
      );
      assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
      for (const name of ['rename-symbol', 'edit-text', 'create-file', 'transaction-start', 'transaction-commit']) {
        const r = await client.callTool({ name, arguments: {} });
        assert.equal(r.isError, true, name);
        assert.equal((r.structuredContent as { error: { code: string } }).error.code, 'SourceMutationDisabled', name);
      }
      assert.equal(expectOk<{ transaction: unknown }>(await invoke('transaction-preview', {})).data.transaction, null, 'nothing was staged');
      assert.equal(digestTree(workspaceRoot()), digest);
    } finally {
      await client.close();
    }
  });
});
