import * as assert from 'node:assert/strict';
import type { Residue } from '../../../src/core/symbols/residue';
import type { ReferencesData } from '../../../src/tools/references';
import type { RenameData } from '../../../src/tools/semantic';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

const SUB = [
  'export class Subscription {',
  '  add(teardown: () => void): void {}',
  '}',
  '/** Whether add is there. */',
  'export function isSubscription(value: any): boolean {',
  "  return typeof value.add === 'function';",
  '}',
  '',
].join('\n');
const USE = ["import { Subscription } from './sub';", 'const s = new Subscription();', 's.add(() => {}); // add a teardown', "const label = 'add';", ''].join(
  '\n',
);
const EXTRA_DISK = 'export const n = 1;\n';
const EXTRA_BUFFER = 'export const n = 1;\nexport const f = (v: any) => v.add;\n';

/** A row as an object, read through the answer's own column names. */
const rowsOf = (r: Residue) => r.items.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, row[i]])));

describe('tools: the residue of a rename and of a reference list', () => {
  let host: FakeHost;
  let h: Harness;
  let abs: (p: string) => string;
  /** The occurrences of add the language service knows: the declaration and the typed call. */
  const known = () => [
    { absPath: abs('src/sub.ts'), start: SUB.indexOf('add(') },
    { absPath: abs('src/use.ts'), start: USE.indexOf('s.add') + 2 },
  ];

  beforeEach(async () => {
    host = new FakeHost();
    const folder = host.addFolder('app', {
      'tsconfig.json': '{}\n',
      'src/sub.ts': SUB,
      'src/use.ts': USE,
      'src/extra.ts': EXTRA_DISK,
      'src/legacy.js': 'module.exports = (x) => x.add(1);\n',
      'README.md': 'Call add to add a teardown.\n',
      'node_modules/lib/index.ts': 'export const g = (x: any) => x.add();\n',
    });
    abs = (p) => host.abs(folder, p);
    host.setSymbols(
      abs('src/sub.ts'),
      symbolsIn(SUB, [
        { name: 'Subscription', kind: 'Class', from: 'export class', to: '\n}', children: [{ name: 'add', kind: 'Method', from: 'add(', to: '{}' }] },
      ]),
    );
    host.setSymbols(abs('src/use.ts'), []);
    host.openDocument(abs('src/sub.ts'));
    host.openDocument(abs('src/use.ts'));
    // An unsaved buffer: its text is what is scanned, not the disk's.
    host.editBuffer(abs('src/extra.ts'), EXTRA_BUFFER);
    host.navigation.locations = () => known().map((k) => ({ absPath: k.absPath, range: { start: k.start, end: k.start + 3 } }));
    host.semantics.rename = (_absPath, _offset, newName) => {
      const edits: Record<string, { start: number; length: number; newText: string }[]> = {};
      for (const k of known()) (edits[k.absPath] ??= []).push({ start: k.start, length: 3, newText: newName });
      return edits;
    };
    h = await createHarness({ host });
  });

  const addSelector = { location: { selection: { document: { path: 'src/sub.ts' }, selectedText: 'add', contextAfter: '(teardown' } } };
  const expected = [
    { path: 'src/extra.ts', line: 2, column: 32, kind: 'access', text: 'export const f = (v: any) => v.add;' },
    { path: 'src/legacy.js', line: 1, column: 27, kind: 'access', text: 'module.exports = (x) => x.add(1);' },
    { path: 'src/sub.ts', line: 6, column: 23, kind: 'access', text: "return typeof value.add === 'function';" },
    { path: 'src/use.ts', line: 4, column: 16, kind: 'string', text: "const label = 'add';" },
    { path: 'src/sub.ts', line: 4, column: 13, kind: 'doc', text: '/** Whether add is there. */' },
    { path: 'src/use.ts', line: 3, column: 21, kind: 'comment', text: 's.add(() => {}); // add a teardown' },
  ];

  it('a rename answers the old name it left in the staged texts: untyped accesses first, then strings, doc comments, comments', async () => {
    const d = (await h.ok<RenameData>('rename-symbol', { symbol: addSelector, newName: 'addTeardown' })).data;
    assert.equal(h.services.transactions.stagedText(h.registry.all()[0], 'src/use.ts')?.includes('s.addTeardown('), true, 'the rename was staged');
    // Rows are in the staged text, where an edit of them resolves: the comment's column is after the renamed call.
    const inStaged = expected.map((r) => (r.kind === 'comment' ? { ...r, column: 29, text: 's.addTeardown(() => {}); // add a teardown' } : r));
    assert.deepEqual(rowsOf(d.residue), inStaged);
    assert.equal(d.residue.totalCount, 6);
    assert.equal(d.residue.hasMore, false);
    assert.deepEqual(d.residue.kinds, { access: 3, string: 1, doc: 1, comment: 1 });
    assert.deepEqual(d.residue.scanned, { languages: ['javascript', 'typescript'], files: 4 }, 'TypeScript and JavaScript, not Markdown nor node_modules');
  });

  it('with includeDiff the residue is in the answer too', async () => {
    const d = (await h.ok<RenameData>('rename-symbol', { symbol: addSelector, newName: 'addTeardown', includeDiff: true })).data;
    assert.equal(d.residue.totalCount, 6);
    assert.ok('diffs' in d);
  });

  it('find-references gives the residue only when asked; the references, the declaration included, are not residue', async () => {
    const plain = (await h.ok<ReferencesData>('find-references', { symbol: addSelector })).data;
    assert.equal(plain.residue, undefined);
    const asked = (await h.ok<ReferencesData>('find-references', { symbol: addSelector, residue: true, includeDeclaration: false })).data;
    assert.deepEqual(rowsOf(asked.residue as Residue), expected);
  });

  it('an edit-text fixing a residue row removes it from the next answer', async () => {
    await h.ok('rename-symbol', { symbol: addSelector, newName: 'addTeardown' });
    const row = expected[2];
    await h.ok('edit-text', {
      edits: [{ location: { selection: { document: { path: row.path }, selectedText: 'add', contextBefore: 'value.' } }, newText: 'addTeardown' }],
    });
    const renamed = { location: { selection: { document: { path: 'src/sub.ts' }, selectedText: 'addTeardown', contextAfter: '(teardown' } } };
    const d = (await h.ok<ReferencesData>('find-references', { symbol: renamed, residue: true, view: 'staged' })).data;
    assert.deepEqual(
      rowsOf(d.residue as Residue).map((r) => `${String(r.path)}:${String(r.line)}`),
      expected.filter((r) => r !== row).map((r) => `${r.path}:${r.line}`),
    );
  });
});
