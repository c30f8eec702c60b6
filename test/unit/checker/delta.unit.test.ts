import * as assert from 'node:assert/strict';
import * as ts from 'typescript';
import { diagnosticsDelta, lineMapping } from '../../../src/checker/delta';
import { typesSorted } from '../../../src/checker/names';
import type { CheckedDiagnostic } from '../../../src/checker/protocol';

const d = (line: number, code = 2322, message = "Type 'number' is not assignable to type 'string'.", column = 7, path = 'a.ts'): CheckedDiagnostic => ({
  path,
  line,
  column,
  code,
  message,
  severity: 'error',
});

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

describe('checker: diagnostics delta', () => {
  it('finds nothing when both views have the same diagnostics', () => {
    assert.deepEqual(
      diagnosticsDelta([{ path: 'a.ts', base: [d(3), d(5, 2304, "Cannot find name 'x'.")], staged: [d(3), d(5, 2304, "Cannot find name 'x'.")] }]),
      {
        introduced: [],
        resolved: [],
      },
    );
  });

  it('does not report a diagnostic that only moved because lines were inserted above it', () => {
    const base = lines(10).join('\n');
    const staged = ['new 1', 'new 2', ...lines(10)].join('\n');
    assert.deepEqual(diagnosticsDelta([{ path: 'a.ts', base: [d(4)], staged: [d(6)], baseText: base, stagedText: staged }]), { introduced: [], resolved: [] });
    // Without the texts it still matches by code and message.
    assert.deepEqual(diagnosticsDelta([{ path: 'a.ts', base: [d(4)], staged: [d(6)] }]), { introduced: [], resolved: [] });
  });

  it('reports introduced diagnostics in staged coordinates and resolved ones in current coordinates', () => {
    const result = diagnosticsDelta([
      { path: 'a.ts', base: [d(2, 2304, "Cannot find name 'y'.")], staged: [d(9, 2339, "Property 'z' does not exist on type 'P'.", 3)] },
    ]);
    assert.deepEqual(result.introduced, [d(9, 2339, "Property 'z' does not exist on type 'P'.", 3)]);
    assert.deepEqual(result.resolved, [d(2, 2304, "Cannot find name 'y'.")]);
  });

  it('counts duplicates: a second identical error is introduced, and the new one is the one reported', () => {
    const base = lines(10).join('\n');
    // Two lines inserted at the top, one of them erroneous; the old error (line 5) moves to line 7.
    const staged = ['const a: string = 1;', 'ok', ...lines(10)].join('\n');
    const result = diagnosticsDelta([{ path: 'a.ts', base: [d(5)], staged: [d(1), d(7)], baseText: base, stagedText: staged }]);
    assert.deepEqual(result, { introduced: [d(1)], resolved: [] });
  });

  it('picks the right instance of a duplicate that disappears after a shift', () => {
    const base = lines(20).join('\n');
    // Lines 3-4 removed (one held an error); the error at line 15 is now at line 13.
    const staged = [...lines(20)].filter((_, i) => i !== 2 && i !== 3).join('\n');
    const result = diagnosticsDelta([{ path: 'a.ts', base: [d(4), d(15)], staged: [d(13)], baseText: base, stagedText: staged }]);
    assert.deepEqual(result, { introduced: [], resolved: [d(4)] });
  });

  it('matches by message too: the same code with another message is a different diagnostic', () => {
    const result = diagnosticsDelta([{ path: 'a.ts', base: [d(3, 2304, "Cannot find name 'a'.")], staged: [d(3, 2304, "Cannot find name 'b'.")] }]);
    assert.equal(result.introduced.length, 1);
    assert.equal(result.resolved.length, 1);
  });

  it("the same diagnostic in other words (a union's members in another order, a type cut short after other members) is the same one, in the same place only", () => {
    const same = (a: string, b: string) => typesSorted(ts, a) === typesSorted(ts, b);
    const was = `Property 'value' does not exist on type 'Option<{ readonly kind: "user" | "role"; } | Exit<"a" | "b">>'.`;
    const now = `Property 'value' does not exist on type 'Option<Exit<"b" | "a"> | { readonly kind: "role" | "user"; }>'.`;
    const other = `Property 'value' does not exist on type 'Option<{ readonly kind: "user" | "tool"; } | Exit<"a" | "b">>'.`;
    const base = 'a\nb\nc\n';
    const staged = 'a\nB\nb\nc\n';
    const delta = (s: CheckedDiagnostic) =>
      diagnosticsDelta([{ path: 'a.ts', base: [d(2, 2339, was)], staged: [s], baseText: base, stagedText: staged }], same);
    assert.deepEqual(delta(d(3, 2339, now)), { introduced: [], resolved: [] }, 'the line moved with the edit above it');
    assert.equal(delta(d(3, 2339, other)).introduced.length, 1, 'another type');
    // A long type is cut short after the members printed first: which ones, the order decides.
    const cut = (members: string) =>
      `Each member of the union type '(${members} | ... 1 more ... | undefined)' has signatures, but none of those signatures are compatible with each other.`;
    assert.equal(delta(d(3, 2349, cut('Node<...>'))).introduced.length, 1, 'another code');
    assert.deepEqual(
      diagnosticsDelta(
        [{ path: 'a.ts', base: [d(2, 2349, cut('Mark<...>'))], staged: [d(3, 2349, cut('Node<...>'))], baseText: base, stagedText: staged }],
        same,
      ),
      { introduced: [], resolved: [] },
      'a type cut short',
    );
    assert.equal(delta(d(4, 2339, now)).introduced.length, 1, 'another place');
    assert.equal(
      diagnosticsDelta([{ path: 'a.ts', base: [d(2, 2339, was)], staged: [d(3, 2339, now)], baseText: base, stagedText: staged }]).introduced.length,
      1,
      'without sameMessage',
    );
  });

  it('keeps documents apart: the same error moving to another file is introduced there and resolved here', () => {
    const result = diagnosticsDelta([
      { path: 'a.ts', base: [d(3, 2322, 'm', 1, 'a.ts')], staged: [] },
      { path: 'b.ts', base: [], staged: [d(3, 2322, 'm', 1, 'b.ts')] },
    ]);
    assert.deepEqual(result, { introduced: [d(3, 2322, 'm', 1, 'b.ts')], resolved: [d(3, 2322, 'm', 1, 'a.ts')] });
  });

  it('handles a created document (no current diagnostics) and a deleted one (no staged diagnostics)', () => {
    const result = diagnosticsDelta([
      { path: 'new.ts', base: [], staged: [d(1, 2322, 'm', 1, 'new.ts')] },
      { path: 'old.ts', base: [d(2, 2322, 'm', 1, 'old.ts')], staged: [] },
    ]);
    assert.deepEqual(
      result.introduced.map((x) => x.path),
      ['new.ts'],
    );
    assert.deepEqual(
      result.resolved.map((x) => x.path),
      ['old.ts'],
    );
  });

  it('sorts each list by path and position', () => {
    const result = diagnosticsDelta([
      { path: 'b.ts', base: [], staged: [d(5, 1, 'x', 1, 'b.ts'), d(2, 2, 'y', 1, 'b.ts')] },
      { path: 'a.ts', base: [], staged: [d(9, 3, 'z', 1, 'a.ts')] },
    ]);
    assert.deepEqual(
      result.introduced.map((x) => `${x.path}:${x.line}`),
      ['a.ts:9', 'b.ts:2', 'b.ts:5'],
    );
  });

  it('many duplicates with an edit in the middle keep the unchanged ones paired', () => {
    const base = lines(30).join('\n');
    const stagedLines = lines(30);
    stagedLines.splice(10, 0, 'x1', 'x2', 'x3');
    const staged = stagedLines.join('\n');
    const baseDiags = [d(2), d(8), d(20), d(25)];
    const stagedDiags = [d(2), d(8), d(11), d(12), d(23), d(28)];
    assert.deepEqual(diagnosticsDelta([{ path: 'a.ts', base: baseDiags, staged: stagedDiags, baseText: base, stagedText: staged }]), {
      introduced: [d(11), d(12)],
      resolved: [],
    });
  });

  it('maps lines outside the changed region, CRLF or not', () => {
    const map = lineMapping('a\r\nb\r\nc\r\nd\r\n', 'a\r\nB\r\nB2\r\nc\r\nd\r\n');
    assert.equal(map(1), 1);
    assert.equal(map(2), undefined);
    assert.equal(map(3), 4);
    assert.equal(map(4), 5);
  });
});
