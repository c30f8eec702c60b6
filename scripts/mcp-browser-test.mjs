/* global AbortController */
// The MCP door in real VS Code windows driven through the real browser, as a person and an agent
// meet there: the windows are opened with the extension under development and NO extension tests
// module, so VS Code shows its real dialogs (a window opened with extensionTestsPath refuses them)
// and the person's answers are clicks in the page (playwright-core). Agents connect with the
// official SDK's clients: Streamable HTTP from each window's discovery file, and the stdio bridge
// (node dist/mcp-stdio.js) spawned from folders inside each window's workspace.
//
//   - a commit requested over MCP asks the person in VS Code's modal: Commit writes byte for byte,
//     Escape writes nothing and the agent hears it was not approved;
//   - two windows on two folders: the stdio bridge started in each folder reaches its own window;
//   - a rename that waits for a language service still loading a large project, cancelled by the
//     client (notifications/cancelled): the call ends at once as Cancelled and nothing is staged;
//   - a repository whose own settings ask for autonomous-trusted: the person is told what was
//     ignored, and a commit over MCP or through vscode.lm (Try a Tool) still asks;
//   - an untrusted window offers the read tools only; the person trusts it in the workspace trust
//     editor and the client hears notifications/tools/list_changed, then sees the write tools.
//
// Screenshots go to out/test-artifacts/mcp/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { freshFixture, HEADLESS_USER_SETTINGS, REPO_ROOT } from './fixtures.mjs';
import { generateWorkspace } from './synthetic-workspace.mjs';
import { HOST_NOISE, logText, sleep, waitFor } from './browser-support.mjs';
import { launchBrowser, startServer, workbenchUrl } from './vscode-host.mjs';

const { ALL_TOOLS } = createRequire(import.meta.url)(path.join(REPO_ROOT, 'out', 'src', 'tools', 'index.js'));
const READ_TOOLS = ALL_TOOLS.filter((t) => t.effect === 'Read' && t.operationKind === 'Query').map((t) => t.name);
const ARTIFACTS = path.join(REPO_ROOT, 'out', 'test-artifacts', 'mcp');
const BRIDGE = path.join(REPO_ROOT, 'dist', 'mcp-stdio.js');
const VERBOSE = /^(1|true)$/i.test(process.env.VSCODE_HOST_VERBOSE ?? '');
const grep = process.env.AW_GREP ? new RegExp(process.env.AW_GREP) : undefined;

fs.rmSync(ARTIFACTS, { recursive: true, force: true });
fs.mkdirSync(ARTIFACTS, { recursive: true });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-mcp-browser-'));
const fixtures = [];
const fixture = (name) => {
  const f = freshFixture(name);
  fixtures.push(f);
  return f;
};

const USER_SETTINGS = {
  ...HEADLESS_USER_SETTINGS,
  'agentWorkbench.mcp.enabled': true,
  'agentWorkbench.operationalMode': 'transactional',
  'workbench.colorTheme': 'Default Light Modern',
  'workbench.startupEditor': 'none',
  'window.commandCenter': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
};

// A stray rejection (a client's pending call when a test fails) is a failure, not an exit that would leave VS Code running.
process.on('unhandledRejection', (error) => {
  failures++;
  console.log(`unhandled rejection: ${error?.stack ?? error}`);
});

let browser;
const servers = [];
const clients = new Set();
let failures = 0;
let passes = 0;
/** The page a failure screenshot shows (the window the running test acts in). */
let current;

