import * as assert from 'node:assert/strict';
import type { OffsetEdit } from '../../../../src/core/transactions/plan';
import { changedRegions, overlaps, replaceSegments, stagedOffset } from '../../../../src/core/transactions/segments';
import type { Segment } from '../../../../src/core/transactions/segments';
import { FakeHost } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

/*
 * A language service's edit, computed on the editor buffer, placed on the staged text: the rule for
 * edits that only meet a staged change. Two replacements overlap when they share a character; an
 * insertion overlaps only a replaced range it falls strictly inside. At a replaced range's start an
 * insertion goes before its new text, at its end after it; insertions at one point keep the order
 * they were staged in.
 */

const BASE = 'alpha beta gamma';
const BETA = BASE.indexOf('beta');

async function setup(): Promise<{
  h: Harness;
  text: () => string | undefined;
  buffer: (...edits: OffsetEdit[]) => Promise<unknown>;
  revision: () => number | undefined;
}> {
  const host = new FakeHost();
  host.addFolder('app', { 'package.json': '{"name":"app"}', 'words.txt': BASE });
  const h = await createHarness({ host });
  const ws = h.registry.all()[0];
  return {
    h,
    text: () => h.transactions.stagedText(ws, 'words.txt'),
    buffer: (...edits) =>
      h.transactions.stage(undefined, ws, { tool: 'rename-symbol', summary: 'x' }, [{ kind: 'edit', path: 'words.txt', edits }], {
        basis: 'buffer',
        computedOn: { 'words.txt': BASE },
      }),
    revision: () => h.transactions.active(ws.id)?.current,
  };
}

const conflicted = (e: Error & { code?: string }) => e.code === 'TransactionConflicted';

