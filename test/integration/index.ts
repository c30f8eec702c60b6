import * as path from 'node:path';
import Mocha from 'mocha';
import { countOf } from '../../src/core/util/wording';

/**
 * Entry point the extension host loads (extensionTestsPath), as with @vscode/test-electron.
 * AW_SUITE picks the suite files for the fixture workspace the runner opened.
 */
const SUITES: Record<string, string[]> = {
  sample: ['contract.test.js', 'sample.test.js', 'editorEdits.test.js'],
  multi: ['multi.test.js'],
  untrusted: ['untrusted.test.js'],
  navigation: ['navigation.test.js', 'navigation2.test.js', 'referenceAccess.test.js', 'navigationNames.test.js'],
  transactions: ['transactions.test.js', 'mutations.test.js'],
  coldstart: ['coldstart.test.js'],
  'coldstart-rename': ['coldstartRename.test.js'],
  cursor: ['cursor.test.js'],
  'transactions-untrusted': ['transactionsUntrusted.test.js'],
  realcode: ['realcode.test.js', 'realcodeEdits.test.js'],
  python: ['python.test.js'],
  'realcode-cold': ['realcodeCold.test.js'],
  'realcode-decorators': ['realcodeDecorators.test.js'],
  'realcode-large': ['realcodeLarge.test.js'],
  mcp: ['mcp.test.js'],
  'mcp-untrusted': ['mcpUntrusted.test.js'],
  check: ['check.test.js'],
  'check-tsdk': ['checkTsdk.test.js'],
  languages: ['languages.test.js'],
  'repo-settings': ['repoSettings.test.js'],
  'repo-settings-workspace': ['repoSettings.test.js'],
  'repo-settings-untrusted': ['repoSettings.test.js'],
};

export async function run(): Promise<void> {
  const suite = process.env.AW_SUITE ?? 'sample';
  const files = SUITES[suite];
  if (!files) throw new Error(`Unknown AW_SUITE ${suite}; expected one of ${Object.keys(SUITES).join(', ')}`);
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 120_000, reporter: 'spec' });
  if (process.env.AW_GREP) mocha.grep(process.env.AW_GREP);
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${countOf(failures, 'integration test')} failed in suite ${suite}`)) : resolve()));
  });
}
