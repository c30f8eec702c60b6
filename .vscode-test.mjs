// The usual @vscode/test-cli configuration, for people with desktop VS Code and internet access
// (`npx vscode-test`). On machines without either, `npm test` runs the same suites in the
// headless VS Code of scripts/vscode-host.mjs instead. Compile first: npm run compile-tests && node esbuild.mjs
import { defineConfig } from '@vscode/test-cli';

const mocha = { ui: 'bdd', timeout: 120000 };

export default defineConfig([
  {
    label: 'sample',
    files: 'out/test/integration/{contract,sample}.test.js',
    workspaceFolder: './test/fixtures/sample',
    launchArgs: ['--disable-workspace-trust'],
    mocha,
  },
  {
    label: 'multi',
    files: 'out/test/integration/multi.test.js',
    workspaceFolder: './test/fixtures/multi/multi.code-workspace',
    launchArgs: ['--disable-workspace-trust'],
    mocha,
  },
  {
    label: 'untrusted',
    files: 'out/test/integration/untrusted.test.js',
    workspaceFolder: './test/fixtures/sample',
    mocha,
  },
]);
