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

/**
 * Real code bases: npm packages pinned in devDependencies that ship their TypeScript sources. Each
 * workspace is a temp copy of `sources` (its .ts files only) with `tsconfig` as tsconfig.json.
 * `dependencies`: whether imports of other packages resolve (through a node_modules link beside
 * the folder, outside the workspace, so grep and the tools see only the sources).
 */
export const CODE_BASES = {
  rxjs: {
    package: 'rxjs',
    sources: 'src',
    dependencies: false,
    // rxjs's own compiler options (tsconfig.json at its package root), paths dropped since the sources import each other relatively.
    tsconfig: {
      compilerOptions: {
        strict: true,
        noImplicitReturns: true,
        target: 'esnext',
        module: 'esnext',
        moduleResolution: 'node',
        lib: ['esnext', 'dom'],
        noEmit: true,
      },
      include: ['src/**/*.ts'],
    },
  },
  tiptap: {
    package: '@tiptap/core',
    sources: 'src',
    dependencies: true,
    // The commands augment the module '@tiptap/core' (declare module): it must be these sources, not the package's build.
    tsconfig: {
      compilerOptions: {
        strict: true,
        target: 'esnext',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['esnext', 'dom'],
        skipLibCheck: true,
        noEmit: true,
        paths: { '@tiptap/core': ['./src/index.ts'] },
      },
      include: ['src/**/*.ts'],
    },
  },
  loopback: {
    package: '@loopback/rest',
    sources: 'src',
    dependencies: true,
    // LoopBack builds with legacy decorators (@inject on constructor parameters needs them).
    tsconfig: {
      compilerOptions: {
        strict: true,
        target: 'es2021',
        module: 'commonjs',
        moduleResolution: 'node',
        lib: ['es2021'],
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        esModuleInterop: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['src/**/*.ts'],
    },
  },
  effect: {
    package: 'effect',
    large: true,
    sources: 'src',
    dependencies: true,
    // The large code base (625 files, 560,000 lines). Its sources import each other with .ts extensions and a few
    // import "effect/<Module>" by name: both resolve to these sources. @types/node comes through the node_modules link.
    tsconfig: {
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        allowImportingTsExtensions: true,
        lib: ['es2022', 'dom', 'dom.iterable'],
        types: ['node'],
        skipLibCheck: true,
        noEmit: true,
        paths: { effect: ['./src/index.ts'], 'effect/*': ['./src/*.ts', './src/*/index.ts'] },
      },
      include: ['src/**/*.ts'],
    },
  },
};

/**
 * A temp copy of one code base of CODE_BASES: its TypeScript sources under src/, nothing else but
 * a tsconfig.json (and, outside the folder, a node_modules link when it resolves its imports): a
 * real code base of a known version, the same on every machine after `npm ci`.
 */
export function codeBaseWorkspace(name) {
  const base = CODE_BASES[name];
  if (!base) throw new Error(`no code base ${name}; known: ${Object.keys(CODE_BASES).join(', ')}`);
  const source = path.join(REPO_ROOT, 'node_modules', ...base.package.split('/'), base.sources);
  if (!fs.existsSync(source)) throw new Error(`${source} is missing: ${base.package} (a devDependency) ships its sources there; run npm ci`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), name === 'rxjs' ? 'aw-realcode-' : `aw-realcode-${name}-`));
  const folder = path.join(scratch, name);
  fs.cpSync(source, path.join(folder, 'src'), { recursive: true, filter: (from) => fs.statSync(from).isDirectory() || from.endsWith('.ts') });
  fs.writeFileSync(path.join(folder, 'tsconfig.json'), `${JSON.stringify(base.tsconfig, null, 2)}\n`);
  if (base.dependencies) fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  const version = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', ...base.package.split('/'), 'package.json'), 'utf8')).version;
  return { scratch, folder, name, package: base.package, version, dispose: () => fs.rmSync(scratch, { recursive: true, force: true }) };
}

/** rxjs 7.8.1's sources (251 files): the realcode suites' workspace. */
export function rxjsWorkspace() {
  return codeBaseWorkspace('rxjs');
}
