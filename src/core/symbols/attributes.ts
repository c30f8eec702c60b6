/**
 * Attributes, decorators and annotations written before a declaration, read from the source
 * text: C# `[Attr(...)]`, Rust/PHP `#[attr(...)]`, and `@decorator(...)` for TypeScript,
 * JavaScript, Python, Java, Kotlin and the like. No language service reports them, so the text
 * is the one language-agnostic source; types are resolved afterwards through the definition
 * provider at each attribute's name.
 */

export type AttributeSyntax = 'at' | 'bracket' | 'hashBracket';

export interface AttributeArgument {
  /** Set for named arguments (C# `Name = value`, Python/Java `name=value`, a TS options-object property). */
  name: string | null;
  /** A literal's kind when the text says it (string, number, boolean, null, array, object, type), otherwise null. */
  type: string | null;
  /** The argument as written, whitespace outside strings collapsed. */
  value: string;
}

export interface ParsedAttribute {
  /** As written, dots included: `Component`, `functools.lru_cache`, `System.Obsolete`. */
  name: string;
  /** C# attribute target (`return`, `field`, ...), when written. */
  target: string | null;
  /** Offset of the last segment of the name (where the definition provider is asked). */
  nameOffset: number;
  start: number;
  end: number;
  positional: AttributeArgument[];
  named: AttributeArgument[];
}

const AT_LANGUAGES = new Set([
  'typescript',
  'typescriptreact',
  'javascript',
  'javascriptreact',
  'python',
  'java',
  'kotlin',
  'scala',
  'groovy',
  'dart',
  'swift',
]);

/** How a language writes attributes; undefined for languages without attribute syntax known here. */
export function attributeSyntax(languageId: string): AttributeSyntax | undefined {
  if (languageId === 'csharp') return 'bracket';
  if (languageId === 'rust' || languageId === 'php') return 'hashBracket';
  if (AT_LANGUAGES.has(languageId)) return 'at';
  return undefined;
}

/** Keywords that may stand between attributes and the declared name. */
const MODIFIERS = new Set([
  'export',
  'default',
  'declare',
  'public',
  'private',
  'protected',
  'internal',
  'static',
  'readonly',
  'abstract',
  'override',
  'virtual',
  'sealed',
  'partial',
  'async',
  'final',
  'open',
  'extern',
  'unsafe',
  'new',
  'const',
  'pub',
  'accessor',
]);

const isIdentStart = (c: string): boolean => /[\p{L}_$]/u.test(c);
const isIdentPart = (c: string): boolean => /[\p{L}\p{N}_$]/u.test(c);

class Scanner {
  constructor(
    readonly text: string,
    public pos: number,
    readonly hashComments: boolean,
  ) {}

  /** Skips whitespace and comments; false when a block comment does not close. */
  skipTrivia(): boolean {
    const t = this.text;
    for (;;) {
      while (this.pos < t.length && /\s/.test(t[this.pos])) this.pos++;
      if (t.startsWith('//', this.pos) || (this.hashComments && t[this.pos] === '#')) {
        const nl = t.indexOf('\n', this.pos);
        this.pos = nl < 0 ? t.length : nl + 1;
      } else if (t.startsWith('/*', this.pos)) {
        const close = t.indexOf('*/', this.pos + 2);
        if (close < 0) return false;
        this.pos = close + 2;
      } else {
        return true;
      }
    }
  }

  identifier(): string | undefined {
    const t = this.text;
    if (this.pos >= t.length || !isIdentStart(t[this.pos])) return undefined;
    const start = this.pos;
    this.pos++;
    while (this.pos < t.length && isIdentPart(t[this.pos])) this.pos++;
    return t.slice(start, this.pos);
  }

  /** A dotted name (`a.b.c`, also `a::b` for Rust); returns it and the offset of its last segment. */
  dottedName(): { name: string; last: number } | undefined {
    const start = this.pos;
    let last = this.pos;
    if (!this.identifier()) return undefined;
    for (;;) {
      const sep = this.text.startsWith('::', this.pos) ? 2 : this.text[this.pos] === '.' ? 1 : 0;
      if (sep === 0) break;
      const save = this.pos;
      this.pos += sep;
      const segmentStart = this.pos;
      if (!this.identifier()) {
        this.pos = save;
        break;
      }
      last = segmentStart;
    }
    return { name: this.text.slice(start, this.pos), last };
  }

