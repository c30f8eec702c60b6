import * as assert from 'node:assert/strict';
import type { HostSymbol } from '../../../src/core/documents/editorPort';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

/*
 * The tools on Python text, with symbols shaped as pyright gives them: a declaration's range from
 * its first decorator (or def) to its last statement, and an overloaded function named once.
 */

const GEOMETRY = [
  'def perimeter(sides: list[float]) -> float:',
  '    """Sums the sides."""',
  '    total = 0.0',
  '    for side in sides:',
  '        total += side',
  '    return total',
  '',
  '',
  'class Polygon:',
  '    def area(self) -> float:',
  '        if not self.sides:',
  '            return 0.0',
  '        return 1.0',
  '',
  '',
  'def inc(x: int) -> int: return x + 1',
  '',
  'LIMIT: int = 3',
  '',
].join('\n');

const OVERLOADS = [
  'from typing import overload',
  '',
  '',
  '@overload',
  'def scale(value: int, factor: int) -> int: ...',
  '@overload',
  'def scale(value: float, factor: float) -> float: ...',
  '@overload',
  'def scale(value: str, factor: int) -> str: ...',
  'def scale(value, factor):',
  '    return value * factor',
  '',
].join('\n');

async function setup(): Promise<{ h: Harness; host: FakeHost; abs: (p: string) => string; id: (file: string, path: string) => { symbolId: string } }> {
  const host = new FakeHost();
  const folder = host.addFolder('py', { 'pyproject.toml': '[project]\nname = "py"\n', 'geometry.py': GEOMETRY, 'overloads.py': OVERLOADS });
  const abs = (p: string) => host.abs(folder, p);
  host.openDocument(abs('geometry.py'), undefined, 'python');
  host.openDocument(abs('overloads.py'), undefined, 'python');
  host.setSymbols(
    abs('geometry.py'),
    symbolsIn(GEOMETRY, [
      { name: 'perimeter', kind: 'Function', from: 'def perimeter', to: 'return total' },
      {
        name: 'Polygon',
        kind: 'Class',
        from: 'class Polygon',
        to: 'return 1.0',
        children: [{ name: 'area', kind: 'Method', from: 'def area', to: 'return 1.0' }],
      },
      { name: 'inc', kind: 'Function', from: 'def inc', to: 'x + 1' },
      { name: 'LIMIT', kind: 'Variable', from: 'LIMIT', to: ' = 3' },
    ]),
  );
  // One symbol for the overloaded name, as pyright answers: the implementation's declaration.
  const impl = OVERLOADS.indexOf('def scale(value, factor)');
  const scale: HostSymbol = {
    name: 'scale',
    kind: 'Function',
    detail: '',
    range: { start: impl, end: OVERLOADS.indexOf('factor\n', impl + 20) + 6 },
    selectionRange: { start: impl + 4, end: impl + 9 },
    children: [],
  };
  host.setSymbols(abs('overloads.py'), [scale]);
  const h = await createHarness({ host });
  const ws = h.registry.all()[0];
  return { h, host, abs, id: (file, path) => ({ symbolId: `${ws.documentId(file)}#${path}` }) };
}

