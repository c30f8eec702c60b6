// GitHub Copilot Chat's own agent mode running our tools in the real chat view, as a person meets it:
// the headless VS Code (code-server 4.139.1's VS Code 1.139, which bundles GitHub.copilot-chat) with no
// sign-in and no network, over a model supplied by a test extension (test/extensions/scripted-model,
// vendor `scripted`, "bring your own key"). The model answers each conversation from a script this file
// writes and records every request it gets, so each test checks both sides: what the person sees and
// clicks in the chat, and what the model is sent.
//
//   1. a question: the model calls find-references; the chat shows the invocation and the model's next
//      request carries our envelope, exactly;
//   2. a change, allowed: rename-symbol stages (the review panel opens), transaction-commit asks in
//      Copilot's confirmation with our title; nothing is written before the click, Allow Once writes
//      exactly the staged text and the model hears ok:true;
//   3. a change, declined: Skip writes nothing, the model is told it was skipped, the transaction stays
//      staged (the model then rolls it back);
//   4. a person types #find-references in the prompt: the model's request carries the tool;
//   5. the tool list the model receives holds our 44 tools under their registered names; the bytes of
//      the tool definitions in one agent request (ours and the others') go to request-bytes.json;
//   6. each tool profile (navigation, a custom list, back to full) set in the person's settings is exactly
//      what the model is offered; the bytes per profile, beside the built-in tools', go to profile-bytes.json;
//   7. the tool picker (Configure Tools…) lists ours under Agent Workbench by reference name, and filters
//      to one typed; no grouping by family: the languageModelToolSets contribution needs a proposed API
//      (contribLanguageModelToolSets), which a published extension cannot enable;
//   8. more than 128 tools enabled (test/extensions/many-tools: 100 more, hidden until its command sets a
//      context key, so tests 1-7 see the usual 84): Copilot offers some tools directly and the rest in
//      activate_* virtual tools; the model activates the groups holding ours, every one of our 44 is
//      then offered as declared, and it calls two of them. What the model got goes to many-tools.json.
//
// Virtual tools in Copilot Chat 0.67.0 (dist/extension.js, VirtualToolGrouper): once an agent request has
// 64 tools or more (half of a fixed 128; github.copilot.chat.virtualTools.threshold only sets the context
// key chat.toolGroupingThreshold), the built-in tools stay listed and the other tools, per extension or MCP
// server, share 88 - (built-in count) slots in proportion to their size. A toolset with fewer slots than
// tools is grouped by embeddings when an embedding model is available (a GitHub session: never here), else
// deterministically: its first slots-1 tools listed, the rest in activate_fallback_<first of them>_1
// ("Contains the tools: …", or groups of such groups past 41 tools). Calling an activate_* tool runs
// nothing: Copilot answers "Tools activated: …" and lists them in the next request (at most 128 tools).
//
// What it takes to run Copilot's agent here (each found on this machine):
//   - the scripted-model extension installed beside ours (scripts/test-extensions.mjs); its vendor is
//     declared in package.json's languageModelChatProviders and its model declares toolCalling (agent
//     mode lists only those);
//   - Copilot Chat enabled: on a fresh profile VS Code's chat extension enablement migration
//     (ensureChatExtensionInitialDisabledState) disables GitHub.copilot-chat because chat setup was never
//     completed, and the chat then answers any prompt with the "Sign in to use GitHub Copilot" dialog.
//     The person's way out, "Extensions: Enable All Extensions", is run from the command palette; Copilot
//     then logs "ConversationFeature: Activating contributions" and registers its agents, with no token;
//   - User/chatLanguageModels.json as the Manage Models view writes it (a "Scripted" provider group), and
//     chat.byokUtilityModelDefault: mainAgent (titles and progress messages go to the scripted model,
//     which answers them without consuming a turn); chat.tools.riskAssessment.enabled: false (its
//     "Assessing risk…" wants a Copilot model and never settles);
//   - no extension tests module in the window: a window with one answers confirmations by itself.
//
// One server, one window; a new chat (Ctrl+L) for each conversation. Screenshots, the record of the
// model's requests (model-requests.json) and request-bytes.json go to out/test-artifacts/copilot/.
// AW_GREP=<regex> runs the matching tests only; VSCODE_HOST_VERBOSE=1 prints the server's output and
// the extension host's console.
import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { freshFixture, HEADLESS_USER_SETTINGS, REPO_ROOT } from './fixtures.mjs';
import { buildTestExtension } from './test-extensions.mjs';
import { HOST_NOISE, logText, runPaletteCommand, sleep, waitFor } from './browser-support.mjs';
import { launchBrowser, startServer, workbenchUrl } from './vscode-host.mjs';

const require = createRequire(import.meta.url);
const { ALL_TOOLS } = require(path.join(REPO_ROOT, 'out', 'src', 'tools', 'index.js'));
const { registeredToolName } = require(path.join(REPO_ROOT, 'out', 'src', 'core', 'chain', 'definition.js'));
const { parseProfile, profileAllows } = require(path.join(REPO_ROOT, 'out', 'src', 'core', 'chain', 'profile.js'));
// A custom profile a person might pick for small edits: find, read, rename, review, commit.
const CUSTOM_PROFILE = [
  'search-symbols',
  'go-to-definition',
  'find-references',
  'get-document-outline',
  'rename-symbol',
  'transaction-preview',
  'transaction-commit',
  'transaction-rollback',
];
const { assertValidEnvelope } = require(path.join(REPO_ROOT, 'out', 'test', 'shared', 'envelopes.js'));
const DECLARED_TOOLS = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.languageModelTools;

const ARTIFACTS = path.join(REPO_ROOT, 'out', 'test-artifacts', 'copilot');
const VERBOSE = /^(1|true)$/i.test(process.env.VSCODE_HOST_VERBOSE ?? '');
const grep = process.env.AW_GREP ? new RegExp(process.env.AW_GREP) : undefined;
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

// A run's artifacts are its own: screenshots of an earlier run's failures would read as this run's.
fs.rmSync(ARTIFACTS, { recursive: true, force: true });
fs.mkdirSync(ARTIFACTS, { recursive: true });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-copilot-'));
const fixture = freshFixture('sample');
const file = (p) => path.join(fixture.folder, ...p.split('/'));
const read = (p) => fs.readFileSync(file(p));
const scriptFile = path.join(scratch, 'script.json');
const recordFile = path.join(scratch, 'model-requests.json');

