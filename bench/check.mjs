// node [--expose-gc] bench/check.mjs [--runs <n>] [--only synthetic|rxjs] [--typescript <typescript.js>]
// (npm run bench:check compiles, bundles and runs it with --expose-gc): the pre-commit checker
// driven as the host drives it (src/checker/client.ts's CheckerClient over dist/check-worker.js,
// with VS Code's bundled TypeScript from the headless host's code-server install), in plain Node,
// beside `tsc --noEmit -p` of the same project with the same TypeScript module, on (a) the
// generated 1,000-module workspace, renaming `Entity`, and (b) rxjs's sources, renaming
// `isFunction`. The staged rename is every identifier token spelled like the name replaced (found
// with TypeScript's parser, so import paths and strings are left alone), in every file holding
// one: what the rename provider stages here, property names of the same spelling aside (none in
// these two). Runs are interleaved (tsc and the checker alternate which goes first); medians are
// reported with the load average. Writes bench/results/check.json and prints a Markdown table.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureHost, runExtensionTests } from '../scripts/vscode-host.mjs';
import { codeBaseWorkspace, HEADLESS_USER_SETTINGS } from '../scripts/fixtures.mjs';
import { generateWorkspace } from '../scripts/synthetic-workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    only: { type: 'string' },
    typescript: { type: 'string' },
    navigation: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/check.mjs [--runs <n >= 1>] [--only synthetic|rxjs] [--typescript <path of typescript.js>]');
  process.exit(2);
}
const CLIENT = path.join(root, 'out', 'src', 'checker', 'client.js');
const WORKER = path.join(root, 'dist', 'check-worker.js');
for (const file of [CLIENT, WORKER]) {
  if (!fs.existsSync(file)) {
    console.error(`${path.relative(root, file)} is missing: compile and bundle first (npx tsc -p . --noEmit false --outDir out && node esbuild.mjs)`);
    process.exit(1);
  }
}
const { CheckerClient } = require(CLIENT);

if (values.navigation) {
  await navigation();
  process.exit(0);
}

/**
 * --navigation: a real, headless VS Code on the generated workspace (bench/checkNavInHost.ts):
 * go-to-definition through the extension's tools idle and while transaction-check runs the first
 * check of a staged rename of Entity. Writes bench/results/check-navigation.json.
 */
async function navigation() {
  const inHost = path.join(root, 'out', 'bench', 'checkNavInHost.js');
  if (!fs.existsSync(inHost)) throw new Error(`${path.relative(root, inHost)} is missing: compile first`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-check-nav-'));
  try {
    const synthetic = generateWorkspace(path.join(scratch, 'synthetic'), { files: 1000 });
    const file = path.join(scratch, 'nav.json');
    console.log(`[bench:check] VS Code on the generated workspace (1,000 modules): navigation idle and during a check; load ${loadavg().join(' ')}`);
    const code = await runExtensionTests({
      extensionPath: root,
      testsPath: inHost,
      workspace: synthetic.dir,
      trusted: true,
      env: { AW_BENCH_OUT: file, AW_BENCH_SYNTHETIC: JSON.stringify(synthetic) },
      userSettings: HEADLESS_USER_SETTINGS,
    });
    if (code !== 0 || !fs.existsSync(file)) throw new Error(`the in-host part exited with ${code} (see [bench:check-nav] FAILED above)`);
    const result = { generatedAt: new Date().toISOString(), gitHead: gitHead(), load: loadavg(), ...JSON.parse(fs.readFileSync(file, 'utf8')) };
    const ratio = result.during ? result.during.medianMs / result.idle.medianMs : null;
    console.log(
      `[bench:check] go-to-definition: idle median ${result.idle.medianMs.toFixed(0)} ms (n=${result.idle.n}), during the check ${result.during ? `${result.during.medianMs.toFixed(0)} ms (n=${result.during.n})` : 'not measured (the check ended first)'}` +
        `${ratio === null ? '' : `, ${ratio.toFixed(2)}× idle (target 1.5×)`}; the check took ${(result.checkMs / 1000).toFixed(1)} s; ` +
        `the review panel's first opening: ${result.panelFirstOpen.beforeMs.toFixed(0)} ms before it, ${result.panelFirstOpen.firstCallAfterMs.toFixed(0)} ms right after; load ${result.load.join(' ')}`,
    );
    const out = path.join(root, 'bench', 'results', 'check-navigation.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify({ ...result, duringOverIdle: ratio }, null, 2)}\n`);
    console.log(`[bench:check] wrote ${path.relative(root, out)}`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** What host/checker.ts's bundledTypeScript() finds in the host: <appRoot>/extensions/node_modules/typescript. */
async function hostTypeScript() {
  if (values.typescript) return path.resolve(values.typescript);
  const host = await ensureHost();
  return path.join(host, 'code-server/node_modules/code-server/lib/vscode/extensions/node_modules/typescript/lib/typescript.js');
}
const typescriptPath = await hostTypeScript();
const ts = require(typescriptPath);
const tsVersion = ts.version;

/** folder-relative path → text with every identifier token `name` replaced by `to`, for each .ts file holding one. */
function stagedRename(folder, name, to) {
  const staged = {};
  let references = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(file);
        continue;
      }
      if (!/\.tsx?$/.test(entry.name)) continue;
      const text = fs.readFileSync(file, 'utf8');
      if (!text.includes(name)) continue;
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
      const starts = [];
      const visit = (node) => {
        if (ts.isIdentifier(node) && node.text === name) starts.push(node.getStart(sf));
        ts.forEachChild(node, visit);
      };
      visit(sf);
      if (starts.length === 0) continue;
      references += starts.length;
      let out = text;
      for (const start of starts.sort((a, b) => b - a)) out = out.slice(0, start) + to + out.slice(start + name.length);
      staged[path.relative(folder, file).split(path.sep).join('/')] = out;
    }
  };
  walk(folder);
  return { staged, references };
}

/** A one-line edit of a staged file that leaves its exported shape alone: a top-level statement appended. */
const oneLineEdit = (text, run) => `${text}${text.endsWith('\n') ? '' : '\n'}const benchEdit${run} = ${run};\n`;

/** `tsc --noEmit -p <tsconfig>` with the given TypeScript module, process start included (VS Code ships typescript.js, not lib/tsc.js). */
function tsc(tsconfig) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        'const ts = require(process.argv[1]); ts.executeCommandLine(ts.sys, () => {}, process.argv.slice(2));',
        typescriptPath,
        '--noEmit',
        '-p',
        tsconfig,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        ms: performance.now() - started,
        code,
        errors: (out.match(/error TS\d+/g) ?? []).length,
        firstError: out.split('\n').find((l) => /error TS\d+/.test(l)),
      }),
    );
  });
}

