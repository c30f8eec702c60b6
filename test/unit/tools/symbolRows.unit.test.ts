import * as assert from 'node:assert/strict';
import { refReader, refWriter, relativeRows } from '../../../src/tools/shared/symbolRows';
import { encodeSegment } from '../../../src/core/symbols/symbols';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';

describe('symbol rows: each ref written relative to the ref before it', () => {
  it('a ref in the same document as the one before says "#" for its path and a "/" for each container segment it shares', () => {
    const write = refWriter();
    assert.deepEqual(
      [
        'src/a.ts#Class:A/Method:a',
        'src/a.ts#Class:A/Method:b',
        'src/a.ts#Function:f',
        'src/a.ts#Function:f/Function:operate() callback/Variable:emit',
        'src/a.ts#Function:f/Function:operate() callback/Variable:start',
        'src/a.ts#Function:f',
        'src/b.ts#Class:A/Method:a',
      ].map((ref) => write(ref)),
      [
        'src/a.ts#Class:A/Method:a',
        '#/Method:b',
        '#Function:f',
        '#/Function:operate() callback/Variable:emit',
        '#//Variable:start',
        '#Function:f',
        'src/b.ts#Class:A/Method:a',
      ],
    );
    // Another folder (a row's more.folderId) starts over, whatever its path.
    const scoped = refWriter();
    assert.deepEqual(
      [scoped('src/a.ts#Class:A', '1111aaaa'), scoped('src/a.ts#Class:A/Method:a', '2222bbbb'), scoped('src/a.ts#Class:A/Method:b', '2222bbbb')],
      ['src/a.ts#Class:A', 'src/a.ts#Class:A/Method:a', '#/Method:b'],
    );
    // An outline's ids have no path: only the slashes.
    const outline = refWriter();
    assert.deepEqual(
      ['Class:A', 'Class:A/Property:x', 'Class:A/Method:m', 'Class:A/Method:m/Class:Inner', 'Function:f'].map((id) => outline(id)),
      ['Class:A', '/Property:x', '/Method:m', '//Class:Inner', 'Function:f'],
    );
  });

  it('reads back every ref whole, whatever the names hold (escaped "/", "#", "~n" overloads, spaces), in any order of documents and depths', () => {
    const written: string[] = [];
    const names = ['a', 'operate() callback', 'x/y', 'a#b', '(get) v', 'über', '~', 'π'];
    const kinds = ['Class', 'Method', 'Function', 'Variable'];
    let seed = 7;
    // mulberry32: a seeded generator, so a failure replays.
    const next = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    for (let round = 0; round < 300; round++) {
      const refs = Array.from({ length: 1 + next(12) }, () => {
        const depth = 1 + next(4);
        // The first two segments from few, so that refs share containers; deeper ones from every name and kind.
        const segments = Array.from({ length: depth }, (_, j) =>
          encodeSegment(
            j < 2
              ? { kind: kinds[j], name: names[next(2)], ordinal: 0 }
              : { kind: kinds[next(kinds.length)], name: names[next(names.length)], ordinal: next(2) },
          ),
        );
        return next(2) === 0 ? segments.join('/') : `src/${['a', 'b'][next(2)]}.ts#${segments.join('/')}`;
      });
      // An outline's ids and a list's refs are never mixed in one answer: one kind a round.
      const kind = next(2) === 0;
      const sample = refs.map((r) => (kind ? (r.includes('#') ? r : `src/a.ts#${r}`) : r.replace(/^.*#/, '')));
      const write = refWriter();
      const read = refReader();
      const round = sample.map((r) => write(r));
      assert.deepEqual(
        round.map((r) => read(r)),
        sample,
        JSON.stringify(round),
      );
      for (const [i, w] of round.entries()) assert.ok(w.length <= sample[i].length, `${w} is no longer than ${sample[i]}`);
      written.push(...round);
    }
    // The rounds wrote every kind of ref: whole, "#…", "#/…", "#//…", "/…" and "//…".
    for (const start of [/^[^#/]/, /^#[^/]/, /^#\/[^/]/, /^#\/\/[^/]/, /^\/[^/]/, /^\/\/[^/]/]) {
      assert.ok(
        written.some((w) => start.test(w)),
        String(start),
      );
    }
    assert.ok(written.some((w) => w.includes('%23')) && written.some((w) => w.includes('%2F')), 'names holding "#" and "/"');
  });

  it('rows: the ref is the first position, another folder named in the last (more.folderId)', () => {
    const rows = relativeRows<[string, number, number, { folderId?: string }?]>([
      ['src/a.ts#Class:A', 1, 14],
      ['src/a.ts#Class:A/Method:m', 2, 3],
      ['src/a.ts#Class:A/Method:n', 3, 3, { folderId: 'ffff0000' }],
    ]);
    assert.deepEqual(rows, [
      ['src/a.ts#Class:A', 1, 14],
      ['#/Method:m', 2, 3],
      ['src/a.ts#Class:A/Method:n', 3, 3, { folderId: 'ffff0000' }],
    ]);
  });

  it('a relative ref passed back as a symbolId is refused, saying how to make it whole', async () => {
    const host = new FakeHost();
    const A = 'export class A {\n  a() {}\n  b() {}\n}\n';
    const folder = host.addFolder('app', { 'src/a.ts': A });
    host.setSymbols(
      host.abs(folder, 'src/a.ts'),
      symbolsIn(A, [
        {
          name: 'A',
          kind: 'Class',
          from: 'export class',
          to: '\n}',
          children: [
            { name: 'a', kind: 'Method', from: 'a()', to: '{}' },
            { name: 'b', kind: 'Method', from: 'b()', to: '{}' },
          ],
        },
      ]),
    );
    const h = await createHarness({ host });
    const id = h.registry.all()[0].shortId;
    for (const symbolId of ['#/Method:b', `${id}:#Class:A`, `${id}:src/a.ts#/Method:b`, '/Method:b']) {
      const failure = await h.fail('resolve-symbol', { symbol: { symbolId } }, 'InvalidRequest');
      assert.match(failure.error.message, /written relative to the row before it/, symbolId);
      assert.match(failure.continuation?.instruction ?? '', /whole symbolId, or give the symbol by name/);
    }
    const whole = await h.ok<{ symbolId: string }>('resolve-symbol', { symbol: { symbolId: `${id}:src/a.ts#Class:A/Method:b` } });
    assert.equal(whole.data.symbolId, `${id}:src/a.ts#Class:A/Method:b`);
  });
});
