// Runs the integration suites in a real VS Code (scripts/vscode-host.mjs), each on a fresh
// copy of its fixture workspace so tests can type, stage and save without touching the repo.
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { codeBaseWorkspace, freshFixture, HEADLESS_USER_SETTINGS, REPO_ROOT, rxjsWorkspace } from './fixtures.mjs';
import { generateWorkspace } from './synthetic-workspace.mjs';
import { buildTestExtension } from './test-extensions.mjs';
import { runExtensionTests } from './vscode-host.mjs';

const testsPath = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');

const SUITES = [
  { name: 'sample', fixture: 'sample', trusted: true },
  { name: 'multi', fixture: 'multi', trusted: true, workspaceFile: 'multi.code-workspace' },
  { name: 'untrusted', fixture: 'sample', trusted: false },
  { name: 'navigation', fixture: 'navigation', trusted: true },
  { name: 'transactions', fixture: 'transactions', trusted: true },
  // The staged text checked as a program before a commit (VS Code's bundled TypeScript in a worker).
  { name: 'check', fixture: 'check', trusted: true },
  // The same, with a user's typescript.tsdk (this repository's devDependency): the check runs the TypeScript the editor's service runs.
  { name: 'check-tsdk', fixture: 'check', trusted: true, settings: { 'typescript.tsdk': path.join(REPO_ROOT, 'node_modules', 'typescript', 'lib') } },
  // A generated workspace (scripts/synthetic-workspace.mjs) instead of a fixture copy: big enough that the TypeScript server loads for seconds.
  { name: 'coldstart', generate: { files: 4000, uses: 3 }, trusted: true },
  // The first call of a cold window is a rename: asked before the TypeScript extension activated.
  { name: 'coldstart-rename', generate: { files: 4000, uses: 3 }, trusted: true },
  // A generated workspace whose Entity has 1,603 references: find-references walked by cursor.
  { name: 'cursor', generate: { files: 400, uses: 3 }, trusted: true },
  { name: 'transactions-untrusted', fixture: 'transactions', trusted: false },
  // rxjs's TypeScript sources (a devDependency): navigation and commits on a real code base.
  { name: 'realcode', workspace: rxjsWorkspace, trusted: true },
  // The same sources in fresh windows, asked at once while TypeScript loads the project (a partial answer showed in 3 runs of 4),
  // the test keeping `load` CPU-bound processes running (AW_LOAD=n sets another number): a busy machine's cold answers.
  // On CI a run took 6 to 7 minutes when the load ran through VS Code's start too: 16 minutes before it counts as hung.
  { name: 'realcode-cold', workspace: rxjsWorkspace, trusted: true, runs: 3, load: 16, timeoutMs: 960_000 },
  // @loopback/rest's sources: symbol edits where declarations start with decorators, on a real code base.
  { name: 'realcode-decorators', workspace: () => codeBaseWorkspace('loopback'), trusted: true },
  { name: 'realcode-large', workspace: () => codeBaseWorkspace('effect'), trusted: true },
  // The MCP door: its server on (user settings), discovery files in a temp directory of the run (AGENT_WORKBENCH_MCP_DIR).
  { name: 'mcp', fixture: 'sample', trusted: true, settings: { 'agentWorkbench.mcp.enabled': true }, discoveryDir: true },
  // A real Python language server: pyright (a devDependency) started by the test extension test/extensions/python-lsp.
  { name: 'python', fixture: 'python', trusted: true, extensions: ['python-lsp'] },
  // One matrix of the tools on TypeScript, JavaScript, Python (pyright), JSON, CSS, HTML and Markdown; docs/languages.json is what it must find.
  { name: 'languages', fixture: 'languages', trusted: true, extensions: ['python-lsp'] },
  { name: 'mcp-untrusted', fixture: 'sample', trusted: false, settings: { 'agentWorkbench.mcp.enabled': true }, discoveryDir: true },
  // A repository whose .vscode/settings.json (and, in the second, its .code-workspace file) asks for autonomous-trusted and more: ignored.
  { name: 'repo-settings', fixture: 'repo-settings', trusted: true, settings: { 'agentWorkbench.mcp.enabled': true }, discoveryDir: true },
  { name: 'repo-settings-workspace', fixture: 'repo-settings', trusted: true, workspaceFile: 'repo.code-workspace' },
  { name: 'repo-settings-untrusted', fixture: 'repo-settings', trusted: false },
];

/** A generated workspace in a temp folder, with what the tests need to know about it (exact reference counts). */
function generated(name, options) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `aw-${name}-`));
  const folder = path.join(scratch, name);
  const info = generateWorkspace(folder, options);
  return { scratch, folder, info, dispose: () => fs.rmSync(scratch, { recursive: true, force: true }) };
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = only.filter((name) => !SUITES.some((s) => s.name === name));
if (unknown.length > 0) {
  // A misspelt suite would otherwise run nothing and pass.
  console.error(`No integration suite named ${unknown.join(', ')}; the suites: ${SUITES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const failed = [];
for (const suite of SUITES.filter((s) => only.length === 0 || only.includes(s.name))) {
  for (let run = 1; run <= (suite.runs ?? 1); run++) {
    const fixture = suite.workspace ? suite.workspace() : suite.generate ? generated(suite.name, suite.generate) : freshFixture(suite.fixture);
    const workspace = suite.workspaceFile ? path.join(fixture.folder, suite.workspaceFile) : fixture.folder;
    const label = suite.runs ? `${suite.name}" run ${run} of ${suite.runs}` : `${suite.name}"`;
    console.log(`\n--- integration suite "${label} on ${workspace}${suite.trusted ? '' : ' (untrusted)'}`);
    const started = Date.now();
    try {
      const env = { AW_SUITE: suite.name, AW_RUN: String(run), ...(fixture.info ? { AW_GENERATED: JSON.stringify(fixture.info) } : {}) };
      if (suite.load) env.AW_LOAD = process.env.AW_LOAD ?? String(suite.load);
      // Beside the workspace folder, never inside it (fixture.scratch is removed with the fixture).
      if (suite.discoveryDir) env.AGENT_WORKBENCH_MCP_DIR = path.join(fixture.scratch, 'mcp-windows');
      const userSettings = { ...HEADLESS_USER_SETTINGS, ...suite.settings };
      // Built beside the workspace folder, never inside it.
      const extensions = [];
      for (const name of suite.extensions ?? []) extensions.push(await buildTestExtension(name, path.join(fixture.scratch, 'test-extensions')));
      const code = await runExtensionTests({
        extensionPath: REPO_ROOT,
        testsPath,
        workspace,
        trusted: suite.trusted,
        env,
        userSettings,
        extensions,
        timeoutMs: suite.timeoutMs, // undefined: runExtensionTests' own default
      });
      console.log(`--- suite "${label} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (code !== 0) failed.push(label);
    } catch (error) {
      // A window that hung or died fails its suite; the suites after it still run.
      console.log(`--- suite "${label} FAILED in ${((Date.now() - started) / 1000).toFixed(1)} s: ${error instanceof Error ? error.message : error}`);
      failed.push(label);
    } finally {
      fixture.dispose();
    }
  }
}
// Said last, where a log cut to its tail still shows it.
if (failed.length > 0) console.log(`\n--- ${failed.length} integration suite run(s) FAILED: ${failed.map((l) => `"${l}`).join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
