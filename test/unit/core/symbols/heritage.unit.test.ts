import * as assert from 'node:assert/strict';
import { heritageNames, heritageRegion, inHeritage } from '../../../../src/core/symbols/heritage';

/** The base list of the declaration named `name` in `text`: from the end of its name to the end of the text. */
function basesOf(text: string, name: string): { name: string; at: string }[] {
  const nameEnd = text.indexOf(name) + name.length;
  return heritageNames(text, nameEnd, text.length).map((n) => ({ name: n.name, at: text.slice(n.offset, n.offset + n.name.length - (n.offset - n.start)) }));
}

describe('heritage: base lists read from declaration headers', () => {
  it('TypeScript: extends and implements, type parameters and type arguments left out', () => {
    const text = 'export class Repo<T extends Entity> extends Base<Shape> implements Store<T>, ns.Disposable {\n  x = 1;\n}\n';
    assert.deepEqual(
      basesOf(text, 'Repo').map((b) => b.name),
      ['Base', 'Store', 'ns.Disposable'],
    );
    const dotted = heritageNames(text, text.indexOf('Repo') + 4, text.length).find((n) => n.name === 'ns.Disposable');
    assert.ok(dotted);
    assert.equal(text.slice(dotted.offset, dotted.offset + 'Disposable'.length), 'Disposable', 'the definition is asked at the last segment');
  });

  it('C# and Kotlin: colon lists, constructor arguments and where constraints left out', () => {
    const cs = 'public class Repo<T> : Base<T>, IStore where T : IEntity, new() {\n}\n';
    assert.deepEqual(
      basesOf(cs, 'Repo').map((b) => b.name),
      ['Base', 'IStore'],
    );
    const kt = 'class Circle(radius: Double) : Shape(), Drawable {\n}\n';
    assert.deepEqual(
      heritageNames(kt, kt.indexOf(')') + 1, kt.length).map((n) => n.name),
      ['Shape', 'Drawable'],
    );
  });

  it('Python: bases in parentheses, keyword arguments left out, the colon ends the header', () => {
    const py = 'class Circle(Shape, abc.ABC, metaclass=Meta):\n    radius: float = 1.0\n';
    assert.deepEqual(
      basesOf(py, 'Circle').map((b) => b.name),
      ['Shape', 'abc.ABC'],
    );
    const region = heritageRegion(py, py.indexOf('Circle') + 6, py.length);
    assert.equal(py.slice(region.start, region.end), '(Shape, abc.ABC, metaclass=Meta)');
  });

  it('a declaration without bases has none; inHeritage tells a base name from a use in the body', () => {
    const text = 'class Plain {\n  base: Base = new Base();\n}\nclass Child extends Base {}\n';
    assert.deepEqual(basesOf(text, 'Plain'), []);
    const plainEnd = text.indexOf('}\n') + 1;
    assert.equal(inHeritage(text, text.indexOf('Plain') + 5, plainEnd, text.indexOf('Base')), false, 'a type annotation in the body');
    const childName = text.indexOf('Child') + 5;
    assert.equal(inHeritage(text, childName, text.length, text.lastIndexOf('Base')), true);
    assert.equal(inHeritage(text, childName, text.length, text.lastIndexOf('Base') - 2), false, 'on the keyword, not the name');
  });
});
