// npm run bench (scripts/bench.sh; compile first): measures, in one run,
//   - the size of the production bundle (and gzip), then rebuilds the dev bundle as it was;
//   - in a real, headless VS Code on a fresh copy of test/fixtures/sample (bench/inHost.ts):
//     activation, per-call overhead of the tool framework at three depths, the raw language-service
//     call and VS Code's own agent tools side by side, and the extension host's memory;
//   - in a real, headless VS Code on a generated 1,000-module TypeScript workspace
//     (scripts/synthetic-workspace.mjs, bench/large.ts): the cold start of find-references,
//     navigation tools against the raw commands and VS Code's own tools, a 5,000-reference rename
//     staged, previewed and committed against the raw rename provider + applyEdit + save, and the
//     memory of 20 staged revisions;
//   - in plain Node: unified hunks of a 50,000-line file against GNU diff -U3 (bench/diff.mjs);
//   - in a real, headless VS Code on each real code base of scripts/fixtures.mjs CODE_BASES
//     (bench/realcode.mjs, bench/realcode.ts): agent questions answered by the tools and the
//     grep-and-read way, in bytes, with each side's correctness (also alone: --only realcode);
//   - in a real, headless VS Code on a large real code base (bench/largeCode.mjs, bench/largeCode.ts):
//     each tool beside its raw command, the commit beside applyEdit + save, the check beside tsc
//     (also alone: --only large-code);
// then prints a Markdown table and writes bench/results/latest.json.
//
// Options: --iterations <n> (default 300, or $AW_BENCH_ITERATIONS), --warmup <n> (default 30, or
// $AW_BENCH_WARMUP). $AW_BENCH_SETTLE_MS (default 3000): pause after the TypeScript server first answers.
// The generated workspace: $AW_BENCH_LARGE_ITERATIONS / $AW_BENCH_LARGE_WARMUP (navigation rows, default 50 / 5),
// $AW_BENCH_RENAME_ITERATIONS (stage + preview against the raw provider, default 6) and
// $AW_BENCH_COMMIT_ITERATIONS (commits against raw applyEdit + save, default the rename iterations).
// Real code: --only realcode runs that part alone; $AW_REALCODE_BASES (comma-separated names) picks code bases.
// The large code base (bench/largeCode.mjs): --only large-code runs that part alone; $AW_LARGE_CODE_ONLY picks its parts;
// there $AW_BENCH_LARGE_ITERATIONS defaults to 60 and $AW_BENCH_RENAME_ITERATIONS to 10.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as zlib from 'node:zlib';
import { ensureHost, runExtensionTests } from '../scripts/vscode-host.mjs';
import { freshFixture, HEADLESS_USER_SETTINGS } from '../scripts/fixtures.mjs';
import { generateWorkspace } from '../scripts/synthetic-workspace.mjs';
import { benchDiff } from './diff.mjs';
import { benchRealcode } from './realcode.mjs';
import { benchLargeCode } from './largeCode.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = path.join(root, 'dist', 'extension.js');
const MCP_BUNDLE = path.join(root, 'dist', 'mcp-server.js');
const RESULTS = path.join(root, 'bench', 'results', 'latest.json');
const IN_HOST = path.join(root, 'out', 'bench', 'inHost.js');
const LARGE = path.join(root, 'out', 'bench', 'large.js');

const { values: options } = parseArgs({
  options: {
    iterations: { type: 'string', default: process.env.AW_BENCH_ITERATIONS ?? '300' },
    warmup: { type: 'string', default: process.env.AW_BENCH_WARMUP ?? '30' },
    only: { type: 'string' },
  },
});
const codeBases = process.env.AW_REALCODE_BASES
  ? process.env.AW_REALCODE_BASES.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  : undefined;
