import * as assert from 'node:assert/strict';
import { boundToFit, fitsBytes, limitItems, utf8Bytes } from '../../../../src/core/chain/bounding';

const items = (prefix: string, n: number, size = 20): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`.padEnd(size, '.'));

describe('bounding: boundToFit', () => {
  it('returns the value untouched when it fits', async () => {
    const value = { a: { items: items('a', 3), hasMore: false } };
    const result = await boundToFit(value, fitsBytes(10_000));
    assert.deepEqual(result, { text: JSON.stringify(value), truncated: false });
  });

  it('drops items from the end of the last collection first and sets its hasMore', async () => {
    const value = { first: { items: items('f', 10), hasMore: false, totalCount: 10 }, second: { items: items('s', 10), hasMore: false, totalCount: 10 } };
    const full = JSON.stringify(value);
    const limit = utf8Bytes(full) - 50;
    const result = await boundToFit(value, fitsBytes(limit));
    assert.ok(result);
    assert.equal(result.truncated, true);
    assert.ok(utf8Bytes(result.text) <= limit);
    const bounded = JSON.parse(result.text) as typeof value;
    assert.deepEqual(bounded.first, value.first, 'the first collection is untouched');
    assert.equal(bounded.second.hasMore, true);
    assert.equal(bounded.second.totalCount, 10, 'totalCount still says how many there were');
    assert.deepEqual(bounded.second.items, value.second.items.slice(0, bounded.second.items.length), 'a prefix is kept');
    assert.ok(bounded.second.items.length >= 7 && bounded.second.items.length < 10, `kept ${bounded.second.items.length}`);
    // The largest prefix that fits: one more item would not fit.
    const oneMore = { ...bounded, second: { ...bounded.second, items: value.second.items.slice(0, bounded.second.items.length + 1) } };
    assert.ok(utf8Bytes(JSON.stringify(oneMore)) > limit);
  });

  it('moves on to the earlier collection when emptying the last is not enough', async () => {
    const value = { first: { items: items('f', 20), hasMore: false }, second: { items: items('s', 5), hasMore: false } };
    const limit = 200;
    const result = await boundToFit(value, fitsBytes(limit));
    assert.ok(result);
    const bounded = JSON.parse(result.text) as typeof value;
    assert.deepEqual(bounded.second, { items: [], hasMore: true });
    assert.equal(bounded.first.hasMore, true);
    assert.ok(bounded.first.items.length > 0 && bounded.first.items.length < 20);
    assert.deepEqual(bounded.first.items, value.first.items.slice(0, bounded.first.items.length));
    assert.ok(utf8Bytes(result.text) <= limit);
  });

  it('shortens collections nested in items of another collection before the outer one', async () => {
    const value = {
      groups: {
        items: [
          { name: 'g0', members: { items: items('m', 10), hasMore: false } },
          { name: 'g1', members: { items: items('n', 10), hasMore: false } },
        ],
        hasMore: false,
      },
    };
    const limit = utf8Bytes(JSON.stringify(value)) - 100;
    const result = await boundToFit(value, fitsBytes(limit));
    assert.ok(result);
    const bounded = JSON.parse(result.text) as typeof value;
    assert.equal(bounded.groups.items.length, 2);
    assert.equal(bounded.groups.hasMore, false);
    assert.deepEqual(bounded.groups.items[0].members, value.groups.items[0].members);
    assert.equal(bounded.groups.items[1].members.hasMore, true);
  });

  it('always produces valid JSON, even with multi-byte text and hostile strings', async () => {
    const nasty = ['"}]', '\\', '😀é中', '\u2028', '</script>'];
    const value = { list: { items: Array.from({ length: 60 }, (_, i) => ({ i, text: nasty[i % nasty.length].repeat(5) })), hasMore: false } };
    for (const limit of [60, 100, 333, 1000, 2500]) {
      const result = await boundToFit(value, fitsBytes(limit));
      assert.ok(result, `limit ${limit}`);
      assert.ok(utf8Bytes(result.text) <= limit, `limit ${limit}: ${utf8Bytes(result.text)} bytes`);
      const parsed = JSON.parse(result.text) as typeof value;
      assert.deepEqual(parsed.list.items, value.list.items.slice(0, parsed.list.items.length));
    }
  });

  it('leaves hasMore false on a collection that lost nothing', async () => {
    const value = { a: { items: ['x'.repeat(100)], hasMore: false }, b: { items: [] as string[], hasMore: false } };
    const result = await boundToFit(value, fitsBytes(70));
    assert.ok(result);
    const bounded = JSON.parse(result.text) as typeof value;
    assert.deepEqual(bounded.a, { items: [], hasMore: true });
    assert.deepEqual(bounded.b, { items: [], hasMore: false });
  });

  it('returns undefined when even empty collections do not fit', async () => {
    const value = { header: 'h'.repeat(200), list: { items: items('x', 5), hasMore: false } };
    assert.equal(await boundToFit(value, fitsBytes(150)), undefined);
    assert.equal(await boundToFit({ header: 'h'.repeat(200) }, fitsBytes(150)), undefined);
  });

  it('does not mutate its input', async () => {
    const value = { a: { items: items('a', 30), hasMore: false }, b: { items: items('b', 30), hasMore: false } };
    const before = structuredClone(value);
    await boundToFit(value, fitsBytes(300));
    assert.deepEqual(value, before);
  });

  it('accepts an asynchronous fits function (a token budget)', async () => {
    const value = { list: { items: items('t', 40), hasMore: false } };
    const tokens = async (text: string) => Math.ceil(text.length / 4);
    const result = await boundToFit(value, async (text) => (await tokens(text)) <= 50);
    assert.ok(result);
    assert.ok((await tokens(result.text)) <= 50);
    assert.equal((JSON.parse(result.text) as typeof value).list.hasMore, true);
  });

  it('does not treat look-alikes as collections', async () => {
    const value = { notACollection: { items: items('x', 20), hasMore: 'no' }, list: { items: items('y', 2), hasMore: false } };
    assert.equal(await boundToFit(value, fitsBytes(200)), undefined);
  });
});

describe('bounding: limitItems', () => {
  it('applies the limit, the default of 50 and reports the total', () => {
    const all = Array.from({ length: 120 }, (_, i) => i);
    assert.deepEqual(limitItems(all, 3), { items: [0, 1, 2], hasMore: true, totalCount: 120 });
    const byDefault = limitItems(all, null);
    assert.equal(byDefault.items.length, 50);
    assert.equal(byDefault.hasMore, true);
    assert.equal(limitItems(all, undefined, 7).items.length, 7);
    assert.deepEqual(limitItems([1, 2], 2), { items: [1, 2], hasMore: false, totalCount: 2 });
    assert.deepEqual(limitItems([1, 2], 0), { items: [], hasMore: true, totalCount: 2 });
    assert.deepEqual(limitItems([], 0), { items: [], hasMore: false, totalCount: 0 });
  });

  it('does not mutate the list', () => {
    const all = [3, 2, 1];
    limitItems(all, 1);
    assert.deepEqual(all, [3, 2, 1]);
  });
});
