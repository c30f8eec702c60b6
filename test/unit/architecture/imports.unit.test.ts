import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/*
 * The layout is the architecture: three rings (src/core, src/tools, src/host) whose arrows point
 * one way, and no import cycle between modules, type-only imports included.
 */

const ROOT = path.resolve(__dirname, '../../../..');
const SRC = path.join(ROOT, 'src');
const SPECIFIER = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g;

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const deps: string[] = [];
    for (const m of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = path.resolve(path.dirname(file), m[1]);
      const resolved = [`${target}.ts`, path.join(target, 'index.ts')].find((p) => fs.existsSync(p));
      if (resolved) deps.push(resolved);
    }
    g.set(file, deps);
  }
  return g;
}

const rel = (p: string) => path.relative(SRC, p).split(path.sep).join('/');

describe('architecture: imports', () => {
  const g = graph();

  it('reads the whole source tree', () => {
    assert.ok(g.size > 60, `${g.size} source files`);
    assert.ok([...g.values()].some((d) => d.length > 0));
  });

  it('has no import cycle in src, type-only imports included', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]): void => {
      state.set(f, 'open');
      for (const d of g.get(f) ?? []) {
        if (state.get(d) === 'open') cycles.push([...stack.slice(stack.indexOf(d)), d].map(rel).join(' → '));
        else if (!state.has(d)) visit(d, [...stack, d]);
      }
      state.set(f, 'done');
    };
    for (const f of g.keys()) if (!state.has(f)) visit(f, [f]);
    assert.deepEqual(cycles, []);
  });

  it('keeps the ring order: core imports neither host nor tools, tools and the MCP door never import host, only the host imports the checker', () => {
    const wrong: string[] = [];
    for (const [f, deps] of g) {
      const from = rel(f);
      for (const d of deps.map(rel)) {
        if (from.startsWith('core/') && (d.startsWith('host/') || d.startsWith('tools/') || d === 'extension.ts')) wrong.push(`${from} → ${d}`);
        if ((from.startsWith('tools/') || from.startsWith('mcp/')) && (d.startsWith('host/') || d === 'extension.ts')) wrong.push(`${from} → ${d}`);
        // The checker runs in a worker thread: only the host starts it, and it knows no other ring.
        if (!from.startsWith('host/') && !from.startsWith('checker/') && from !== 'extension.ts' && d.startsWith('checker/')) wrong.push(`${from} → ${d}`);
        if (from.startsWith('checker/') && !d.startsWith('checker/')) wrong.push(`${from} → ${d}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('tool families import the core and tools/shared only, never each other (tools/index.ts lists them)', () => {
    const wrong: string[] = [];
    for (const [f, deps] of g) {
      const from = rel(f);
      if (!from.startsWith('tools/') || from === 'tools/index.ts') continue;
      for (const d of deps.map(rel)) {
        if (d.startsWith('tools/') && !d.startsWith('tools/shared/')) wrong.push(`${from} → ${d}`);
        if (from.startsWith('tools/shared/') && d.startsWith('tools/') && !d.startsWith('tools/shared/')) wrong.push(`${from} → ${d}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('imports typescript in the checker only as types: the worker requires the one the host names', () => {
    const wrong = sources(path.join(SRC, 'checker'))
      .filter((f) => /import\s+(?!type\b)[^;]*from\s+['"]typescript['"]|require\(\s*['"]typescript['"]\s*\)/.test(fs.readFileSync(f, 'utf8')))
      .map(rel);
    assert.deepEqual(wrong, []);
  });

  it('imports vscode only in the host ring and extension.ts', () => {
    const wrong = sources(SRC)
      .filter((f) => !rel(f).startsWith('host/') && rel(f) !== 'extension.ts')
      .filter((f) => /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)/.test(fs.readFileSync(f, 'utf8')))
      .map(rel);
    assert.deepEqual(wrong, []);
  });
});
