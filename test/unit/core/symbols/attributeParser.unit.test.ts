import * as assert from 'node:assert/strict';
import { attributesOf, attributeSyntax, compactCode, literalType, parseArguments, splitTopLevel } from '../../../../src/core/symbols/attributes';
import type { ParsedAttribute } from '../../../../src/core/symbols/attributes';

/** Attributes of the declaration starting at `decl` whose name is the first `name` after it. */
function of(text: string, decl: string, name: string, languageId: string): ParsedAttribute[] {
  const declStart = text.indexOf(decl);
  assert.ok(declStart >= 0, `no ${decl}`);
  return attributesOf(text, declStart, text.indexOf(name, declStart), languageId);
}

const brief = (attrs: ParsedAttribute[]) =>
  attrs.map((a) => ({
    name: a.name,
    target: a.target,
    positional: a.positional.map((p) => p.value),
    named: a.named.map((p) => `${p.name}=${p.value}`),
  }));

const DECORATORS = [
  '@Injectable()',
  'export class DataService {}',
  '',
  "@Component({ selector: 'app-widget', standalone: true })",
  'export class WidgetComponent {',
  "  @Input('label') title = '';",
  '',
  '  constructor(private readonly data: DataService) {}',
  '',
  "  @Log('debug', 2)",
  '  render(): string {',
  "    return '';",
  '  }',
  '}',
  '',
  '// a comment between decorators and the class',
  '@Component({',
  "  selector: 'app-special',",
  '  template: \'<p>(special), "quoted"</p>\', // trailing comment',
  '})',
  '/* block */ @Sealed',
  'export class SpecialWidget extends WidgetComponent {}',
].join('\n');

