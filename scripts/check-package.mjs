// Checks the README's `npm run package`: vsce builds the .vsix with no warning, and the package
// holds the bundle, the generated reference and the docs, never sources, tests or node_modules.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-package-'));
const vsix = path.join(scratch, 'agent-workbench.vsix');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const problems = [];
try {
  let output;
  try {
    output = run('npm', ['run', '--silent', 'package', '--', '--out', vsix]);
  } catch (error) {
    output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    problems.push(`vsce failed:\n${output}`);
  }
  if (/\bWARNING\b|\bwarn(ing)?\b/i.test(output)) problems.push(`vsce printed a warning:\n${output}`);
  if (!fs.existsSync(vsix)) problems.push('no .vsix was written');
  // vsce ls lists exactly what vsce package packs.
  const files = run('npx', ['vsce', 'ls', '--no-dependencies'])
    .split('\n')
    .map((f) => f.trim())
    .filter(Boolean);
  for (const wanted of [
    'package.json',
    'dist/extension.js',
    'dist/mcp-server.js',
    'dist/mcp-stdio.js',
    'dist/check-worker.js',
    'dist/word-scan-worker.js',
    'README.md',
    'docs/reference/index.md',
    ...fs
      .readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    'docs/images/review-panel.png',
    'media/panel.js',
    'media/panel.css',
    'LICENSE',
    'CHANGELOG.md',
    'media/icon.png',
    ...JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown)),
  ]) {
    if (!files.includes(wanted)) problems.push(`the package lacks ${wanted}`);
  }
  const unwanted = files.filter((f) => /^(src|test|scripts|bench|node_modules|out)\//.test(f) || /\.ts$/.test(f));
  if (unwanted.length > 0) problems.push(`the package holds files it should not: ${unwanted.slice(0, 10).join(', ')}`);
  if (problems.length === 0)
    console.log(`npm run package: ${files.length} files, ${fs.statSync(vsix).size} bytes, no warnings; no sources, tests or node_modules inside.`);
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(`package check FAILED:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
