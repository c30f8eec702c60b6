// node test/perf/run.mjs <generated dir> <its info.json (the generator's stdout)> <out.json> [module]: opens a real VS Code on the
// generated workspace and runs test/perf/<module>.ts in it (default largeCommit; needs `npx tsc -p . --noEmit false --outDir out && node esbuild.mjs`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HEADLESS_USER_SETTINGS, REPO_ROOT } from '../../scripts/fixtures.mjs';
import { runExtensionTests } from '../../scripts/vscode-host.mjs';

const [dir, infoFile, out, module = 'largeCommit'] = process.argv.slice(2);
const info = JSON.parse(fs.readFileSync(infoFile, 'utf8'));
const code = await runExtensionTests({
  extensionPath: REPO_ROOT,
  testsPath: path.join(REPO_ROOT, 'out', 'test', 'perf', `${module}.js`),
  workspace: dir,
  trusted: true,
  env: { AW_GENERATED: JSON.stringify(info), AW_PERF_OUT: path.resolve(out) },
  userSettings: HEADLESS_USER_SETTINGS,
  timeoutMs: 900_000,
});
process.exit(code);
