// What the browser tests (panel-test.mjs, mcp-browser-test.mjs, copilot-test.mjs) share: waiting for
// a condition in the workbench, the workbench errors that are noise on these machines, and the logs.
import * as fs from 'node:fs';
import * as path from 'node:path';

// Workbench errors seen on every run here (no network, no sign-in); anything else is printed.
export const HOST_NOISE = /Service Worker|authentication provider 'github'|ENOTFOUND|EAI_AGAIN|extension gallery/;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves with fn()'s first truthy value, polling every 200 ms; throws after timeoutMs with what it waited for and the last error. */
export async function waitFor(what, fn, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await sleep(200);
  }
}

/** The text of every log file named `name` anywhere under `dir` ('' if none yet), e.g. every window's "Agent Workbench.log". */
export function logText(dir, name) {
  const found = [];
  const walk = (d) => {
    let items = [];
    try {
      items = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of items) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === name) found.push(p);
    }
  };
  walk(dir);
  return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

/** Runs a command from the command palette; with `ifOffered`, resolves false (palette closed) when the palette does not offer it. */
export async function runPaletteCommand(page, title, { ifOffered = false, opensPick = false } = {}) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  try {
    await row.waitFor({ timeout: ifOffered ? 5_000 : 30_000 });
  } catch (error) {
    if (!ifOffered) throw error;
    await page.keyboard.press('Escape');
    await input.waitFor({ state: 'hidden' });
    return false;
  }
  await row.click();
  // A command that opens its own pick (Welcome: Open Walkthrough...) keeps the widget open.
  if (!opensPick) await input.waitFor({ state: 'hidden' });
  return true;
}
