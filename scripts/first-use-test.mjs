// A person's first use of the packaged extension, in a real VS Code in the browser: the .vsix that
// `npm run package` builds is installed as a person installs one (no development path, no tests
// module), the Extensions view shows it with its icon, and the getting-started walkthrough leads to
// the Chat, Try a Tool and the review panel. Screenshots go to out/test-artifacts/first-use/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freshFixture, HEADLESS_USER_SETTINGS, REPO_ROOT } from './fixtures.mjs';
import { HOST_NOISE, logText, runPaletteCommand, sleep, waitFor } from './browser-support.mjs';
import { launchBrowser, startServer, workbenchUrl } from './vscode-host.mjs';

const ARTIFACTS = path.join(REPO_ROOT, 'out', 'test-artifacts', 'first-use');
const VERBOSE = /^(1|true)$/i.test(process.env.VSCODE_HOST_VERBOSE ?? '');
const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const [walkthrough] = manifest.contributes.walkthroughs;

fs.rmSync(ARTIFACTS, { recursive: true, force: true });
fs.mkdirSync(ARTIFACTS, { recursive: true });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-first-use-'));
const fixture = freshFixture('sample');
const vsix = path.join(scratch, 'agent-workbench.vsix');
execFileSync('npm', ['run', '--silent', 'package', '--', '--out', vsix], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });

let server;
let browser;
let page;
let passes = 0;
let failures = 0;
const shot = (name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

async function test(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    passes++;
    console.log(`  ✔ ${name} (${Date.now() - t0} ms)`);
  } catch (error) {
    failures++;
    console.log(`  ✘ ${name} (${Date.now() - t0} ms)\n    ${(error.stack ?? String(error)).split('\n').join('\n    ')}`);
    await shot(`failure-${name.replace(/[^\w]+/g, '-').slice(0, 60)}`).catch(() => {});
  }
}

