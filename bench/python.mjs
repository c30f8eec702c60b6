// node bench/python.mjs (npm run bench:python): the tools on Python (pyright, started by the test
// extension test/extensions/python-lsp) beside pyright's raw commands, in a real headless VS Code on
// a copy of test/fixtures/python (the tools on Python beside pyright's raw commands). Prints a Markdown table and writes
// bench/results/python.json. Options: AW_BENCH_ITERATIONS (200), AW_BENCH_WARMUP (20),
// AW_BENCH_RENAME_ITERATIONS (30).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runExtensionTests } from '../scripts/vscode-host.mjs';
import { freshFixture, HEADLESS_USER_SETTINGS } from '../scripts/fixtures.mjs';
import { buildTestExtension } from '../scripts/test-extensions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = freshFixture('python');
const resultFile = path.join(os.tmpdir(), `aw-bench-python-${process.pid}.json`);
try {
  const extensions = [await buildTestExtension('python-lsp', path.join(fixture.scratch, 'test-extensions'))];
  const code = await runExtensionTests({
    extensionPath: root,
    testsPath: path.join(root, 'out', 'bench', 'pythonInHost.js'),
    workspace: fixture.folder,
    trusted: true,
    extensions,
    env: {
      AW_BENCH_OUT: resultFile,
      AW_BENCH_ITERATIONS: process.env.AW_BENCH_ITERATIONS ?? '200',
      AW_BENCH_WARMUP: process.env.AW_BENCH_WARMUP ?? '20',
      AW_BENCH_RENAME_ITERATIONS: process.env.AW_BENCH_RENAME_ITERATIONS ?? '30',
    },
    userSettings: HEADLESS_USER_SETTINGS,
  });
  if (code !== 0 || !fs.existsSync(resultFile)) {
    console.error(`[bench:python] FAILED (exit ${code})`);
    process.exit(1);
  }
  const pyrightVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'pyright', 'package.json'), 'utf8')).version;
  const result = { ...JSON.parse(fs.readFileSync(resultFile, 'utf8')), pyrightVersion };
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'python.json'), `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`);
  const f = (n) => n.toFixed(2);
  console.log(`\nVS Code ${result.vscodeVersion}, pyright ${result.pyrightVersion}\n`);
  console.log('| question | tool (chain) median ms | raw command median ms | tool / raw | target |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const r of result.pairs) {
    console.log(`| ${r.question} | ${f(r.toolMs)} | ${f(r.rawMs)} | ${(r.toolMs / r.rawMs).toFixed(2)}× | ≤ ${r.target}× |`);
  }
} finally {
  fs.rmSync(fixture.scratch, { recursive: true, force: true });
  fs.rmSync(resultFile, { force: true });
}
