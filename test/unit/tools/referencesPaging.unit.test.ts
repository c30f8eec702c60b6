import * as assert from 'node:assert/strict';
import { decodeLines, lineReferences } from '../../../src/tools/references';
import type { ReferencesData } from '../../../src/tools/references';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

const DECL = 'export class Widget {}\n';
const FILES = 60;
const USES = 21;
/** Long lines, so the output bound cuts the list too, not only the limit. */
const useFile = (i: number) =>
  `import { Widget } from './widget';\n${Array.from({ length: USES - 1 }, (_, j) => `export const w${i}_${j} = new Widget(); // ${'x'.repeat(60)}\n`).join('')}`;

/** The widget, a file without references, and the files using it (src/use*.ts): by default FILES of them. */
async function setup(
  uses: Record<string, string> = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/use${String(i).padStart(2, '0')}.ts`, useFile(i)])),
) {
  const host = new FakeHost();
  const files: Record<string, string> = { 'src/widget.ts': DECL, 'src/other.ts': 'export const other = 1;\n', ...uses };
  const folder = host.addFolder('app', files);
  const declPath = host.abs(folder, 'src/widget.ts');
  host.setSymbols(declPath, symbolsIn(DECL, [{ name: 'Widget', kind: 'Class', from: 'export class' }]));
  host.openDocument(declPath);
  const usePaths = Object.keys(files)
    .filter((p) => p.startsWith('src/use'))
    .map((p) => host.abs(folder, p));
  for (const p of usePaths) host.setSymbols(p, []);
  // The provider answers from the files' current text, so an edit moves the references.
  host.navigation.locations = () => [
    { absPath: declPath, range: { start: 13, end: 19 } },
    ...usePaths.flatMap((absPath) => {
      const text = host.diskText(absPath) ?? '';
      return [...text.matchAll(/Widget/g)].map((m) => ({ absPath, range: { start: m.index, end: m.index + 6 } }));
    }),
  ];
  const h = await createHarness({ host });
  return { host, folder, h };
}

const SYMBOL = { location: { selection: { document: { path: 'src/widget.ts' }, selectedText: 'Widget' } } };

/** The references a page lists, as path:offset. */
const listed = (d: ReferencesData) => d.documents.items.flatMap((doc) => decodeLines(doc).flatMap((l) => lineReferences(l).map((o) => `${doc.path}:${o}`)));

async function walk(h: Harness, limit: number): Promise<{ refs: string[]; pages: ReferencesData[] }> {
  const refs: string[] = [];
  const pages: ReferencesData[] = [];
  let cursor: string | undefined;
  do {
    const d = (await h.ok<ReferencesData>('find-references', { symbol: SYMBOL, referencesLimit: limit, ...(cursor ? { cursor } : {}) })).data;
    pages.push(d);
    refs.push(...listed(d));
    const c = (d.documents as { cursor?: string }).cursor;
    assert.equal(d.documents.hasMore, c !== undefined, 'a cursor exactly when references were left out');
    cursor = c;
    assert.ok(pages.length < 200, 'the walk ends');
  } while (cursor);
  return { refs, pages };
}

describe('find-references: a list of more than 1,000 references continued by cursor', () => {
  const expected = () => {
    // In path order: src/use*.ts before src/widget.ts.
    const all: string[] = [];
    for (let i = 0; i < FILES; i++) {
      const text = useFile(i);
      all.push(...[...text.matchAll(/Widget/g)].map((m) => `src/use${String(i).padStart(2, '0')}.ts:${m.index}`));
    }
    return [...all, 'src/widget.ts:13'];
  };

  it('cut by the output bound: the pages together are every reference, in order, none twice', async () => {
    const { h } = await setup();
    const { refs, pages } = await walk(h, 1000);
    assert.equal(pages[0].totalReferences, 1 + FILES * USES);
    assert.ok(pages[0].totalReferences > 1000);
    assert.ok(pages.length >= 3, `${pages.length} pages: the output bound cut them`);
    assert.deepEqual(refs, expected());
  });

  it('cut by referencesLimit inside a document: the next page goes on in that document', async () => {
    const { h } = await setup();
    const { refs, pages } = await walk(h, 97);
    assert.ok(pages.length >= Math.ceil((1 + FILES * USES) / 97));
    assert.deepEqual(refs, expected());
    // A document split across pages is listed again on the next, from its next reference.
    assert.equal(pages[1].documents.items[0].path, pages[0].documents.items.at(-1)?.path);
  });

  it('one document with more reference lines than the output limit holds: the page ends inside it and the cursor goes on there', async () => {
    const big = `import { Widget } from './widget';\n${Array.from({ length: 999 }, (_, j) => `export const w${j} = new Widget(); // ${'x'.repeat(90)}\n`).join('')}`;
    const { h } = await setup({ 'src/use.ts': big });
    // Its 1,000 lines take about 120 KB as rows, the output limit 64 KB: before, bounding dropped the one document and gave no cursor.
    const { refs, pages } = await walk(h, 1000);
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    assert.ok(
      pages.every((p) => p.documents.items.length > 0),
      'no page is empty',
    );
    assert.deepEqual(refs, [...[...big.matchAll(/Widget/g)].map((m) => `src/use.ts:${m.index}`), 'src/widget.ts:13']);
  });

  it('editing a referencing file makes the cursor stale; a file without references does not', async () => {
    const { h, host, folder } = await setup();
    const first = (await h.ok<ReferencesData>('find-references', { symbol: SYMBOL })).data;
    const cursor = (first.documents as { cursor?: string }).cursor;
    assert.ok(cursor);
    host.writeFile(host.abs(folder, 'src/other.ts'), 'export const other = 2;\n');
    const second = (await h.ok<ReferencesData>('find-references', { symbol: SYMBOL, cursor })).data;
    assert.equal(listed(second)[0], expected()[50]);
    host.writeFile(host.abs(folder, 'src/use40.ts'), `// moved\n${useFile(40)}`);
    const stale = await h.fail('find-references', { symbol: SYMBOL, cursor }, 'SnapshotMismatch');
    assert.match(stale.error.message, /src\/use40\.ts changed/);
  });
});
