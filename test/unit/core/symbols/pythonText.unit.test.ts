import * as assert from 'node:assert/strict';
import { hasIndentedBodies, indentedBody, pythonHeaderColon } from '../../../../src/core/symbols/bodies';
import { pythonOverloads } from '../../../../src/core/symbols/overloads';

/** indentedBody for the declaration named `name` (first `def name`/`class name`), its range ending at `end` (default: the text's end). */
function bodyOf(text: string, name: string, end = text.length) {
  const m = new RegExp(`(?:def|class) ${name}\\b`).exec(text);
  assert.ok(m, `${name} is declared`);
  const at = m.index + m[0].length - name.length;
  const body = indentedBody(text, at, at + name.length, end);
  return body && { ...body, text: text.slice(body.start, body.end) };
}

describe('Python bodies: the indented block after the header colon', () => {
  it('only Python has indented bodies here', () => {
    assert.equal(hasIndentedBodies('python'), true);
    assert.equal(hasIndentedBodies('typescript'), false);
  });

  it('a block body: from its first line to its last statement, docstring included, with its indentation', () => {
    const text = 'def total(xs: list[int]) -> int:\n    """Sums."""\n    s = 0\n    for x in xs:\n        s += x\n    return s\n\n\nafter = 1\n';
    const b = bodyOf(text, 'total', text.indexOf('\n\n\nafter'));
    assert.ok(b);
    assert.equal(b.inline, false);
    assert.equal(b.indent, '    ');
    assert.equal(b.text, '    """Sums."""\n    s = 0\n    for x in xs:\n        s += x\n    return s');
  });

  it('finds the header colon past annotations, defaults, strings and comments holding colons', () => {
    const text = 'async def f(a: dict[str, int] = {"k:": 1}, b=lambda: 2) -> "X:Y":  # note: here\n\tpass\n';
    const colon = pythonHeaderColon(text, text.indexOf('f(') + 1, text.length);
    assert.equal(text.slice(colon ?? 0, (colon ?? 0) + 3), ':  ');
    const b = bodyOf(text, 'f');
    assert.ok(b);
    assert.equal(b.text, '\tpass');
    assert.equal(b.indent, '\t');
  });

  it('an inline body starts right after the colon; a method and a class body are found too', () => {
    const one = 'def inc(x: int) -> int: return x + 1\n';
    assert.deepEqual((({ inline, text }) => ({ inline, text }))(bodyOf(one, 'inc') ?? { inline: false, text: '' }), { inline: true, text: ' return x + 1' });
    const cls = 'class A(Base, metaclass=M):\n    # a comment first, at any indentation\n    def m(self):\n        return 1\n';
    assert.equal(bodyOf(cls, 'A')?.indent, '    ');
    assert.equal(bodyOf(cls, 'm')?.text, '        return 1');
  });

  it('is undefined for what is not a def or class (a variable, an annotation)', () => {
    const text = 'count: int = 3\n';
    assert.equal(indentedBody(text, 0, 5, text.length), undefined);
  });
});

describe('Python overloads: @overload defs and the implementation, read from the text', () => {
  const text = [
    'from typing import overload',
    'import typing',
    '',
    '@overload',
    'def scale(v: int) -> int: ...',
    '@typing.overload',
    'def scale(v: str) -> str: ...',
    '@overload  # third',
    'def scale(v: float) -> float: ...',
    'def scale(v):',
    '    def scale(inner): ...',
    '    return v',
    '',
    'class K:',
    '    @overload',
    '    def scale(self, v: int) -> int: ...',
    '    @overload',
    '    def scale(self, v: str) -> str: ...',
    '    def scale(self, v): return v',
    '',
    '@property',
    'def plain(): ...',
    'def plain(): ...',
    '',
  ].join('\n');

  it('module level: three overloads, then the implementation; nested and class-level defs of the name left out', () => {
    const found = pythonOverloads(text, 'scale', 0, text.length, '');
    assert.deepEqual(
      found.map((d) => [text.slice(d.start, text.indexOf('\n', d.start)), d.overload]),
      [
        ['def scale(v: int) -> int: ...', true],
        ['def scale(v: str) -> str: ...', true],
        ['def scale(v: float) -> float: ...', true],
        ['def scale(v):', false],
      ],
    );
    assert.ok(found.every((d) => text.slice(d.nameStart, d.nameEnd) === 'scale'));
  });

  it('inside a class, at the method indentation', () => {
    const from = text.indexOf('class K');
    const found = pythonOverloads(text, 'scale', from, text.indexOf('\n\n@property'), '    ');
    assert.deepEqual(
      found.map((d) => d.overload),
      [true, true, false],
    );
  });

  it('nothing for a name no @overload decorates (redefinitions are not overloads)', () => {
    assert.deepEqual(pythonOverloads(text, 'plain', 0, text.length, ''), []);
  });
});
