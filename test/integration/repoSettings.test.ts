import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { registeredToolName } from '../../src/core/chain/definition';
import type { Envelope } from '../../src/core/chain/envelope';
import type { ApprovalSummary } from '../../src/core/chain/toolInfo';
import type { DiscoveryEntry } from '../../src/mcp/discovery';
import type { AgentWorkbenchApi } from '../../src/extension';
import { activateExtension, assertValidEnvelope, expectError, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

/**
 * A repository whose own settings (test/fixtures/repo-settings: .vscode/settings.json, and
 * repo.code-workspace in the "repo-settings-workspace" suite) ask for autonomous-trusted, commits
 * with new errors, an extra permission, a narrower tool profile and no review panel. None of it
 * applies: the person's user settings (here VS Code's defaults) do.
 */

const SUITE = process.env.AW_SUITE ?? '';
const TRUSTED = SUITE !== 'repo-settings-untrusted';
const VIA_WORKSPACE_FILE = SUITE === 'repo-settings-workspace';
const DEFAULT_PERMISSIONS = ['workspace.read', 'workspace.stage', 'workspace.commit'];
const WIDER_PERMISSIONS = [...DEFAULT_PERMISSIONS, 'workspace.execute'];

interface Ignored {
  setting: string;
  value: unknown;
  source: string;
}
interface Status {
  operationalMode: string;
  effectiveMode: string;
  trusted: boolean;
  defaults: { grantedPermissions: string[] };
  ignoredWorkspaceSettings?: Ignored[];
  commitApproval: { 'vscode.lm': string; mcp: string };
}

function expectedIgnored(): Ignored[] {
  const folderSource = VIA_WORKSPACE_FILE ? 'repo-settings/.vscode/settings.json' : '.vscode/settings.json';
  const folder: Ignored[] = [
    { setting: 'agentWorkbench.operationalMode', value: 'autonomous-trusted', source: folderSource },
    { setting: 'agentWorkbench.newErrorsOnCommit', value: 'allow', source: folderSource },
    { setting: 'agentWorkbench.grantedPermissions', value: WIDER_PERMISSIONS, source: folderSource },
    { setting: 'agentWorkbench.toolProfile', value: 'custom', source: folderSource },
    {
      setting: 'agentWorkbench.toolProfileTools',
      value: ['server-status', 'edit-text', 'transaction-commit', 'transaction-preview', 'transaction-rollback'],
      source: folderSource,
    },
    { setting: 'agentWorkbench.review.openOnFirstStage', value: false, source: folderSource },
  ];
  if (!VIA_WORKSPACE_FILE) return folder;
  const file = 'repo.code-workspace';
  return [
    { setting: 'agentWorkbench.operationalMode', value: 'autonomous-trusted', source: file },
    { setting: 'agentWorkbench.newErrorsOnCommit', value: 'allow', source: file },
    { setting: 'agentWorkbench.grantedPermissions', value: WIDER_PERMISSIONS, source: file },
    ...folder,
  ];
}

const user = () => vscode.workspace.getConfiguration('agentWorkbench');
const file = (p: string) => path.join(workspaceRoot(), ...p.split('/'));
const read = (p: string) => fs.readFileSync(file(p), 'utf8');
const sel = (p: string, selectedText: string) => ({ selection: { document: { path: p }, selectedText } });

async function status(): Promise<Status> {
  return expectOk<Status>(await invoke('server-status', {})).data;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A commit through vscode.lm. VS Code shows our confirmation first (a modal outside chat), but a
 * window running extension tests answers every confirmation itself: the person's answer to it is
 * tested in the browser (scripts/mcp-browser-test.mjs), where the modal is real.
 */
async function commitThroughLm(input: object = {}): Promise<Envelope | 'not confirmed'> {
  try {
    const result = await vscode.lm.invokeTool(registeredToolName('transaction-commit'), { input, toolInvocationToken: undefined });
    const part = result.content[0];
    assert.ok(part instanceof vscode.LanguageModelTextPart);
    const envelope = JSON.parse(part.value) as Envelope;
    assertValidEnvelope('transaction-commit', envelope);
    return envelope;
  } catch (error) {
    if (error instanceof vscode.CancellationError || /cancel/i.test(String(error))) return 'not confirmed';
    throw error;
  }
}

describe("a repository's own settings cannot widen what agents may do", function () {
  let api: AgentWorkbenchApi;
  const original = new Map<string, string>();

  before(async function () {
    api = await activateExtension();
    if (TRUSTED) await waitForSymbols('src/version.ts');
    for (const p of ['src/version.ts', '.vscode/settings.json']) original.set(p, read(p));
  });

  afterEach(async function () {
    if (TRUSTED) await invoke('transaction-rollback', {});
    for (const [p, text] of original) if (read(p) !== text) fs.writeFileSync(file(p), text);
    await user().update('operationalMode', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the mode, permissions and gate are the user settings; server-status names each ignored value and where it was written', async function () {
    const s = await status();
    assert.equal(s.trusted, TRUSTED);
    assert.equal(s.operationalMode, 'transactional');
    assert.equal(s.effectiveMode, TRUSTED ? 'transactional' : 'inspection-only');
    assert.deepEqual(s.defaults.grantedPermissions, DEFAULT_PERMISSIONS);
    assert.deepEqual(s.ignoredWorkspaceSettings, expectedIgnored());
    // How a commit would be approved, said before anyone tries: the user's mode, not the repository's.
    assert.match(
      s.commitApproval.mcp,
      TRUSTED ? /^A modal in VS Code asks the person/ : /^No commit: the mode is inspection-only \(the workspace is not trusted\)/,
    );
    // VS Code itself keeps them out of the workspace's configuration (package.json: application scope).
    assert.equal(user().get('operationalMode'), 'transactional');
    assert.equal(user().inspect('operationalMode')?.workspaceValue, undefined);
  });

  it("the repository's narrower tool profile does not hide tools the person's profile offers", async function () {
    const names = new Set(vscode.lm.tools.map((t) => t.name));
    for (const tool of ['find-references', 'rename-symbol', 'get-document-outline']) assert.ok(names.has(registeredToolName(tool)), tool);
    if (TRUSTED) expectOk(await invoke('get-document-outline', { document: { path: 'src/version.ts' } }));
  });

  if (!TRUSTED) {
    it('Restricted Mode: nothing can be staged, whatever the repository says', async function () {
      const refused = expectError(
        await invoke('edit-text', { edits: [{ location: sel('src/version.ts', "'1.0.0'"), newText: "'2.0.0'" }] }),
        'SourceMutationDisabled',
      );
      assert.match(refused.error.message, /not trusted/);
      assert.equal(read('src/version.ts'), original.get('src/version.ts'));
    });
    return;
  }

  it("the review panel opens on the first staged revision, as the person's settings say", async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    expectOk(await invoke('edit-text', { edits: [{ location: sel('src/version.ts', "'1.0.0'"), newText: "'2.0.0'" }] }));
    await until(
      'the review panel',
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .some((t) => t.input instanceof vscode.TabInputWebview && /agentWorkbench\.review/.test(t.input.viewType)) || undefined,
    );
  });

  it("with the person's own autonomous-trusted, an agent commits; the repository's newErrorsOnCommit allow does not lift the gate", async function () {
    await user().update('operationalMode', 'autonomous-trusted', vscode.ConfigurationTarget.Global);
    await until('the user mode to apply', async () => ((await status()).effectiveMode === 'autonomous-trusted' ? true : undefined));
    expectOk(await invoke('edit-text', { edits: [{ location: sel('src/version.ts', 'name: string'), newText: 'name: number' }] }));
    // main.ts passes a string: a new error the person's newErrorsOnCommit (refuse) keeps out.
    const refused = await commitThroughLm();
    assert.notEqual(refused, 'not confirmed', 'autonomous-trusted asks nobody');
    const failure = expectError(refused as Envelope, 'NewErrorsIntroduced');
    assert.match(failure.error.message, /Nothing was written/);
    assert.equal(read('src/version.ts'), original.get('src/version.ts'));
    await invoke('transaction-rollback', {});
    expectOk(await invoke('edit-text', { edits: [{ location: sel('src/version.ts', "'1.0.0'"), newText: "'2.0.0'" }] }));
    const committed = await commitThroughLm();
    assert.notEqual(committed, 'not confirmed');
    expectOk(committed as Envelope);
    assert.equal(read('src/version.ts'), original.get('src/version.ts')!.replace("'1.0.0'", "'2.0.0'"));
  });

  it('a value written into the workspace settings later is ignored too, and listed at once', async function () {
    const settings = original
      .get('.vscode/settings.json')!
      .replace('"editor.tabSize": 2', '"editor.tabSize": 2, "agentWorkbench.mcp.allowedOrigins": ["https://evil.example"]');
    fs.writeFileSync(file('.vscode/settings.json'), settings);
    try {
      const listed = await until('the new value in server-status', async () =>
        (await status()).ignoredWorkspaceSettings?.find((i) => i.setting === 'agentWorkbench.mcp.allowedOrigins'),
      );
      assert.deepEqual(listed.value, ['https://evil.example']);
      assert.equal((await status()).effectiveMode, 'transactional');
    } finally {
      fs.writeFileSync(file('.vscode/settings.json'), original.get('.vscode/settings.json')!);
    }
  });

  if (SUITE !== 'repo-settings') return;

  it('over MCP, a commit asks the person (declined, or unanswered: nothing written)', async function () {
    const entryFile = await until('the discovery file', () => api.testHooks.mcp.discoveryFile);
    const entry = JSON.parse(fs.readFileSync(entryFile, 'utf8')) as DiscoveryEntry;
    const client = new Client({ name: 'repo-settings', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      return r.structuredContent as unknown as Envelope;
    };
    try {
      expectOk(await call('edit-text', { edits: [{ location: sel('src/version.ts', "'1.0.0'"), newText: "'3.0.0'" }] }));
      const asked: ApprovalSummary[] = [];
      api.testHooks.mcp.setConfirmHook(async (summary) => {
        asked.push(summary);
        return false;
      });
      expectError(await call('transaction-commit', {}), 'TransactionCommitNotApproved');
      assert.equal(asked.length, 1, 'the person was asked');
      assert.match(asked[0].title, /Commit 1 file/);
      // Nobody to answer: the modal a test window refuses is a refusal.
      api.testHooks.mcp.setConfirmHook(undefined);
      const unasked = expectError(await call('transaction-commit', {}), 'TransactionCommitNotApproved');
      assert.match(
        unasked.error.message,
        /^No person could be asked to approve transaction-commit \(VS Code could not show the dialog: .+\)\. Nothing was applied\.$/,
      );
      assert.equal(read('src/version.ts'), original.get('src/version.ts'));
    } finally {
      api.testHooks.mcp.setConfirmHook(undefined);
      await client.close();
    }
  });
});
