import * as assert from 'node:assert/strict';
import type { HostDiagnostic } from '../../../src/core/documents/editorPort';
import { FakeHost } from '../support/fakeHost';
import { createHarness } from '../support/harness';

interface Data {
  documents: { items: { path: string; diagnostics: { items: { message: string }[]; totalCount: number } }[]; hasMore: boolean; cursor?: string };
}

describe('get-diagnostics: the list continues by diagnostic, across and inside documents', () => {
  async function setup(messageLength: number) {
    const host = new FakeHost();
    const files: Record<string, string> = {};
    for (let i = 0; i < 24; i++) files[`src/f${String(i).padStart(2, '0')}.ts`] = `export const v${i} = ${'1 + '.repeat(20)}1;\n`;
    const folder = host.addFolder('app', files);
    host.navigation.diagnosticLanguages = ['typescript'];
    const diagnostics: Record<string, HostDiagnostic[]> = {};
    const expected: string[] = [];
    for (const [i, rel] of Object.keys(files).entries()) {
      const n = i % 5; // 0 to 4 a document; a document with none is not listed in the workspace scope
      diagnostics[host.abs(folder, rel)] = Array.from({ length: n }, (_, k) => ({
        message: `${rel} #${k} `.padEnd(messageLength, '.'),
        severity: 'Error' as const,
        range: { start: 4 * k, end: 4 * k + 2 },
      }));
      for (let k = 0; k < n; k++) expected.push(`${rel} #${k}`);
    }
    host.navigation.diagnostics = diagnostics;
    for (const rel of Object.keys(files)) host.openDocument(host.abs(folder, rel));
    const h = await createHarness({ host });
    return { h, expected };
  }

  async function walk(h: Awaited<ReturnType<typeof setup>>['h'], limit: number) {
    const got: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const d = (await h.ok<Data>('get-diagnostics', { diagnosticsLimit: limit, ...(cursor ? { cursor } : {}) })).data;
      pages++;
      for (const doc of d.documents.items) got.push(...doc.diagnostics.items.map((x) => x.message.replace(/ \.*$/, '')));
      assert.equal(d.documents.hasMore, d.documents.cursor !== undefined);
      cursor = d.documents.cursor;
      assert.ok(pages < 200);
    } while (cursor);
    return { got, pages };
  }

  it('cut by diagnosticsLimit: the pages together are every diagnostic once, in order', async () => {
    const { h, expected } = await setup(20);
    const { got, pages } = await walk(h, 7);
    assert.equal(pages, Math.ceil(expected.length / 7));
    assert.deepEqual(got, expected);
  });

  it('cut by the output bound (inner lists emptied first): the next page starts after the last diagnostic received', async () => {
    const { h, expected } = await setup(3000);
    const { got, pages } = await walk(h, 1000);
    assert.ok(pages > 2, `${pages} pages`);
    assert.deepEqual(got, expected);
  });
});