const iterations = Number(options.iterations);
const warmup = Number(options.warmup);
if (
  !Number.isInteger(iterations) ||
  iterations < 1 ||
  !Number.isInteger(warmup) ||
  warmup < 0 ||
  (options.only !== undefined && options.only !== 'realcode' && options.only !== 'large-code')
) {
  console.error('usage: node bench/run.mjs [--iterations <n >= 1>] [--warmup <n >= 0>] [--only realcode|large-code]');
  process.exit(2);
}
const command = process.env.npm_lifecycle_event
  ? `npm run ${process.env.npm_lifecycle_event}${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`
  : `node bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim();

if (options.only === 'realcode') {
  console.log('[bench] bundle: node esbuild.mjs (the dev bundle VS Code loads)');
  esbuild(false);
  await ensureHost();
  const realcode = await benchRealcode({ root, codeBases });
  console.log(`\n## Agent Workbench real-code bench, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}\n\nCommand: \`${command}\`\n\n${realcode.markdown}\n`);
  for (const f of realcode.failures) console.error(`[bench] FAILED ${f}`);
  process.exit(realcode.failures.length > 0 ? 1 : 0);
}

if (options.only === 'large-code') {
  console.log('[bench] bundle: node esbuild.mjs (the dev bundle VS Code loads)');
  esbuild(false);
  await ensureHost();
  const largeCode = await benchLargeCode({ root });
  console.log(
    `\n## Agent Workbench large-code-base bench, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}\n\nCommand: \`${command}\`\n\n${largeCode.markdown}\n`,
  );
  process.exit(largeCode.failures.length > 0 ? 1 : 0);
}

if (!fs.existsSync(IN_HOST)) {
  console.error(`${path.relative(root, IN_HOST)} is missing: compile first (npx tsc -p . --noEmit false --outDir out), or use npm run bench.`);
  process.exit(1);
}

// --- 1. bundle size ----------------------------------------------------------------------------

