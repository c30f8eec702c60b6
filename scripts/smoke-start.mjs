// Checks the README's `npm start` as a person would use it: runs scripts/start.sh on a fresh
// copy of the sample, opens the URL it prints in Chromium, and waits until the workbench shows
// the folder and Agent Workbench's status bar item (so the extension activated). Then stops it.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { freshFixture, REPO_ROOT as root } from './fixtures.mjs';
import { launchBrowser } from './vscode-host.mjs';

const fixture = freshFixture('sample');
const sample = fixture.folder;

const start = spawn('bash', [path.join(root, 'scripts', 'start.sh')], {
  cwd: root,
  env: { ...process.env, AGENT_WORKBENCH_SAMPLE: sample },
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
const exited = new Promise((resolve) => start.on('exit', (code, signal) => resolve(signal ?? code)));

function fail(message) {
  console.error(`npm start smoke test FAILED: ${message}`);
  process.exitCode = 1;
}

let browser;
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed within 180 s:\n${out}`)), 180_000);
    start.stdout.setEncoding('utf8');
    start.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    exited.then((code) => reject(new Error(`npm start exited (${code}) before printing a URL:\n${out}`)));
  });
  if (!decodeURIComponent(url).includes(sample)) throw new Error(`the URL does not open the sample folder: ${url}`);
  browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url, { timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  await page.locator('.statusbar').getByText('transactional').first().waitFor({ timeout: 120_000 });
  const title = await page.title();
  if (!title.includes('sample')) throw new Error(`the window title does not name the sample folder: ${title}`);
  if (process.env.AW_SMOKE_SCREENSHOT) await page.screenshot({ path: process.env.AW_SMOKE_SCREENSHOT });
  console.log(
    `npm start: ${url.slice(0, 40)}… served the workbench with the sample folder, and Agent Workbench is active (its status bar item shows the mode).`,
  );
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await browser?.close().catch(() => {});
  try {
    process.kill(-start.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
  if (code !== 0 && code !== 'SIGTERM') fail(`npm start did not stop cleanly on SIGTERM (${code})`);
  fixture.dispose();
}
