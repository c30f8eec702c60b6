// Test-only extensions (test/extensions/<name>/, never in the .vsix) built for a headless run:
// each is bundled with esbuild into a folder of the run, which scripts/vscode-host.mjs lists in
// the run's extensions folder so the VS Code server loads it beside the development extension
// (the payload honours one extensionDevelopmentPath only). Everything comes from node_modules:
// the host stays offline.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT } from './fixtures.mjs';

/** What each test extension needs beside its bundle: links to packages it starts (name in the folder -> package). */
const LINKS = {
  // pyright-langserver: extension.ts starts <folder>/pyright/langserver.index.js.
  'python-lsp': { pyright: 'pyright' },
};

/**
 * Builds test/extensions/<name> into a new folder under `into`; resolves with what
 * startServer's `extensions` option takes: { id, version, folder }.
 */
export async function buildTestExtension(name, into) {
  const source = path.join(REPO_ROOT, 'test', 'extensions', name);
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = path.join(into, `${id}-${manifest.version}`);
  fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(path.join(source, 'package.json'), path.join(folder, 'package.json'));
  await esbuild.build({
    entryPoints: [path.join(source, 'extension.ts')],
    outfile: path.join(folder, 'extension.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'error',
  });
  for (const [link, pkg] of Object.entries(LINKS[name] ?? {})) {
    const target = path.join(REPO_ROOT, 'node_modules', pkg);
    if (!fs.existsSync(path.join(target, 'package.json'))) throw new Error(`${pkg} is not installed (npm ci installs the devDependencies)`);
    fs.symlinkSync(target, path.join(folder, link), 'dir');
  }
  return { id, version: manifest.version, folder };
}
