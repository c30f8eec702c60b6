// node bench/activation.mjs [--runs <n>] [--extension <path>]: starts a real, headless VS Code on a
// fresh copy of test/fixtures/sample n times (default 7) and reports activate()'s own measurement
// each time, with the median and spread. One figure per window is all npm run bench gets; this
// shows how far it moves between windows. --extension measures another checkout (compiled and
// bundled), so two commits can be compared with the same script on the same machine.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureHost, runExtensionTests } from '../scripts/vscode-host.mjs';
import { freshFixture, HEADLESS_USER_SETTINGS } from '../scripts/fixtures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const IN_HOST = path.join(root, 'out', 'bench', 'activationInHost.js');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, extension: { type: 'string', default: root } } });
const runs = Number(values.runs);
const extensionPath = path.resolve(values.extension);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/activation.mjs [--runs <n >= 1>] [--extension <path>]');
  process.exit(2);
}
if (!fs.existsSync(IN_HOST)) {
  console.error(`${path.relative(root, IN_HOST)} is missing: compile first (npx tsc -p . --noEmit false --outDir out).`);
  process.exit(1);
}
await ensureHost();
const samples = [];
for (let i = 0; i < runs; i++) {
  const fixture = freshFixture('sample');
  const resultFile = path.join(fixture.scratch, 'activation.json');
  try {
    const code = await runExtensionTests({
      extensionPath,
      testsPath: IN_HOST,
      workspace: fixture.folder,
      trusted: true,
      env: { AW_BENCH_OUT: resultFile },
      userSettings: HEADLESS_USER_SETTINGS,
    });
    if (code !== 0 || !fs.existsSync(resultFile)) throw new Error(`run ${i + 1} exited with ${code}`);
    const sample = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    samples.push(sample);
    console.log(
      `[activation] run ${i + 1}/${runs}: activate() ${sample.activationMs} ms${sample.startupMs === null ? '' : `, storage done at ${sample.startupMs} ms`}${sample.wasActive ? '' : ' (activated by the bench)'}`,
    );
  } finally {
    fixture.dispose();
  }
}
const startup = samples
  .map((s) => s.startupMs)
  .filter((v) => typeof v === 'number')
  .sort((a, b) => a - b);
if (startup.length)
  console.log(
    `storage work done (Services.startup) over ${startup.length} windows: median ${startup[startup.length >> 1]} ms, min ${startup[0]} ms, max ${startup[startup.length - 1]} ms`,
  );
const ms = samples
  .map((s) => s.activationMs)
  .filter((v) => typeof v === 'number')
  .sort((a, b) => a - b);
const median = ms.length ? (ms.length % 2 ? ms[(ms.length - 1) / 2] : (ms[ms.length / 2 - 1] + ms[ms.length / 2]) / 2) : null;
console.log(
  `activate() over ${ms.length} windows of ${path.relative(process.cwd(), extensionPath) || '.'}: median ${median} ms, min ${ms[0]} ms, max ${ms[ms.length - 1]} ms (${ms.join(', ')})`,
);
