import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { accessReader, referenceAccess } from '../../../../src/core/symbols/access';
import type { Access, HighlightKind, SyntaxReadings } from '../../../../src/core/symbols/access';

/** The access at the `|` in code (the reference is the name after it). */
function access(code: string, highlight: HighlightKind, options: { member?: boolean; languageId?: string } = {}): Access {
  const offset = code.indexOf('|');
  assert.ok(offset >= 0, code);
  const text = code.slice(0, offset) + code.slice(offset + 1);
  const length = /^[#$\w]+/.exec(text.slice(offset))?.[0].length ?? 0;
  return referenceAccess({ text, offset, length, languageId: options.languageId ?? 'typescript', highlight, member: options.member ?? true });
}

/** [code, what TypeScript's highlight says, the access of the member p] */
type Case = [string, HighlightKind, Access];

const PROPERTY_CASES: Case[] = [
  // Destructuring declarations read the property (TypeScript highlights the shorthand as a write: it declares a local).
  ['const { |p } = obj;', 'write', 'read'],
  ['const { _finalizers } = this;\nconst { |p, q } = this;', 'write', 'read'],
  ['let { |p = 1 } = obj;', 'write', 'read'],
  ['let { q, |p = 1, r } = obj;', 'write', 'read'],
  ['const { |p: local } = obj;', 'read', 'read'],
  ['const { |p: local = 2 } = obj;', 'read', 'read'],
  ['const { a: { |p } } = obj;', 'write', 'read'],
  ['const { a: { |p } = {} } = obj;', 'write', 'read'],
  ['const [{ |p }] = list;', 'write', 'read'],
  ['const a = 1,\n  { |p } = obj;', 'write', 'read'],
  ['function f({ |p }: T) { return p; }', 'write', 'read'],
  ['function f(a: number, { |p } = obj): void {}', 'write', 'read'],
  ['const f = ({ |p }: T) => p;', 'write', 'read'],
  ['class C { m({ |p }: T): number { return p; } }', 'write', 'read'],
  ['for (const { |p } of xs) use(p);', 'write', 'read'],
  ['for await (const { |p } of xs) use(p);', 'write', 'read'],
  ['try { f(); } catch ({ |p }) { use(p); }', 'write', 'read'],
  // Destructuring assignments read the property too (a shorthand writes the variable).
  ['({ |p } = obj);', 'write', 'read'],
  ['({ |p = 1 } = obj);', 'write', 'read'],
  ['({ |p: local } = obj);', 'read', 'read'],
  ['[{ |p }] = [obj];', 'write', 'read'],
  ['for ({ |p } of xs);', 'write', 'read'],
  // Targets of destructuring assignments write.
  ['({ x: obj.|p } = src);', 'write', 'write'],
  ['({ x: this.a.|p = 3 } = src);', 'write', 'write'],
  ['[obj.|p] = arr;', 'write', 'write'],
  ['[a, ...obj.|p] = arr;', 'write', 'write'],
  ['for (obj.|p of xs);', 'write', 'write'],
  // Assignments, compound ones, ++ and --.
  ['obj.|p = 1;', 'write', 'write'],
  ['this.|p += 1;', 'write', 'write'],
  ['obj?.a.|p ??= 1;', 'write', 'write'],
  ['obj.|p ||= 1;', 'write', 'write'],
  ['obj.|p >>>= 1;', 'write', 'write'],
  ['obj.|p++;', 'write', 'write'],
  ['--obj.|p;', 'write', 'write'],
  ['++f(x)[0].|p;', 'write', 'write'],
  // delete removes the property: a write (TypeScript calls it a read).
  ['delete obj.|p;', 'read', 'write'],
  ['delete this.a[i].|p;', 'read', 'write'],
  ['delete obj?.|p;', 'read', 'write'],
  ['delete (obj).|p;', 'read', 'write'],
  // Object literals give the property its value in a new object.
  ['const made: T = { |p: 1 };', 'write', 'write'],
  ['const made: T = { |p };', 'write', 'write'],
  ['return { q, |p };', 'write', 'write'],
  ['f({ |p });', 'write', 'write'],
  ['const g = () => ({ |p });', 'write', 'write'],
  ['const xs = [{ |p: 1 }];', 'write', 'write'],
  ['export default { |p };', 'write', 'write'],
  ['const o = cond ? { |p } : other;', 'write', 'write'],
  // Reads stay reads.
  ['use(obj.|p);', 'read', 'read'],
  ['x = obj.|p;', 'read', 'read'],
  ['obj.|p.q = 1;', 'read', 'read'],
  ['obj.|p[0] = 1;', 'read', 'read'],
  ['a[obj.|p] = 1;', 'read', 'read'],
  ['delete obj.|p.q;', 'read', 'read'],
  ['x = obj.|p == 1;', 'read', 'read'],
  ['x = obj.|p\n++y;', 'read', 'read'],
  ['x = y\n++obj.|p;', 'write', 'write'],
  ['const [a = obj.|p] = arr;', 'read', 'read'],
  ['if ([obj.|p].length) {}', 'read', 'read'],
  ['const { x = obj.|p } = src;', 'read', 'read'],
];

describe('referenceAccess: whether a reference reads or writes the symbol searched', () => {
  for (const [code, highlight, expected] of PROPERTY_CASES) {
    it(`${expected} of the member p: ${code.replace(/\n/g, '⏎')}`, () => {
      assert.equal(access(code, highlight), expected, 'TypeScript');
      assert.equal(access(code.replace(/: T\b|: number|: void/g, ''), highlight, { languageId: 'javascript' }), expected, 'JavaScript');
    });
  }

  it('a shorthand names a variable too: for a variable p the local written is its write, the new object its read', () => {
    assert.equal(access('let p = 0;\n({ |p } = obj);', 'write', { member: false }), 'write');
    assert.equal(access('[{ |p }] = [obj];', 'write', { member: false }), 'write');
    assert.equal(access('const o = { |p };', 'write', { member: false }), 'read', 'TypeScript highlights it as a write');
    assert.equal(access('f({ q, |p });', 'write', { member: false }), 'read');
    assert.equal(access('const { |p } = obj;', 'write', { member: false }), 'write', 'the declaration of the local: the highlight stands');
    assert.equal(access('p = 1;\n|p++;', 'write', { member: false }), 'write', 'no member access: the highlight stands');
  });

  it('import and export braces only name the symbol, on one line or several', () => {
    assert.equal(access('import {\n  a,\n  |p,\n} from "./m";', 'write'), 'read');
    assert.equal(access('import type { |p } from "./m";', 'write'), 'read');
    assert.equal(access('import D, { |p } from "./m";', 'write'), 'read');
    assert.equal(access('export { a, |p };', 'write', { member: false }), 'read');
    assert.equal(access('export { |p as q } from "./m";', 'write'), 'read');
  });

  it('elsewhere the highlight stands: blocks, class bodies, types, strings, comments', () => {
    assert.equal(access('class C { |p = 1; }', 'write'), 'write');
    assert.equal(access('class D extends C {\n  |p = 2\n}', 'write'), 'write');
    assert.equal(access('if (x) { |p }', 'read', { member: false }), 'read');
    assert.equal(access('type T = { |p: number };', 'read'), 'read');
    assert.equal(access('function f(o: { |p: number }) {}', 'read'), 'read');
    assert.equal(access('interface I { |p: number }', 'read'), 'read');
    assert.equal(access('const s = "{ x }";\nconst { |p } = obj;', 'write'), 'read', 'braces in strings are no brackets');
    assert.equal(access('/* { */ const re = /[{]/g; // }\nconst { |p } = obj;', 'write'), 'read', 'nor in comments and regular expressions');
    assert.equal(access('const s = `${a} { ${ {x}.x } }`;\nconst { |p } = obj;', 'write'), 'read', 'nor in template literals');
    assert.equal(access('const t = `${obj.|p}`;', 'read'), 'read');
    const text = 'delete obj["p"];';
    const offset = text.indexOf('p');
    assert.equal(
      referenceAccess({ text, offset, length: 1, languageId: 'typescript', highlight: 'read', member: true }),
      'read',
      'no name at the offset: the highlight stands',
    );
    assert.equal(access('x = a / b; const { |p } = obj;', 'write'), 'read', 'a division is no regular expression');
  });

  it('other languages keep the highlight: Python, C#', () => {
    assert.equal(access('{ |p } = obj', 'write', { languageId: 'python' }), 'write');
    assert.equal(access('del obj.|p', 'read', { languageId: 'python' }), 'read');
    assert.equal(access('obj.|p = 1;', undefined, { languageId: 'csharp' }), 'read');
    assert.equal(access('obj.|p = 1;', 'text', { languageId: 'typescriptreact' }), 'write');
  });

  it('the highlight stands where the syntax says nothing; a reader scans a text once for many references', () => {
    const text = 'const { p } = this;\nthis.p = 1;\nuse(this.p);\n';
    const read = accessReader(text, 'typescript');
    const at = [text.indexOf('p'), text.indexOf('p = 1'), text.lastIndexOf('p')];
    assert.deepEqual(
      at.map((o) => read(o, 1, 'write', true)),
      ['read', 'write', 'write'],
    );
    assert.deepEqual(
      at.map((o) => read(o, 1, 'read', true)),
      ['read', 'write', 'read'],
    );
  });
  it('a comment between the reference and the token before it does not hide the syntax', () => {
    assert.equal(access('const { // the first\n  |p } = obj;', 'write'), 'read');
    assert.equal(access('const { /* the first */ |p } = obj;', 'write'), 'read');
    assert.equal(access('obj. /* c */ |p = 1;', 'read'), 'write');
    assert.equal(access('obj // c\n  .|p = 1;', 'read'), 'write');
    assert.equal(access('use(a, // c\n  |p);', 'write', { member: false }), 'write');
  });

  it('on real sources (rxjs, part of effect) the reader that skips references after other tokens answers as the one that scans for every reference', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith('.ts')) files.push(full);
      }
    };
    walk(path.join('node_modules', 'rxjs', 'src'));
    const effect = path.join('node_modules', 'effect', 'src');
    files.push(...['Function.ts', 'Predicate.ts', 'Array.ts', 'Stream.ts', 'Context.ts'].map((f) => path.join(effect, f)));
    let compared = 0;
    let syntactic = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const fast = accessReader(text, 'typescript');
      const full = accessReader(text, 'typescript', { scanAlways: true });
      for (const m of text.matchAll(/[$_\p{L}][$_\p{L}\p{N}]*/gu)) {
        for (const highlight of ['read', 'write'] as const) {
          for (const member of [true, false]) {
            const expected = full(m.index, m[0].length, highlight, member);
            assert.equal(fast(m.index, m[0].length, highlight, member), expected, `${file}:${m.index} ${m[0]}`);
            compared++;
            if (expected !== highlight) syntactic++;
          }
        }
      }
    }
    assert.ok(files.length > 200 && compared > 500_000, `${files.length} files, ${compared} readings compared`);
    assert.ok(syntactic > 1000, `only ${syntactic} readings where the syntax overruled the highlight`);
  });

  it('what the syntax said is read back from the readings kept for the same text, without scanning it again', () => {
    const effect = path.join('node_modules', 'effect', 'src');
    let read = 0;
    for (const file of ['Function.ts', 'Predicate.ts', 'Array.ts'].map((f) => path.join(effect, f))) {
      const text = fs.readFileSync(file, 'utf8');
      const readings: SyntaxReadings = new Map();
      const first = accessReader(text, 'typescript', { readings });
      const names = [...text.matchAll(/[$_\p{L}][$_\p{L}\p{N}]*/gu)].slice(0, 20_000);
      const answers = names.map((m) => first(m.index, m[0].length, 'read', m.index % 2 === 0));
      assert.ok(readings.size > 100, `${file}: ${readings.size} readings kept`);
      const again = accessReader(text, 'typescript', { readings });
      assert.deepEqual(
        names.map((m) => again(m.index, m[0].length, 'read', m.index % 2 === 0)),
        answers,
      );
      read += readings.size;
    }
    // A kept reading is what the reader answers: it does not scan for a reference it has one for.
    const text = 'const { p } = obj;';
    const readings: SyntaxReadings = new Map([[`${text.indexOf('p')}:1:1`, 'write']]);
    assert.equal(accessReader(text, 'typescript')(text.indexOf('p'), 1, 'write', true), 'read', 'the syntax: a shorthand binding reads the member');
    assert.equal(accessReader(text, 'typescript', { readings })(text.indexOf('p'), 1, 'write', true), 'write', 'the kept reading');
    assert.ok(read > 300);
  });
});