async function test(name, fn) {
  if (grep && !grep.test(name)) return;
  const started = Date.now();
  try {
    await fn();
    passes++;
    console.log(`  ✔ ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failures++;
    console.log(`  ✘ ${name} (${Date.now() - started} ms)\n    ${(error.stack ?? String(error)).split('\n').join('\n    ')}`);
    await current?.screenshot({ path: path.join(ARTIFACTS, `failure-${name.replace(/\W+/g, '-').slice(0, 80)}.png`) }).catch(() => {});
  }
}

/** A VS Code server whose windows write their discovery files in a directory of their own. */
async function server({ trusted, settings = {} }) {
  const mcpDir = path.join(scratch, `mcp-windows-${servers.length}`);
  const s = await startServer({
    trusted,
    env: { AGENT_WORKBENCH_MCP_DIR: mcpDir },
    userSettings: { ...USER_SETTINGS, ...settings },
    log: VERBOSE ? (line) => process.stderr.write(`[server] ${line}\n`) : undefined,
  });
  servers.push(s);
  return { ...s, mcpDir };
}

/** The discovery entries of a server's windows (what the stdio bridge reads). */
function entries(srv) {
  let names = [];
  try {
    names = fs.readdirSync(srv.mcpDir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    try {
      return [{ file: path.join(srv.mcpDir, n), ...JSON.parse(fs.readFileSync(path.join(srv.mcpDir, n), 'utf8')) }];
    } catch {
      return []; // being written
    }
  });
}

/**
 * Opens `folder` in a new browser window with the extension under development and no tests
 * module, as a person opens it; resolves once the window serves MCP (its discovery file names the folder).
 */
async function openWindow(srv, folder, label) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? args.join(' ') : String(args);
    if (VERBOSE || (type === 'error' && !HOST_NOISE.test(text))) process.stdout.write(`[${label} ${type}] ${text}\n`);
  });
  await page.exposeFunction('codeAutomationExit', () => {});
  current = page;
  await page.goto(workbenchUrl(srv.baseUrl, folder, { extensionDevelopmentPath: REPO_ROOT, skipWelcome: 'true' }), { timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  const entry = await waitFor(`the discovery file of the ${label} window`, () => entries(srv).find((e) => e.folders.includes(folder)), 120_000);
  return { page, folder, entry, label };
}

async function connect(entry, name = 'mcp-browser-test') {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
  clients.add(client);
  return client;
}

async function close(client) {
  clients.delete(client);
  await client.close().catch(() => {});
}

/** A tool call's envelope (the structured content, which the text part repeats). */
async function call(client, name, args = {}, options) {
  const r = await client.callTool({ name, arguments: args }, undefined, options);
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent, 'the text part is the structured envelope');
  assert.equal(r.isError === true, r.structuredContent.ok === false, 'isError says whether the envelope failed');
  return r.structuredContent;
}

async function ok(client, name, args) {
  let envelope = await call(client, name, args);
  // As an agent does: a language service still loading (a busy machine) answers RetryRequest; ask again, a bounded number of times.
  for (let i = 0; i < 6 && envelope.error?.code === 'LanguageServiceStarting' && envelope.continuation?.kind === 'RetryRequest'; i++) {
    await sleep(Number(/in (\d+) seconds/.exec(envelope.continuation.instruction)?.[1] ?? 5) * 1000);
    envelope = await call(client, name, args);
  }
  assert.equal(envelope.ok, true, `${name} failed: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** Every "Agent Workbench" log file of a server's extension hosts (what Output › Agent Workbench shows). */
const agentLog = (srv) => logText(srv.dataDir, 'Agent Workbench.log');

/** The modal dialog VS Code shows in a window (the DOM of its custom dialog), with its text. */
async function modal(page, timeoutMs = 60_000) {
  const box = page.locator('.monaco-dialog-box');
  await box.waitFor({ state: 'visible', timeout: timeoutMs });
  return {
    box,
    title: (await box.locator('.dialog-message-text').textContent()) ?? '',
    detail:
      (await box
        .locator('.dialog-message-detail')
        .textContent()
        .catch(() => '')) ?? '',
    buttons: await box.locator('.dialog-buttons .monaco-button').allTextContents(),
  };
}

const read = (folder, p) => fs.readFileSync(path.join(folder, ...p.split('/')));

try {
  browser = await launchBrowser();
  const trusted = await server({ trusted: true });
  console.log('\nthe MCP door in real VS Code windows (browser-driven, no extension tests module)');

  const sample = fixture('sample');
  const greeter = fixture('greeter');
  let first;
  let second;
  await test('two windows on two folders each serve MCP and write their own discovery file', async () => {
    first = await openWindow(trusted, sample.folder, 'sample');
    second = await openWindow(trusted, greeter.folder, 'greeter');
    assert.notEqual(first.entry.url, second.entry.url);
    assert.notEqual(first.entry.pid, second.entry.pid, 'two windows, two extension hosts');
    assert.deepEqual(first.entry.folders, [sample.folder]);
    assert.deepEqual(second.entry.folders, [greeter.folder]);
    for (const e of [first.entry, second.entry]) assert.equal(fs.statSync(e.file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(trusted.mcpDir).mode & 0o777, 0o700);
  });

  const files = ['src/util.ts', 'src/greeter.ts'];
  await test("a commit over MCP asks the person in VS Code's modal, naming the files; Commit writes exactly what was staged", async () => {
    current = first.page;
    const client = await connect(first.entry);
    try {
      const before = files.map((f) => read(sample.folder, f).toString('utf8'));
      const staged = await ok(client, 'rename-symbol', {
        symbol: { location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatName' } } },
        newName: 'formatPersonName',
      });
      assert.ok(staged, 'the rename was staged');
      const preview = await ok(client, 'transaction-preview', {});
      assert.deepEqual(preview.documents.map((d) => d.document.path).sort(), [...files].sort());
      assert.deepEqual(
        files.map((f) => read(sample.folder, f).toString('utf8')),
        before,
        'nothing is written while staged',
      );

      const commit = call(client, 'transaction-commit', {});
      commit.catch(() => {}); // awaited below; not an unhandled rejection if an assertion fails first
      const m = await modal(first.page);
      await first.page.screenshot({ path: path.join(ARTIFACTS, 'mcp-commit-modal.png') });
      assert.match(m.title, /An agent connected over MCP asks: Commit 2 files to disk\?/);
      for (const f of files) assert.match(m.detail, new RegExp(`${f.replace(/[./]/g, '\\$&')} \\(\\+\\d+ −\\d+\\)`));
      assert.match(m.detail, /Open the review panel/);
      assert.deepEqual([...m.buttons].sort(), ['Cancel', 'Commit', 'Open Review Panel First']);
      // Behind the modal, the review panel (opened by itself when the agent staged) lists the same two files.
      const panel = await waitFor('the review panel webview', async () => {
        for (const f of first.page.frames()) if (!f.isDetached() && (await f.$('main#app').catch(() => null))) return f;
        return undefined;
      });
      assert.deepEqual((await panel.$$eval('li.file', (els) => els.map((li) => li.dataset.path))).sort(), [...files].sort());
      await m.box.getByRole('button', { name: 'Commit', exact: true }).click();
      const committed = await commit;
      assert.equal(committed.ok, true, JSON.stringify(committed));
      await m.box.waitFor({ state: 'detached' });
      assert.deepEqual(
        files.map((f) => read(sample.folder, f).toString('utf8')),
        before.map((text) => text.replace(/\bformatName\b/g, 'formatPersonName')),
        'the disk holds the staged text, byte for byte',
      );
      assert.equal((await ok(client, 'transaction-preview', {})).transaction, null, 'the transaction ended with the commit');
    } finally {
      await close(client);
    }
  });

  await test('Escape in the modal is a refusal: the agent hears it was not approved, nothing is written and the transaction stays staged', async () => {
    current = first.page;
    const client = await connect(first.entry);
    try {
      const before = files.map((f) => read(sample.folder, f));
      // The function's name as the disk has it (formatPersonName after the commit above).
      const current = /export function (\w+)/.exec(before[0].toString('utf8'))[1];
      await ok(client, 'rename-symbol', {
        symbol: { location: { selection: { document: { path: 'src/util.ts' }, selectedText: current, contextBefore: 'export function ' } } },
        newName: 'nameOf',
      });
      const commit = call(client, 'transaction-commit', {});
      commit.catch(() => {}); // awaited below; not an unhandled rejection if an assertion fails first
      const m = await modal(first.page);
      assert.match(m.title, /Commit 2 files to disk\?/);
      await first.page.keyboard.press('Escape');
      const declined = await commit;
      assert.equal(declined.ok, false);
      assert.equal(declined.error.code, 'TransactionCommitNotApproved', declined.error.message);
      assert.match(declined.error.message, /The person did not approve transaction-commit\. Nothing was applied/);
      await m.box.waitFor({ state: 'detached' });
      files.forEach((f, i) => assert.ok(read(sample.folder, f).equals(before[i]), `${f} is unchanged on disk`));
      const preview = await ok(client, 'transaction-preview', {});
      assert.deepEqual(preview.documents.map((d) => d.document.path).sort(), [...files].sort(), 'the staged rename is still there to review');
      // Cancel, clicked, is the same refusal.
      const again = call(client, 'transaction-commit', {});
      again.catch(() => {}); // awaited below; not an unhandled rejection if an assertion fails first
      const m2 = await modal(first.page);
      await m2.box.getByRole('button', { name: 'Cancel', exact: true }).click();
      assert.equal((await again).error?.code, 'TransactionCommitNotApproved');
      files.forEach((f, i) => assert.ok(read(sample.folder, f).equals(before[i]), `${f} is unchanged on disk`));
      await ok(client, 'transaction-rollback', {});
    } finally {
      await close(client);
    }
  });

  await test("a repository's own settings cannot switch off the review: the person is told what was ignored, and a commit over MCP or through vscode.lm (Try a Tool) still asks", async () => {
    // test/fixtures/repo-settings/.vscode/settings.json asks for autonomous-trusted, commits with new errors, more permissions, a custom profile and no panel.
    const repo = fixture('repo-settings');
    const w = await openWindow(trusted, repo.folder, 'repo-settings');
    current = w.page;
    const client = await connect(w.entry);
    try {
      // The notice waits in the notification center (a toast may be hidden behind the workspace-file prompt): open it as a person would.
      await w.page.keyboard.press('F1');
      await w.page.keyboard.type('Notifications: Show Notifications');
      await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Notifications' }).first().waitFor({ timeout: 30_000 });
      await w.page.keyboard.press('Enter');
      const item = w.page.locator('.notifications-center .notification-list-item', { hasText: 'Agent Workbench ignored' });
      await item.waitFor({ timeout: 60_000 });
      assert.equal(await item.count(), 1, 'told once');
      const notice = (await item.textContent()) ?? '';
      assert.match(
        notice,
        /\.vscode\/settings\.json sets operationalMode \("autonomous-trusted"\), newErrorsOnCommit \("allow"\), grantedPermissions \(4 values\)/,
      );
      assert.match(notice, /review\.openOnFirstStage \(false\)/);
      assert.match(notice, /Only your user settings decide/);
      await w.page.screenshot({ path: path.join(ARTIFACTS, 'repo-settings-notice.png') });
      await w.page.keyboard.press('Escape');
      assert.match(agentLog(trusted), /Ignored the workspace setting agentWorkbench\.operationalMode = "autonomous-trusted" \(\.vscode\/settings\.json\)/);
      const status = await ok(client, 'server-status', {});
      assert.equal(status.effectiveMode, 'transactional');
      assert.deepEqual(
        status.ignoredWorkspaceSettings.map((i) => i.setting),
        ['operationalMode', 'newErrorsOnCommit', 'grantedPermissions', 'toolProfile', 'toolProfileTools', 'review.openOnFirstStage'].map(
          (k) => `agentWorkbench.${k}`,
        ),
      );

      const before = read(repo.folder, 'src/version.ts');
      await ok(client, 'edit-text', {
        edits: [{ location: { selection: { document: { path: 'src/version.ts' }, selectedText: "'1.0.0'" } }, newText: "'2.0.0'" }],
      });
      const commit = call(client, 'transaction-commit', {});
      commit.catch(() => {}); // awaited below; not an unhandled rejection if an assertion fails first
      const m = await modal(w.page);
      await w.page.screenshot({ path: path.join(ARTIFACTS, 'repo-settings-mcp-commit.png') });
      assert.match(m.title, /An agent connected over MCP asks: Commit 1 file to disk\?/);
      await w.page.keyboard.press('Escape');
      assert.equal((await commit).error?.code, 'TransactionCommitNotApproved');
      await m.box.waitFor({ state: 'detached' });
      assert.ok(read(repo.folder, 'src/version.ts').equals(before), 'nothing written');

      // The vscode.lm door outside a chat (as any extension calls it): Try a Tool runs vscode.lm.invokeTool, and VS Code shows our confirmation.
      const palette = async (command) => {
        await w.page.keyboard.press('F1');
        await w.page.keyboard.type(command);
        await w.page
          .locator('.quick-input-list .monaco-list-row', { hasText: command.replace(/^Agent Workbench: /, '') })
          .first()
          .waitFor({ timeout: 30_000 });
        await w.page.keyboard.press('Enter');
      };
      await palette('Agent Workbench: Try a Tool…');
      // Typed into the pick itself: the review panel's webview, focused before, may take the focus back as the pick opens.
      const pick = w.page.locator('.quick-input-widget', { hasText: 'try which tool?' });
      await pick.waitFor({ timeout: 30_000 });
      await pick.locator('input').first().fill('transaction-commit');
      await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'transaction-commit' }).first().waitFor({ timeout: 30_000 });
      await w.page.keyboard.press('Enter');
      await w.page.locator('.tab', { hasText: 'transaction-commit.input.json' }).first().waitFor({ timeout: 30_000 });
      await palette('Agent Workbench: Run the Tool Input in This Editor');
      const lm = await modal(w.page);
      await w.page.screenshot({ path: path.join(ARTIFACTS, 'repo-settings-lm-commit.png') });
      assert.match(`${lm.title} ${lm.detail}`, /Commit 1 file to disk\?/);
      assert.match(lm.detail, /src\/version\.ts/);
      await w.page.keyboard.press('Escape');
      await lm.box.waitFor({ state: 'detached' });
      await sleep(1000);
      assert.ok(read(repo.folder, 'src/version.ts').equals(before), 'nothing written');
      assert.equal((await ok(client, 'transaction-preview', {})).transaction.revision, 1, 'the staged change is still there to review');
      await ok(client, 'transaction-rollback', {});
      await w.page.close();
    } finally {
      await close(client);
    }
  });

  await test('the stdio bridge started inside each of two windows’ folders reaches that window, never the other', async () => {
    const viaBridge = async (cwd) => {
      const client = new Client({ name: 'stdio-bridge-test', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [BRIDGE],
          cwd,
          env: { ...process.env, AGENT_WORKBENCH_MCP_DIR: trusted.mcpDir },
          stderr: 'pipe',
        }),
      );
      clients.add(client);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        const list = await ok(client, 'workspace-list', {});
        const outline = await call(client, 'get-document-outline', { document: { path: 'src/greet.ts' } });
        return { tools, folders: list.workspaces.items.map((w) => w.path), outline };
      } finally {
        await close(client);
      }
    };
    const a = await viaBridge(path.join(sample.folder, 'src'));
    const b = await viaBridge(path.join(greeter.folder, 'src'));
    assert.deepEqual(
      a.tools,
      ALL_TOOLS.map((t) => t.name),
    );
    assert.deepEqual(
      b.tools,
      ALL_TOOLS.map((t) => t.name),
    );
    assert.deepEqual(a.folders, [sample.folder], JSON.stringify(a.folders));
    assert.deepEqual(b.folders, [greeter.folder], JSON.stringify(b.folders));
    // src/greet.ts exists only in the greeter folder: the greeter window answers it, the sample window cannot.
    assert.equal(b.outline.ok, true, JSON.stringify(b.outline));
    assert.equal(a.outline.ok, false, JSON.stringify(a.outline));
  });

  // The two small windows are done: the large workspace gets the machine to itself.
  await second.page.close();
  await waitFor('the greeter window to remove its discovery file', () => !fs.existsSync(second.entry.file), 60_000).catch(() => {});

  await test('a rename waiting for a language service still loading a large project, cancelled by the client, ends at once as Cancelled with nothing staged', async () => {
    const scratchBig = fs.mkdtempSync(path.join(scratch, 'big-'));
    const big = path.join(scratchBig, 'generated');
    const info = generateWorkspace(big, { files: 4000, uses: 3 });
    const entityBefore = read(big, info.entityPath);
    // Closed right away: the window's TypeScript server then starts loading 4,000 modules.
    const win = await openWindow(trusted, big, 'large workspace');
    current = win.page;
    const client = await connect(win.entry);
    try {
      const abort = new AbortController();
      let progress = 0;
      const sent = Date.now();
      let abortedAt;
      // The user presses Esc half a second in (or at the server's first progress, every 2 s while a call runs,
      // on a machine too busy for the timer): the rename is then waiting for the TypeScript extension to
      // activate and load 4,000 modules, which a fast machine does in under 3 s.
      const cancel = () => {
        if (abortedAt) return;
        abortedAt = Date.now();
        abort.abort(new Error('the user pressed Esc'));
      };
      const timer = setTimeout(cancel, 500);
      const rename = client.callTool(
        {
          name: 'rename-symbol',
          arguments: {
            symbol: { location: { selection: { document: { path: info.entityPath }, selectedText: 'Entity', contextBefore: 'export class ' } } },
            newName: 'Thing',
          },
        },
        undefined,
        {
          signal: abort.signal,
          onprogress: () => {
            progress++;
            cancel();
          },
        },
      );
      const outcome = await rename.then(
        (resolved) => ({ resolved }),
        (rejected) => ({ rejected }),
      );
      const clientEnded = Date.now();
      clearTimeout(timer);
      if (!outcome.rejected) {
        const log = agentLog(trusted).split('\n').slice(-12).join('\n');
        assert.fail(
          `the call answered ${clientEnded - sent} ms after it was sent, after ${progress} progress notification(s), before any cancel: ${JSON.stringify(outcome.resolved).slice(0, 1200)}\n${log}`,
        );
      }
      assert.match(String(outcome.rejected.message), /Esc|abort/i);
      assert.ok(abortedAt, 'the call was still running when it was cancelled');
      assert.ok(clientEnded - abortedAt < 1000, `the client's call ended ${clientEnded - abortedAt} ms after the cancel`);
      // The window's own record of the call (Output › Agent Workbench): it ended as Cancelled, promptly.
      const line = await waitFor('the log line of the cancelled rename', () => agentLog(trusted).match(/rename-symbol Cancelled (\d+)ms .*door=mcp/), 15_000);
      const duration = Number(line[1]);
      assert.ok(
        duration <= abortedAt - sent + 2000,
        `the rename ran ${duration} ms; it was cancelled ${abortedAt - sent} ms after it was sent (the cancel took ${duration - (abortedAt - sent)} ms to stop it)`,
      );
      const preview = await ok(client, 'transaction-preview', {});
      assert.equal(preview.transaction, null, `nothing was staged: ${JSON.stringify(preview).slice(0, 400)}`);
      assert.ok(read(big, info.entityPath).equals(entityBefore), 'nothing was written');
      console.log(`    (cancelled ${abortedAt - sent} ms after the call, after ${progress} progress notification(s); the server recorded ${duration} ms)`);
    } finally {
      await close(client);
      await win.page.close();
    }
  });

  await first.page.close();
  await trusted.stop();

  await test('an untrusted window offers the read tools only; trusting it in the workspace trust editor sends list_changed and the write tools appear', async () => {
    const untrusted = await server({ trusted: false, settings: { 'security.workspace.trust.startupPrompt': 'never' } });
    const folder = fixture('greeter').folder;
    const win = await openWindow(untrusted, folder, 'untrusted');
    current = win.page;
    const client = await connect(win.entry);
    try {
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        READ_TOOLS,
      );
      const refused = await call(client, 'edit-text', {
        edits: [{ location: { selection: { document: { path: 'notes.txt' }, selectedText: 'Nothing to see here yet.' } }, newText: 'x' }],
      });
      assert.equal(refused.error?.code, 'SourceMutationDisabled');
      let changed = 0;
      const listChanged = new Promise((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          changed++;
          resolve();
        }),
      );
      // The person: Restricted Mode in the status bar opens the workspace trust editor; Trust.
      const restricted = win.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first();
      await restricted.waitFor({ timeout: 60_000 });
      const modeItem = (mode) => win.page.locator('.statusbar-item', { hasText: new RegExp(`^\\s*${mode}\\s*$`) });
      await modeItem('inspection-only').waitFor({ timeout: 30_000 });
      await win.page.screenshot({ path: path.join(ARTIFACTS, 'mcp-untrusted-window.png') });
      await restricted.click();
      const trustButton = win.page.locator('.workspace-trust-editor .workspace-trust-buttons-row .monaco-button', { hasText: /^Trust/ }).first();
      await trustButton.waitFor({ timeout: 30_000 });
      await win.page.screenshot({ path: path.join(ARTIFACTS, 'mcp-trust-editor.png') });
      await trustButton.click();
      await Promise.race([listChanged, sleep(30_000).then(() => Promise.reject(new Error('no notifications/tools/list_changed within 30 s of trusting')))]);
      await modeItem('transactional').waitFor({ timeout: 30_000 });
      await restricted.waitFor({ state: 'detached', timeout: 30_000 }); // Restricted Mode is gone from the status bar
      await win.page.screenshot({ path: path.join(ARTIFACTS, 'mcp-trusted.png') });
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(
        tools,
        ALL_TOOLS.map((t) => t.name),
      );
      assert.equal(changed, 1);
      const status = await ok(client, 'server-status', {});
      assert.equal(status.trusted, true);
      assert.equal(status.effectiveMode, 'transactional');
      await ok(client, 'edit-text', {
        edits: [{ location: { selection: { document: { path: 'notes.txt' }, selectedText: 'Nothing to see here yet.' } }, newText: 'Trusted now.' }],
      });
      await ok(client, 'transaction-rollback', {});
    } finally {
      await close(client);
    }
  });
} catch (error) {
  failures++;
  console.log(`MCP browser test run FAILED: ${error.stack ?? error}`);
  await current?.screenshot({ path: path.join(ARTIFACTS, 'failure.png') }).catch(() => {});
} finally {
  for (const c of clients) await c.close().catch(() => {});
  await browser?.close().catch(() => {});
  for (const s of servers) await s.stop();
  for (const f of fixtures) f.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(`\n${passes} passing, ${failures} failing; screenshots in ${path.relative(REPO_ROOT, ARTIFACTS)}/`);
process.exit(failures > 0 ? 1 : 0);