try {
  server = await startServer({
    trusted: true,
    vsixes: [vsix],
    userSettings: {
      ...HEADLESS_USER_SETTINGS,
      'workbench.colorTheme': 'Default Light Modern',
      'workbench.startupEditor': 'none',
      'window.commandCenter': false,
    },
    log: VERBOSE ? (line) => process.stderr.write(`[server] ${line}\n`) : undefined,
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? args.join(' ') : String(args);
    if (VERBOSE || (type === 'error' && !HOST_NOISE.test(text))) process.stdout.write(`[host ${type}] ${text}\n`);
  });
  await page.exposeFunction('codeAutomationExit', () => {});
  await page.goto(workbenchUrl(server.baseUrl, fixture.folder, { skipWelcome: 'true' }), { timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  const serverLog = (name) => logText(path.join(server.dataDir, 'server-data', 'data', 'logs'), name);
  await waitFor(
    'the installed extension to activate',
    () => serverLog('remoteexthost.log').includes('_doActivateExtension agent-workbench.agent-workbench'),
    120_000,
  );
  console.log('\nThe packaged extension, installed from its .vsix, on first use');

  await test('the Extensions view lists the installed extension with its icon, name and description; its page has the changelog', async () => {
    await page.keyboard.press('Control+Shift+X');
    const search = page.locator('.extensions-viewlet .suggest-input-container .monaco-editor').first();
    await search.waitFor({ state: 'visible', timeout: 30_000 });
    await search.click();
    await page.keyboard.type('@installed agent workbench');
    const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: manifest.displayName }).first();
    await row.waitFor({ timeout: 30_000 });
    const icon = row.locator('img.icon');
    await waitFor('the icon loaded in the row', async () => (await icon.evaluate((img) => img.complete && img.naturalWidth)) > 0, 15_000);
    assert.match(decodeURIComponent(await icon.getAttribute('src')), /media\/icon\.png/, 'the row shows media/icon.png');
    assert.ok((await row.innerText()).includes(manifest.description.slice(0, 40)), 'the row shows the description');
    await shot('01-extensions-view');
    await row.click();
    const editor = page.locator('.extension-editor');
    await editor.waitFor({ timeout: 30_000 });
    const headerIcon = editor.locator('.header img.icon');
    await waitFor('the icon in the extension page', async () => (await headerIcon.evaluate((img) => img.complete && img.naturalWidth)) > 0, 15_000);
    const changelog = editor.locator('.navbar .action-label', { hasText: /^changelog$/i });
    await changelog.waitFor({ timeout: 15_000 });
    await shot('02-extension-page');
    await changelog.click();
    const webview = async () => {
      for (const frame of page.frames()) {
        const text = await frame
          .locator('body')
          .innerText({ timeout: 1000 })
          .catch(() => '');
        if (text.includes('First release.')) return true;
      }
      return false;
    };
    await waitFor('the changelog shown in the extension page', webview, 20_000);
    await shot('03-extension-changelog');
  });

  await test('the walkthrough lists its steps; their buttons open the MCP setup, Try a Tool and the review panel', async () => {
    const category = page.locator('.gettingStartedSlideDetails');
    // Opened from the palette before each step: after a step's button opened something else, the Welcome
    // page may show its start page (an Escape there goes back), which still holds the walkthrough's slide.
    const showWalkthrough = async () => {
      await runPaletteCommand(page, 'Welcome: Open Walkthrough...', { opensPick: true });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: walkthrough.title }).first().click();
      await category.waitFor({ timeout: 30_000 });
      await sleep(800); // the slide moves in
    };
    await showWalkthrough();
    const titles = await category.locator('.getting-started-step h3.step-title').allInnerTexts();
    assert.deepEqual(
      titles.map((t) => t.trim()),
      walkthrough.steps.map((s) => s.title),
      'every step, in order',
    );
    await shot('04-walkthrough');

    const step = (id) => category.locator(`.getting-started-step[data-step-id$="${id}"]`);
    const press = async (id, label) => {
      await showWalkthrough();
      await step(id).locator('h3.step-title').click();
      const button = step(id).locator('.button-container a, a.button-link, .monaco-button', { hasText: label }).first();
      await button.waitFor({ state: 'visible', timeout: 10_000 });
      await button.click();
    };

    await press('mcp', 'Connect an Agent over MCP');
    await page.locator('.tab', { hasText: 'Connect an Agent over MCP' }).waitFor({ timeout: 30_000 });
    await waitFor(
      'the MCP setup page with a Copy button',
      async () => {
        for (const frame of page.frames())
          if (
            (await frame
              .locator('button', { hasText: /^Copy/ })
              .count()
              .catch(() => 0)) > 0
          )
            return true;
        return false;
      },
      30_000,
    );
    await shot('05-walkthrough-mcp');

    await press('tryTool', 'Try a Tool');
    // Its own pick, by title: the palette's widget that opened the walkthrough may still be fading out.
    const pick = page.locator('.quick-input-widget', { hasText: 'try which tool?' });
    await pick.waitFor({ state: 'visible', timeout: 15_000 });
    await pick.locator('input').first().fill('find-references');
    await waitFor(
      'Try a Tool offering find-references',
      async () => (await pick.locator('.monaco-list-row').allInnerTexts()).some((r) => r.startsWith('find-references')),
      15_000,
    );
    await shot('06-walkthrough-try-a-tool');
    await page.keyboard.press('Escape');
    await pick.waitFor({ state: 'hidden', timeout: 10_000 });

    await press('review', 'Open Review Panel');
    await waitFor(
      'the review panel open, saying nothing is staged',
      async () => {
        for (const frame of page.frames()) {
          if (
            (
              await frame
                .locator('h1')
                .allInnerTexts()
                .catch(() => [])
            ).some((t) => t.startsWith('Nothing is staged in'))
          )
            return true;
        }
        return false;
      },
      30_000,
    );
    await shot('07-walkthrough-review-panel');
  });
} catch (error) {
  failures++;
  console.log(`first-use test run FAILED: ${error.stack ?? error}`);
  await page?.screenshot({ path: path.join(ARTIFACTS, 'failure.png') }).catch(() => {});
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  fixture.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(`\n${passes} passing, ${failures} failing; screenshots in ${path.relative(REPO_ROOT, ARTIFACTS)}/`);
process.exit(failures > 0 ? 1 : 0);
