import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A temp folder holding `files` (relative path → text); `dispose()` removes it. */
export function fixture(files: Record<string, string>): { folder: string; dispose(): void } {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aw-checker-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), text);
  }
  return { folder, dispose: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

export const TYPESCRIPT_PATH = require.resolve('typescript');

export const STRICT_TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, target: 'ES2022', module: 'commonjs', lib: ['ES2022'], noEmit: true },
  include: ['src'],
});

/** `count` modules, each importing the previous one, with enough code that checking them all takes a while. */
export function chain(count: number, functions = 20): Record<string, string> {
  const files: Record<string, string> = { 'tsconfig.json': STRICT_TSCONFIG };
  for (let i = 0; i < count; i++) {
    const body = Array.from(
      { length: functions },
      (_, j) => `export function f${j}<T extends { k${j}: number }>(x: T): Array<T & { n: ${j} }> { return [x].map((y) => ({ ...y, n: ${j} as const })); }`,
    ).join('\n');
    files[`src/m${i}.ts`] = `${i > 0 ? `import { f0 as prev } from './m${i - 1}';\nexport const viaPrev = prev({ k0: 1 });\n` : ''}${body}\n`;
  }
  return files;
}
