// The large-code-base part of `npm run bench` (also alone: `node bench/run.mjs --only large-code`,
// after compiling and bundling): a fresh headless VS Code on a temp copy of effect's sources
// (scripts/fixtures.mjs CODE_BASES.effect) runs bench/largeCode.ts. Returns the result, the rows
// against their targets and a Markdown table; writes bench/results/large-code.json.
// $AW_LARGE_CODE_ONLY (comma-separated: open, navigation, rename, commit, check, memory) picks parts.
import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runExtensionTests } from '../scripts/vscode-host.mjs';
import { codeBaseWorkspace, HEADLESS_USER_SETTINGS } from '../scripts/fixtures.mjs';

export const LARGE_CODE_BASE = 'effect';

/** Each tool's time over the raw command's, at most. */
export const TARGETS = { navigation: 1.15, stagePreview: 1.3, commit: 2, firstCheckOverTsc: 1, recheckOverFirst: 0.1 };

const medianOf = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const group = (n) => n.toLocaleString('en-US');
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const ms = (v) => (v === undefined || v === null ? '' : v < 100 ? `${v.toFixed(1)} ms` : `${group(Math.round(v))} ms`);
const mib = (n) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

/** Files, lines and the longest file of the sources the workspace holds. */
function measureSources(folder) {
  let files = 0;
  let lines = 0;
  let largest = { path: '', lines: 0, bytes: 0 };
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        const text = fs.readFileSync(full, 'utf8');
        const n = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
        files++;
        lines += n;
        const bytes = Buffer.byteLength(text);
        if (n > largest.lines) largest = { path: path.relative(folder, full).split(path.sep).join('/'), lines: n, bytes };
      }
    }
  };
  walk(path.join(folder, 'src'));
  return { files, lines, largest };
}