function esbuild(production) {
  execFileSync(process.execPath, ['esbuild.mjs', ...(production ? ['--production'] : [])], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

function bundleSize(file = BUNDLE) {
  const bytes = fs.readFileSync(file);
  return { bytes: bytes.length, gzipBytes: zlib.gzipSync(bytes, { level: 9 }).length };
}

console.log('[bench] bundle: node esbuild.mjs --production');
let production;
try {
  esbuild(true);
  production = bundleSize();
  production.mcpServer = bundleSize(MCP_BUNDLE);
} finally {
  // Leave the dev build as it was, even when the production build failed.
  console.log('[bench] bundle: node esbuild.mjs (rebuilding the dev bundle)');
  esbuild(false);
}
const dev = bundleSize();

// --- 2. in a real VS Code ------------------------------------------------------------------------

const host = await ensureHost();
const codeServerVersion = JSON.parse(fs.readFileSync(path.join(host, 'code-server/node_modules/code-server/package.json'), 'utf8')).version;
const fixture = freshFixture('sample');
const workspace = fixture.folder;
const resultFile = path.join(fixture.scratch, 'in-host.json');
console.log(`[bench] VS Code on a fresh copy of test/fixtures/sample: ${workspace}`);
let inHost;
try {
  const code = await runExtensionTests({
    extensionPath: root,
    testsPath: IN_HOST,
    workspace,
    trusted: true,
    env: { AW_BENCH_OUT: resultFile, AW_BENCH_ITERATIONS: String(iterations), AW_BENCH_WARMUP: String(warmup) },
    userSettings: HEADLESS_USER_SETTINGS,
  });
  if (code !== 0 || !fs.existsSync(resultFile)) {
    console.error(`[bench] FAILED: the in-host part exited with ${code}${fs.existsSync(resultFile) ? '' : ' and wrote no results'}`);
    process.exit(1);
  }
  inHost = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
} finally {
  fixture.dispose();
}

// --- 3. a generated 1,000-module workspace ------------------------------------------------------

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-large-'));
let large;
try {
  const synthetic = generateWorkspace(path.join(scratch, 'synthetic'), { files: 1000, uses: 4, hubs: 20 });
  const largeFile = path.join(scratch, 'large.json');
  console.log(
    `[bench] VS Code on a generated workspace: ${synthetic.files} modules, Entity ${synthetic.entityReferences} references, Channel ${synthetic.channelReferences}`,
  );
  const code = await runExtensionTests({
    extensionPath: root,
    testsPath: LARGE,
    workspace: synthetic.dir,
    trusted: true,
    env: { AW_BENCH_OUT: largeFile, AW_BENCH_SYNTHETIC: JSON.stringify(synthetic) },
    userSettings: HEADLESS_USER_SETTINGS,
  });
  if (code !== 0 || !fs.existsSync(largeFile)) {
    console.error(
      `[bench] FAILED: the large-workspace part exited with ${code}${fs.existsSync(largeFile) ? '' : ' and wrote no results'} (its failure is printed above, on lines starting [bench:large] FAILED)`,
    );
    process.exit(1);
  }
  large = JSON.parse(fs.readFileSync(largeFile, 'utf8'));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}

// --- 4. unified hunks against GNU diff ------------------------------------------------------------

console.log('[bench] unified hunks of a 50,000-line file with 500 changes: src/core/transactions/diff.ts against diff -U3');
const diff = benchDiff({ root });

// --- 4b. real code bases: tool bytes against grep-and-read bytes -----------------------------------

const realcode = await benchRealcode({ root, codeBases });

// --- 4c. a large real code base: each tool beside its raw command ------------------------------------

const largeCode = await benchLargeCode({ root });

// --- 5. report ---------------------------------------------------------------------------------

const group = (n) => n.toLocaleString('en-US');
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const bytes = (n) => `${group(n)} B (${kib(n)})`;
function ms(v) {
  if (v === undefined || v === null) return '';
  if (v < 10) return `${v.toFixed(3)} ms`;
  if (v < 100) return `${v.toFixed(2)} ms`;
  return `${group(Math.round(v))} ms`;
}
const signed = (v, fmt) => `${v >= 0 ? '+' : '−'}${fmt(Math.abs(v))}`;
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

const byId = new Map(inHost.rows.map((r) => [r.id, r]));
const median = (id) => byId.get(id)?.stats?.medianMs;

const cpus = os.cpus();
const machine = {
  cores: cpus.length,
  cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
  memoryBytes: os.totalmem(),
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  nodeRunner: process.version,
  nodeExtensionHost: inHost.hostNode,
  vscodeVersion: inHost.vscodeVersion,
  codeServerVersion,
};

const lines = [];
const row = (measure, value, p95, notes) => lines.push(`| ${cell(measure)} | ${cell(value)} | ${cell(p95)} | ${cell(notes)} |`);
lines.push(`| Measure | value / median | p95 | notes |`, `|---|---:|---:|---|`);
row(
  'Bundle, production (`node esbuild.mjs --production`)',
  bytes(production.bytes),
  '',
  `gzip -9: ${bytes(production.gzipBytes)}; the MCP server apart (dist/mcp-server.js, loaded only when it starts): ${bytes(production.mcpServer.bytes)}`,
);
row('Bundle, dev (`node esbuild.mjs`, loaded below)', bytes(dev.bytes), '', `gzip -9: ${bytes(dev.gzipBytes)}`);
const act = inHost.activation;
row(
  act.activationMs === null ? 'Activation: `await ext.activate()` (API has no activationMs)' : 'Activation: activate() body (api.activationMs)',
  ms(act.activationMs ?? act.activateCallMs),
  '',
  act.activationMs === null
    ? `measured by the bench${act.wasActiveBeforeBench ? '; the extension was already active, so this is not its activation' : ''}`
    : `Date.now() resolution. \`await ext.activate()\` in the bench took ${ms(act.activateCallMs)}` +
        (act.wasActiveBeforeBench
          ? ' (already active at startup)'
          : ' (the bench triggered activation: loading the bundle, VS Code’s bookkeeping and activate())'),
);
row(
  'TypeScript server ready (first document symbols of src/greeter.ts)',
  ms(inHost.typescriptReadyMs),
  '',
  `once per run; measuring starts ${ms(inHost.config.settleMs)} later`,
);

for (const tool of ['server-status', 'get-code-context']) {
  const rows = inHost.rows.filter((r) => r.id.startsWith(`${tool}.`) || (tool === 'get-code-context' && r.id === 'executeDocumentSymbolProvider'));
  row(`**${rows[0].group}**`, '', '', '');
  const letters = { direct: 'a', runner: 'b', lm: 'c' };
  for (const r of rows) {
    const kind = r.id.split('.')[1];
    const a = median(`${tool}.direct`);
    const b = median(`${tool}.runner`);
    const c = median(`${tool}.lm`);
    let notes = `n=${r.stats.n}, mean ${ms(r.stats.meanMs)}, max ${ms(r.stats.maxMs)}`;
    if (kind === 'runner') notes = `chain adds ${signed(b - a, ms)} (median b − a); ${notes}`;
    if (kind === 'lm') notes = `vscode.lm adds ${signed(c - b, ms)} (median c − b); ${notes}`;
    if (r.note) notes += `; ${r.note}`;
    row(`${letters[kind] ? `${letters[kind]}. ` : ''}${r.label}`, ms(r.stats.medianMs), ms(r.stats.p95Ms), notes);
  }
}

row('**VS Code agent tools (same method, src/greeter.ts)**', '', '', '');
for (const r of inHost.rows.filter((x) => x.group === 'VS Code agent tools')) {
  if (r.status === 'refused') row(r.label, `refused: ${r.reason}`, '', r.sample ? `answer: ${r.sample}` : '');
  else row(r.label, ms(r.stats.medianMs), ms(r.stats.p95Ms), `n=${r.stats.n}, mean ${ms(r.stats.meanMs)}, max ${ms(r.stats.maxMs)}; ${r.note}`);
}

const mem = inHost.memory;
const gcNote = mem.gcForced ? 'before and "after GC" read right after a forced GC' : 'no GC could be forced: raw readings';
row(
  '**Extension host memory**',
  '',
  '',
  `${group(mem.calls)} calls between before and after (warm-ups included); ${gcNote}; the host is shared with the other extensions`,
);
for (const key of ['heapUsed', 'rss']) {
  row(
    `${key} before → after GC`,
    `${mib(mem.before[key])} → ${mib(mem.afterGc[key])}`,
    '',
    `${signed(mem.afterGc[key] - mem.before[key], mib)} retained; ${mib(mem.after[key])} just after the last call, before GC`,
  );
}

const largeById = new Map(large.rows.map((r) => [r.id, r]));
const largeMedian = (id) => largeById.get(id)?.stats?.medianMs;
const ratio = (a, b) => (a !== undefined && b ? `${(a / b).toFixed(2)}×` : 'n/a');
const cs = large.coldStart;
row('**Cold start, generated workspace (find-references on Channel)**', '', '', `${cs.expected} references expected`);
row('TypeScript server ready (first document symbols)', ms(cs.typescriptReadyMs), '', 'from the start of the bench in the fresh window');
row(
  'raw executeReferenceProvider, first answer',
  `${cs.rawFirst.count} references at ${ms(cs.rawFirst.atMs)}`,
  '',
  cs.rawFirst.count < cs.expected ? 'incomplete, and nothing says so' : 'complete',
);
row(
  'find-references (vscode.lm), first answer',
  `${cs.toolFirst.count} references at ${ms(cs.toolFirst.atMs)}`,
  '',
  `complete: ${cs.toolFirst.complete}; the call took ${ms(cs.toolFirst.durationMs)}`,
);
row(
  'raw executeReferenceProvider, first complete answer',
  cs.rawComplete ? `${cs.rawComplete.count} at ${ms(cs.rawComplete.atMs)}` : 'never within 60 s',
  '',
  cs.rawComplete ? `${cs.rawComplete.probes} probes, 250 ms apart` : '',
);
const navTools = ['search-symbols', 'get-document-outline', 'go-to-definition', 'find-references'];
const rawIds = {
  'search-symbols': 'raw.workspaceSymbols',
  'get-document-outline': 'raw.documentSymbols',
  'go-to-definition': 'raw.definition',
  'find-references': 'raw.references',
};
for (const t of navTools) {
  row(`**${t}** (1,000-module workspace)`, '', '', '');
  for (const r of large.rows.filter((x) => x.group.startsWith(`${t} (`))) {
    const kind = r.id.split('.').pop();
    let notes = `n=${r.stats.n}`;
    if (kind === 'runner') notes = `**${ratio(r.stats.medianMs, largeMedian(rawIds[t]))} of the raw command** (b / raw); ${notes}`;
    if (kind === 'lm') notes = `${ratio(r.stats.medianMs, largeMedian(rawIds[t]))} of the raw command end to end; ${notes}`;
    row(r.label, ms(r.stats.medianMs), ms(r.stats.p95Ms), notes);
  }
}
const u = large.usages;
row('**find-references beside vscode_listCodeUsages and grep (Channel)**', '', '', `${u.expected} references`);
row('find-references: recall, bytes', `${u.ours.found}/${u.expected}`, '', `${group(u.ours.bytes)} B, ${u.ours.bytesPerReference.toFixed(1)} B per reference`);
if (u.vscode)
  row(
    'vscode_listCodeUsages: recall, bytes',
    `${u.vscode.found}/${u.expected}`,
    '',
    `${group(u.vscode.bytes)} B, ${u.vscode.bytesPerReference.toFixed(1)} B per usage`,
  );
row('grep -rnw Channel', `${u.grep.lines} lines`, '', `${group(u.grep.bytes)} B, ${u.grep.bytesPerLine.toFixed(1)} B per line`);
for (const r of large.rows.filter((x) => x.group.startsWith('find-references beside'))) row(r.label, ms(r.stats.medianMs), ms(r.stats.p95Ms), `n=${r.stats.n}`);
const renameGroup = large.rows.find((r) => r.id.startsWith('rename.'))?.group ?? 'rename';
row(`**${renameGroup}**`, '', '', '');
for (const r of large.rows.filter((x) => x.id.startsWith('rename.'))) {
  if (r.status === 'failed') {
    row(r.label, 'FAILED', '', `${r.stats ? `after ${r.stats.n} calls (median ${ms(r.stats.medianMs)}): ` : ''}${r.error.split('\n')[0]}`);
    continue;
  }
  let notes = `n=${r.stats.n}`;
  if (r.id === 'rename.stagePreview') notes = `**${ratio(r.stats.medianMs, largeMedian('rename.rawRename'))} of the raw rename provider**; ${notes}`;
  if (r.id === 'rename.commit') notes = `**${ratio(r.stats.medianMs, largeMedian('rename.rawApplySave'))} of raw applyEdit + save**; ${notes}`;
  row(r.label, ms(r.stats.medianMs), ms(r.stats.p95Ms), notes);
}
const lm = large.memory;
row(
  `heapUsed: ${lm.revisions} staged revisions (each a rename of ${group(lm.editsPerRevision)} references)`,
  `${mib(lm.before.heapUsed)} → ${mib(lm.afterStaging.heapUsed)}`,
  '',
  `${signed(lm.afterStaging.heapUsed - lm.before.heapUsed, mib)} while staged; ${mib(lm.afterRollback.heapUsed)} after rollback${lm.gcForced ? ' (after forced GC)' : ''}`,
);
row(
  `**Unified hunks, ${group(diff.lines)}-line file, ${diff.changes} changes**`,
  '',
  '',
  `+${diff.ours.added} −${diff.ours.removed} lines, ${diff.countsAgree ? 'the same counts as' : 'DIFFERENT counts from'} GNU diff; ${diff.iterations} runs each`,
);
row(
  'src/core/transactions/diff.ts diffTexts (contextLines 3)',
  ms(diff.ours.medianMs),
  '',
  `**${ratio(diff.ours.medianMs, diff.gnu.medianMs)} of diff -U3**; ${diff.ours.hunks} hunks`,
);
row(`${diff.gnu.version}: diff -U3, process start included`, ms(diff.gnu.medianMs), '', `+${diff.gnu.added} −${diff.gnu.removed}`);

const header = [
  `## Agent Workbench ${inHost.extension.version} bench, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
  '',
  `Command: \`${command}\``,
  `Machine: ${machine.cores} cores (${machine.cpuModel}), ${(machine.memoryBytes / 1024 ** 3).toFixed(1)} GiB RAM, ${machine.os}; ` +
    `Node ${machine.nodeRunner} (runner), ${machine.nodeExtensionHost} (extension host); ` +
    `VS Code ${machine.vscodeVersion} (code-server ${machine.codeServerVersion}, web client in headless chromium)`,
  `Calls: ${warmup} warm-up + ${iterations} measured per row; the rows of a group run interleaved. ` +
    'a = the tool body over a VsCodeHost (out/src), b = a through ToolRunner.invoke (validation, timeout, bounding, logging), ' +
    'c = vscode.lm.invokeTool into the activated extension (dist bundle).',
  '',
];
const markdown = [
  ...header,
  ...lines,
  '',
  '### Real code: answer bytes against grep-and-read bytes',
  '',
  realcode.markdown,
  '',
  '### A large code base: each tool beside its raw command',
  '',
  largeCode.markdown,
].join('\n');
console.log(`\n${markdown}\n`);

const report = {
  generatedAt: new Date().toISOString(),
  command,
  machine,
  config: inHost.config,
  bundle: {
    production: { command: 'node esbuild.mjs --production', file: 'dist/extension.js', ...production, gzipLevel: 9 },
    dev: { command: 'node esbuild.mjs', file: 'dist/extension.js', ...dev, gzipLevel: 9 },
  },
  activation: inHost.activation,
  typescriptReadyMs: inHost.typescriptReadyMs,
  overheadMs: Object.fromEntries(
    ['server-status', 'get-code-context'].map((t) => [
      t,
      { chainMedian: median(`${t}.runner`) - median(`${t}.direct`), lmMedian: median(`${t}.lm`) - median(`${t}.runner`) },
    ]),
  ),
  rows: inHost.rows,
  memory: inHost.memory,
  vscodeTools: inHost.lmTools,
  large,
  diff,
  realcode: { totals: realcode.totals, failures: realcode.failures, file: 'bench/results/realcode.json' },
  largeCode: { verdicts: largeCode.verdicts, failures: largeCode.failures, file: 'bench/results/large-code.json' },
  markdown,
};
fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
fs.writeFileSync(`${RESULTS}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
fs.renameSync(`${RESULTS}.tmp`, RESULTS);
console.log(`[bench] wrote ${path.relative(root, RESULTS)}`);
const failedRows = [...inHost.rows, ...large.rows].filter((r) => r.status === 'failed');
for (const r of failedRows) console.error(`[bench] FAILED row ${r.id} (${r.label}):\n${r.error}`);
for (const f of realcode.failures) console.error(`[bench] FAILED real code ${f}`);
for (const f of largeCode.failures) console.error(`[bench] FAILED large code base ${f}`);
if (failedRows.length > 0 || realcode.failures.length > 0 || largeCode.failures.length > 0) process.exit(1);
