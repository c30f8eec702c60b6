// Runs the scripted agent session (out/scripts/demo/session.js, compiled from session.ts) inside
// a real, headless VS Code on a fresh copy of test/fixtures/sample. Exits 1 if any envelope is not
// the one the script expects.
import * as path from 'node:path';
import { freshFixture, HEADLESS_USER_SETTINGS, REPO_ROOT } from '../fixtures.mjs';
import { runExtensionTests } from '../vscode-host.mjs';

const fixture = freshFixture('sample');
console.log(`[demo] VS Code with Agent Workbench on a fresh copy of test/fixtures/sample: ${fixture.folder}`);
let code = 1;
try {
  code = await runExtensionTests({
    extensionPath: REPO_ROOT,
    testsPath: path.join(REPO_ROOT, 'out', 'scripts', 'demo', 'session.js'),
    workspace: fixture.folder,
    trusted: true,
    userSettings: HEADLESS_USER_SETTINGS,
  });
} finally {
  fixture.dispose();
}
console.log(code === 0 ? '[demo] passed' : `[demo] FAILED (exit ${code})`);
process.exit(code === 0 ? 0 : 1);