async function checker(folder, staged, editFile, run) {
  const client = new CheckerClient({ typescriptPath, workerPath: WORKER });
  try {
    let started = performance.now();
    const first = await client.check({ folder, staged, buffers: {} });
    const coldMs = performance.now() - started;
    if (first.outcome !== 'checked') throw new Error(`the first check answered ${first.outcome}`);
    const edited = { ...staged, [editFile]: oneLineEdit(staged[editFile], run) };
    started = performance.now();
    const again = await client.check({ folder, staged: edited, buffers: {} });
    const recheckMs = performance.now() - started;
    if (again.outcome !== 'checked') throw new Error(`the re-check answered ${again.outcome}`);
    const memory = await client.memory();
    return { coldMs, recheckMs, memory, first, again };
  } finally {
    await client.dispose();
  }
}

function gitHead() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function loadavg() {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = (r) => ({
  introduced: r.introduced.length,
  resolved: r.resolved.length,
  checked: r.checked.length,
  complete: r.complete,
  reasons: r.reasons,
  stats: r.stats,
});

function workspaces() {
  const all = [];
  if (!values.only || values.only === 'synthetic') {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-check-'));
    const info = generateWorkspace(path.join(scratch, 'synthetic'), { files: 1000 });
    all.push({
      name: 'generated workspace (1,000 modules)',
      key: 'synthetic',
      folder: info.dir,
      symbol: 'Entity',
      editFile: info.entityPath,
      dispose: () => fs.rmSync(scratch, { recursive: true, force: true }),
    });
  }
  if (!values.only || values.only === 'rxjs') {
    const ws = codeBaseWorkspace('rxjs');
    // TypeScript 6 refuses moduleResolution "node" (TS5107) unless told to, and tsc then checks nothing: the bench's copy says so, for both.
    const tsconfigPath = path.join(ws.folder, 'tsconfig.json');
    const tsconfig = JSON.parse(fs.readFileSync(tsconfigPath, 'utf8'));
    if (Number(tsVersion.split('.')[0]) >= 6) tsconfig.compilerOptions.ignoreDeprecations = '6.0';
    fs.writeFileSync(tsconfigPath, `${JSON.stringify(tsconfig, null, 2)}\n`);
    all.push({
      name: `rxjs ${ws.version} (src/)`,
      key: 'rxjs',
      folder: ws.folder,
      symbol: 'isFunction',
      editFile: 'src/internal/util/isFunction.ts',
      dispose: ws.dispose,
    });
  }
  return all;
}

console.log(`[bench:check] TypeScript ${tsVersion} (${typescriptPath}), Node ${process.version}, ${os.cpus().length} cores, load ${loadavg().join(' ')}`);
const rows = [];
for (const ws of workspaces()) {
  try {
    const { staged, references } = stagedRename(ws.folder, ws.symbol, `${ws.symbol}Renamed`);
    if (!(ws.editFile in staged)) throw new Error(`${ws.editFile} holds no ${ws.symbol}`);
    const files = Object.keys(staged).length;
    console.log(`[bench:check] ${ws.name}: rename ${ws.symbol} (${references} identifiers in ${files} files), ${runs} runs`);
    const samples = [];
    for (let run = 1; run <= runs; run++) {
      const loadBefore = loadavg();
      const order = run % 2 ? ['tsc', 'checker'] : ['checker', 'tsc'];
      const sample = { run, order, loadBefore };
      for (const which of order) {
        if (which === 'tsc') sample.tsc = await tsc(path.join(ws.folder, 'tsconfig.json'));
        else sample.checker = await checker(ws.folder, staged, ws.editFile, run);
      }
      sample.loadAfter = loadavg();
      const c = sample.checker;
      console.log(
        `[bench:check]   run ${run}: tsc ${Math.round(sample.tsc.ms)} ms (${sample.tsc.errors} errors${sample.tsc.firstError ? `: ${sample.tsc.firstError}` : ''}), first check ${Math.round(c.coldMs)} ms ` +
          `(${c.first.stats.recomputedBase}+${c.first.stats.recomputedStaged} files computed, ${c.first.checked.length} covered, ${c.first.introduced.length} introduced), ` +
          `re-check ${Math.round(c.recheckMs)} ms (${c.again.stats.recomputedBase}+${c.again.stats.recomputedStaged}), heap ${c.memory ? Math.round(c.memory.heapUsed / 2 ** 20) : '?'} MiB; load ${sample.loadAfter[0]}`,
      );
      samples.push({
        ...sample,
        checker: { coldMs: c.coldMs, recheckMs: c.recheckMs, memory: c.memory, first: summary(c.first), again: summary(c.again) },
      });
    }
    const tscMs = median(samples.map((s) => s.tsc.ms));
    const coldMs = median(samples.map((s) => s.checker.coldMs));
    const recheckMs = median(samples.map((s) => s.checker.recheckMs));
    rows.push({
      workspace: ws.name,
      key: ws.key,
      symbol: ws.symbol,
      references,
      stagedFiles: files,
      runs,
      tscMs,
      coldMs,
      recheckMs,
      coldOverTsc: median(samples.map((s) => s.checker.coldMs / s.tsc.ms)),
      recheckOverCold: median(samples.map((s) => s.checker.recheckMs / s.checker.coldMs)),
      heapUsedMiB: median(samples.filter((s) => s.checker.memory).map((s) => s.checker.memory.heapUsed / 2 ** 20)),
      heapCollected: samples.every((s) => s.checker.memory?.collected),
      load: median(samples.map((s) => s.loadAfter[0])),
      samples,
    });
  } finally {
    ws.dispose();
  }
}

const ms = (x) => `${(x / 1000).toFixed(2)} s`;
const table = [
  '| workspace (rename) | tsc --noEmit -p | first check | first / tsc | re-check after a one-line edit | re-check / first | warm heap | load (1 min) |',
  '|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.workspace}: \`${r.symbol}\`, ${r.references} identifiers in ${r.stagedFiles} files | ${ms(r.tscMs)} | ${ms(r.coldMs)} | ${r.coldOverTsc.toFixed(2)}× | ` +
      `${ms(r.recheckMs)} | ${(100 * r.recheckOverCold).toFixed(1)}% | ${Math.round(r.heapUsedMiB)} MiB${r.heapCollected ? '' : ' (not collected)'} | ${r.load} |`,
  ),
];
console.log(
  `\nMedians of ${runs} interleaved runs each; tsc = \`tsc --noEmit -p\` through typescript.js's executeCommandLine in a new Node process (process start included); ` +
    `first check = a new CheckerClient's first answer on the staged rename (worker start and TypeScript load included); ratios are medians of each run's own ratio.\n`,
);
console.log(table.join('\n'));
const file = path.join(root, 'bench', 'results', 'check.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
const head = gitHead();
fs.writeFileSync(
  file,
  `${JSON.stringify({ generatedAt: new Date().toISOString(), typescript: tsVersion, node: process.version, cores: os.cpus().length, gitHead: head, rows }, null, 2)}\n`,
);
console.log(`\n[bench:check] wrote ${path.relative(root, file)}`);
