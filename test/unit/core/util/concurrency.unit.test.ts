import * as assert from 'node:assert/strict';
import { mapConcurrently } from '../../../../src/core/util/concurrency';

describe('mapConcurrently (reads of a large staging)', () => {
  it('keeps the items order, never runs more than the limit at once, and runs each item once', async () => {
    let pending = 0;
    let most = 0;
    const seen: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    const out = await mapConcurrently(items, 4, async (i) => {
      pending++;
      most = Math.max(most, pending);
      seen.push(i);
      await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
      pending--;
      return i * 2;
    });
    assert.deepEqual(
      out,
      items.map((i) => i * 2),
    );
    assert.equal(most, 4);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      items,
    );
  });

  it('answers an empty list without calling fn', async () => {
    assert.deepEqual(await mapConcurrently([], 16, () => Promise.reject(new Error('called'))), []);
  });
});