describe('transactions: an edit beside a staged change is placed, one inside it conflicts', () => {
  describe('overlaps and stagedOffset', () => {
    it('replacements overlap when they share a character; an insertion only strictly inside a replaced range', () => {
      const beta = { start: 6, end: 10 };
      assert.equal(overlaps({ start: 10, end: 10 }, beta), false, 'insertion at the end');
      assert.equal(overlaps({ start: 6, end: 6 }, beta), false, 'insertion at the start');
      assert.equal(overlaps({ start: 8, end: 8 }, beta), true, 'insertion inside');
      assert.equal(overlaps({ start: 10, end: 12 }, beta), false, 'replacement after it');
      assert.equal(overlaps({ start: 2, end: 6 }, beta), false, 'replacement before it');
      assert.equal(overlaps({ start: 9, end: 12 }, beta), true, 'replacements sharing a character');
      assert.equal(overlaps({ start: 0, end: 16 }, beta), true, 'a replacement around it');
      assert.equal(overlaps({ start: 6, end: 6 }, { start: 6, end: 6 }), false, 'two insertions at one point');
      assert.equal(overlaps({ start: 6, end: 9 }, { start: 6, end: 6 }), false, 'a replacement starting at a staged insertion');
      assert.equal(overlaps({ start: 3, end: 6 }, { start: 6, end: 6 }), false, 'a replacement ending at a staged insertion');
      assert.equal(overlaps({ start: 3, end: 9 }, { start: 6, end: 6 }), true, 'a staged insertion inside a replacement');
    });

    it('maps a base offset beside a staged change: after a change ending there, before one starting there', () => {
      // "alpha beta gamma" with beta replaced by "BETA!!" and "<" inserted at 0.
      let segments: Segment[] = [{ start: 0, end: BASE.length }];
      segments = replaceSegments(segments, BETA, BETA + 4, 'BETA!!');
      segments = replaceSegments(segments, 0, 0, '<');
      const regions = changedRegions({ segments }, BASE.length);
      assert.deepEqual(regions, [
        { start: 0, end: 0, text: '<' },
        { start: BETA, end: BETA + 4, text: 'BETA!!' },
      ]);
      assert.equal(stagedOffset(regions, 0, 'start'), 1, 'after the staged insertion at 0');
      assert.equal(stagedOffset(regions, 0, 'end'), 0, 'an edit ending at 0 stays before it');
      assert.equal(stagedOffset(regions, 2, 'start'), 3);
      assert.equal(stagedOffset(regions, BETA, 'start'), BETA + 1, 'before BETA!!');
      assert.equal(stagedOffset(regions, BETA, 'end'), BETA + 1);
      assert.equal(stagedOffset(regions, BETA + 4, 'start'), BETA + 1 + 6, 'after BETA!!');
      assert.equal(stagedOffset(regions, BETA + 2, 'start'), undefined, 'inside the replaced range');
      assert.equal(stagedOffset(regions, BASE.length, 'start'), BASE.length + 1 + 2);
    });
  });

  it('an insertion at the end of a staged replacement goes after its text, one at its start before it', async () => {
    const { h, text, buffer } = await setup();
    await h.ok('edit-text', { edits: [{ location: { selection: { document: { path: 'words.txt' }, selectedText: 'beta' } }, newText: 'BETA' }] });
    await buffer({ start: BETA + 4, end: BETA + 4, newText: '+after' });
    assert.equal(text(), 'alpha BETA+after gamma');
    await buffer({ start: BETA, end: BETA, newText: 'before+' });
    assert.equal(text(), 'alpha before+BETA+after gamma');
  });

  it('both in one call, at the ends of a replacement reaching the start and the end of the text', async () => {
    const { h, text, buffer } = await setup();
    await h.ok('edit-text', { edits: [{ location: { selection: { document: { path: 'words.txt' }, selectedText: BASE } }, newText: 'all new' }] });
    await buffer({ start: 0, end: 0, newText: '[' }, { start: BASE.length, end: BASE.length, newText: ']' });
    assert.equal(text(), '[all new]');
  });

  it('an insertion strictly inside a staged replacement, or replacements sharing a character, conflict and stage nothing; edits that only meet it are placed', async () => {
    const { h, text, buffer, revision } = await setup();
    await h.ok('edit-text', { edits: [{ location: { selection: { document: { path: 'words.txt' }, selectedText: 'beta' } }, newText: 'BETA' }] });
    await assert.rejects(buffer({ start: BETA + 1, end: BETA + 1, newText: '!' }), conflicted);
    await assert.rejects(buffer({ start: BETA + 3, end: BETA + 6, newText: 'xx' }), conflicted);
    await assert.rejects(buffer({ start: 0, end: BASE.length, newText: 'all' }), conflicted);
    // One edit of the call beside the change and one inside it: none of the call is staged.
    await assert.rejects(buffer({ start: 0, end: 0, newText: '>' }, { start: BETA + 2, end: BETA + 2, newText: '!' }), conflicted);
    assert.equal(text(), 'alpha BETA gamma');
    assert.equal(revision(), 1);
    // Beside it the same kinds of edits are placed: replacements that only meet it (sharing no character), insertions at its ends.
    await buffer(
      { start: BETA + 4, end: BETA + 5, newText: '_' },
      { start: BETA + 4, end: BETA + 4, newText: '>' },
      { start: BETA, end: BETA, newText: '<' },
      { start: BETA - 1, end: BETA, newText: '_' },
    );
    assert.equal(text(), 'alpha_<BETA>_gamma');
  });

  it('insertions at one point are all kept, in the order they were staged', async () => {
    const { text, buffer } = await setup();
    await buffer({ start: BETA, end: BETA, newText: '1' });
    await buffer({ start: BETA, end: BETA, newText: '2' });
    await buffer({ start: BETA, end: BETA, newText: '3' }, { start: BETA, end: BETA, newText: '4' });
    assert.equal(text(), 'alpha 1234beta gamma');
  });

  it('a replacement meeting a staged insertion keeps it on its side; one around it conflicts', async () => {
    const { text, buffer } = await setup();
    await buffer({ start: BETA, end: BETA, newText: '|' });
    await buffer({ start: BETA, end: BETA + 4, newText: 'BETA' });
    assert.equal(text(), 'alpha |BETA gamma');
    await buffer({ start: 0, end: BETA, newText: 'ALPHA ' });
    assert.equal(text(), 'ALPHA |BETA gamma');
    await buffer({ start: BASE.length, end: BASE.length, newText: '.' });
    await buffer({ start: BETA + 5, end: BASE.length, newText: 'GAMMA' });
    assert.equal(text(), 'ALPHA |BETA GAMMA.');
    const { text: text2, buffer: buffer2 } = await setup();
    await buffer2({ start: BETA + 2, end: BETA + 2, newText: '|' });
    await assert.rejects(buffer2({ start: BETA, end: BETA + 4, newText: 'BETA' }), conflicted);
    assert.equal(text2(), 'alpha be|ta gamma');
  });
});