describe('tools on Python: indentation bodies, overloads, moves', () => {
  it("replace-symbol-body replaces the indented block after the colon (docstring included) at the body's indentation", async () => {
    const { h, id } = await setup();
    const ws = h.registry.all()[0];
    await h.ok('replace-symbol-body', { symbol: id('geometry.py', 'Function:perimeter'), text: '"""Sums."""\nreturn sum(sides)\n' });
    await h.ok('replace-symbol-body', { symbol: id('geometry.py', 'Class:Polygon/Method:area'), text: 'if not self.sides:\n    return -1.0\nreturn 2.0' });
    await h.ok('replace-symbol-body', { symbol: id('geometry.py', 'Function:inc'), text: 'y = x + 2\nreturn y' });
    assert.equal(
      h.transactions.stagedText(ws, 'geometry.py'),
      [
        'def perimeter(sides: list[float]) -> float:',
        '    """Sums."""',
        '    return sum(sides)',
        '',
        '',
        'class Polygon:',
        '    def area(self) -> float:',
        '        if not self.sides:',
        '            return -1.0',
        '        return 2.0',
        '',
        '',
        'def inc(x: int) -> int:',
        '    y = x + 2',
        '    return y',
        '',
        'LIMIT: int = 3',
        '',
      ].join('\n'),
    );
  });

  it('replace-symbol-body keeps CRLF line ends and tab indentation', async () => {
    const { h, host, abs } = await setup();
    const text = 'class Tabs:\r\n\tdef run(self) -> int:\r\n\t\tx = 1\r\n\t\treturn x\r\n';
    host.writeFile(abs('tabs.py'), text);
    host.openDocument(abs('tabs.py'), undefined, 'python');
    host.setSymbols(
      abs('tabs.py'),
      symbolsIn(text, [
        { name: 'Tabs', kind: 'Class', from: 'class Tabs', to: 'return x', children: [{ name: 'run', kind: 'Method', from: 'def run', to: 'return x' }] },
      ]),
    );
    const ws = h.registry.all()[0];
    await h.ok('replace-symbol-body', {
      symbol: { symbolId: `${ws.documentId('tabs.py')}#Class:Tabs/Method:run` },
      text: 'if True:\n\treturn 2\nreturn 3\n',
    });
    assert.equal(h.transactions.stagedText(ws, 'tabs.py'), 'class Tabs:\r\n\tdef run(self) -> int:\r\n\t\tif True:\r\n\t\t\treturn 2\r\n\t\treturn 3\r\n');
  });

  it('replace-symbol-body refuses an empty Python body and a symbol that is no def or class', async () => {
    const { h, id } = await setup();
    const empty = await h.fail('replace-symbol-body', { symbol: id('geometry.py', 'Function:perimeter'), text: '\n  \n' }, 'InvalidRequest');
    assert.match(empty.error.message, /cannot be empty/);
    const variable = await h.fail('replace-symbol-body', { symbol: id('geometry.py', 'Variable:LIMIT'), text: 'pass' }, 'InvalidRequest');
    assert.match(variable.error.message, /not a python def or class/);
  });

  it('insert-before-symbol and insert-after-symbol write whole lines at the symbol indentation', async () => {
    const { h, id } = await setup();
    const ws = h.registry.all()[0];
    await h.ok('insert-before-symbol', {
      symbol: id('geometry.py', 'Class:Polygon/Method:area'),
      text: '@property\ndef sides_count(self) -> int:\n    return 3\n',
    });
    await h.ok('insert-after-symbol', { symbol: id('geometry.py', 'Class:Polygon/Method:area'), text: '\ndef name(self) -> str:\n    return "p"' });
    const staged = h.transactions.stagedText(ws, 'geometry.py') ?? '';
    assert.ok(
      staged.includes(
        '    @property\n    def sides_count(self) -> int:\n        return 3\n    def area(self) -> float:\n' +
          '        if not self.sides:\n            return 0.0\n        return 1.0\n\n    def name(self) -> str:\n        return "p"\n',
      ),
      staged,
    );
  });

  it("insert-before-symbol goes above the decorators when the provider's range starts at def", async () => {
    const { h, host, abs } = await setup();
    const text = 'class Box:\n    @property\n    @cached(size=2)\n    def width(self) -> int:\n        return 1\n';
    host.writeFile(abs('box.py'), text);
    host.openDocument(abs('box.py'), undefined, 'python');
    // A range from `def`, as some Python servers give it (pyright's starts at the first decorator).
    host.setSymbols(
      abs('box.py'),
      symbolsIn(text, [
        { name: 'Box', kind: 'Class', children: [{ name: 'width', kind: 'Method', from: 'def width', to: 'return 1' }], from: 'class Box', to: 'return 1' },
      ]),
    );
    const ws = h.registry.all()[0];
    await h.ok('insert-before-symbol', { symbol: { symbolId: `${ws.documentId('box.py')}#Class:Box/Method:width` }, text: '# The width.' });
    assert.equal(
      h.transactions.stagedText(ws, 'box.py'),
      'class Box:\n    # The width.\n    @property\n    @cached(size=2)\n    def width(self) -> int:\n        return 1\n',
    );
  });

  it('find-overloads lists the three @overload declarations and the implementation though the provider names scale once', async () => {
    const { h, id } = await setup();
    const r = await h.ok<{ overloads: { items: { line: number; signature: string }[]; totalCount: number } }>('find-overloads', {
      symbol: id('overloads.py', 'Function:scale'),
    });
    assert.deepEqual(
      r.data.overloads.items.map((o) => [o.line, o.signature]),
      [
        [5, 'def scale(value: int, factor: int) -> int: ...'],
        [7, 'def scale(value: float, factor: float) -> float: ...'],
        [9, 'def scale(value: str, factor: int) -> str: ...'],
        [10, 'def scale(value, factor):'],
      ],
    );
  });

  it('move-file on a Python module says its imports were neither updated nor searched, and lists none', async () => {
    const { h } = await setup();
    const r = await h.ok<{ notes: string[]; referencesToFix?: unknown }>('move-file', { document: { path: 'geometry.py' }, newPath: 'shapes/geometry.py' });
    assert.equal(r.data.referencesToFix, undefined);
    assert.ok(
      r.data.notes.some((n) => /neither updated nor searched/.test(n)),
      r.data.notes.join('\n'),
    );
    // The revision's summary, as the history and the review panel show it.
    const history = await h.ok('transaction-history', {});
    assert.match(JSON.stringify(history.data), /Move geometry\.py to shapes\/geometry\.py \(imports of it not updated\)/);
  });
});
