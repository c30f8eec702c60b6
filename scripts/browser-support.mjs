// What the browser tests (panel-test.mjs, mcp-browser-test.mjs) share: waiting for a condition in
// the workbench, and the workbench errors that are noise on these machines.

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
