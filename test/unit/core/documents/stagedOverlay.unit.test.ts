import * as assert from 'node:assert/strict';
import { StagedOverlay } from '../../../../src/core/documents/stagedOverlay';
import { applyOffsetEdits } from '../../../../src/core/transactions/segments';
import type { OffsetEdit } from '../../../../src/core/transactions/plan';
import type { Segment } from '../../../../src/core/transactions/segments';

/** The segments a transaction keeps after ascending, non-overlapping edits of a base text. */
function segmentsOf(baseLength: number, edits: readonly OffsetEdit[]): Segment[] {
  const out: Segment[] = [];
  let cursor = 0;
  for (const e of edits) {
    if (e.start > cursor) out.push({ start: cursor, end: e.start });
    if (e.newText !== '') out.push({ text: e.newText });
    cursor = e.end;
  }
  if (cursor < baseLength) out.push({ start: cursor, end: baseLength });
  return out;
}

function overlay(base: string, edits: OffsetEdit[]): { staged: string; map: StagedOverlay } {
  return { staged: applyOffsetEdits(base, edits), map: new StagedOverlay(segmentsOf(base.length, edits), base.length) };
}

describe('StagedOverlay', () => {
  const base = 'class Foo {}\nconst a = new Foo();\nconst b = Foo.name;\n';
  const foo = (n: number) => {
    let at = -1;
    for (let i = 0; i <= n; i++) at = base.indexOf('Foo', at + 1);
    return at;
  };

  it('maps a renamed reference onto the new name, marked edited', () => {
    const edits = [0, 1, 2].map((i) => ({ start: foo(i), end: foo(i) + 3, newText: 'LongerName' }));
    const { staged, map } = overlay(base, edits);
    for (let i = 0; i < 3; i++) {
      const r = map.toStaged(foo(i), foo(i) + 3);
      assert.equal(staged.slice(r.start, r.end), 'LongerName');
      assert.equal(r.edited, true);
    }
    // Text after the renames moves by 7 per rename before it.
    const name = base.indexOf('name');
    const r = map.toStaged(name, name + 4);
    assert.deepEqual(r, { start: name + 21, end: name + 25, edited: false });
    assert.equal(staged.slice(r.start, r.end), 'name');
    assert.deepEqual(map.toBase(r.start, r.end), { start: name, end: name + 4 });
  });

  it('keeps a range after a pure insertion at its start unedited, and one spanning the insertion edited', () => {
    const at = base.indexOf('new Foo');
    const { staged, map } = overlay(base, [{ start: at, end: at, newText: '/* made */ ' }]);
    const r = map.toStaged(at, at + 7);
    assert.deepEqual(r, { start: at + 11, end: at + 18, edited: false });
    assert.equal(staged.slice(r.start, r.end), 'new Foo');
    const across = map.toStaged(at - 2, at + 3);
    assert.equal(across.edited, true);
    assert.equal(staged.slice(across.start, across.end), '= /* made */ new');
    // A range ending at the insertion point ends before it.
    assert.deepEqual(map.toStaged(at - 2, at), { start: at - 2, end: at, edited: false });
  });

  it('maps exactly the text that replaced a name back to that name, and nothing less', () => {
    const edits = [0, 2].map((i) => ({ start: foo(i), end: foo(i) + 3, newText: 'LongerName' }));
    const { staged, map } = overlay(base, edits);
    const first = staged.indexOf('LongerName');
    const last = staged.lastIndexOf('LongerName');
    assert.deepEqual(map.toBase(first, first + 10), { start: foo(0), end: foo(0) + 3 });
    assert.deepEqual(map.toBase(last, last + 10), { start: foo(2), end: foo(2) + 3 });
    assert.equal(map.toBase(first, first + 6), undefined, 'part of the new name');
    const tail = overlay(base, [{ start: base.length - 6, end: base.length, newText: 'size;\n' }]);
    assert.deepEqual(
      tail.map.toBase(tail.staged.length - 6, tail.staged.length),
      { start: base.length - 6, end: base.length },
      'a replacement at the very end',
    );
  });

  it('maps a range inside deleted text to the place of the deletion', () => {
    const line2 = base.indexOf('const a');
    const line3 = base.indexOf('const b');
    const { staged, map } = overlay(base, [{ start: line2, end: line3, newText: '' }]);
    const r = map.toStaged(foo(1), foo(1) + 3);
    assert.deepEqual(r, { start: line2, end: line2, edited: true });
    assert.equal(staged.slice(line2).startsWith('const b'), true);
  });

  it('refuses to map staged text the transaction inserted back to the base', () => {
    const { staged, map } = overlay(base, [{ start: 0, end: 0, newText: 'import x;\n' }]);
    assert.equal(map.toBase(0, 6), undefined);
    assert.equal(map.toBase(8, 12), undefined, 'a range reaching from inserted into base text');
    const cls = staged.indexOf('class');
    assert.deepEqual(map.toBase(cls, cls + 5), { start: 0, end: 5 });
  });

  it('round-trips every unedited range and marks every range that touches an edit (random edits)', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(4);
    for (let round = 0; round < 200; round++) {
      const edits: OffsetEdit[] = [];
      let cursor = 0;
      while (cursor < text.length && edits.length < 5) {
        const start = cursor + rand(20);
        if (start > text.length) break;
        const end = Math.min(text.length, start + rand(4));
        edits.push({ start, end, newText: ['', 'X', 'YYYY'][rand(3)] });
        cursor = end + 1;
      }
      const { staged, map } = overlay(text, edits);
      for (let k = 0; k < 30; k++) {
        const start = rand(text.length + 1);
        const end = Math.min(text.length, start + rand(8));
        const r = map.toStaged(start, end);
        const touches = edits.some(
          (e) => (e.start < end && start < e.end) || (start < e.start && e.start < end) || (e.start === e.end && start < e.start && e.start < end),
        );
        if (!r.edited) {
          assert.equal(staged.slice(r.start, r.end), text.slice(start, end), `round ${round} [${start},${end})`);
          assert.deepEqual(map.toBase(r.start, r.end), { start, end });
        }
        assert.equal(r.edited, touches, `round ${round} [${start},${end}) edits ${JSON.stringify(edits)}`);
        assert.ok(r.start <= r.end && r.end <= staged.length);
      }
    }
  });
});