let server;
let browser;
let page;
let failures = 0;
let passes = 0;

async function test(name, fn) {
  if (grep && !grep.test(name)) return;
  const t0 = Date.now();
  try {
    await fn();
    passes++;
    console.log(`  ✔ ${name} (${Date.now() - t0} ms)`);
  } catch (error) {
    failures++;
    console.log(`  ✘ ${name} (${Date.now() - t0} ms)\n    ${(error.stack ?? String(error)).split('\n').join('\n    ')}`);
    await page?.screenshot({ path: path.join(ARTIFACTS, `failure-${name.replace(/\W+/g, '-').slice(0, 80)}.png`) }).catch(() => {});
    const said = await lastResponse()
      .innerText({ timeout: 2000 })
      .catch(() => '');
    if (said) console.log(`    the chat's last response reads:\n      ${said.trim().split('\n').slice(-15).join('\n      ')}`);
    // Closes what a failure may leave open (a menu, the palette); the next test starts a new chat. A change
    // left staged is not cleaned up: the next change test then fails its "0 staged" precondition, saying so.
    await page?.keyboard.press('Escape').catch(() => {});
  }
}

const shot = (name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

/** The text of every log file named `name` under the server's logs folder ('' if none yet). */
const serverLog = (name) => logText(path.join(server.dataDir, 'server-data', 'data', 'logs'), name);

/** How many transaction-commit calls our extension ran (its log lines in Output › Agent Workbench). */
const commitsRun = () => (serverLog('Agent Workbench.log').match(/ transaction-commit \w+ \d+ms .* door=/g) ?? []).length;

/** Every request the scripted model got so far (the extension rewrites the file after each). */
function records() {
  try {
    return JSON.parse(fs.readFileSync(recordFile, 'utf8'));
  } catch {
    return [];
  }
}

/** The parts of a recorded request's messages of one type (toolResult, toolCall, text), in order. */
const partsOf = (request, type) => request.messages.flatMap((m) => m.content).filter((p) => p.type === type);
/** A recorded tool result's text (our tools answer one text part: the envelope). */
const resultText = (result) => result.content.map((p) => p.value ?? p.text ?? '').join('');

// --- driving the workbench ------------------------------------------------------------------------

const runCommand = (title, options) => runPaletteCommand(page, title, options);

/**
 * Replaces the person's settings as a person does: Preferences: Open User Settings (JSON), the new text, Ctrl+S.
 * (VS Code does not notice settings.json written behind its back in this build.)
 */
async function setUserSettings(settings) {
  await runCommand('Preferences: Open User Settings (JSON)');
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.waitFor({ state: 'visible', timeout: 30_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify(settings, null, 2));
  await page.keyboard.press('Control+S');
  await waitFor('the settings editor saved', async () => !(await page.locator('.tab.active.dirty').count()), 15_000);
  await page.keyboard.press('Control+W');
}

const chat = () => page.locator('.interactive-session').first();
const chatInput = () => chat().locator('.interactive-input-part .monaco-editor').first();
const lastResponse = () => chat().locator('.interactive-item-container.interactive-response').last();
const statusStaged = () => page.locator('.statusbar-item', { hasText: /\d+ staged/ }).first();

/** The chat view in agent mode with the Scripted Model selected. */
async function openChat() {
  if (!(await chat().isVisible())) await runCommand('Chat: Open Chat');
  await chat().waitFor({ state: 'visible', timeout: 30_000 });
  const modeLabel = chat().locator('.chat-mode-picker-item .chat-input-picker-label');
  await waitFor('the chat mode picker', async () => (await modeLabel.innerText()).trim() !== '', 30_000);
  if ((await modeLabel.innerText()).trim() !== 'Agent') {
    await chat().locator('.chat-mode-picker-item a.action-label').click();
    await page.locator('.action-widget .monaco-list-row.action', { has: page.locator('.title', { hasText: /^Agent$/ }) }).click();
  }
  await waitFor('agent mode in the chat', async () => (await modeLabel.innerText()).trim() === 'Agent', 30_000);

  const modelLabel = chat().locator('.model-picker-item .model-picker-name .chat-input-picker-label');
  await waitFor('a model in the model picker', async () => (await modelLabel.innerText()).trim() !== '', 30_000);
  if ((await modelLabel.innerText()).trim() !== 'Scripted Model') {
    await chat().locator('.model-picker-item .model-picker-name').click();
    await page.locator('.action-widget .monaco-list-row.action', { has: page.locator('.title', { hasText: 'Scripted Model' }) }).click();
  }
  await waitFor('the Scripted Model selected in the model picker', async () => (await modelLabel.innerText()).trim() === 'Scripted Model', 30_000);
}

/**
 * Starts a new chat (Ctrl+L), writes the model's script for it and types `prompt` (Enter sends it).
 * Resolves with a function giving this conversation's agent requests so far.
 */
async function converse(id, prompt, turns, { beforeSend } = {}) {
  // The model answers from this script only the requests whose user messages hold the prompt (up to a # reference, which Copilot rewrites).
  fs.writeFileSync(scriptFile, JSON.stringify({ id, prompt: prompt.split('#')[0].trim(), turns }, null, 2));
  await chatInput().click();
  await page.keyboard.press('Control+L');
  await waitFor('an empty new chat after Ctrl+L', async () => (await chat().locator('.interactive-item-container').count()) === 0, 15_000);
  await say(prompt, { beforeSend });
  return () => records().filter((r) => r.kind === 'agent' && r.script === id);
}

/** Types `prompt` in the chat input and sends it (Enter). */
async function say(prompt, { beforeSend } = {}) {
  const sent = await chat().locator('.interactive-item-container.interactive-request').count();
  await chatInput().click();
  await page.keyboard.type(prompt);
  // The input wraps its text (a line break may fall inside a word): compared without whitespace.
  const typed = prompt.replace(/\s+/g, '');
  await waitFor('the prompt in the chat input', async () => (await chatInput().innerText()).replace(/\s+/g, '').includes(typed), 10_000);
  if (beforeSend) await beforeSend();
  await page.keyboard.press('Enter');
  await waitFor('the request in the chat', async () => (await chat().locator('.interactive-item-container.interactive-request').count()) > sent, 15_000);
}

async function waitForAnswer(text, timeoutMs = 90_000) {
  await waitFor(
    `the model's answer "${text}" in the chat`,
    async () => (await lastResponse().locator('.chat-markdown-part').allInnerTexts()).some((t) => t.includes(text)),
    timeoutMs,
  ).catch(async (e) => {
    const sessions = await page.locator('.interactive-session').count();
    const items = await chat().locator('.interactive-item-container').count();
    const shown = (await chat().innerText()).slice(0, 600).replace(/\s+/g, ' ');
    throw new Error(`${e.message} (${sessions} chat widgets; the first shows ${items} items: ${shown})`);
  });
}

/** Waits until this conversation's model has been asked `n` times; resolves with the requests. */
async function requestsOf(requests, n, what, timeoutMs = 60_000) {
  return waitFor(`${what} (request ${n} of the conversation to reach the model)`, () => (requests().length >= n ? requests() : undefined), timeoutMs);
}

/** Opens "Completed N steps" and the tool invocation whose title matches; resolves with its text. */
async function expandToolInvocation(title) {
  const response = lastResponse();
  const steps = response.locator('summary.completed-response-summary');
  if ((await steps.count()) > 0 && (await steps.getAttribute('aria-expanded')) !== 'true') await steps.click();
  const part = response.locator('.chat-tool-invocation-part', { hasText: title }).first();
  await part.waitFor({ state: 'visible', timeout: 10_000 });
  const header = part.locator('.chat-confirmation-widget-title').first();
  // The part may re-render collapsed after the click (when the response around it finishes): expanded again until it shows.
  let clickedAt = 0;
  await waitFor(
    `the input and output of ${title}`,
    async () => {
      if (/Output/.test(await part.innerText())) return true;
      if (Date.now() - clickedAt > 2_000 && (await header.count()) > 0 && (await header.getAttribute('aria-expanded')) === 'false') {
        clickedAt = Date.now();
        await header.click();
      }
      return false;
    },
    20_000,
  );
  return part.innerText();
}

/** The review panel's webview frame (its inner iframe holds main#app). */
const reviewPanel = () =>
  waitFor(
    'the review panel webview',
    async () => {
      for (const f of page.frames()) if (!f.isDetached() && (await f.$('main#app').catch(() => null))) return f;
      return undefined;
    },
    30_000,
  );
const panelFiles = async (frame) => (await frame.$$eval('li.file', (els) => els.map((li) => li.dataset.path))).sort();

async function expectStaged(pattern, what) {
  await waitFor(`the status bar to show ${what}`, async () => pattern.test(await statusStaged().innerText()), 30_000);
}

/** Copilot's confirmation card for a tool call, waited for by its title. */
async function confirmation(title) {
  const card = chat().locator('.chat-confirmation-widget2', { hasText: title }).last();
  await card.waitFor({ state: 'visible', timeout: 90_000 });
  return card;
}

/**
 * Picks an entry of a confirmation's Allow dropdown. A click that lands while the menu is still
 * opening is dropped by the menu (seen on a loaded machine): the menu then stays open, so the pick
 * is repeated until the menu closes.
 */
async function chooseFromAllowMenu(card, label) {
  const item = page.locator('.context-view .action-label', { hasText: label });
  for (let attempt = 1; ; attempt++) {
    if (!(await item.isVisible())) await card.locator('.chat-confirmation-widget-buttons .monaco-dropdown-button').click();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    await item.click();
    const closed = await item
      .waitFor({ state: 'hidden', timeout: 3_000 })
      .then(() => true)
      .catch(() => false);
    if (closed) return;
    if (attempt === 3) throw new Error(`the Allow menu stayed open after picking "${label}" three times`);
  }
}

// --- the run --------------------------------------------------------------------------------------

const onFormatName = { location: { selection: { document: { path: file('src/util.ts') }, selectedText: 'formatName', contextBefore: 'export function ' } } };
const onGreetAll = { location: { selection: { document: { path: file('src/greeter.ts') }, selectedText: 'greetAll', contextBefore: 'export function ' } } };

try {
  const scriptedModel = await buildTestExtension('scripted-model', scratch);
  const manyTools = await buildTestExtension('many-tools', scratch);
  server = await startServer({
    extensions: [scriptedModel, manyTools],
    env: { SCRIPTED_MODEL_SCRIPT: scriptFile, SCRIPTED_MODEL_RECORD: recordFile },
    userSettings: {
      ...HEADLESS_USER_SETTINGS,
      'workbench.colorTheme': 'Default Light Modern',
      'workbench.startupEditor': 'none',
      'window.commandCenter': false,
      'agentWorkbench.operationalMode': 'transactional',
      'chat.byokUtilityModelDefault': 'mainAgent',
      'chat.tools.riskAssessment.enabled': false,
      // The chat view as one conversation: with its sessions list on, the view was seen (once in three CI runs) to drop the
      // conversation for the empty list while the model answered.
      'chat.viewSessions.enabled': false,
    },
    log: VERBOSE ? (line) => process.stderr.write(`[server] ${line}\n`) : undefined,
  });
  // What the Manage Models view writes when a person adds a provider group (the chat then shows its sessions list, not the welcome).
  fs.writeFileSync(
    path.join(server.dataDir, 'server-data', 'data', 'User', 'chatLanguageModels.json'),
    JSON.stringify([{ name: 'Scripted', vendor: 'scripted' }], null, 2),
  );

  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? args.join(' ') : String(args);
    if (VERBOSE || (type === 'error' && !HOST_NOISE.test(text))) process.stdout.write(`[host ${type}] ${text}\n`);
  });
  await page.exposeFunction('codeAutomationExit', () => {});
  // No extensionTestsPath: a window with a tests module answers confirmations by itself.
  await page.goto(workbenchUrl(server.baseUrl, fixture.folder, { extensionDevelopmentPath: REPO_ROOT, skipWelcome: 'true' }), { timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  await waitFor(
    'our extension and the scripted model to activate (remoteexthost.log)',
    () => {
      const log = serverLog('remoteexthost.log');
      return log.includes('_doActivateExtension agent-workbench.agent-workbench') && log.includes('_doActivateExtension agent-workbench-tests.scripted-model');
    },
    120_000,
  );

  // Copilot Chat, disabled on a fresh profile (not always by the time the window is up): a person enables
  // it. The palette offers "Extensions: Enable All Extensions" only while an extension is disabled.
  const copilotActive = () => serverLog('remoteexthost.log').includes('_doActivateExtension GitHub.copilot-chat');
  const enableBy = Date.now() + 120_000;
  let enabledAt;
  while (!copilotActive()) {
    if (Date.now() > enableBy) {
      throw new Error(
        `GitHub Copilot Chat did not activate within 2 minutes (${enabledAt ? `"Extensions: Enable All Extensions" was run at ${enabledAt}` : 'the palette never offered "Extensions: Enable All Extensions"'})`,
      );
    }
    if (await runCommand('Extensions: Enable All Extensions', { ifOffered: true })) enabledAt = elapsed();
    await waitFor('GitHub Copilot Chat to activate', copilotActive, 10_000).catch(() => {});
  }
  await waitFor(
    'Copilot Chat to register its agents ("ConversationFeature: Activating contributions" in GitHub Copilot Chat.log)',
    () => serverLog('GitHub Copilot Chat.log').includes('ConversationFeature: Activating contributions'),
    60_000,
  );
  await openChat();
  await expectStaged(/^\s*0 staged\s*$/, '0 staged');
  await shot('01-chat-ready');
  // One conversation before the tests, with no tool: in about one run of six, the chat's first conversation after Copilot
  // Chat activates is dropped from the view while the model answers (the view shows an empty chat; the model was asked).
  // What the tests check starts with the second conversation; the first one's outcome is only reported.
  const settled = await converse('warm-up', 'Say hello.', [{ text: 'Hello.' }])
    .then(() => waitForAnswer('Hello.', 30_000))
    .then(() => 'answered')
    .catch((e) => `not shown (${e.message.slice(0, 300)})`);
  console.log(`  (a first conversation, before the tests: ${settled})`);
  console.log(
    `\nCopilot's agent mode over the scripted model in the real chat view (ready at ${elapsed()}; Copilot Chat ${enabledAt ? `enabled by "Extensions: Enable All Extensions" at ${enabledAt}` : 'was not disabled'})`,
  );

  await test('a question: the model calls find-references, the chat shows the invocation, and the model is sent our envelope exactly', async () => {
    const answer = 'formatName is used once, in Greeter.greet.';
    const requests = await converse('find', 'Where is formatName used?', [
      { toolCalls: [{ name: 'find-references', input: { symbol: onFormatName } }] },
      { text: answer },
    ]);
    await waitForAnswer(answer);
    const invocation = await expandToolInvocation('Find References');
    await shot('02-find-references');
    // Our invocation message (prepareInvocation's "Find References…"); VS Code writes the space as a no-break space.
    assert.match(invocation, /Find\sReferences…/, `the chat shows our invocation message: ${invocation.slice(0, 300)}`);
    // The input and output are editors that wrap their text: compared without whitespace.
    const shown = invocation.replace(/\s+/g, '');
    assert.ok(
      shown.includes('Input{"symbol":{"location":{"selection":{"document":{"path":'),
      `the chat shows the input the model sent: ${shown.slice(0, 400)}`,
    );
    assert.ok(shown.includes('Output{"ok":true,"data":{"symbol":{"symbolId":'), `the chat shows our envelope as the output: ${shown.slice(0, 400)}`);

    const [first, second] = requests();
    assert.equal(requests().length, 2, `the model was asked twice (the call, then the answer), not ${requests().length} times`);
    assert.deepEqual(first.answer.toolCalls?.[0]?.name, 'workbench_find_references');
    const results = partsOf(second, 'toolResult');
    assert.equal(results.length, 1, 'one tool result in the second request');
    assert.equal(results[0].callId, partsOf(second, 'toolCall')[0]?.callId, 'the result answers the call');
    assert.equal(results[0].content.length, 1, `our result is one part: ${JSON.stringify(results[0].content).slice(0, 300)}`);
    const text = resultText(results[0]);
    const envelope = JSON.parse(text);
    assert.equal(text, JSON.stringify(envelope), 'the text is our envelope as we serialized it, unwrapped and unchanged');
    assertValidEnvelope('find-references', envelope);
    assert.equal(envelope.ok, true, text);
    assert.deepEqual(
      {
        ...envelope.data,
        symbol: { ...envelope.data.symbol, symbolId: envelope.data.symbol.symbolId.replace(/^[0-9a-f]+:/, '<folder>:') },
        folderId: '<folder>',
      },
      {
        symbol: { symbolId: '<folder>:src/util.ts#Function:formatName', line: 1, column: 17 },
        folderId: '<folder>',
        documents: {
          items: [
            {
              path: 'src/greeter.ts',
              lines: [
                [1, [9], ''],
                [15, [291], "return { text: `${this.prefix}, ${formatName(name)}!`, language: 'en' };", 'Greeter.greet'],
              ],
            },
            { path: 'src/util.ts', lines: [[1, [], 'export function formatName(name: string): string {', null, { decl: [16] }]] },
          ],
          hasMore: false,
          totalCount: 2,
        },
        totalReferences: 3,
        complete: true,
      },
    );
    assert.equal(envelope.data.folderId, envelope.data.symbol.symbolId.split(':')[0]);
  });

  await test("a change, allowed: rename-symbol stages (the review panel opens), Copilot's confirmation shows our title, Allow Once writes exactly the staged text", async () => {
    await expectStaged(/^\s*0 staged\s*$/, 'nothing staged before the conversation');
    const before = { util: read('src/util.ts').toString('utf8'), greeter: read('src/greeter.ts').toString('utf8') };
    assert.match(before.util, /export function formatName\(/);
    const answer = 'Renamed formatName to formatPersonName and committed.';
    const requests = await converse('rename-allowed', 'Rename formatName to formatPersonName and commit.', [
      { toolCalls: [{ name: 'rename-symbol', input: { symbol: onFormatName, newName: 'formatPersonName' } }] },
      { toolCalls: [{ name: 'transaction-commit', input: {} }] },
      { text: answer },
    ]);
    const card = await confirmation('Commit 2 files to disk?');
    const staged = partsOf((await requestsOf(requests, 2, "the rename's result"))[1], 'toolResult');
    assert.equal(JSON.parse(resultText(staged[0])).ok, true, `rename-symbol staged: ${resultText(staged[0]).slice(0, 400)}`);
    // Staged, not written: the commit waits for the person.
    assert.equal(read('src/util.ts').toString('utf8'), before.util, 'util.ts is unchanged before the click');
    assert.equal(read('src/greeter.ts').toString('utf8'), before.greeter, 'greeter.ts is unchanged before the click');
    const panel = await reviewPanel();
    await waitFor('the review panel to list the two staged files', async () => (await panelFiles(panel)).length === 2);
    assert.deepEqual(await panelFiles(panel), ['src/greeter.ts', 'src/util.ts']);
    await expectStaged(/2 staged/, '2 staged');
    const cardText = await card.innerText();
    assert.match(cardText, /src\/util\.ts/, `the confirmation names the files: ${cardText}`);
    assert.match(cardText, /src\/greeter\.ts/, `the confirmation names the files: ${cardText}`);
    const buttons = (await card.locator('.chat-confirmation-widget-buttons .monaco-button').allInnerTexts()).map((b) => b.trim()).filter(Boolean);
    assert.deepEqual(buttons, ['Allow in this Session', 'Skip'], 'the confirmation offers Allow (in this session) and Skip');
    await shot('03-commit-confirmation');
    assert.equal(requests().length, 2, 'the model is not asked again while the confirmation waits');
    const commitsBefore = commitsRun();

    // Allow Once, from the Allow button's dropdown (the session-wide approval is not what this test gives).
    await chooseFromAllowMenu(card, 'Allow Once');
    await waitForAnswer(answer);
    assert.equal(read('src/util.ts').toString('utf8'), before.util.replace(/\bformatName\b/g, 'formatPersonName'), 'util.ts holds the staged text');
    assert.equal(read('src/greeter.ts').toString('utf8'), before.greeter.replace(/\bformatName\b/g, 'formatPersonName'), 'greeter.ts holds the staged text');
    await expectStaged(/^\s*0 staged\s*$/, '0 staged after the commit');
    await waitFor('the commit in Output › Agent Workbench', () => commitsRun() === commitsBefore + 1, 10_000);
    await expandToolInvocation('Transaction Commit');
    await shot('04-committed');

    const all = requests();
    assert.equal(all.length, 3, `the model was asked three times, not ${all.length}`);
    const results = partsOf(all[2], 'toolResult');
    assert.equal(results.length, 2, 'the third request carries both results');
    const committed = JSON.parse(resultText(results[1]));
    assertValidEnvelope('transaction-commit', committed);
    assert.equal(committed.ok, true, resultText(results[1]));
    assert.deepEqual(committed.data.files.items.map((f) => f.path).sort(), ['src/greeter.ts', 'src/util.ts']);
  });

  await test('a change, declined: Skip writes nothing, the model is told the call was skipped, and the transaction stays staged until the model rolls it back', async () => {
    await expectStaged(/^\s*0 staged\s*$/, 'nothing staged before the conversation');
    const before = { greeter: read('src/greeter.ts'), services: read('src/services.ts') };
    const unchanged = (when) => {
      assert.ok(read('src/greeter.ts').equals(before.greeter), `greeter.ts is unchanged ${when}`);
      assert.ok(read('src/services.ts').equals(before.services), `services.ts is unchanged ${when}`);
    };
    const answers = ['You skipped the commit: the rename stays staged for review.', 'Rolled the rename back.'];
    const requests = await converse('rename-declined', 'Rename greetAll to greetEveryone and commit.', [
      { toolCalls: [{ name: 'rename-symbol', input: { symbol: onGreetAll, newName: 'greetEveryone' } }] },
      { toolCalls: [{ name: 'transaction-commit', input: {} }] },
      { text: answers[0] },
      // The person's next message: "Roll it back."
      { toolCalls: [{ name: 'transaction-rollback', input: {} }] },
      { text: answers[1] },
    ]);
    const card = await confirmation('Commit 2 files to disk?');
    await requestsOf(requests, 2, "the rename's result");
    await expectStaged(/2 staged/, '2 staged');
    const panel = await reviewPanel();
    await waitFor('the review panel to list the two staged files', async () => (await panelFiles(panel)).join() === 'src/greeter.ts,src/services.ts');
    unchanged('before the click');
    await shot('05-decline-confirmation');
    const commitsBefore = commitsRun();
    await card.locator('.chat-confirmation-widget-buttons .monaco-button', { hasText: /^\s*Skip\s*$/ }).click();

    const [, , afterSkip] = await requestsOf(requests, 3, 'the model to be told of the skip');
    unchanged('after Skip');
    const results = partsOf(afterSkip, 'toolResult');
    const calls = partsOf(afterSkip, 'toolCall');
    assert.equal(calls[1]?.name, 'workbench_transaction_commit');
    const skipped = results.find((r) => r.callId === calls[1].callId);
    assert.ok(skipped, 'the commit call has a result in the next request');
    // VS Code answers for the tool, which never runs: one text part, no envelope.
    assert.deepEqual(
      skipped.content,
      [{ type: 'text', value: 'The user chose to skip the tool call, they want to proceed without running it' }],
      `what the model is told after Skip: ${JSON.stringify(skipped.content)}`,
    );
    assert.equal(commitsRun(), commitsBefore, 'transaction-commit never ran (no new line in Output › Agent Workbench)');

    // Still staged: the status bar and the review panel hold the rename; the person then asks for a rollback.
    await waitForAnswer(answers[0]);
    await expectStaged(/2 staged/, '2 staged after Skip');
    assert.equal((await panelFiles(await reviewPanel())).join(), 'src/greeter.ts,src/services.ts', 'the review panel still lists the staged rename');
    unchanged('after the answer');
    await shot('06-declined');
    await say('Roll it back.');
    await waitForAnswer(answers[1]);
    const all = requests();
    assert.equal(all.length, 5, `the model was asked five times, not ${all.length}`);
    const rollbackCall = partsOf(all[4], 'toolCall').at(-1);
    assert.equal(rollbackCall?.name, 'workbench_transaction_rollback');
    const rolledBack = JSON.parse(resultText(partsOf(all[4], 'toolResult').find((r) => r.callId === rollbackCall.callId)));
    assertValidEnvelope('transaction-rollback', rolledBack);
    assert.equal(rolledBack.ok, true, JSON.stringify(rolledBack));
    await expectStaged(/^\s*0 staged\s*$/, '0 staged after the rollback');
    unchanged('after the rollback');
  });

  await test('a person types #find-references in the prompt: the model is sent that tool and the reference', async () => {
    const answer = 'Noted: you asked for find-references.';
    const requests = await converse('tool-reference', 'Who calls Greeter.greet? #find-references ', [{ text: answer }], {
      beforeSend: async () => {
        await page.keyboard.press('Escape'); // the suggestions the # opened
        await shot('07-tool-reference-typed');
        const chips = await chat().locator('.interactive-input-part .chat-attached-context-attachment').allInnerTexts();
        assert.deepEqual(
          chips.map((c) => c.trim()),
          ['find-references'],
          'the input shows the tool attached as a chip',
        );
      },
    });
    await waitForAnswer(answer);
    const [request] = requests();
    assert.ok(
      request.tools.some((t) => t.name === 'workbench_find_references'),
      'the request offers workbench_find_references',
    );
    const prompt = partsOf(request, 'text').at(-1)?.value ?? '';
    // Copilot lists the attached tools in a <toolReferences> block and writes the reference as the tool's name in the request.
    const references = /<toolReferences>\n([^]*?)<\/toolReferences>/.exec(prompt)?.[1];
    assert.ok(references, `the prompt has a <toolReferences> block: ${prompt.slice(-800)}`);
    assert.match(references, /^The user attached the following tools to this message\./);
    assert.deepEqual(
      references.split('\n').filter((l) => l.startsWith('- ')),
      ['- workbench_find_references'],
      'it lists our tool, and only it',
    );
    assert.match(prompt, /<userRequest>\nWho calls Greeter\.greet\? 'workbench_find_references'\s*\n<\/userRequest>/, prompt.slice(-300));
    // A prompt without a reference has no such block.
    const plain = records().find((r) => r.kind === 'agent' && r.script !== 'tool-reference');
    if (plain) assert.doesNotMatch(partsOf(plain, 'text').at(-1)?.value ?? '', /<toolReferences>/, 'only the prompt with a reference lists tools');
  });

  await test('the model receives our 44 tools under their registered names, as declared; the bytes of the tool definitions are recorded', async () => {
    let request = records().find((r) => r.kind === 'agent');
    if (!request) {
      const requests = await converse('tool-list', 'Which tools do you have?', [{ text: 'Many.' }]);
      await waitForAnswer('Many.');
      request = requests()[0];
    }
    const offered = new Map(request.tools.map((t) => [t.name, t]));
    const ours = ALL_TOOLS.map((t) => registeredToolName(t.name));
    assert.equal(ours.length, 44);
    assert.deepEqual(
      ours.filter((n) => !offered.has(n)),
      [],
      'every one of our tools is offered',
    );
    for (const declared of DECLARED_TOOLS) {
      const t = offered.get(declared.name);
      assert.equal(t.description, declared.modelDescription, `${declared.name}: the model reads our modelDescription`);
      assert.deepEqual(t.inputSchema, declared.inputSchema, `${declared.name}: the model gets our input schema`);
    }
    const bytes = (t) => Buffer.byteLength(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }), 'utf8');
    const mine = request.tools.filter((t) => ours.includes(t.name));
    const others = request.tools.filter((t) => !ours.includes(t.name));
    const sum = (ts) => ts.reduce((n, t) => n + bytes(t), 0);
    const utf8 = (v) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v ?? null), 'utf8');
    const split = (ts) => ({
      descriptionBytes: ts.reduce((n, t) => n + utf8(t.description), 0),
      inputSchemaBytes: ts.reduce((n, t) => n + utf8(t.inputSchema), 0),
    });
    const byteCounts = {
      measured: 'Buffer.byteLength(JSON.stringify({ name, description, inputSchema })) of each tool in one agent request (the first of the run)',
      request: request.index,
      ours: { tools: mine.length, bytes: sum(mine), ...split(mine) },
      others: { tools: others.length, bytes: sum(others), ...split(others), names: others.map((t) => t.name) },
      total: { tools: request.tools.length, bytes: sum(request.tools) },
      perTool: Object.fromEntries(request.tools.map((t) => [t.name, bytes(t)]).sort((a, b) => b[1] - a[1])),
    };
    fs.writeFileSync(path.join(ARTIFACTS, 'request-bytes.json'), JSON.stringify(byteCounts, null, 2));
    console.log(
      `    (tool definitions in one agent request: ours ${mine.length} tools, ${sum(mine)} B; the others ${others.length} tools, ${sum(others)} B; total ${sum(request.tools)} B)`,
    );
    assert.equal(mine.length, 44);
  });

  await test("each tool profile the person sets is exactly what the model is offered; the bytes per profile are recorded beside the built-in tools'", async () => {
    const settingsFile = path.join(server.dataDir, 'server-data', 'data', 'User', 'settings.json');
    const original = fs.readFileSync(settingsFile, 'utf8');
    const ours = ALL_TOOLS.map((t) => registeredToolName(t.name));
    const bytes = (t) => Buffer.byteLength(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }), 'utf8');
    const sum = (ts) => ts.reduce((n, t) => n + bytes(t), 0);
    const profiles = [
      { name: 'navigation', settings: { 'agentWorkbench.toolProfile': 'navigation' } },
      { name: 'custom', settings: { 'agentWorkbench.toolProfile': 'custom', 'agentWorkbench.toolProfileTools': CUSTOM_PROFILE } },
      // Back to the default last: the person's change back is seen as well.
      { name: 'full', settings: {} },
    ];
    const measured = {};
    try {
      for (const profile of profiles) {
        await setUserSettings({ ...JSON.parse(original), ...profile.settings });
        const expected = ALL_TOOLS.filter((t) => profileAllows(parseProfile(profile.settings['agentWorkbench.toolProfile'] ?? 'full', CUSTOM_PROFILE), t)).map(
          (t) => registeredToolName(t.name),
        );
        // VS Code reads the changed file and our extension sets the context keys (and logs the profile); the tools service applies them 750 ms later.
        const seen = `Tool profile ${profile.name}: ${expected.length} of ${ours.length} tools offered.`;
        await waitFor(`"${seen}" in Agent Workbench.log`, () => serverLog('Agent Workbench.log').includes(seen), 30_000);
        await sleep(1500);
        const answer = `Profile ${profile.name}.`;
        const requests = await converse(`profile-${profile.name}`, `Which tools do you have now (${profile.name})?`, [{ text: answer }]);
        await waitForAnswer(answer);
        const offered = requests()[0].tools;
        const mine = offered.filter((t) => ours.includes(t.name));
        const others = offered.filter((t) => !ours.includes(t.name));
        assert.deepEqual(mine.map((t) => t.name).sort(), [...expected].sort(), `the ${profile.name} profile offers exactly its tools`);
        measured[profile.name] = { tools: mine.length, bytes: sum(mine), others: { tools: others.length, bytes: sum(others) } };
      }
    } finally {
      if (!fs.readFileSync(settingsFile, 'utf8').includes(original)) await setUserSettings(JSON.parse(original)).catch(() => {});
    }
    assert.ok(measured.navigation.tools < measured.full.tools && measured.custom.tools === CUSTOM_PROFILE.length, JSON.stringify(measured));
    fs.writeFileSync(
      path.join(ARTIFACTS, 'profile-bytes.json'),
      JSON.stringify(
        {
          measured: 'Buffer.byteLength(JSON.stringify({ name, description, inputSchema })) per tool in one agent request, summed',
          customTools: CUSTOM_PROFILE,
          profiles: measured,
        },
        null,
        2,
      ),
    );
    for (const [name, m] of Object.entries(measured)) {
      console.log(`    (${name} profile: ours ${m.tools} tools, ${m.bytes} B; the others in the same request ${m.others.tools} tools, ${m.others.bytes} B)`);
    }
  });

  await test('the tool picker (Configure Tools…) lists our tools under Agent Workbench, each by its reference name and description, and finds one by name', async () => {
    await chatInput().click();
    await chat().locator('.interactive-input-part a.action-label[aria-label^="Configure Tools"]').first().click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    const ourGroup = rows.filter({ hasText: /^\s*Agent Workbench\s*$/ });
    await ourGroup.waitFor({ timeout: 15_000 });
    assert.equal(await ourGroup.getAttribute('aria-checked'), 'true', 'our tools are enabled');
    await ourGroup.locator('.monaco-tl-twistie').click();
    // The picker names a tool by its reference name (what # takes), alphabetically, with its userDescription beside it (innerText joins the two).
    const rowOf = (r) => DECLARED_TOOLS.find((t) => r.startsWith(`${t.toolReferenceName}${t.userDescription.replace(/\s+/g, ' ').slice(0, 20)}`));
    const listedRows = async () => (await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    await waitFor('our tools listed under Agent Workbench', async () => (await listedRows()).some(rowOf), 10_000).catch(async (error) => {
      throw new Error(`${error.message}; the picker lists ${JSON.stringify(await listedRows())}`);
    });
    await shot('10-tool-picker');
    const ourRows = (await listedRows()).filter(rowOf);
    assert.ok(ourRows.length >= 5, `our tools are listed under Agent Workbench: ${JSON.stringify(await listedRows())}`);
    const names = ourRows.map((r) => rowOf(r).toolReferenceName);
    assert.deepEqual(names, [...names].sort(), 'in alphabetical order');
    const wanted = DECLARED_TOOLS.find((t) => t.name === 'workbench_find_references');
    await input.fill(wanted.toolReferenceName);
    await waitFor(`the picker filtered to ${wanted.toolReferenceName}`, async () => (await listedRows()).some((r) => rowOf(r) === wanted), 10_000);
    await shot('11-tool-picker-filtered');
    await page.keyboard.press('Escape');
    await input.waitFor({ state: 'hidden' });
  });

  await test('with more than 128 tools enabled (100 more from a second extension), Copilot groups tools into activate_* virtual tools; each of our 44 stays reachable: the model activates the groups holding ours, then calls two of them', async () => {
    const ours = ALL_TOOLS.map((t) => registeredToolName(t.name));
    const isMany = (name) => /^many_tool_\d{3}$/.test(name);
    const isGroup = (name) => name.startsWith('activate_');
    // The tools the model is offered before the 100 more, from an earlier conversation (none when AW_GREP runs this test alone).
    const before = records().find((r) => r.kind === 'agent' && r.script !== 'many-tools');
    await runCommand('Many Tools (tests): Enable the 100 Tools');
    await waitFor('the many-tools extension to activate (remoteexthost.log)', () =>
      serverLog('remoteexthost.log').includes('_doActivateExtension agent-workbench-tests.many-tools'),
    );
    await sleep(1500); // the tools service announces a context key's effect on tools 750 ms after the change

    // The person's messages: a look at the tools, one message per round of group activations, then the question.
    const prompt = 'With this many tools, where is greetAll used?';
    const turns = [{ text: 'I see the tools and their groups.' }];
    const requests = await converse('many-tools', prompt, turns);
    await waitForAnswer(turns[0].text);
    const [first] = requests();
    const listedIn = (request) => new Set(request.tools.map((t) => t.name));
    const firstGroups = first.tools.filter((t) => isGroup(t.name));
    const enabled =
      (before?.tools.length ?? first.tools.filter((t) => !isGroup(t.name) && !isMany(t.name) && !ours.includes(t.name)).length + ours.length) + 100;
    assert.ok(enabled > 128, `more than 128 tools are enabled (${enabled})`);
    assert.ok(firstGroups.length > 0, `Copilot offers virtual tools (activate_*) with ${enabled} tools enabled: ${first.tools.map((t) => t.name).join(' ')}`);
    assert.ok(first.tools.length <= 128, `the model is offered at most 128 tools, not ${first.tools.length}`);
    assert.ok(
      first.tools.some((t) => isMany(t.name)),
      'the 100 more tools reach the model (some listed directly)',
    );
    for (const g of firstGroups) {
      assert.equal(g.inputSchema, undefined, `${g.name}: a virtual tool has no input schema`);
      assert.match(g.description, /^Call this tool when you need access to a new category of tools\./, `${g.name}: ${g.description}`);
    }

    // A group holds ours when its description names one of ours (a leaf: "Contains the tools: …") or its name is a
    // fallback group of our toolset (activate_fallback_<first tool>_<n>: a group of groups names none).
    const holdsOurs = (g) => ours.some((n) => g.description.includes(n)) || ours.some((n) => g.name.startsWith(`activate_fallback_${n}_`));
    const activations = [];
    let latest = first;
    for (let round = 1; ours.some((n) => !listedIn(latest).has(n)); round++) {
      assert.ok(round <= 4, `every one of ours is listed after 3 rounds of activations; missing: ${ours.filter((n) => !listedIn(latest).has(n)).join(' ')}`);
      const toActivate = latest.tools.filter((t) => isGroup(t.name) && holdsOurs(t) && !activations.some((a) => a.name === t.name));
      assert.ok(
        toActivate.length > 0,
        `a group holds the missing ${ours.filter((n) => !listedIn(latest).has(n)).join(' ')}; offered groups: ${JSON.stringify(latest.tools.filter((t) => isGroup(t.name)))}`,
      );
      const answer = `Activated round ${round}.`;
      turns.push({ toolCalls: toActivate.map((g) => ({ name: g.name, input: {} })) }, { text: answer });
      // The model reads its script on every request and plays on from the turns it played (same id).
      fs.writeFileSync(scriptFile, JSON.stringify({ id: 'many-tools', prompt, turns }, null, 2));
      const n = requests().length;
      await say(`Open the tool groups ${toActivate.map((g) => g.name).join(', ')}.`);
      await waitForAnswer(answer);
      const after = (await requestsOf(requests, n + 2, `the request after activating ${toActivate.map((g) => g.name).join(', ')}`))[n + 1];
      const calls = partsOf(after, 'toolCall').slice(-toActivate.length);
      for (const g of toActivate) {
        const call = calls.find((c) => c.name === g.name);
        assert.ok(call, `the request after the activation carries the call of ${g.name}`);
        const result = resultText(partsOf(after, 'toolResult').find((r) => r.callId === call.callId) ?? { content: [] });
        const revealed = /^Tools activated: (.*)$/.exec(result)?.[1]?.split(', ') ?? [];
        assert.ok(revealed.length > 0, `Copilot answers the activation of ${g.name} itself: ${result}`);
        for (const name of revealed) assert.ok(listedIn(after).has(name), `${name}, revealed by ${g.name}, is offered next`);
        activations.push({ round, name: g.name, description: g.description, revealed, oursRevealed: revealed.filter((r) => ours.includes(r)) });
      }
      latest = after;
    }
    const grouped = ours.filter((n) => !listedIn(first).has(n));
    assert.deepEqual(
      ours.filter((n) => !listedIn(latest).has(n)),
      [],
      'after the activations every one of ours is offered',
    );
    for (const name of grouped) {
      const t = latest.tools.find((x) => x.name === name);
      const declared = DECLARED_TOOLS.find((d) => d.name === name);
      assert.equal(t.description, declared.modelDescription, `${name}, once activated, is offered with our modelDescription`);
      assert.deepEqual(t.inputSchema, declared.inputSchema, `${name}, once activated, is offered with our input schema`);
    }
    assert.ok(latest.tools.length <= 128, `at most 128 tools after the activations, not ${latest.tools.length}`);

    // The question: find-references (listed directly or not) and get-document-outline, then the answer.
    const answer = 'greetAll is used in main.ts.';
    turns.push(
      {
        toolCalls: [
          { name: 'find-references', input: { symbol: onGreetAll } },
          { name: 'get-document-outline', input: { document: { path: file('src/greeter.ts') } } },
        ],
      },
      { text: answer },
    );
    fs.writeFileSync(scriptFile, JSON.stringify({ id: 'many-tools', prompt, turns }, null, 2));
    const n = requests().length;
    await say('Now find where greetAll is used.');
    await waitForAnswer(answer);
    const [asked, answered] = (await requestsOf(requests, n + 2, 'the results of find-references and get-document-outline')).slice(n);
    assert.deepEqual(
      asked.answer.toolCalls?.map((c) => c.name),
      ['workbench_find_references', 'workbench_get_document_outline'],
      'the model called our tools by their registered names',
    );
    const calls = partsOf(answered, 'toolCall').slice(-2);
    const called = {};
    for (const [i, tool] of ['find-references', 'get-document-outline'].entries()) {
      const text = resultText(partsOf(answered, 'toolResult').find((r) => r.callId === calls[i].callId));
      const envelope = JSON.parse(text);
      assertValidEnvelope(tool, envelope);
      assert.equal(envelope.ok, true, text.slice(0, 400));
      called[calls[i].name] = { viaGroup: grouped.includes(calls[i].name), bytes: Buffer.byteLength(text, 'utf8') };
    }
    assert.ok(
      grouped.length === 0 || Object.values(called).some((c) => c.viaGroup),
      `at least one of the called tools was reached through a group (grouped: ${grouped.join(' ')})`,
    );
    await shot('08-many-tools');

    const bytes = (t) => Buffer.byteLength(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }), 'utf8');
    const sum = (ts) => ts.reduce((s, t) => s + bytes(t), 0);
    const describe = (r) => ({
      request: r.index,
      tools: r.tools.length,
      bytes: sum(r.tools),
      ours: r.tools.filter((t) => ours.includes(t.name)).length,
      many: r.tools.filter((t) => isMany(t.name)).length,
      groups: r.tools.filter((t) => isGroup(t.name)).map((t) => ({ name: t.name, bytes: bytes(t), description: t.description })),
      others: r.tools.filter((t) => !ours.includes(t.name) && !isMany(t.name) && !isGroup(t.name)).length,
    });
    const report = {
      measured:
        'per request: its tools, Buffer.byteLength(JSON.stringify({ name, description, inputSchema })) summed; ours = workbench_*, many = many_tool_* (test/extensions/many-tools)',
      enabled,
      before: before && describe(before),
      first: describe(first),
      activations,
      afterActivations: describe(latest),
      oursListedFirst: ours.filter((nm) => listedIn(first).has(nm)),
      oursGrouped: grouped,
      called,
    };
    fs.writeFileSync(path.join(ARTIFACTS, 'many-tools.json'), JSON.stringify(report, null, 2));
    console.log(
      `    (${enabled} tools enabled: the model gets ${first.tools.length} (${sum(first.tools)} B), ${firstGroups.length} of them virtual groups (${firstGroups.map((g) => g.name).join(', ')}); ours: ${report.oursListedFirst.length} listed, ${grouped.length} grouped, all 44 listed after ${activations.length} activation(s): ${latest.tools.length} tools, ${sum(latest.tools)} B)`,
    );
  });
} catch (error) {
  failures++;
  console.log(`Copilot test run FAILED: ${error.stack ?? error}`);
  await page?.screenshot({ path: path.join(ARTIFACTS, 'failure.png') }).catch(() => {});
  if (server) {
    const log = serverLog('GitHub Copilot Chat.log');
    if (log) console.log(`--- GitHub Copilot Chat.log (last 30 lines) ---\n${log.trim().split('\n').slice(-30).join('\n')}`);
  }
} finally {
  if (fs.existsSync(recordFile)) fs.copyFileSync(recordFile, path.join(ARTIFACTS, 'model-requests.json'));
  await browser?.close().catch(() => {});
  await server?.stop();
  fixture.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(`\n${passes} passing, ${failures} failing in ${elapsed()}; screenshots in ${path.relative(REPO_ROOT, ARTIFACTS)}/`);
process.exit(failures > 0 ? 1 : 0);
