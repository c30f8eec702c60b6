// node bench/mcp.mjs: the MCP door's round trips beside vscode.lm.invokeTool and the raw command,
// in a real headless VS Code on a copy of the sample (MCP's overhead beside vscode.lm.invokeTool and the raw command). Prints a Markdown
// table and writes bench/results/mcp.json. Options: AW_BENCH_CALLS (1000), AW_BENCH_CONCURRENCY (8).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runExtensionTests } from '../scripts/vscode-host.mjs';
import { freshFixture, HEADLESS_USER_SETTINGS } from '../scripts/fixtures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = freshFixture('sample');
const resultFile = path.join(os.tmpdir(), `aw-bench-mcp-${process.pid}.json`);
try {
  const code = await runExtensionTests({
    extensionPath: root,
    testsPath: path.join(root, 'out', 'bench', 'mcpInHost.js'),
    workspace: fixture.folder,
    trusted: true,
    env: {
      AW_BENCH_OUT: resultFile,
      AW_BENCH_CALLS: process.env.AW_BENCH_CALLS ?? '1000',
      AW_BENCH_CONCURRENCY: process.env.AW_BENCH_CONCURRENCY ?? '8',
      AGENT_WORKBENCH_MCP_DIR: path.join(fixture.scratch, 'mcp-windows'),
    },
    userSettings: { ...HEADLESS_USER_SETTINGS, 'agentWorkbench.mcp.enabled': true },
  });
  if (code !== 0 || !fs.existsSync(resultFile)) {
    console.error(`[bench:mcp] FAILED (exit ${code})`);
    process.exit(1);
  }
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'mcp.json'), `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`);
  const f = (n) => n.toFixed(2);
  console.log(`\nVS Code ${result.vscodeVersion}, ${result.rows[0].calls} calls per row at ${result.rows[0].concurrency} concurrent callers\n`);
  console.log('| tool | door | p50 ms | p99 ms | mean ms | calls/s |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  for (const r of result.rows) console.log(`| ${r.tool} | ${r.door} | ${f(r.p50Ms)} | ${f(r.p99Ms)} | ${f(r.meanMs)} | ${r.callsPerSecond.toFixed(0)} |`);
} finally {
  fixture.dispose();
  fs.rmSync(resultFile, { force: true });
}
