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