describe('attributes: the source-text parser', function () {
  it('knows which syntax each language uses', function () {
    assert.equal(attributeSyntax('typescript'), 'at');
    assert.equal(attributeSyntax('python'), 'at');
    assert.equal(attributeSyntax('java'), 'at');
    assert.equal(attributeSyntax('kotlin'), 'at');
    assert.equal(attributeSyntax('csharp'), 'bracket');
    assert.equal(attributeSyntax('rust'), 'hashBracket');
    assert.equal(attributeSyntax('plaintext'), undefined);
    assert.deepEqual(of('@X class A {}', 'class', 'A', 'plaintext'), []);
  });

  it('reads TypeScript decorators whether or not the symbol range includes them', function () {
    for (const decl of ['@Component({ selector', 'export class WidgetComponent']) {
      assert.deepEqual(brief(of(DECORATORS, decl, 'WidgetComponent', 'typescript')), [
        { name: 'Component', target: null, positional: [], named: ["selector='app-widget'", 'standalone=true'] },
      ]);
    }
    assert.deepEqual(brief(of(DECORATORS, 'export class DataService', 'DataService', 'typescript')), [
      { name: 'Injectable', target: null, positional: [], named: [] },
    ]);
  });

  it('reads member decorators and stops at the previous member', function () {
    assert.deepEqual(brief(of(DECORATORS, 'title =', 'title', 'typescript')), [{ name: 'Input', target: null, positional: ["'label'"], named: [] }]);
    assert.deepEqual(brief(of(DECORATORS, 'render()', 'render', 'typescript')), [{ name: 'Log', target: null, positional: ["'debug'", '2'], named: [] }]);
    assert.deepEqual(of(DECORATORS, 'constructor(', 'constructor', 'typescript'), []);
  });

  it('reads a multi-line decorator with parentheses, commas and quotes in strings, across comments', function () {
    const attrs = of(DECORATORS, 'export class SpecialWidget', 'SpecialWidget', 'typescript');
    assert.deepEqual(brief(attrs), [
      { name: 'Component', target: null, positional: [], named: ["selector='app-special'", 'template=\'<p>(special), "quoted"</p>\''] },
      { name: 'Sealed', target: null, positional: [], named: [] },
    ]);
    assert.equal(DECORATORS.slice(attrs[0].start, attrs[0].end).split('\n').length, 4, 'the span covers the whole decorator');
    assert.equal(DECORATORS.slice(attrs[1].nameOffset, attrs[1].nameOffset + 6), 'Sealed');
    assert.deepEqual(
      attrs[0].named.map((a) => a.type),
      ['string', 'string'],
    );
  });

  it('reads TC39 decorators with positional and object arguments, and modifiers before decorators', function () {
    const text = "export @sealed class Ledger {\n  @tracked('audit', { level: 2, tags: ['money', 'a,b'] })\n  record(entry: string): void {}\n}";
    assert.deepEqual(brief(of(text, 'export @sealed', 'Ledger', 'typescript')), [{ name: 'sealed', target: null, positional: [], named: [] }]);
    const record = of(text, 'record(', 'record', 'typescript');
    assert.deepEqual(brief(record), [{ name: 'tracked', target: null, positional: ["'audit'"], named: ['level=2', "tags=['money', 'a,b']"] }]);
    assert.deepEqual(
      record[0].named.map((a) => a.type),
      ['number', 'array'],
    );
  });

  it('keeps an options object positional when it is not the last argument or holds spreads', function () {
    assert.deepEqual(
      parseArguments("{ a: 1 }, 'x'", 'typescript').positional.map((a) => a.value),
      ['{ a: 1 }', "'x'"],
    );
    const spread = parseArguments('{ ...base, a: 1 }', 'typescript');
    assert.deepEqual(
      spread.positional.map((a) => [a.value, a.type]),
      [['{ ...base, a: 1 }', 'object']],
    );
    assert.deepEqual(spread.named, []);
    assert.deepEqual(
      parseArguments('{ \'a/b\': 1, "x.y": 2, short }', 'typescript').named.map((a) => `${a.name}=${a.value}`),
      ['a/b=1', 'x.y=2', 'short=short'],
    );
  });

  it('reads C# attribute lists: several per list, targets, named arguments, verbatim strings, typeof with generics', function () {
    const cs = [
      'namespace N {',
      '  [Serializable, Obsolete("old, \\"really\\"", error: true)]',
      '  [return: NotNull]',
      '  [DebuggerDisplay(@"{Name} ""x""", Name = "n", Target = typeof(Dictionary<int, string>))]',
      '  public sealed partial class Foo : Bar {',
      '    [JsonProperty("a/b")] public int X { get; set; }',
      '    [Fact]',
      '    [InlineData(1, new[] { 2, 3 })]',
      '    public void Test(int a, int[] b) {}',
      '    public int[] Values => new[] { 1 };',
      '  }',
      '}',
    ].join('\n');
    const expected = [
      { name: 'Serializable', target: null, positional: [], named: [] },
      { name: 'Obsolete', target: null, positional: ['"old, \\"really\\""'], named: ['error=true'] },
      { name: 'NotNull', target: 'return', positional: [], named: [] },
      { name: 'DebuggerDisplay', target: null, positional: ['@"{Name} ""x"""'], named: ['Name="n"', 'Target=typeof(Dictionary<int, string>)'] },
    ];
    assert.deepEqual(brief(of(cs, '[Serializable', 'Foo', 'csharp')), expected);
    assert.deepEqual(brief(of(cs, 'public sealed', 'Foo', 'csharp')), expected);
    assert.deepEqual(brief(of(cs, 'public int X', 'X', 'csharp')), [{ name: 'JsonProperty', target: null, positional: ['"a/b"'], named: [] }]);
    const test = of(cs, 'public void Test', 'Test', 'csharp');
    assert.deepEqual(brief(test), [
      { name: 'Fact', target: null, positional: [], named: [] },
      { name: 'InlineData', target: null, positional: ['1', 'new[] { 2, 3 }'], named: [] },
    ]);
    assert.deepEqual(
      test[1].positional.map((a) => a.type),
      ['number', 'array'],
    );
    assert.equal(of(cs, 'public sealed', 'Foo', 'csharp')[3].named[1].type, 'type');
    assert.deepEqual(of(cs, 'public int[] Values', 'Values', 'csharp'), []);
  });

  it('reads Python decorators with name=value arguments and # comments', function () {
    const py =
      '# deploy\n@functools.lru_cache(maxsize=32)  # cached\n@staticmethod\ndef deploy(target, retries=3):\n    return target\n\nclass D:\n    @property\n    def name(self):\n        return "d"\n';
    const deploy = of(py, 'def deploy', 'deploy', 'python');
    assert.deepEqual(brief(deploy), [
      { name: 'functools.lru_cache', target: null, positional: [], named: ['maxsize=32'] },
      { name: 'staticmethod', target: null, positional: [], named: [] },
    ]);
    assert.equal(py.slice(deploy[0].nameOffset, deploy[0].nameOffset + 9), 'lru_cache', 'the type is asked at the last segment of a dotted name');
    assert.deepEqual(brief(of(py, 'def name', 'name', 'python')), [{ name: 'property', target: null, positional: [], named: [] }]);
  });

  it('reads Java and Kotlin annotations with nested annotations in arguments', function () {
    const java =
      '@Entity\n@Table(name = "users", indexes = { @Index(columnList = "email") })\npublic class User {\n  @Override\n  public String toString() { return ""; }\n}';
    assert.deepEqual(brief(of(java, 'public class', 'User', 'java')), [
      { name: 'Entity', target: null, positional: [], named: [] },
      { name: 'Table', target: null, positional: [], named: ['name="users"', 'indexes={ @Index(columnList = "email") }'] },
    ]);
    assert.deepEqual(brief(of(java, 'public String', 'toString', 'java')), [{ name: 'Override', target: null, positional: [], named: [] }]);
    const kt = '@Deprecated("use other", level = DeprecationLevel.ERROR)\nfun old() {}';
    assert.deepEqual(brief(of(kt, 'fun old', 'old', 'kotlin')), [
      { name: 'Deprecated', target: null, positional: ['"use other"'], named: ['level=DeprecationLevel.ERROR'] },
    ]);
  });

  it('reads Rust attributes and skips inner attributes', function () {
    const rs = '#![allow(dead_code)]\n#[derive(Debug, Clone)]\n#[serde(rename = "x")]\npub struct S;';
    assert.deepEqual(brief(of(rs, 'pub struct', 'S', 'rust')), [
      { name: 'derive', target: null, positional: ['Debug', 'Clone'], named: [] },
      { name: 'serde', target: null, positional: [], named: ['rename="x"'] },
    ]);
  });

  it('does not take an unterminated or unbalanced decorator', function () {
    assert.deepEqual(of("@Broken('x'\nclass A {}", 'class', 'A', 'typescript'), []);
    assert.deepEqual(of('@Ok()\n@Broken(]\nclass A {}', 'class', 'A', 'typescript'), []);
  });

  it('splits, compacts and types arguments', function () {
    const args = ["'a,b'", 'f(1, 2)', '[3, 4]', "{ x: `y${'},'}` }", '"),"'];
    assert.deepEqual(splitTopLevel(args.join(', ')), args);
    assert.deepEqual(splitTopLevel(''), []);
    assert.deepEqual(splitTopLevel('a, // note, with comma\n b'), ['a', '// note, with comma\n b']);
    assert.equal(compactCode("{\n  a: 1, // one\n  b: '  two  ',\n}"), "{a: 1, b: '  two  ',}");
    assert.equal(literalType("'x'"), 'string');
    assert.equal(literalType('r"x"'), 'string');
    assert.equal(literalType('-1.5e3'), 'number');
    assert.equal(literalType('0x1F'), 'number');
    assert.equal(literalType('True'), 'boolean');
    assert.equal(literalType('None'), 'null');
    assert.equal(literalType('typeof(int)'), 'type');
    assert.equal(literalType('String.class'), 'type');
    assert.equal(literalType('Level.High'), null);
  });
});
