/* global fetch, window, document, getComputedStyle */
// The review panel in a real VS Code, driven through the real browser: tools are called as an agent
// calls them (vscode.lm.invokeTool, through an in-host HTTP bridge: test/panel/bridge.ts), and the
// panel is read and clicked in its webview iframe with playwright-core. Screenshots in a light and
// a dark theme go to out/test-artifacts/panel/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freshFixture, HEADLESS_USER_SETTINGS, REPO_ROOT } from './fixtures.mjs';
import { HOST_NOISE, sleep, waitFor } from './browser-support.mjs';
import { freePort, launchBrowser, startServer, workbenchUrl } from './vscode-host.mjs';

const { ALL_TOOLS } = createRequire(import.meta.url)(path.join(REPO_ROOT, 'out', 'src', 'tools', 'index.js'));
const ARTIFACTS = path.join(REPO_ROOT, 'out', 'test-artifacts', 'panel');
const VERBOSE = /^(1|true)$/i.test(process.env.VSCODE_HOST_VERBOSE ?? '');
const bridgeModule = path.join(REPO_ROOT, 'out', 'test', 'panel', 'bridge.js');
const grep = process.env.AW_GREP ? new RegExp(process.env.AW_GREP) : undefined;

// A run's artifacts are its own: screenshots of an earlier run's failures would read as this run's.
fs.rmSync(ARTIFACTS, { recursive: true, force: true });
fs.mkdirSync(ARTIFACTS, { recursive: true });
const fixture = freshFixture('greeter');
const folder = fixture.folder;
const file = (p) => path.join(folder, ...p.split('/'));
const read = (p) => fs.readFileSync(file(p));
const original = { greet: read('src/greet.ts').toString('utf8'), util: read('src/util.ts'), notes: read('notes.txt').toString('utf8') };

