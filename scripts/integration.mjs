// Runs the integration suites in a real VS Code (scripts/vscode-host.mjs), each on a fresh
// copy of its fixture workspace so tests can type, stage and save without touching the repo.
import * as path from 'node:path';
import { freshFixture, HEADLESS_USER_SETTINGS, REPO_ROOT } from './fixtures.mjs';
import { runExtensionTests } from './vscode-host.mjs';

const testsPath = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');

const SUITES = [
  { name: 'sample', fixture: 'sample', trusted: true },
  { name: 'multi', fixture: 'multi', trusted: true, workspaceFile: 'multi.code-workspace' },
  { name: 'untrusted', fixture: 'sample', trusted: false },
];

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
let failed = 0;
for (const suite of SUITES.filter((s) => only.length === 0 || only.includes(s.name))) {
  const fixture = freshFixture(suite.fixture);
  const workspace = suite.workspaceFile ? path.join(fixture.folder, suite.workspaceFile) : fixture.folder;
  console.log(`\n--- integration suite "${suite.name}" on ${workspace}${suite.trusted ? '' : ' (untrusted)'}`);
  const started = Date.now();
  try {
    const code = await runExtensionTests({ extensionPath: REPO_ROOT, testsPath, workspace, trusted: suite.trusted, env: { AW_SUITE: suite.name }, userSettings: HEADLESS_USER_SETTINGS });
    console.log(`--- suite "${suite.name}" ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (code !== 0) failed++;
  } finally {
    fixture.dispose();
  }
}
process.exit(failed > 0 ? 1 : 0);
