import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { defineTool } from '../../../../src/core/chain/definition';
import type { AnyToolDefinition } from '../../../../src/core/chain/definition';
import { decodeCursor, encodeCursor, listDigest, requestFingerprint } from '../../../../src/core/chain/paging';
import type { CursorState } from '../../../../src/core/chain/paging';
import { cursorInput, limitParameter } from '../../../../src/core/chain/schemas';
import { ALL_TOOLS } from '../../../../src/tools';
import { paged, QUERY } from '../../../../src/tools/shared/common';
import { FakeHost } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

const STATE: CursorState = {
  request: requestFingerprint('t', { a: 1 }),
  field: 'things',
  offset: 120,
  list: listDigest([1, 2, 3]),
  snapshot: {
    workspaceId: '2b1c4a5e-0000-5000-8000-000000000000',
    workspaceEpoch: 3,
    snapshotId: '7d0e9a1c-0000-4000-8000-000000000000',
    transactionRevision: null,
  },
};

describe('paging: cursors', () => {
  it('a cursor reads back as the state it was made from; an altered one, or one signed with another key, is not read', () => {
    const cursor = encodeCursor(STATE);
    assert.deepEqual(decodeCursor(cursor), STATE);
    const [payload, tag] = cursor.split('.');
    const altered = Buffer.from(payload, 'base64url').toString('utf8').replace('120', '121');
    assert.equal(decodeCursor(`${Buffer.from(altered).toString('base64url')}.${tag}`), undefined, 'offset changed, signature kept');
    assert.equal(decodeCursor(`${payload}.${tag.slice(0, -2)}AA`), undefined, 'signature changed');
    assert.equal(decodeCursor(encodeCursor(STATE, randomBytes(32))), undefined, 'another process');
    for (const junk of ['', '.', 'abc', `${payload}.${tag}.x`]) assert.equal(decodeCursor(junk), undefined, junk);
  });

  it('the request fingerprint ignores cursor, limits and expectedSnapshot, and nothing else', () => {
    const base = requestFingerprint('find-references', { symbol: { symbolId: 'a' }, includeDeclaration: false });
    assert.equal(
      requestFingerprint('find-references', { includeDeclaration: false, symbol: { symbolId: 'a' }, referencesLimit: 7, cursor: 'x', expectedSnapshot: null }),
      base,
    );
    assert.notEqual(requestFingerprint('find-references', { symbol: { symbolId: 'b' }, includeDeclaration: false }), base);
    assert.notEqual(requestFingerprint('find-references', { symbol: { symbolId: 'a' } }), base);
    assert.notEqual(requestFingerprint('find-implementations', { symbol: { symbolId: 'a' }, includeDeclaration: false }), base);
  });

  it('a list digest ignores the snapshots items carry (they change with any document) but not the items', () => {
    const item = (line: number, snapshotId: string) => ({ path: 'a.ts', line, snapshot: { ...STATE.snapshot, snapshotId } });
    assert.equal(listDigest([item(1, 'x'), item(2, 'x')]), listDigest([item(1, 'y'), item(2, 'y')]));
    assert.notEqual(listDigest([item(1, 'x'), item(2, 'x')]), listDigest([item(1, 'x'), item(3, 'x')]));
  });

  it('a list of plain values digests as its JSON, objects inside a list by their sorted keys', () => {
    // A reference list's rows are plain values: read whole, not key by key (it was 1.8 ms of a 1,568-reference answer).
    assert.equal(listDigest([['a.ts', 1, 2, null]]), listDigest([['a.ts', 1, 2, undefined]]));
    assert.notEqual(listDigest([['a.ts', 1, 2]]), listDigest([['a.ts', 2, 1]]));
    assert.notEqual(listDigest([['a.ts', 1]]), listDigest([['a.ts', '1']]));
    assert.equal(listDigest([['a.ts', { b: 1, a: 2 }]]), listDigest([['a.ts', { a: 2, b: 1 }]]));
    assert.equal(listDigest([{ b: [1, 2], a: 'x' }]), listDigest([{ a: 'x', b: [1, 2] }]));
  });

  it('every query tool with a limit takes a cursor, but the one whose limited lists are nested', () => {
    const limited = ALL_TOOLS.filter((t) => Object.keys((t.inputSchema as { properties: object }).properties).some((k) => k.endsWith('Limit')));
    const without = limited.filter((t) => t.operationKind === 'Query' && !('cursor' in (t.inputSchema as { properties: object }).properties));
    // get-solution-structure limits projects per folder: workspace-status continues one folder's.
    assert.deepEqual(
      without.map((t) => t.name),
      ['get-solution-structure'],
    );
  });
});