  /**
   * Skips a string literal starting at pos (', ", `, C# @"..", Python triple quotes and
   * prefixes); false when none starts here or it does not close.
   */
  skipString(): boolean {
    const t = this.text;
    let p = this.pos;
    let verbatim = false;
    const prefix = /^(?:[rRbBuUfF]{1,2}|@\$?|\$@?)(?=["'])/.exec(t.slice(p, p + 3));
    if (prefix) {
      verbatim = prefix[0].includes('@');
      p += prefix[0].length;
    }
    const q = t[p];
    if (q !== '"' && q !== "'" && q !== '`') return false;
    if (t.startsWith(q.repeat(3), p) && q !== '`') {
      const close = t.indexOf(q.repeat(3), p + 3);
      if (close < 0) return false;
      this.pos = close + 3;
      return true;
    }
    p++;
    while (p < t.length) {
      const c = t[p];
      if (verbatim && c === '"' && t[p + 1] === '"') {
        p += 2;
        continue;
      }
      if (!verbatim && c === '\\') {
        p += 2;
        continue;
      }
      if (c === '$' && q === '`' && t[p + 1] === '{') {
        this.pos = p + 1;
        if (!this.skipBalanced()) return false;
        p = this.pos;
        continue;
      }
      if (c === q) {
        this.pos = p + 1;
        return true;
      }
      if (c === '\n' && q !== '`' && !verbatim) return false;
      p++;
    }
    return false;
  }

  /** At an opening bracket: skips to after its matching close, minding strings and comments. */
  skipBalanced(): boolean {
    const t = this.text;
    const stack: string[] = [];
    const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (pairs[c]) {
        stack.push(pairs[c]);
        this.pos++;
      } else if (c === ')' || c === ']' || c === '}') {
        if (stack.pop() !== c) return false;
        this.pos++;
        if (stack.length === 0) return true;
      } else if (c === '"' || c === "'" || c === '`' || ((c === '@' || c === '$') && (t[this.pos + 1] === '"' || t[this.pos + 2] === '"'))) {
        const save = this.pos;
        if (!this.skipString()) {
          this.pos = save + 1;
        }
      } else if (t.startsWith('//', this.pos) || t.startsWith('/*', this.pos) || (this.hashComments && c === '#')) {
        if (!this.skipTrivia()) return false;
      } else {
        this.pos++;
      }
    }
    return false;
  }
}

/** Splits the text between a pair of brackets at its top-level commas. */
export function splitTopLevel(text: string, hashComments = false): string[] {
  const parts: string[] = [];
  const s = new Scanner(text, 0, hashComments);
  let from = 0;
  while (s.pos < text.length) {
    const c = text[s.pos];
    if (c === ',') {
      parts.push(text.slice(from, s.pos));
      s.pos++;
      from = s.pos;
    } else if (c === '(' || c === '[' || c === '{') {
      if (!s.skipBalanced()) break;
    } else if (c === '"' || c === "'" || c === '`') {
      const save = s.pos;
      if (!s.skipString()) s.pos = save + 1;
    } else if (text.startsWith('//', s.pos) || text.startsWith('/*', s.pos) || (hashComments && c === '#')) {
      s.skipTrivia();
    } else {
      s.pos++;
    }
  }
  parts.push(text.slice(from));
  const trimmed = parts.map((p) => p.trim());
  // A trailing comma leaves an empty last part; an empty list has no arguments.
  if (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
  return trimmed;
}

/**
 * Collapses whitespace runs outside string literals to one space and drops comments; a run
 * holding a line break right inside brackets disappears (`({\n  a: 1,\n})` gives `({a: 1,})`).
 */
export function compactCode(text: string, hashComments = false): string {
  const s = new Scanner(text, 0, hashComments);
  let out = '';
  let pending: 'none' | 'space' | 'break' = 'none';
  while (s.pos < text.length) {
    const c = text[s.pos];
    if (/\s/.test(c) || text.startsWith('//', s.pos) || text.startsWith('/*', s.pos) || (hashComments && c === '#')) {
      const from = s.pos;
      if (!s.skipTrivia()) {
        out += text.slice(from);
        break;
      }
      pending = text.slice(from, s.pos).includes('\n') ? 'break' : 'space';
      continue;
    }
    if (pending !== 'none' && out !== '' && !(pending === 'break' && (/[([{]$/.test(out) || /[)\]}]/.test(c)))) out += ' ';
    pending = 'none';
    const save = s.pos;
    if ((c === '"' || c === "'" || c === '`' || c === '@' || c === '$' || /[rRbBuUfF]/.test(c)) && s.skipString()) {
      out += text.slice(save, s.pos);
      continue;
    }
    s.pos = save + 1;
    out += c;
  }
  return out.trim();
}

/** The kind of a literal, when its text says it. */
export function literalType(value: string): string | null {
  if (/^(?:[rRbBuUfF]{0,2}|@|\$|\$@|@\$)(["'`])/.test(value)) return 'string';
  if (/^[-+]?(?:0[xXbBoO][\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?)[a-zA-Z]*$/.test(value)) return 'number';
  if (/^(?:true|false|True|False)$/.test(value)) return 'boolean';
  if (/^(?:null|None|nil|undefined)$/.test(value)) return 'null';
  if (/^typeof\s*\(/.test(value) || /^\w+(?:\.\w+)*::class$/.test(value) || /^\w+(?:\.\w+)*\.class$/.test(value)) return 'type';
  if (value.startsWith('[') || /^new\s*(?:\w+(?:<.*>)?)?\s*\[\]/.test(value)) return 'array';
  if (value.startsWith('{')) return 'object';
  return null;
}

const NAMED_EQUALS = /^([\p{L}_$][\p{L}\p{N}_$]*)\s*=(?![=>])\s*([\s\S]+)$/u;
const NAMED_COLON = /^([\p{L}_$][\p{L}\p{N}_$]*)\s*:(?!:)\s*([\s\S]+)$/u;
const OBJECT_PROPERTY = /^(?:([\p{L}_$][\p{L}\p{N}_$]*)|'([^'\\]*)'|"([^"\\]*)")\s*:\s*([\s\S]+)$/u;
const SHORTHAND = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

function argument(name: string | null, raw: string, hashComments: boolean): AttributeArgument {
  const value = compactCode(raw, hashComments);
  return { name, type: literalType(value), value };
}

/** The properties of an object literal `{ a: 1, 'b': x, c }`, or undefined when it holds anything else (spreads, methods, computed keys). */
function objectProperties(raw: string): { name: string; value: string }[] | undefined {
  const inner = raw.trim();
  if (!inner.startsWith('{') || !inner.endsWith('}')) return undefined;
  const props: { name: string; value: string }[] = [];
  for (const part of splitTopLevel(inner.slice(1, -1))
    .map((p) => compactCode(p))
    .filter((p) => p !== '')) {
    const m = OBJECT_PROPERTY.exec(part);
    if (m) props.push({ name: m[1] ?? m[2] ?? m[3], value: m[4] });
    else if (SHORTHAND.test(part)) props.push({ name: part, value: part });
    else return undefined;
  }
  return props;
}

/**
 * Positional and named arguments of an argument list. Named: C# `Name = value` and `name:
 * value`, `name=value` elsewhere; in TypeScript/JavaScript the properties of one options
 * object written last (`@Component({ selector: 'x' })`) are its named arguments.
 */
export function parseArguments(inner: string, languageId: string): { positional: AttributeArgument[]; named: AttributeArgument[] } {
  const hash = languageId === 'python';
  // Comments between arguments are dropped before an argument is classified.
  const parts = splitTopLevel(inner, hash)
    .map((p) => compactCode(p, hash))
    .filter((p) => p !== '');
  const positional: AttributeArgument[] = [];
  const named: AttributeArgument[] = [];
  const scriptLike = languageId.startsWith('typescript') || languageId.startsWith('javascript');
  parts.forEach((part, i) => {
    const equals = scriptLike ? null : NAMED_EQUALS.exec(part);
    const colon = languageId === 'csharp' ? NAMED_COLON.exec(part) : null;
    const m = equals ?? colon;
    if (m) {
      named.push(argument(m[1], m[2], hash));
      return;
    }
    const props = scriptLike && i === parts.length - 1 ? objectProperties(part) : undefined;
    if (props) {
      for (const p of props) named.push(argument(p.name, p.value, hash));
      return;
    }
    positional.push(argument(null, part, hash));
  });
  return { positional, named };
}

/** One attribute at s.pos (after `@`, or inside `[`), with its arguments. */
function parseOne(s: Scanner, languageId: string, start: number, target: string | null): ParsedAttribute | undefined {
  const name = s.dottedName();
  if (!name) return undefined;
  let positional: AttributeArgument[] = [];
  let named: AttributeArgument[] = [];
  // Generic attributes (C# `[Attr<T>]`, TS `@dec<T>()`) keep their type arguments in the name.
  let fullName = name.name;
  const afterName = s.pos;
  s.skipTrivia();
  if (s.text[s.pos] === '<') {
    const close = s.text.indexOf('>', s.pos);
    if (close > 0 && !/[;{}()]/.test(s.text.slice(s.pos, close))) {
      fullName += s.text.slice(s.pos, close + 1).replace(/\s+/g, ' ');
      s.pos = close + 1;
      s.skipTrivia();
    }
  }
  if (s.text[s.pos] === '(') {
    const open = s.pos;
    if (!s.skipBalanced()) return undefined;
    ({ positional, named } = parseArguments(s.text.slice(open + 1, s.pos - 1), languageId));
  } else if (fullName === name.name) {
    s.pos = afterName;
  }
  return { name: fullName, target, nameOffset: name.last, start, end: s.pos, positional, named };
}

/**
 * Attributes written at `from`: a run of them, possibly mixed with modifiers (TS allows
 * `export @dec class`), ending at the declaration, that is at a word in [declStart,
 * nameStart]. Undefined when the text from `from` is not such a run.
 */
function parseRun(
  text: string,
  from: number,
  declStart: number,
  nameStart: number,
  syntax: AttributeSyntax,
  languageId: string,
): ParsedAttribute[] | undefined {
  const s = new Scanner(text, from, languageId === 'python');
  const found: ParsedAttribute[] = [];
  for (;;) {
    if (!s.skipTrivia()) return undefined;
    if (s.pos > nameStart) return undefined;
    const start = s.pos;
    if (syntax === 'at' && text[s.pos] === '@') {
      s.pos++;
      const one = parseOne(s, languageId, start, null);
      if (!one) return undefined;
      found.push(one);
      continue;
    }
    if ((syntax === 'bracket' && text[s.pos] === '[') || (syntax === 'hashBracket' && text.startsWith('#[', s.pos))) {
      s.pos += syntax === 'bracket' ? 1 : 2;
      if (syntax === 'hashBracket' && text[s.pos] === '!') return undefined;
      let target: string | null = null;
      s.skipTrivia();
      const save = s.pos;
      const maybeTarget = s.identifier();
      s.skipTrivia();
      if (maybeTarget && text[s.pos] === ':' && text[s.pos + 1] !== ':') {
        target = maybeTarget;
        s.pos++;
      } else {
        s.pos = save;
      }
      for (;;) {
        s.skipTrivia();
        const one = parseOne(s, languageId, s.pos, target);
        if (!one) return undefined;
        found.push(one);
        s.skipTrivia();
        if (text[s.pos] === ',') {
          s.pos++;
          continue;
        }
        if (text[s.pos] !== ']') return undefined;
        s.pos++;
        break;
      }
      continue;
    }
    const word = s.identifier();
    if (word === undefined || !MODIFIERS.has(word)) {
      // Anything else must already be the declaration itself.
      return word !== undefined && start >= declStart && start <= nameStart ? found : undefined;
    }
  }
}

/**
 * The attributes attached to the declaration whose range starts at declStart and whose name
 * starts at nameStart. Language services differ on whether a symbol's range includes its
 * attributes, so the lines above are tried too (up to maxLinesBack): the earliest line from
 * which nothing but attributes, comments and modifiers lead to the declaration wins.
 */
export function attributesOf(text: string, declStart: number, nameStart: number, languageId: string, maxLinesBack = 60): ParsedAttribute[] {
  const syntax = attributeSyntax(languageId);
  if (!syntax) return [];
  let best = parseRun(text, declStart, declStart, nameStart, syntax, languageId) ?? [];
  let lineStart = text.lastIndexOf('\n', declStart - 1) + 1;
  for (let n = 0; n <= maxLinesBack && lineStart >= 0; n++) {
    const run = parseRun(text, lineStart, declStart, nameStart, syntax, languageId);
    if (run && run.length >= best.length && (run.length > 0 || n === 0)) best = run;
    if (lineStart === 0) break;
    lineStart = text.lastIndexOf('\n', lineStart - 2) + 1;
  }
  // Only attributes of this declaration: a run found from above must not reach past the name.
  return best.filter((a) => a.end <= nameStart);
}
