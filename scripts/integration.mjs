// Runs the integration suites in a real VS Code (scripts/vscode-host.mjs), each on a fresh
// copy of its fixture workspace so tests can type, stage and save without touching the repo.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runExtensionTests } from './vscode-host.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testsPath = path.join(root, 'out', 'test', 'integration', 'index.js');

const SUITES = [
  { name: 'sample', fixture: 'sample', trusted: true },
  { name: 'multi', fixture: 'multi', trusted: true, workspaceFile: 'multi.code-workspace' },
  { name: 'untrusted', fixture: 'sample', trusted: false },
];

// VS Code for the web saves edits after a delay by default; the tests type into buffers that must stay unsaved.
const USER_SETTINGS = { 'files.autoSave': 'off' };

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
let failed = 0;
for (const suite of SUITES.filter((s) => only.length === 0 || only.includes(s.name))) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `aw-${suite.name}-`));
  const folder = path.join(scratch, suite.fixture);
  fs.cpSync(path.join(root, 'test', 'fixtures', suite.fixture), folder, { recursive: true });
  const workspace = suite.workspaceFile ? path.join(folder, suite.workspaceFile) : folder;
  console.log(`\n--- integration suite "${suite.name}" on ${workspace}${suite.trusted ? '' : ' (untrusted)'}`);
  const started = Date.now();
  const code = await runExtensionTests({ extensionPath: root, testsPath, workspace, trusted: suite.trusted, env: { AW_SUITE: suite.name }, userSettings: USER_SETTINGS });
  console.log(`--- suite "${suite.name}" ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) failed++;
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