const bridgePort = await freePort();
const bridge = async (route, body = {}) => {
  const res = await fetch(`http://127.0.0.1:${bridgePort}${route}`, { method: 'POST', body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`bridge ${route} failed: ${text}`);
  return JSON.parse(text);
};
const call = (tool, input = {}) => bridge('/call', { tool, input });
const ok = async (tool, input) => {
  const envelope = await call(tool, input);
  assert.equal(envelope.ok, true, `${tool} failed: ${JSON.stringify(envelope)}`);
  return envelope.data;
};

// The MCP test reads this window's discovery file here (beside the workspace folder, removed with it).
const mcpDir = path.join(fixture.scratch, 'mcp-windows');
const server = await startServer({
  trusted: true,
  env: { AW_BRIDGE_PORT: String(bridgePort), AGENT_WORKBENCH_MCP_DIR: mcpDir },
  // The reload test's new extension host listens on the bridge port the host before held; that host goes in 5 s.
  reconnectionGraceSeconds: 5,
  userSettings: {
    ...HEADLESS_USER_SETTINGS,
    'workbench.colorTheme': 'Default Light Modern',
    'workbench.startupEditor': 'none',
    'window.commandCenter': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'editor.autoClosingQuotes': 'never',
    'editor.autoClosingBrackets': 'never',
  },
  log: VERBOSE ? (line) => process.stderr.write(`[server] ${line}\n`) : undefined,
});
let browser;
let failures = 0;
let passes = 0;
const results = [];

/** The transactions the extension keeps in its global storage for a window reload (src/host/transactionFiles.ts). */
function keptTransactions() {
  const dir = path.join(server.dataDir, 'server-data', 'data', 'User', 'globalStorage', 'agent-workbench.agent-workbench', 'transactions');
  return (fs.existsSync(dir) ? fs.readdirSync(dir) : []).flatMap((name) => {
    try {
      return name.endsWith('.json') ? [JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'))] : [];
    } catch {
      // Being written (it is renamed over when whole).
      return [];
    }
  });
}

async function test(name, fn) {
  if (grep && !grep.test(name)) return;
  const started = Date.now();
  try {
    await fn();
    passes++;
    results.push(`  ✔ ${name} (${Date.now() - started} ms)`);
    console.log(`  ✔ ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failures++;
    results.push(`  ✘ ${name}`);
    console.log(`  ✘ ${name}\n    ${(error.stack ?? String(error)).split('\n').join('\n    ')}`);
    await page?.screenshot({ path: path.join(ARTIFACTS, `failure-${name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
  }
}

let page;
/** Screenshots of the window as it is, in the light theme the tests run in and in the dark one (name.png, name-dark.png). */
const lightAndDark = async (name) => {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  await bridge('/config', { key: 'workbench.colorTheme', value: 'Default Dark Modern' });
  await sleep(1500);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-dark.png`) });
  await bridge('/config', { key: 'workbench.colorTheme', value: 'Default Light Modern' });
  await sleep(1000);
};
try {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? args.join(' ') : String(args);
    if (!VERBOSE && (type !== 'error' || HOST_NOISE.test(text))) return;
    if (VERBOSE || type === 'error') process.stdout.write(`[host ${type}] ${Array.isArray(args) ? args.join(' ') : String(args)}\n`);
  });
  await page.exposeFunction('codeAutomationExit', () => {});
  await page.goto(workbenchUrl(server.baseUrl, folder, { extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: bridgeModule, skipWelcome: 'true' }), {
    timeout: 120_000,
  });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  await waitFor('the in-host bridge and the extension', async () => (await bridge('/ping')).ok, 120_000);

  /** The webview frame that holds the panel (its inner iframe). */
  const panel = () =>
    waitFor('the review panel webview', async () => {
      for (const f of page.frames()) {
        if (f.isDetached()) continue;
        if (await f.$('main#app').catch(() => null)) return f;
      }
      return undefined;
    });
  const domFiles = async (f) =>
    f.$$eval('li.file', (els) =>
      els.map((li) => ({
        path: li.dataset.path,
        kind: li.dataset.kind,
        added: Number(li.querySelector('[data-count=added]').textContent.slice(1)),
        removed: Number(li.querySelector('[data-count=removed]').textContent.slice(1)),
      })),
    );
  const domHunks = async (f) =>
    f.$$eval('.hunk', (hs) =>
      hs.map((h) => ({
        header: h.querySelector('.hunk-head code').textContent,
        rows: [...h.querySelectorAll('tr')].map((tr) => ({
          kind: tr.className.replace('row ', ''),
          old: tr.children[0].textContent,
          new: tr.children[1].textContent,
          text: tr.children[3].textContent,
        })),
      })),
    );
  const meta = async (f) => (await f.$eval('#meta', (e) => e.textContent).catch(() => '')) ?? '';
  const history = async () => await call('transaction-history', {});
  const previewFiles = async () =>
    (await ok('transaction-preview', {})).documents.map((d) => ({
      path: d.document.path,
      kind: d.changeKind,
      added: d.preview.addedLines,
      removed: d.preview.removedLines,
    }));
  const click = async (f, selector) => {
    await f.locator(selector).first().click();
  };

  const greetHello = { location: { selection: { document: { path: 'src/greet.ts' }, selectedText: 'Hello' } }, newText: 'Hi' };
  const greetLoud = {
    location: { selection: { document: { path: 'src/greet.ts' }, selectedText: 'shout(greet(name))' } },
    newText: "shout(greet(name)) + '!!'",
  };

  console.log('\nreview panel (browser-driven)');
  let frame;
  await test('an agent stages a rename and an edit; the panel opens itself without focus and shows them', async () => {
    await ok('move-file', { document: { path: 'src/util.ts' }, newPath: 'src/lib/util.ts' });
    await ok('edit-text', { edits: [greetHello, greetLoud] });
    frame = await panel();
    await waitFor('two files in the panel', async () => (await domFiles(frame)).length === 2);
    assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME', 'the panel opened without taking the focus');
    const preview = await previewFiles();
    assert.deepEqual(await domFiles(frame), preview);
    assert.match(await meta(frame), /Revision 2 of 2/);
    const revs = await frame.$$eval('li.revision', (els) => els.map((e) => [e.querySelector('.rev-tool').textContent, e.querySelector('.rev-by').textContent]));
    assert.deepEqual(revs, [
      ['move-file', 'by the agent'],
      ['edit-text', 'by the agent'],
    ]);
    const status = await page
      .locator('.statusbar')
      .getByText(/2 staged · r2/)
      .count();
    assert.ok(status > 0, 'the status bar item shows 2 staged files at revision 2');
  });

  const fresh = async () => (frame = await panel());
  await test('the hunks of the selected file match transaction-preview line for line', async () => {
    await fresh();
    await click(frame, 'li.file[data-path="src/greet.ts"] .file-select');
    await waitFor('greet.ts selected', async () => (await frame.$eval('#diff-heading', (e) => e.dataset.path).catch(() => '')) === 'src/greet.ts');
    const dom = await domHunks(frame);
    const diff = (await ok('transaction-preview', { document: { path: 'src/greet.ts' }, includeDiff: true, contextLines: 3 })).diff;
    assert.equal(dom.length, diff.hunks.length);
    assert.equal(dom.length, 2);
    dom.forEach((h, i) => {
      const p = diff.hunks[i];
      assert.equal(h.header, `@@ -${p.originalStartLine},${p.originalLineCount} +${p.updatedStartLine},${p.updatedLineCount} @@`);
      const sign = { add: '+', remove: '-', context: ' ' };
      assert.deepEqual(
        h.rows.map((r) => (r.kind === 'note' ? `\\ ${r.text}` : sign[r.kind] + r.text)),
        p.lines,
      );
      const firstOld = h.rows.find((r) => r.old !== '');
      assert.equal(Number(firstOld.old), p.originalStartLine);
    });
    await page.screenshot({ path: path.join(ARTIFACTS, 'panel-light.png') });
  });

  await test('Undo and Redo clicked in the panel move the transaction', async () => {
    await fresh();
    await click(frame, 'button[data-action=undo]');
    await waitFor('revision 1', async () => /Revision 1 of 2/.test(await meta(frame)));
    let h = await history();
    assert.equal(h.data.transaction.revision, 1);
    assert.deepEqual(await domFiles(frame), await previewFiles());
    assert.equal((await domFiles(frame)).length, 1);
    await click(frame, 'button[data-action=redo]');
    await waitFor('revision 2', async () => /Revision 2 of 2/.test(await meta(frame)));
    h = await history();
    assert.equal(h.data.transaction.revision, 2);
    assert.deepEqual(read('src/greet.ts').toString('utf8'), original.greet, 'nothing is written before the commit');
  });

  await test("a file's Discard and a hunk's Discard are revisions by the person", async () => {
    await fresh();
    await click(frame, 'li.file[data-path="src/lib/util.ts"] button[data-action=discardFile]');
    await waitFor('util discarded', async () => (await domFiles(frame)).length === 1);
    assert.deepEqual(await previewFiles(), [{ path: 'src/greet.ts', kind: 'Modified', added: 2, removed: 2 }]);
    await waitFor('greet hunks shown', async () => (await domHunks(frame)).length === 2);
    await click(frame, '.hunk[data-hunk="0"] button[data-action=discardHunk]');
    await waitFor('one hunk left', async () => (await domHunks(frame)).length === 1);
    const h = await history();
    const items = h.data.revisions.items;
    assert.deepEqual(
      items.map((r) => [r.tool, r.by]),
      [
        ['move-file', 'agent'],
        ['edit-text', 'agent'],
        ['review-panel', 'person'],
        ['review-panel', 'person'],
      ],
    );
    const diff = (await ok('transaction-preview', { document: { path: 'src/greet.ts' }, includeDiff: true })).diff;
    assert.equal(diff.hunks.length, 1);
    assert.ok(diff.hunks[0].lines.includes("+  return shout(greet(name)) + '!!';"));
    const byPerson = await frame.$$eval('li.revision.by-person .rev-by', (els) => els.map((e) => e.textContent));
    assert.deepEqual(byPerson, ['by you', 'by you']);
  });

  await test('a forged or malformed message posted into the webview bridge is refused and changes nothing', async () => {
    await fresh();
    const before = JSON.stringify(await history());
    const outer = frame.parentFrame();
    assert.ok(outer, 'the webview has an outer frame');
    const tx = (await history()).data;
    const forged = [
      { type: 'action', action: 'commit', workspaceId: 'x', transactionId: 'forged', revision: tx.transaction.revision },
      { type: 'action', action: 'rollback' },
      { type: 'discardFile', path: '../../etc/passwd', workspaceId: 'x', transactionId: 'y', revision: 0, extra: 1 },
      'commit',
    ];
    for (const message of forged) {
      await outer.evaluate((m) => window.__vscode_post_message__('onmessage', { message: m }), message);
    }
    await waitFor('the refusal shown', async () =>
      /refused|another transaction|not open|no active/i.test((await frame.$eval('#outcome', (e) => e.textContent).catch(() => '')) ?? ''),
    );
    await sleep(500);
    assert.equal(JSON.stringify(await history()), before);
    assert.deepEqual(read('src/greet.ts').toString('utf8'), original.greet);
    assert.ok(fs.existsSync(file('src/util.ts')));
  });

  let personLine = '// edited by hand in the diff editor';
  await test("the person edits the staged text in the diff editor; saving stages the person's revision", async () => {
    await fresh();
    await click(frame, 'li.file[data-path="src/greet.ts"] button[data-action=openDiff]');
    // The modified side's own lines (inline diffs also draw removed lines as zones inside it).
    const modified = page.locator('.monaco-diff-editor .editor.modified .view-lines.monaco-mouse-cursor-text:not(.line-delete)').first();
    await modified.waitFor({ timeout: 30_000 });
    let seenText = '';
    await waitFor('the staged text in the right side', async () =>
      (seenText = (await modified.textContent()).replace(/\u00a0/g, ' ')).includes("+ '!!'"),
    ).catch(async (e) => {
      const all = await page.$$eval('.monaco-diff-editor .view-lines', (els) =>
        els.map((el) => `${el.closest('.editor')?.className ?? '?'} | ${el.className} | ${el.textContent.slice(0, 120)}`),
      );
      throw new Error(`${e.message}; the editor shows: ${seenText}\n${all.join('\n')}`);
    });
    await modified.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(personLine);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+s');
    await waitFor("the person's revision", async () => {
      const items = (await history()).data.revisions.items;
      return items.length === 5 && items[4].by === 'person' && items[4].tool === 'staged-text-editor';
    });
    const staged = (await ok('transaction-preview', { document: { path: 'src/greet.ts' }, includeDiff: true })).diff;
    assert.ok(
      staged.hunks.some((hk) => hk.lines.includes(`+${personLine}`)),
      JSON.stringify(staged.hunks),
    );
    await waitFor('the panel shows revision 5', async () => /Revision 5 of 5/.test(await meta(frame)));
  });

  await test('Commit clicked in the panel writes exactly the staged text, byte for byte', async () => {
    await fresh();
    const expected = original.greet.replace('shout(greet(name))', "shout(greet(name)) + '!!'") + `${personLine}\n`;
    await click(frame, 'button[data-action=commit]');
    await waitFor('the commit', async () => /Committed/.test((await frame.$eval('#outcome', (e) => e.textContent).catch(() => '')) ?? ''), 60_000);
    assert.equal(read('src/greet.ts').toString('utf8'), expected);
    assert.ok(read('src/util.ts').equals(original.util), 'the discarded rename left util.ts as it was');
    assert.equal(fs.existsSync(file('src/lib/util.ts')), false);
    const h = await history();
    assert.equal(h.ok, false);
    assert.equal(h.error.code, 'NoActiveTransaction');
    assert.match(await frame.$eval('h1', (e) => e.textContent), /Nothing is staged/);
  });

  await test('keyboard only: Tab to Commit and press Enter commits', async () => {
    await fresh();
    await ok('edit-text', {
      edits: [
        { location: { selection: { document: { path: 'notes.txt' }, selectedText: 'Nothing to see here yet.' } }, newText: 'Committed from the keyboard.' },
      ],
    });
    await waitFor('the new transaction in the panel', async () => (await domFiles(frame)).length === 1);
    await frame.locator('h1').click();
    let onCommit = false;
    for (let i = 0; i < 12 && !onCommit; i++) {
      await page.keyboard.press('Tab');
      onCommit = await frame.evaluate(() => document.activeElement?.getAttribute('data-action') === 'commit');
    }
    assert.ok(onCommit, 'Tab reaches the Commit button');
    const outline = await frame.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused button shows a focus ring');
    await page.keyboard.press('Enter');
    await waitFor(
      'notes.txt written',
      async () => read('notes.txt').toString('utf8') === original.notes.replace('Nothing to see here yet.', 'Committed from the keyboard.'),
      60_000,
    );
    await waitFor('the transaction to end', async () => (await history()).error?.code === 'NoActiveTransaction');
  });

  await test('long paths at the default width and narrowed: each row shows its whole file name first, its folder dimmed after it, the full path in title and aria-label', async () => {
    const deep = 'src/internal/operations/dispatch/handlers';
    const created = [`${deep}/registerOperationHandlersForWorkspace.ts`, `${deep}/registerOperationHandlersForTransactions.ts`];
    const moved = `${deep}/operationUtilities.ts`;
    // The panel alone in the editor area (an earlier test left a diff editor beside it), so its width is the window's.
    await bridge('/command', { id: 'workbench.action.closeAllEditors' });
    await bridge('/command', { id: 'agentWorkbench.review.open' });
    try {
      for (const p of created) await ok('create-file', { path: p, text: 'export const first = 1;\nexport const second = 2;\n' });
      await ok('move-file', { document: { path: 'src/util.ts' }, newPath: moved });
      const at = (selectedText) => ({ location: { selection: { document: { path: created[0] }, selectedText } }, newText: `${selectedText}0` });
      await ok('edit-text', { edits: [at('first = 1'), at('second = 2')] });
      await ok('edit-text', { edits: [greetHello] });
      frame = await panel();
      const expected = [...created, moved, 'src/greet.ts'];
      await waitFor('the four files', async () => (await domFiles(frame)).length === 4);
      assert.deepEqual((await domFiles(frame)).map((f) => f.path).sort(), [...expected].sort());
      await click(frame, `li.file[data-path="${created[0]}"] .file-select`);
      await waitFor('the deep file selected', async () => (await frame.$eval('#diff-heading', (e) => e.dataset.path).catch(() => '')) === created[0]);

      /** What each row shows, and whether its name is whole and inside the row and the view. */
      const rows = () =>
        frame.$$eval('li.file', (els) =>
          els.map((li) => {
            const button = li.querySelector('.file-select');
            const name = button.querySelector('.name');
            const folder = button.querySelector('.folder');
            const n = name.getBoundingClientRect();
            const b = button.getBoundingClientRect();
            const d = folder?.parentElement.getBoundingClientRect();
            const f = folder?.getBoundingClientRect();
            return {
              path: li.dataset.path,
              name: name.textContent,
              folder: folder?.textContent ?? '',
              nameWhole:
                name.scrollWidth <= name.clientWidth && n.left >= b.left && n.right <= b.right + 0.5 && n.right <= document.documentElement.clientWidth,
              nameOneLine: n.height < 1.5 * parseFloat(getComputedStyle(name).lineHeight),
              // After it on its line, or (too narrow for both) on the next line.
              folderAfterName: folder ? f.left >= n.right - 0.5 || f.top >= n.bottom - 0.5 : true,
              // Shown: some of it inside the box that clips it (the rest ends in an ellipsis).
              folderShown: folder ? Math.min(f.right, d.right) - f.left > 8 : true,
              folderDimmed: folder
                ? getComputedStyle(folder).color !== getComputedStyle(name).color || Number(getComputedStyle(folder.parentElement).opacity) < 1
                : true,
              title: button.getAttribute('title'),
              aria: button.getAttribute('aria-label'),
              rowFits: li.scrollWidth <= li.clientWidth,
            };
          }),
        );
      const check = async (label) => {
        const seen = await rows();
        const detail = `${label}: ${JSON.stringify(seen, null, 1)}`;
        for (const r of seen) {
          const slash = r.path.lastIndexOf('/');
          assert.equal(r.name, r.path.slice(slash + 1), detail);
          assert.equal(r.folder, slash < 0 ? '' : r.path.slice(0, slash), detail);
          assert.ok(r.nameWhole, `${r.path}: the file name is cut. ${detail}`);
          assert.ok(r.nameOneLine, `${r.path}: the file name wraps. ${detail}`);
          assert.ok(r.folderAfterName && r.folderDimmed, `${r.path}: the folder is not after the name, dimmed. ${detail}`);
          assert.ok(r.rowFits, `${r.path}: the row overflows. ${detail}`);
          assert.ok(r.title.startsWith(r.path), detail);
          assert.ok(r.aria.includes(` ${r.path}`), detail);
        }
        const movedRow = seen.find((r) => r.path === moved);
        assert.ok(movedRow.title.includes('moved from src/util.ts') && movedRow.aria.includes('(moved from src/util.ts)'), detail);
        const heading = await frame.$eval('#diff-heading', (h) => ({
          name: h.querySelector('.name').textContent,
          folder: h.querySelector('.folder').textContent,
          title: h.title,
          aria: h.getAttribute('aria-label'),
          fits: h.scrollWidth <= h.clientWidth,
        }));
        assert.deepEqual(heading, { name: 'registerOperationHandlersForWorkspace.ts', folder: deep, title: created[0], aria: created[0], fits: true }, label);
        const revs = await frame.$$eval('li.revision', (els) =>
          els.map((e) => ({ summary: e.querySelector('.rev-summary').textContent, fits: e.scrollWidth <= e.clientWidth })),
        );
        assert.ok(
          revs.every((r) => r.fits),
          `${label}: a revision runs out of its column: ${JSON.stringify(revs)}`,
        );
        return seen;
      };

      // The default width already cut these paths from the end before names came first.
      let seen = await check('at the default width');
      assert.ok(
        seen.every((r) => r.folderShown),
        'at the default width every folder is shown',
      );
      const summaries = await frame.$$eval('li.revision .rev-summary', (els) => els.map((e) => e.textContent));
      assert.deepEqual(summaries.slice(-2), [`Edit 2 locations in ${created[0]}`, 'Edit 1 location in src/greet.ts']);
      assert.ok(
        summaries.every((t) => !t.includes('(s)')),
        summaries.join('; '),
      );
      assert.match(await meta(frame), /· 4 files ·/);
      assert.equal(await frame.$eval('button[data-action=commit]', (b) => b.getAttribute('aria-label')), 'Commit 4 files staged at revision 5');
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-long-paths-default.png') });
      await page.setViewportSize({ width: 1000, height: 900 });
      await sleep(800);
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-long-paths-narrow.png') });
      seen = await check('narrowed to a 1000 px window');
      assert.ok(
        seen.some((r) => r.folderShown),
        'narrowed, folders are still shown where there is room',
      );
      await page.setViewportSize({ width: 760, height: 900 });
      await sleep(800);
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-long-paths-narrowest.png') });
      seen = await check('narrowed to a 760 px window');
      assert.ok(
        seen.every((r) => r.folderShown),
        'narrowest, every folder is still shown (on the next line where the name fills its own)',
      );
    } finally {
      // The next tests start from the usual window and nothing staged, whatever failed here.
      await page.setViewportSize({ width: 1400, height: 900 });
      if ((await history()).ok) await bridge('/command', { id: 'agentWorkbench.review.rollback' });
      await waitFor('rolled back', async () => (await history()).error?.code === 'NoActiveTransaction');
    }
    assert.ok(read('src/util.ts').equals(original.util));
  });

  await test('a transaction of 130 files lists its first 100, the rest behind Show all, which lists every one', async () => {
    const many = Array.from({ length: 130 }, (_, i) => `src/many/m${String(i).padStart(3, '0')}.ts`);
    fs.mkdirSync(file('src/many'), { recursive: true });
    for (const p of many) fs.writeFileSync(file(p), 'export const value = 0;\n');
    try {
      await bridge('/command', { id: 'agentWorkbench.review.open' });
      const edit = (p) => ({ location: { selection: { document: { path: p }, selectedText: 'value = 0' } }, newText: 'value = 1' });
      await ok('edit-text', { edits: many.slice(0, 65).map(edit) });
      await ok('edit-text', { edits: many.slice(65).map(edit) });
      frame = await panel();
      await waitFor('the first 100 files', async () => (await domFiles(frame)).length === 100 && /· 130 files ·/.test(await meta(frame)));
      const first = (await domFiles(frame)).map((f) => f.path);
      assert.equal(new Set(first).size, 100);
      assert.ok(
        first.every((p) => many.includes(p)),
        first.join(', '),
      );
      assert.equal(await frame.$eval('.more-files', (p) => p.textContent), '30 more files Show all 130 files');
      const summaries = await frame.$$eval('li.revision .rev-summary', (els) => els.map((e) => e.textContent));
      assert.deepEqual(summaries, [
        'Edit 65 locations in 65 files (src/many/m000.ts, src/many/m001.ts, …)',
        'Edit 65 locations in 65 files (src/many/m065.ts, src/many/m066.ts, …)',
      ]);
      await frame.$eval('.more-files', (p) => p.scrollIntoView({ block: 'center' }));
      await lightAndDark('panel-many-files');
      await click(frame, 'button[data-action=showAllFiles]');
      await waitFor('every file', async () => (await domFiles(frame)).length === 130);
      assert.deepEqual((await domFiles(frame)).map((f) => f.path).sort(), [...many].sort());
      assert.equal(await frame.$('.more-files'), null, 'nothing said to be left out');
    } finally {
      if ((await history()).ok) await bridge('/command', { id: 'agentWorkbench.review.rollback' });
      await waitFor('rolled back', async () => (await history()).error?.code === 'NoActiveTransaction');
      fs.rmSync(file('src/many'), { recursive: true, force: true });
    }
  });

  await test('a line of minified code shows where it changed, 1,000 characters of it, and says the rest is left out', async () => {
    const line = `${'a.b(c,d);'.repeat(16_000)}var value = 0;${'e.f(g);'.repeat(8_000)}`;
    fs.writeFileSync(file('src/min.js'), `${line}\n`);
    try {
      await bridge('/command', { id: 'agentWorkbench.review.open' });
      await ok('edit-text', { edits: [{ location: { selection: { document: { path: 'src/min.js' }, selectedText: 'value = 0' } }, newText: 'value = 1' }] });
      frame = await panel();
      await waitFor('the cut rows', async () => (await frame.$$('tr.row.add td.code')).length === 1);
      const cells = await frame.$$eval('tr.row td.code', (tds) => tds.map((td) => ({ text: td.textContent, title: td.title })));
      // The count as the webview's locale writes it: its digits are what was left out.
      const said = (title) => [
        Number(title.replace(/ characters of this line are not shown \(…\): Open Diff shows it whole\.$/, '').replace(/\D/g, '')),
        title.endsWith('Open Diff shows it whole.'),
      ];
      assert.deepEqual(
        cells.map((c) => [c.text.length, c.text.startsWith('…') && c.text.endsWith('…'), ...said(c.title)]),
        [
          [1002, true, line.length - 1000, true],
          [1002, true, line.length - 1000, true],
        ],
      );
      assert.ok(cells[0].text.includes('var value = 0;') && cells[1].text.includes('var value = 1;'), cells[1].text.slice(0, 300));
      await lightAndDark('panel-long-line');
    } finally {
      if ((await history()).ok) await bridge('/command', { id: 'agentWorkbench.review.rollback' });
      await waitFor('rolled back', async () => (await history()).error?.code === 'NoActiveTransaction');
      fs.rmSync(file('src/min.js'), { force: true });
    }
  });

  await test('screenshots in a dark and a high-contrast theme', async () => {
    await fresh();
    await ok('move-file', { document: { path: 'src/util.ts' }, newPath: 'src/lib/util.ts' });
    await ok('edit-text', { edits: [greetHello] });
    await waitFor('two files', async () => (await domFiles(frame)).length === 2);
    await click(frame, 'li.file[data-path="src/greet.ts"] .file-select');
    await bridge('/config', { key: 'workbench.colorTheme', value: 'Default Dark Modern' });
    await sleep(1500);
    await page.screenshot({ path: path.join(ARTIFACTS, 'panel-dark.png') });
    await bridge('/config', { key: 'workbench.colorTheme', value: 'Default High Contrast' });
    await sleep(1500);
    await page.screenshot({ path: path.join(ARTIFACTS, 'panel-high-contrast.png') });
    await bridge('/command', { id: 'agentWorkbench.review.rollback' });
    await waitFor('rolled back', async () => (await history()).error?.code === 'NoActiveTransaction');
    assert.ok(read('src/util.ts').equals(original.util));
  });

  await test('the check of each revision in the panel: a new error in another file on its hunk, gone after undo; a fix resolves an existing error', async () => {
    await bridge('/command', { id: 'agentWorkbench.review.open' });
    await fresh();
    try {
      const theme = async (name, bodyClass) => {
        await bridge('/config', { key: 'workbench.colorTheme', value: name });
        // The webview's body carries the theme's kind once VS Code has applied it there.
        await waitFor(`the webview in ${name}`, async () => (await frame.evaluate(() => document.body.className)).includes(bodyClass));
      };
      await theme('Default Light Modern', 'vscode-light');
      /** The check summary near Commit, as the person reads it. */
      const summary = async () =>
        frame.$eval('#check', (e) => ({
          state: e.dataset.state,
          revision: Number(e.dataset.revision),
          text: e.querySelector('.check-text').textContent,
          resolved: e.querySelector('.check-resolved')?.textContent ?? null,
        }));
      const settled = (revision) =>
        waitFor(
          `the check of revision ${revision}`,
          async () => {
            const s = await summary();
            return s.revision === revision && s.state === 'checked' ? s : undefined;
          },
          90_000,
        );
      /** Every diagnostic in the panel: where it is (file row, hunk or file level) and its text. */
      const shown = () =>
        frame.$$eval('li.diagnostic', (els) =>
          els.map((li) => ({
            at: li.closest('.hunk') ? `hunk ${li.closest('.hunk').dataset.hunk}` : li.closest('.file-diagnostics') ? 'file' : 'elsewhere',
            file: li.closest('.diff-section')?.querySelector('#diff-heading').dataset.path ?? li.closest('.elsewhere-file')?.dataset.path,
            resolved: li.parentElement.classList.contains('resolved'),
            text: li.textContent,
            line: Number(li.dataset.line),
          })),
        );
      const badges = () =>
        frame.$$eval('li.file', (els) => Object.fromEntries(els.map((li) => [li.dataset.path, [...li.querySelectorAll('.badge')].map((b) => b.textContent)])));

      // Revision 1: two hunks in greet.ts, nothing broken.
      await ok('edit-text', { edits: [greetHello, greetLoud] });
      frame = await panel();
      await click(frame, 'li.file[data-path="src/greet.ts"] .file-select');
      await waitFor('greet.ts selected', async () => (await frame.$eval('#diff-heading', (e) => e.dataset.path).catch(() => '')) === 'src/greet.ts');
      assert.equal((await settled(1)).text, 'No new errors');
      assert.deepEqual(await shown(), []);

      // Revision 2: shout takes a second parameter; its caller in greet.ts (line 16, in the second hunk) breaks.
      await ok('edit-text', {
        edits: [{ location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'text: string' } }, newText: 'text: string, times: number' }],
      });
      const check = await ok('transaction-check', {});
      assert.equal(check.revision, 2);
      const introduced = check.introduced.items;
      assert.deepEqual(
        introduced.map((d) => [d.path, d.line, d.code]),
        [['src/greet.ts', 16, 2554]],
        JSON.stringify(check),
      );
      const [d] = introduced;
      assert.equal((await settled(2)).text, '1 new error');
      await waitFor('the error under its hunk', async () => (await shown()).length === 1);
      assert.deepEqual(await shown(), [
        { at: 'hunk 1', file: 'src/greet.ts', resolved: false, text: `✕ErrorTS${d.code}${d.message}line ${d.line}:${d.column}`, line: 16 },
      ]);
      // The hunk transaction-preview says holds staged line 16 (earlier tests may have committed lines to greet.ts).
      const hunks = (await ok('transaction-preview', { document: { path: 'src/greet.ts' }, includeDiff: true, contextLines: 3 })).diff.hunks;
      const at = hunks.findIndex((p) => p.updatedStartLine <= d.line && d.line < p.updatedStartLine + p.updatedLineCount);
      assert.equal(at, 1, JSON.stringify(hunks));
      const p = hunks[at];
      const hunk = await frame.$eval('.hunk[data-hunk="1"]', (h) => ({
        aria: h.getAttribute('aria-label'),
        problemLine: h.querySelector('tr[data-problem]')?.children[1].textContent,
        code: h.querySelector('tr[data-problem] td.code')?.textContent,
      }));
      assert.deepEqual(
        { ...hunk, code: hunk.code?.trim() },
        {
          aria: `Hunk 2: @@ -${p.originalStartLine},${p.originalLineCount} +${p.updatedStartLine},${p.updatedLineCount} @@; 1 new problem`,
          problemLine: '16',
          code: p.lines
            .find((l) => l.startsWith('+  return shout('))
            .slice(1)
            .trim(),
        },
      );
      assert.deepEqual(
        await badges(),
        { 'src/greet.ts': ['✕ 1'], 'src/util.ts': [] },
        'the badge is on the file with the error, not on the one whose edit caused it',
      );
      assert.match(
        await frame.$eval('li.file[data-path="src/greet.ts"] .file-select', (b) => b.getAttribute('aria-label')),
        /; 1 new error\. Show its hunks\.$/,
      );
      assert.equal(await frame.$eval('button[data-action=commit]', (b) => b.getAttribute('aria-describedby')), 'check');
      await frame.locator('.hunk[data-hunk="1"] li.diagnostic').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-check-errors-light.png') });
      await theme('Default Dark Modern', 'vscode-dark');
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-check-errors-dark.png') });
      await theme('Default High Contrast', 'vscode-high-contrast');
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-check-errors-high-contrast.png') });
      await theme('Default Light Modern', 'vscode-light');

      // Revision 3: the person discards greet.ts; its error stays (util.ts still breaks the call), in a file not staged now.
      await click(frame, 'li.file[data-path="src/greet.ts"] button[data-action=discardFile]');
      assert.equal((await settled(3)).text, '1 new error');
      await waitFor('the error outside the transaction', async () => (await shown())[0]?.at === 'elsewhere');
      assert.deepEqual(await shown(), [
        { at: 'elsewhere', file: 'src/greet.ts', resolved: false, text: `✕ErrorTS${d.code}${d.message}line ${d.line}:${d.column}`, line: 16 },
      ]);
      assert.equal(await frame.$eval('.elsewhere h3', (e) => e.textContent), 'Not staged, but affected');
      assert.deepEqual(await badges(), { 'src/util.ts': [] });
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-check-elsewhere-light.png') });

      assert.match(await frame.$eval('#outcome', (e) => e.textContent), /Discarded the staged change of src\/greet\.ts/);

      // Undo twice: revision 1 again, and its check has no error.
      await ok('transaction-history', { action: 'undo', steps: 2 });
      assert.equal((await settled(1)).text, 'No new errors');
      assert.equal(await frame.$('#outcome'), null, "the person's Discard is no longer what the panel shows: the agent moved the transaction since");
      await waitFor('the error gone', async () => (await shown()).length === 0);
      assert.deepEqual(await badges(), { 'src/greet.ts': [] });

      // Revision 2 anew: config.ts's existing error fixed; resolved, said quietly.
      await ok('edit-text', { edits: [{ location: { selection: { document: { path: 'src/config.ts' }, selectedText: "'ten'" } }, newText: '10' }] });
      const fixed = await settled(2);
      assert.deepEqual([fixed.text, fixed.resolved], ['No new errors', 'Resolves 1 error']);
      await waitFor('the resolved badge', async () => (await badges())['src/config.ts']?.length === 1);
      assert.deepEqual(await badges(), { 'src/greet.ts': [], 'src/config.ts': ['✓ 1'] });
      await click(frame, 'li.file[data-path="src/config.ts"] .file-select');
      await waitFor('config.ts selected', async () => (await frame.$eval('#diff-heading', (e) => e.dataset.path).catch(() => '')) === 'src/config.ts');
      const resolved = await waitFor('the resolved note', async () => ((await shown()).length === 1 ? await shown() : undefined));
      assert.equal(resolved.length, 1);
      assert.deepEqual(
        { ...resolved[0], text: resolved[0].text.replace(/TS2322.*was/, 'TS2322 … was') },
        { at: 'hunk 0', file: 'src/config.ts', resolved: true, text: '✓Resolved errorTS2322 … was line 2:14', line: 2 },
      );
      await frame.locator('.hunk[data-hunk="0"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-check-resolved-light.png') });
      await theme('Default Dark Modern', 'vscode-dark');
      await page.screenshot({ path: path.join(ARTIFACTS, 'panel-check-resolved-dark.png') });
    } finally {
      // The next tests start from the light theme and nothing staged, whatever failed here.
      await bridge('/config', { key: 'workbench.colorTheme', value: 'Default Light Modern' });
      if ((await history()).ok) await bridge('/command', { id: 'agentWorkbench.review.rollback' });
      await waitFor('rolled back', async () => (await history()).error?.code === 'NoActiveTransaction');
    }
    assert.ok(read('src/util.ts').equals(original.util));
  });

  await test('Try a Tool: the input opens prefilled from the first example, is checked against the schema as typed, and Run shows the envelope', async () => {
    const uri = await bridge('/command', { id: 'agentWorkbench.tryTool', args: ['workspace-list'] });
    assert.match(uri, /workspace-list\.input\.json$/);
    const inputEditor = await waitFor('the input editor', async () => (await bridge('/editors')).find((e) => e.uri === uri));
    const { $schema, ...input } = JSON.parse(inputEditor.text);
    assert.equal($schema, './workspace-list.schema.json');
    assert.deepEqual(input, ALL_TOOLS.find((t) => t.name === 'workspace-list').examples[0]?.request ?? {});
    // The input editor has the focus: type an unknown field after the $schema line.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.type(', "bogusField": 1');
    const problems = await waitFor(
      'a schema diagnostic',
      async () => {
        const d = await bridge('/diagnostics', { uri });
        return d.some((m) => /bogusField/.test(m)) ? d : undefined;
      },
      30_000,
    );
    assert.ok(
      problems.some((m) => /bogusField.*not allowed/i.test(m)),
      problems.join('; '),
    );
    for (let i = 0; i < ', "bogusField": 1'.length; i++) await page.keyboard.press('Backspace');
    await waitFor('no diagnostics after undo', async () => (await bridge('/diagnostics', { uri })).length === 0, 30_000);
    // Run it from the command palette, as a person would (the notification's Run button may have timed out by now).
    await page.keyboard.press('F1');
    await page.keyboard.type('Agent Workbench: Run the Tool Input in This Editor');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Run the Tool Input in This Editor' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    const result = await waitFor('the envelope', async () => (await bridge('/editors')).find((e) => e.uri.startsWith('untitled:') && e.text.includes('"ok"')));
    const envelope = JSON.parse(result.text);
    assert.equal(envelope.ok, true);
    assert.equal(envelope.data.workspaces.items.length, 1);
  });

  await test("Connect an Agent over MCP: the setup page copies; a rename staged over MCP shows in the panel; its commit is not the agent's to make; Commit in the panel writes it", async () => {
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl })
      .catch(() => {});
    await bridge('/command', { id: 'agentWorkbench.mcp.connect' });
    const setup = await waitFor('the setup page', async () => {
      for (const f of page.frames()) if (!f.isDetached() && (await f.$('button[data-copy="claude"]').catch(() => null))) return f;
      return undefined;
    });
    await setup.locator('button[data-copy="claude"]').click();
    const copied = await waitFor('the setup text on the clipboard', async () => {
      const text = await bridge('/clipboard');
      return /claude mcp add agent-workbench -- node .*dist\/mcp-stdio\.js/.test(text) ? text : undefined;
    });
    assert.match(copied, /claude mcp add --transport http agent-workbench http:\/\/127\.0\.0\.1:\d+\/mcp --header 'Authorization: Bearer [\w-]{43}'/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'mcp-setup.png') });
    // The theme test left high contrast on: the page in the default light theme too.
    await bridge('/config', { key: 'workbench.colorTheme', value: 'Default Light Modern' });
    await sleep(1500);
    await page.screenshot({ path: path.join(ARTIFACTS, 'mcp-setup-light.png') });
    const [name] = fs.readdirSync(mcpDir).filter((n) => n.endsWith('.json'));
    const entry = JSON.parse(fs.readFileSync(path.join(mcpDir, name), 'utf8'));
    assert.ok(copied.includes(entry.token) && copied.includes(entry.url));
    await waitFor('the status bar item', async () => (await page.locator('.statusbar').getByText(/MCP 0/).count()) > 0);
    const client = new Client({ name: 'panel-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
    try {
      await waitFor('the status bar counting the client', async () => (await page.locator('.statusbar').getByText(/MCP 1/).count()) > 0);
      const staged = await client.callTool({
        name: 'rename-symbol',
        arguments: { symbol: { location: { selection: { document: { path: 'src/greet.ts' }, selectedText: 'farewell' } } }, newName: 'sayGoodbye' },
      });
      assert.equal(staged.isError, false, JSON.stringify(staged.structuredContent));
      await bridge('/command', { id: 'agentWorkbench.review.open' });
      frame = await panel();
      await waitFor('the MCP rename in the panel', async () => (await domFiles(frame)).length === 1);
      assert.deepEqual(await domFiles(frame), await previewFiles());
      const revs = await frame.$$eval('li.revision', (els) => els.map((e) => e.querySelector('.rev-tool').textContent));
      assert.deepEqual(revs, ['rename-symbol']);
      const before = read('src/greet.ts').toString('utf8');
      // A commit over MCP asks the person in a modal; a window with a tests module (this one: the bridge) refuses every
      // dialog, and a question nobody could answer is a refusal. The real modal, clicked, is scripts/mcp-browser-test.mjs's.
      const declined = await client.callTool({ name: 'transaction-commit', arguments: {} });
      assert.equal(declined.isError, true);
      assert.equal(declined.structuredContent.error.code, 'TransactionCommitNotApproved', declined.structuredContent.error.message);
      assert.equal(read('src/greet.ts').toString('utf8'), before, 'nothing is written without the person');
      // The person commits it from the panel instead.
      await click(frame, 'button[data-action=commit]');
      await waitFor('the commit', async () => /Committed/.test((await frame.$eval('#outcome', (e) => e.textContent).catch(() => '')) ?? ''), 60_000);
      assert.equal(read('src/greet.ts').toString('utf8'), before.replace(/\bfarewell\b/g, 'sayGoodbye'));
    } finally {
      await client.close();
      await bridge('/config', { key: 'agentWorkbench.mcp.enabled', value: false });
    }
  });

  await test('after a window reload the serializer brings the panel back, showing the transaction that is still open', async () => {
    await fresh();
    await ok('move-file', { document: { path: 'src/util.ts' }, newPath: 'src/lib/util.ts' });
    await ok('edit-text', { edits: [greetHello] });
    await waitFor('two files before the reload', async () => (await domFiles(frame)).length === 2);
    const revisions = async (f) =>
      f.$$eval('li.revision', (els) => els.map((e) => [e.querySelector('.rev-tool').textContent, e.querySelector('.rev-by').textContent]));
    const before = { files: await domFiles(frame), revisions: await revisions(frame), history: (await history()).data };
    assert.deepEqual(before.revisions, [
      ['move-file', 'by the agent'],
      ['edit-text', 'by the agent'],
    ]);
    // The transaction is written to the extension's storage once its changes pause for a second: the reload waits for that write.
    await waitFor(
      "the transaction kept in the extension's storage at revision 2",
      () => keptTransactions().some((t) => t.current === 2 && t.revisions?.length === 2),
      30_000,
    ).catch(async (error) => {
      const kept = keptTransactions().map((t) => ({ id: t.id, current: t.current, revisions: t.revisions?.length }));
      const status = await call('server-status', {}).catch((e) => String(e));
      throw new Error(`${error.message}; kept: ${JSON.stringify(kept)}; server-status recovery: ${JSON.stringify(status?.data?.recovery ?? status)}`);
    });
    // The new window's extension host listens on the bridge's port: this one stops listening first, however long it lives on.
    assert.equal(await bridge('/release'), true);
    await page.reload();
    await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
    await waitFor('the bridge again', async () => (await bridge('/ping')).ok, 120_000);
    const tab = page.locator('.tabs-container .tab', { hasText: 'Review: staged changes' });
    await tab.waitFor({ timeout: 60_000 });
    await tab.click();
    frame = await panel();
    await waitFor('the restored panel shows the staged files', async () => (await domFiles(frame)).length === 2, 60_000);
    assert.deepEqual(await domFiles(frame), before.files);
    assert.deepEqual(await revisions(frame), before.revisions);
    assert.match(await meta(frame), /Revision 2 of 2/);
    assert.deepEqual((await history()).data, before.history, 'transaction-history answers the same transaction after the reload');
    const status = await ok('server-status', {});
    assert.equal(status.recovery.state, 'recovered', JSON.stringify(status.recovery));
    // It goes on where it stopped: Commit in the restored panel writes the staged text.
    await click(frame, 'button[data-action=commit]');
    await waitFor('the commit', async () => /Committed/.test((await frame.$eval('#outcome', (e) => e.textContent).catch(() => '')) ?? ''), 60_000);
    assert.ok(fs.existsSync(file('src/lib/util.ts')) && !fs.existsSync(file('src/util.ts')));
    assert.ok(read('src/lib/util.ts').equals(original.util));
    assert.match(read('src/greet.ts').toString('utf8'), /Hi/);
  });

  await bridge('/exit').catch(() => {});
} catch (error) {
  failures++;
  console.log(`review panel test run FAILED: ${error.stack ?? error}`);
  await page?.screenshot({ path: path.join(ARTIFACTS, 'failure.png') }).catch(() => {});
} finally {
  await browser?.close().catch(() => {});
  await server.stop();
  fixture.dispose();
}
console.log(`\n${passes} passing, ${failures} failing; screenshots in ${path.relative(REPO_ROOT, ARTIFACTS)}/`);
process.exit(failures > 0 ? 1 : 0);