interface Item {
  path: string;
  label: string;
}

const listInput = {
  type: 'object',
  properties: {
    seed: { type: 'string', maxLength: 20 },
    itemsLimit: limitParameter('items', 50, 1000),
    otherLimit: limitParameter('other'),
    cursor: cursorInput,
  },
  additionalProperties: false,
} as const;

/** Two lists: `items`, many (each names a document), and `other`, a few; the second is cut to 4 KB of output. */
function listTools(state: { items: Item[] }): AnyToolDefinition[] {
  const tool = (name: string, maxOutputBytes: number) =>
    defineTool<typeof listInput, unknown>({
      name,
      title: name,
      category: 'Workspaces',
      ...QUERY,
      maxOutputBytes,
      description: `Test tool ${name}.`,
      inputSchema: listInput,
      dataSchema: { type: 'object' },
      annotations: { title: name, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      examples: [],
      run: async (input, ctx) => {
        ctx.workspace();
        const other = ['a', 'b', 'c', 'd', 'e'];
        return {
          seed: input.seed ?? '',
          items: paged(ctx, 'items', state.items, input.itemsLimit, { paths: state.items.map((i) => i.path) }),
          other: paged(ctx, 'other', other, input.otherLimit),
        };
      },
    }) as AnyToolDefinition;
  return [tool('test-list', 0), tool('test-list-small', 4096)];
}

interface Page {
  items: { items: Item[]; hasMore: boolean; totalCount: number; cursor?: string };
  other: { items: string[]; hasMore: boolean; cursor?: string };
}

async function walk(h: Harness, tool: string, input: Record<string, unknown>): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = (await h.ok<Page>(tool, { ...input, ...(cursor ? { cursor } : {}) })).data.items;
    pages++;
    items.push(...page.items);
    assert.equal(page.hasMore, page.cursor !== undefined, 'a cursor exactly when items were left out');
    cursor = page.cursor;
    assert.ok(pages < 1000, 'the walk ends');
  } while (cursor);
  return { items, pages };
}

