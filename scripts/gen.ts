/**
 * Writes what is generated from the tool definitions: package.json's
 * contributes.languageModelTools and the reference under docs/reference/.
 * `--check` writes nothing and exits 1 when a generated file is out of date.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generatedFiles } from './generated';

const root = path.resolve(__dirname, '..', '..');
const check = process.argv.includes('--check');
const stale: string[] = [];
const expected = generatedFiles(root);
for (const [relative, content] of expected) {
  const file = path.join(root, relative);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (current === content) continue;
  stale.push(relative);
  if (!check) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}
const referenceDir = path.join(root, 'docs', 'reference', 'tools');
if (fs.existsSync(referenceDir)) {
  for (const f of fs.readdirSync(referenceDir)) {
    const relative = path.posix.join('docs/reference/tools', f);
    if (!expected.has(relative)) {
      stale.push(`${relative} (no such tool)`);
      if (!check) fs.rmSync(path.join(referenceDir, f));
    }
  }
}
if (check && stale.length > 0) {
  console.error(`Generated files are out of date; run npm run gen:\n  ${stale.join('\n  ')}`);
  process.exit(1);
}
console.log(stale.length === 0 ? 'Generated files are up to date.' : `Updated:\n  ${stale.join('\n  ')}`);