export async function benchLargeCode({ root }) {
  const testsPath = path.join(root, 'out', 'bench', 'largeCode.js');
  if (!fs.existsSync(testsPath)) throw new Error(`${path.relative(root, testsPath)} is missing: compile first (npx tsc -p . --noEmit false --outDir out)`);
  const ws = codeBaseWorkspace(LARGE_CODE_BASE);
  const out = path.join(ws.scratch, 'large-code.json');
  const codeBase = { package: ws.package, version: ws.version, ...measureSources(ws.folder) };
  console.log(`[bench] VS Code on ${ws.package} ${ws.version}'s sources (${group(codeBase.files)} files, ${group(codeBase.lines)} lines): ${ws.folder}`);
  let result;
  const failures = [];
  try {
    // Under load a whole run here took over 10 minutes (tsc --noEmit alone 6); the in-host part writes what it measured after each part.
    const code = await runExtensionTests({
      timeoutMs: 40 * 60_000,
      extensionPath: root,
      testsPath,
      workspace: ws.folder,
      trusted: true,
      env: { AW_BENCH_OUT: out, AW_LARGE_CODE: JSON.stringify(codeBase) },
      userSettings: HEADLESS_USER_SETTINGS,
    });
    if (code !== 0 || !fs.existsSync(out))
      failures.push(`the in-host part exited with ${code}${fs.existsSync(out) ? '' : ' and wrote no results'} (see [bench:large-code] FAILED above)`);
    if (fs.existsSync(out)) result = JSON.parse(fs.readFileSync(out, 'utf8'));
  } catch (error) {
    failures.push(String(error instanceof Error ? error.message : error));
    if (fs.existsSync(out)) result = JSON.parse(fs.readFileSync(out, 'utf8'));
  }
  try {
    const only = (process.env.AW_LARGE_CODE_ONLY ?? '').split(',').filter(Boolean);
    if (result?.memory && (only.length === 0 || only.includes('memory'))) {
      console.log('[bench] the same window without the extension: its extension host memory');
      result.memory.withoutExtension = await bareWindow(root, ws, result.windowOpen.expected);
    }
  } catch (error) {
    failures.push(`the window without the extension: ${String(error instanceof Error ? error.message : error)}`);
  } finally {
    ws.dispose();
  }
  const report = summarize(codeBase, result, [...failures, ...Object.entries(result?.failures ?? {}).map(([id, error]) => `${id}: ${error.split('\n')[0]}`)]);
  const file = path.join(root, 'bench', 'results', 'large-code.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ generatedAt: new Date().toISOString(), loadAverage: os.loadavg(), ...report }, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  console.log(`[bench] wrote ${path.relative(root, file)}`);
  return report;
}

/**
 * The code base in a window whose only development extension contributes nothing (so the
 * extension host runs no Agent Workbench), bench/largeCodeBare.ts asking the same raw questions;
 * its memory for the row beside the main window's.
 */
async function bareWindow(root, ws, expected) {
  const stub = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-bare-'));
  try {
    fs.writeFileSync(
      path.join(stub, 'package.json'),
      JSON.stringify({ name: 'bench-bare-window', publisher: 'agent-workbench-bench', version: '0.0.0', engines: { vscode: '*' } }),
    );
    // Run from the stub's own folder: a module inside an extension gets that extension's vscode API.
    fs.copyFileSync(path.join(root, 'out', 'bench', 'largeCodeBare.js'), path.join(stub, 'bare.js'));
    const out = path.join(stub, 'bare.json');
    const code = await runExtensionTests({
      timeoutMs: 15 * 60_000,
      extensionPath: stub,
      testsPath: path.join(stub, 'bare.js'),
      workspace: ws.folder,
      trusted: true,
      env: { AW_BENCH_OUT: out, AW_LARGE_CODE_REFERENCES: String(expected ?? 0) },
      userSettings: HEADLESS_USER_SETTINGS,
    });
    if (code !== 0 || !fs.existsSync(out))
      throw new Error(`the window without the extension exited with ${code}${fs.existsSync(out) ? '' : ' and wrote nothing'}`);
    return JSON.parse(fs.readFileSync(out, 'utf8'));
  } finally {
    fs.rmSync(stub, { recursive: true, force: true });
  }
}

export function summarize(codeBase, result, failures = []) {
  const lines = [
    `${codeBase.package} ${codeBase.version}'s sources: ${group(codeBase.files)} files, ${group(codeBase.lines)} lines, the longest ${codeBase.largest.path} (${group(codeBase.largest.lines)} lines, ${group(Math.round(codeBase.largest.bytes / 1024))} KiB).`,
    '',
    '| measure | tool (median) | raw (median) | tool / raw | target | met |',
    '|---|---:|---:|---:|---:|:-:|',
  ];
  const verdicts = [];
  const add = (measure, tool, raw, ratio, target, note = '') => {
    const met = ratio === null || ratio === undefined ? null : ratio <= target;
    verdicts.push({ measure, ratio, target, met });
    lines.push(
      `| ${cell(measure)}${note ? ` (${cell(note)})` : ''} | ${tool} | ${raw} | ${ratio === null || ratio === undefined ? '' : `${ratio.toFixed(2)}×`} | ≤ ${target}× | ${met === null ? '' : met ? '✓' : '✗'} |`,
    );
  };
  for (const f of failures) lines.push(`| FAILED | ${cell(f)} |  |  |  | ✗ |`);
  if (!result) return { codeBase, result: null, verdicts, failures, markdown: lines.join('\n') };
  const row = (id) => result.rows.find((r) => r.id === id);
  const median = (id) => row(id)?.stats?.medianMs;
  // lmId: the same tool through vscode.lm, shown beside the runner's time with its own ratio (the workbench's round trip included).
  const pair = (measure, toolId, rawId, target, note, lmId) => {
    const t = row(toolId);
    if (t?.status === 'failed') {
      lines.push(`| ${cell(measure)} | FAILED: ${cell(t.error.split('\n')[0])} |  |  |  | ✗ |`);
      verdicts.push({ measure, ratio: null, target, met: false });
      return;
    }
    if (median(toolId) === undefined || median(rawId) === undefined) return;
    const lm = lmId && median(lmId) !== undefined ? `; via vscode.lm ${ms(median(lmId))}, ${(median(lmId) / median(rawId)).toFixed(2)}×` : '';
    add(measure, `${ms(median(toolId))}${lm}`, ms(median(rawId)), median(toolId) / median(rawId), target, note);
  };
  const w = result.windowOpen;
  if (w.tool || w.raw) {
    const toolAt = w.tool?.atMs;
    const rawAt = w.raw?.atMs;
    add(
      `window open → find-references answers completely (${group(w.expected)} references)`,
      toolAt === undefined ? 'never' : ms(toolAt),
      rawAt === undefined ? 'never' : ms(rawAt),
      toolAt !== undefined && rawAt !== undefined ? toolAt / rawAt : null,
      1,
      `TypeScript's first symbols at ${ms(w.typescriptReadyMs)}; probed alternately every 250 ms`,
    );
  }
  pair(
    `find-references of dual (${group(result.references.count)} references in ${group(result.references.files)} files, ${group(result.references.bytes)} B answered)`,
    'find-references.runner',
    'raw.references',
    TARGETS.navigation,
    undefined,
    'find-references.lm',
  );
  // While the first questions' warming runs (check.computeAhead): what agents meet in that minute, no target.
  for (let round = 1; row(`find-references.lm.duringWarm${round}`); round++) {
    const t = median(`find-references.lm.duringWarm${round}`);
    const r = median(`raw.references.duringWarm${round}`);
    if (t !== undefined && r !== undefined) {
      lines.push(
        `| find-references of dual via vscode.lm while the check's current side is computed ahead (round ${round}) | ${ms(t)} | ${ms(r)} | ${(t / r).toFixed(2)}× |  |  |`,
      );
    }
  }
  if (result.warmAfterOpen) {
    const done = result.warmAfterOpen.outcomes.filter(Boolean);
    lines.push(
      `| the check's current side computed ahead after the first complete answer | settled ${ms(result.warmAfterOpen.settledAtMs)} later; ${cell(done.map((o) => `${o.computed} of ${o.files} files in ${ms(o.durationMs)}`).join(', ') || 'none ran')} |  |  |  |  |`,
    );
  }
  pair('go-to-definition of dual from src/Array.ts', 'go-to-definition.runner', 'raw.definition', TARGETS.navigation, undefined, 'go-to-definition.lm');
  pair('search-symbols "hasProperty"', 'search-symbols.runner', 'raw.workspaceSymbols', TARGETS.navigation, undefined, 'search-symbols.lm');
  const renameNote = `${group(result.rename.edits)} edits in ${group(result.rename.files)} files`;
  pair(
    `rename hasProperty: stage + preview against the raw rename provider`,
    'rename.chainStagePreview',
    'rename.rawRename',
    TARGETS.stagePreview,
    renameNote,
    'rename.stagePreview',
  );
  pair(
    `rename hasProperty: staged and reviewed in one call (rename-symbol with includeDiff) against the raw rename provider`,
    'rename.chainStageReview',
    'rename.rawRename',
    TARGETS.stagePreview,
    renameNote,
    'rename.stageReview',
  );
  pair(
    `rename hasProperty: transaction-commit against applyEdit + saveAll of the same edit`,
    'rename.commit',
    'rename.rawApplySave',
    TARGETS.commit,
    renameNote,
  );
  for (const id of [
    'rename.commit',
    'rename.rawApplySave',
    'rename.chainStagePreview',
    'rename.stagePreview',
    'rename.chainStageReview',
    'rename.stageReview',
    'rename.rawRename',
  ]) {
    const r = row(id);
    if (r?.status === 'failed') lines.push(`| ${cell(r.label)} | FAILED: ${cell(r.error.split('\n')[0])} |  |  |  | ✗ |`);
  }
  const c = result.check;
  if (c.tsc.length > 0) {
    const tscMs = medianOf(c.tsc.map((t) => t.ms));
    const errors = c.tsc[0].errors;
    // Each round's first check beside the tsc run just before it.
    const firsts = [c.first, ...(c.more ?? [])].filter(Boolean);
    const rounds =
      firsts.length > 1
        ? ` (medians of ${firsts.length} rounds, each a break spelled anew after a tsc of its own: ${firsts.map((f, i) => `${(f.ms / 1000).toFixed(1)} s against ${(c.tsc[i].ms / 1000).toFixed(1)} s`).join(', ')})`
        : '';
    if (c.first)
      add(
        `transaction-check, first check after a staged one-line break, asked ${ms(c.pauseMs ?? 0)} after the staging, against tsc --noEmit -p${rounds}`,
        ms(medianOf(firsts.map((f) => f.ms))),
        ms(tscMs),
        medianOf(firsts.map((f) => f.ms)) / tscMs,
        TARGETS.firstCheckOverTsc,
        `check ${c.first.state}${c.first.complete === false ? ', partial' : ''}${
          c.first.introduced != null ? `, ${c.first.introduced} errors introduced in ${c.first.checkedDocuments} documents covered` : ''
        }${
          c.firstStats
            ? `, computed ${c.firstStats.recomputedBase} files in the current view and ${c.firstStats.recomputedStaged} in the staged one (${c.firstStats.inPart ?? 0} of them in part), ${c.firstStats.unaffected} dependents unaffected`
            : ''
        }; tsc reports ${errors} errors of the sources themselves; ${
          c.warm?.outcomes?.some(Boolean)
            ? `the current side computed ahead (${c.warm.outcomes
                .filter(Boolean)
                .map((o) => `${o.files} files, ${o.computed} of them computed by the last question's call`)
                .join(', ')}, settled ${ms(c.warm.ms)} after the question that asked for it, before tsc was timed)`
            : 'nothing computed ahead'
        }`,
      );
    if (c.again)
      add(
        'transaction-check again after a one-line edit, against tsc --noEmit -p',
        ms(c.again.ms),
        ms(tscMs),
        c.again.ms / tscMs,
        TARGETS.recheckOverFirst,
        `check ${c.again.state}`,
      );
  }
  if (result.failures.check) lines.push(`| transaction-check | FAILED: ${cell(result.failures.check.split('\n')[0])} |  |  |  | ✗ |`);
  const m = result.memory;
  if (m.revisions > 0) {
    lines.push(
      `| extension host memory: code base loaded → ${m.revisions} staged renames (${group(m.edits)} documents) → rolled back | heap ${mib(m.loaded.heapUsed)} → ${mib(m.staged.heapUsed)} → ${mib(m.afterRollback.heapUsed)}; rss ${mib(m.loaded.rss)} → ${mib(m.staged.rss)} → ${mib(m.afterRollback.rss)} |  |  |  |  |`,
    );
  }
  if (m.afterCheck?.rss) {
    lines.push(
      `| extension host memory after the first check (its worker thread holds the project in both views) | heap ${mib(m.afterCheck.heapUsed)}; rss ${mib(m.afterCheck.rss)} |  |  |  |  |`,
    );
  }
  if (m.withoutExtension) {
    const w = m.withoutExtension.memory;
    lines.push(
      `| extension host memory with the code base loaded and the same raw questions asked, without the extension → with it | heap ${mib(w.heapUsed)} → ${mib(m.loaded.heapUsed)}; rss ${mib(w.rss)} → ${mib(m.loaded.rss)} |  |  |  |  |`,
    );
  }
  for (const f of m.failures) lines.push(`| memory: a rename not staged | ${cell(f)} |  |  |  |  |`);
  return { codeBase, result, verdicts, failures, markdown: lines.join('\n') };
}
