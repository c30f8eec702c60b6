// Fresh copies of the fixture workspaces under test/fixtures, so a run may type, save and stage
// in them without touching the repository.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** VS Code for the web saves edits after a delay by default; headless runs type into buffers that must stay unsaved. */
export const HEADLESS_USER_SETTINGS = { 'files.autoSave': 'off' };

/** Copies test/fixtures/<name> to a new temp folder; `dispose()` removes it. */
export function freshFixture(name) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `aw-${name}-`));
  const folder = path.join(scratch, name);
  fs.cpSync(path.join(REPO_ROOT, 'test', 'fixtures', name), folder, { recursive: true });
  return { scratch, folder, dispose: () => fs.rmSync(scratch, { recursive: true, force: true }) };
}

/** rxjs, pinned in devDependencies: the realcode suite's workspace is the TypeScript sources it ships. */
const RXJS_DIR = path.join(REPO_ROOT, 'node_modules', 'rxjs');

/** The one project TypeScript loads the copied sources as: rxjs's own compiler options (tsconfig.json at its package root), paths dropped since the sources import each other relatively. */
const RXJS_TSCONFIG = {
  compilerOptions: { strict: true, noImplicitReturns: true, target: 'esnext', module: 'esnext', moduleResolution: 'node', lib: ['esnext', 'dom'], noEmit: true },
  include: ['src/**/*.ts'],
};

/**
 * A temp copy of the TypeScript sources rxjs ships under src/ (251 files), nothing else but a
 * tsconfig.json: a real code base of a known version, the same on every machine after `npm ci`.
 */
export function rxjsWorkspace() {
  const source = path.join(RXJS_DIR, 'src');
  if (!fs.existsSync(source)) throw new Error(`${source} is missing: rxjs (a devDependency) ships its sources there; run npm ci`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-realcode-'));
  const folder = path.join(scratch, 'rxjs');
  fs.cpSync(source, path.join(folder, 'src'), { recursive: true, filter: (from) => fs.statSync(from).isDirectory() || from.endsWith('.ts') });
  fs.writeFileSync(path.join(folder, 'tsconfig.json'), `${JSON.stringify(RXJS_TSCONFIG, null, 2)}\n`);
  return { scratch, folder, dispose: () => fs.rmSync(scratch, { recursive: true, force: true }) };
}