describe('paging: lists continued through the chain', () => {
  const N = 700;
  const files: Record<string, string> = { 'a.ts': 'a\n', 'b.ts': 'b\n' };
  const make = (n: number): Item[] => Array.from({ length: n }, (_, i) => ({ path: i < n / 2 ? 'a.ts' : 'b.ts', label: `item ${i}`.padEnd(30, '.') }));

  async function harness(state: { items: Item[] }) {
    const host = new FakeHost();
    const folder = host.addFolder('app', files);
    const h = await createHarness({ host, tools: listTools(state) });
    return { h, host, folder };
  }

  it('after a limit cut: the pages together are the whole list, in order, none twice, none missing', async () => {
    const state = { items: make(N) };
    const { h } = await harness(state);
    const { items, pages } = await walk(h, 'test-list', { seed: 's', itemsLimit: 64 });
    assert.equal(pages, Math.ceil(N / 64));
    assert.deepEqual(items, state.items);
  });

  it('after a cut by the output bound: the next page starts right after the last item received', async () => {
    const state = { items: make(N) };
    const { h } = await harness(state);
    const first = (await h.ok<Page>('test-list-small', { itemsLimit: 1000 })).data.items;
    assert.ok(first.items.length > 10 && first.items.length < 200, `${first.items.length} items fit`);
    assert.equal(first.hasMore, true);
    const { items, pages } = await walk(h, 'test-list-small', { itemsLimit: 1000 });
    assert.ok(pages > 3, `${pages} pages`);
    assert.deepEqual(items, state.items);
    // A limit may change between pages: it is not part of the request.
    const next = (await h.ok<Page>('test-list-small', { itemsLimit: 5, cursor: first.cursor })).data.items;
    assert.deepEqual(next.items, state.items.slice(first.items.length, first.items.length + 5));
  });

  it('a list the tool gave whole is not cut to make room for a cursor', async () => {
    const state = { items: make(0) };
    const { h } = await harness(state);
    let nearTheBound = 0;
    for (let n = 60; n < 140; n++) {
      state.items = make(n);
      const result = await h.call('test-list-small', { itemsLimit: 1000, otherLimit: 5 });
      const page = (JSON.parse(result.text) as { data: Page }).data.items;
      if (!page.hasMore) {
        assert.equal(page.items.length, n);
        if (Buffer.byteLength(result.text) > 4096 - 150) nearTheBound++;
      } else assert.ok(page.cursor, `n=${n}: cut without a cursor`);
    }
    assert.ok(nearTheBound > 0, 'some whole answer came within a cursor of the bound');
  });

  it("only the cursor's list continues: the answer's other lists come back empty", async () => {
    const state = { items: make(N) };
    const { h } = await harness(state);
    const first = (await h.ok<Page>('test-list', { otherLimit: 2 })).data;
    assert.ok(first.other.cursor && first.items.cursor);
    const other = (await h.ok<Page>('test-list', { otherLimit: 2, cursor: first.other.cursor })).data;
    assert.deepEqual(other.other.items, ['c', 'd']);
    assert.deepEqual(other.items.items, []);
    assert.equal(other.items.hasMore, false);
    const last = (await h.ok<Page>('test-list', { otherLimit: 2, cursor: other.other.cursor })).data;
    assert.deepEqual(last.other.items, ['e']);
    assert.equal(last.other.cursor, undefined);
  });

  it('a cursor for another request or tool, or altered, is refused with InvalidRequest', async () => {
    const state = { items: make(N) };
    const { h } = await harness(state);
    const cursor = (await h.ok<Page>('test-list', { seed: 'one' })).data.items.cursor;
    assert.ok(cursor);
    const another = await h.fail('test-list', { seed: 'two', cursor }, 'InvalidRequest');
    assert.equal(another.continuation?.kind, 'ReviseRequest');
    await h.fail('test-list-small', { seed: 'one', cursor }, 'InvalidRequest');
    await h.fail('test-list', { seed: 'one', cursor: `x${cursor}` }, 'InvalidRequest');
    assert.equal((await h.ok<Page>('test-list', { seed: 'one', cursor })).data.items.items[0].label, state.items[50].label);
  });

  it('a stale cursor is SnapshotMismatch: the list changed, or a document it names changed; a change elsewhere is not', async () => {
    const state = { items: make(N) };
    const { h, host, folder } = await harness(state);
    const cursor = (await h.ok<Page>('test-list', {})).data.items.cursor;
    host.writeFile(host.abs(folder, 'c.ts'), 'unrelated\n');
    assert.deepEqual((await h.ok<Page>('test-list', { cursor })).data.items.items[0], state.items[50], 'a document the list does not name');
    host.writeFile(host.abs(folder, 'b.ts'), 'b changed\n');
    const stale = await h.fail('test-list', { cursor }, 'SnapshotMismatch');
    assert.match(stale.error.message, /b\.ts changed/);
    assert.equal(stale.continuation?.kind, 'ReviseRequest');
    const fresh = (await h.ok<Page>('test-list', {})).data.items.cursor;
    state.items = [...state.items.slice(0, 10), ...state.items.slice(11)];
    const changed = await h.fail('test-list', { cursor: fresh }, 'SnapshotMismatch');
    assert.match(changed.error.message, /items list changed/);
  });
});
