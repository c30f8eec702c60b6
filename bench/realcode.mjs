// The real-code part of `npm run bench` (also alone: `node bench/run.mjs --only realcode`, after
// compiling): for each code base of scripts/fixtures.mjs CODE_BASES, a fresh headless VS Code on a
// temp copy of its sources runs bench/realcode.ts, which asks a fixed list of agent questions
// through the tools and the grep-and-read way. Returns the per-question rows, the totals and a
// Markdown table; writes bench/results/realcode.json.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runExtensionTests } from '../scripts/vscode-host.mjs';
import { CODE_BASES, codeBaseWorkspace, HEADLESS_USER_SETTINGS } from '../scripts/fixtures.mjs';

/** Targets: each answer no larger than the grep-and-read way, the suite at most a fifth of it. */
export const TARGET_PER_QUESTION = 1;
export const TARGET_SUITE = 0.2;

const group = (n) => n.toLocaleString('en-US');
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

// The large code base has its own part (bench/largeCode.mjs): the questions here are written for the others.
export async function benchRealcode({ root, codeBases = Object.keys(CODE_BASES).filter((name) => !CODE_BASES[name].large) }) {
  const testsPath = path.join(root, 'out', 'bench', 'realcode.js');
  if (!fs.existsSync(testsPath)) throw new Error(`${path.relative(root, testsPath)} is missing: compile first (npx tsc -p . --noEmit false --outDir out)`);
  const results = [];
  const failures = [];
  const dumpTo = process.env.AW_REALCODE_DUMP ? path.resolve(process.env.AW_REALCODE_DUMP) : undefined;
  if (dumpTo) fs.mkdirSync(dumpTo, { recursive: true });
  for (const name of codeBases) {
    const ws = codeBaseWorkspace(name);
    const out = path.join(ws.scratch, 'realcode.json');
    console.log(`[bench] VS Code on ${ws.package} ${ws.version}'s sources: ${ws.folder}`);
    try {
      const code = await runExtensionTests({
        extensionPath: root,
        testsPath,
        workspace: ws.folder,
        trusted: true,
        env: {
          AW_BENCH_OUT: out,
          AW_REALCODE_BASE: name,
          AW_REALCODE_META: JSON.stringify({ package: ws.package, version: ws.version }),
          ...(dumpTo ? { AW_REALCODE_DUMP: dumpTo } : {}),
        },
        userSettings: HEADLESS_USER_SETTINGS,
      });
      if (code !== 0 || !fs.existsSync(out)) {
        failures.push(`${name}: the in-host part exited with ${code}${fs.existsSync(out) ? '' : ' and wrote no results'} (see [bench:realcode] FAILED above)`);
        continue;
      }
      results.push(JSON.parse(fs.readFileSync(out, 'utf8')));
    } finally {
      ws.dispose();
    }
  }
  const report = summarize(results, failures);
  const file = path.join(root, 'bench', 'results', 'realcode.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ generatedAt: new Date().toISOString(), ...report }, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  console.log(`[bench] wrote ${path.relative(root, file)}`);
  return report;
}

function summarize(results, failures) {
  const answers = results.flatMap((r) => r.answers);
  const measured = answers.filter((a) => a.status === 'measured');
  const toolTotal = measured.reduce((n, a) => n + a.tool.bytes, 0);
  const grepTotal = measured.reduce((n, a) => n + a.grep.bytes, 0);
  const lines = [
    '| code base | question | tool bytes (calls) | grep-and-read bytes | tool / grep | ≤ 1× | tool vs raw | grep: false positives / misses |',
    '|---|---|---:|---:|---:|:-:|---|---|',
  ];
  for (const r of results) {
    for (const a of r.answers) {
      const base = `${r.package} ${r.version}`;
      if (a.status === 'failed') {
        lines.push(
          `| ${cell(base)} | ${cell(a.question)} | FAILED${a.tool ? ` after ${group(a.tool.bytes)} B in ${a.tool.calls} calls` : ''} |  |  | ✗ | ${cell(a.error.split('\n')[0])} |  |`,
        );
        continue;
      }
      const c = a.correctness;
      const ratio = a.tool.bytes / Math.max(1, a.grep.bytes);
      const toolVsRaw = c.rawCount === null ? (c.toolMisses === 0 ? 'answers' : 'no answer') : `${c.toolCount} listed, ${c.toolMisses} of ${c.rawCount} missed`;
      const grepSide =
        c.grepFalsePositives === null
          ? `${c.grepCount} ${a.kind === 'info' || a.kind === 'outline' ? 'lines' : 'files'} read`
          : `${c.grepFalsePositives} of ${c.grepCount} lines${c.grepMisses === null ? '' : `; ${c.grepMisses} missed`}`;
      lines.push(
        `| ${cell(base)} | ${cell(a.question)} | ${group(a.tool.bytes)} (${a.tool.calls}) | ${group(a.grep.bytes)} | ${ratio.toFixed(2)}× | ${ratio <= TARGET_PER_QUESTION ? '✓' : '✗'} | ${cell(toolVsRaw)} | ${cell(grepSide)} |`,
      );
    }
    const m = r.answers.filter((a) => a.status === 'measured');
    const t = m.reduce((n, a) => n + a.tool.bytes, 0);
    const g = m.reduce((n, a) => n + a.grep.bytes, 0);
    lines.push(
      `| **${cell(r.package)}** (${group(r.files)} files, ${group(r.lines)} lines) | **all ${m.length} questions** | **${group(t)}** | **${group(g)}** | **${(t / Math.max(1, g)).toFixed(2)}×** |  |  |  |`,
    );
  }
  const suiteRatio = toolTotal / Math.max(1, grepTotal);
  lines.push(
    `| **suite** | **${measured.length} questions, ${results.length} code bases** | **${group(toolTotal)}** | **${group(grepTotal)}** | **${suiteRatio.toFixed(2)}×** | ${suiteRatio <= TARGET_SUITE ? '✓ (≤ 0.2×)' : '✗ (target ≤ 0.2×)'} |  |  |`,
  );
  // The outline questions were added after the other kinds of question: the suite is also said without them, to compare with earlier runs.
  const asked = measured.filter((a) => a.kind !== 'outline');
  const askedTool = asked.reduce((n, a) => n + a.tool.bytes, 0);
  const askedGrep = asked.reduce((n, a) => n + a.grep.bytes, 0);
  if (asked.length < measured.length) {
    lines.push(
      `| **suite without the outlines** | **${asked.length} questions** | **${group(askedTool)}** | **${group(askedGrep)}** | **${(askedTool / Math.max(1, askedGrep)).toFixed(2)}×** | ${askedTool / Math.max(1, askedGrep) <= TARGET_SUITE ? '✓' : '✗'} |  |  |`,
    );
  }
  for (const f of failures) lines.push(`| FAILED | ${cell(f)} |  |  |  | ✗ |  |  |`);
  const missed = measured.filter((a) => a.tool.bytes > a.grep.bytes * TARGET_PER_QUESTION).map((a) => a.id);
  return {
    targets: { perQuestion: TARGET_PER_QUESTION, suite: TARGET_SUITE },
    totals: { toolBytes: toolTotal, grepBytes: grepTotal, ratio: suiteRatio, suiteMet: suiteRatio <= TARGET_SUITE, questionsMissing: missed },
    codeBases: results,
    failures: [...failures, ...answers.filter((a) => a.status === 'failed').map((a) => `${a.id}: ${a.error.split('\n')[0]}`)],
    markdown: lines.join('\n'),
  };
}
