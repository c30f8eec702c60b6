// Part of `npm run bench`, in plain Node: unified hunks of a 50,000-line file with 500 scattered
// changes, from src/core/transactions/diff.ts (what transaction-preview uses) against GNU `diff -U3` on the same
// two files (its process start included, as an agent's shell would pay it). Both must agree on the
// added and removed line counts.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);

/** A deterministic 50,000-line TypeScript-like text and a copy with `changes` edits spread over it. */
export function diffTexts(lines = 50_000, changes = 500) {
  const original = [];
  for (let i = 0; i < lines; i++) original.push(`  const value${i} = compute(${i % 97}, "${(i * 7919) % 10007}");`);
  const updated = [...original];
  const step = Math.floor(lines / changes);
  // From the end, so indices stay valid: replace, insert after, delete, in turn.
  for (let c = changes - 1; c >= 0; c--) {
    const at = c * step + (c % 7);
    if (c % 3 === 0) updated[at] = `  const value${at} = recompute(${at});`;
    else if (c % 3 === 1) updated.splice(at + 1, 0, `  log(${at});`);
    else updated.splice(at, 1);
  }
  return { original: `${original.join('\n')}\n`, updated: `${updated.join('\n')}\n` };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

function gnuCounts(unified) {
  let added = 0;
  let removed = 0;
  for (const line of unified.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export function benchDiff({ root, iterations = 15, lines = 50_000, changes = 500 }) {
  const { diffTexts: ours } = require(path.join(root, 'out', 'src', 'core', 'transactions', 'diff.js'));
  const { original, updated } = diffTexts(lines, changes);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-diff-'));
  try {
    const a = path.join(dir, 'a.ts');
    const b = path.join(dir, 'b.ts');
    fs.writeFileSync(a, original);
    fs.writeFileSync(b, updated);
    const oursMs = [];
    const gnuMs = [];
    let oursResult;
    let gnuOut = '';
    for (let i = 0; i < iterations + 2; i++) {
      let t = performance.now();
      oursResult = ours(original, updated, 3);
      const o = performance.now() - t;
      t = performance.now();
      const r = spawnSync('diff', ['-U3', a, b], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const g = performance.now() - t;
      if (r.status !== 1) throw new Error(`diff -U3 exited with ${r.status}: ${r.stderr}`);
      gnuOut = r.stdout;
      // Two warm-up rounds: module loading and the page cache.
      if (i >= 2) {
        oursMs.push(o);
        gnuMs.push(g);
      }
    }
    const gnu = gnuCounts(gnuOut);
    const diffVersion = execFileSync('diff', ['--version'], { encoding: 'utf8' }).split('\n')[0];
    return {
      lines,
      changes,
      iterations,
      ours: { medianMs: median(oursMs), added: oursResult.addedLines, removed: oursResult.removedLines, hunks: oursResult.hunks.length },
      gnu: { medianMs: median(gnuMs), added: gnu.added, removed: gnu.removed, version: diffVersion },
      countsAgree: oursResult.addedLines === gnu.added && oursResult.removedLines === gnu.removed,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
