import * as assert from 'node:assert/strict';
import * as ts from 'typescript';
import { exposedNames, unionsSorted } from '../../../src/checker/names';
import type { Declarations } from '../../../src/checker/view';

describe('checker: names a change exposes, read from declarations', () => {
  it('a union printed in another member order is the same declaration; other differences are not', () => {
    const same = (a: string, b: string) => unionsSorted(ts, a) === unionsSorted(ts, b);
    assert.ok(same('export declare const a: Ref<"b" | "a" | ("d" | "c")[]>;', 'export declare const a: Ref<"a" | ("c" | "d")[] | "b">;'));
    assert.ok(same('type T = { k: "x" | "y"; } | string;', 'type T = string | { k: "y" | "x"; };'), 'nested in a member');
    assert.ok(!same('export declare const a: "a" | "b";', 'export declare const a: "a" | "c";'));
    assert.ok(!same('export declare const a: A & B;', 'export declare const a: B & A;'), "an intersection's order can decide overloads: kept");
    assert.ok(!same('export declare const a: "a" | "b";', 'export declare const b: "a" | "b";'));
  });

  it('a file whose declarations differ only in union order exposes nothing, so its importers are covered', () => {
    const before: Declarations = { text: 'export declare const mode: Ref<"both" | "server" | "client">;\nexport declare const other: number;\n', refs: [] };
    const reordered: Declarations = { text: 'export declare const mode: Ref<"client" | "both" | "server">;\nexport declare const other: number;\n', refs: [] };
    const changed: Declarations = { text: 'export declare const mode: Ref<"client" | "both">;\nexport declare const other: number;\n', refs: [] };
    const exposed = (after: Declarations) =>
      exposedNames(
        ts,
        ['/p/a.ts'],
        () => [before, after],
        () => [],
      ).get('/p/a.ts');
    assert.equal(exposed(reordered), undefined);
    assert.deepEqual(exposed(changed), new Set(['mode']));
  });
});
