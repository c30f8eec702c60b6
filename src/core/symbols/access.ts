/**
 * Whether a reference reads or writes the symbol searched, for find-references' write list.
 *
 * A language service's document highlights say it (kind 'write'), and in every language but
 * JavaScript and TypeScript their word stands. TypeScript's word is about the name at the
 * reference, not the symbol searched: a shorthand binding `const { p } = obj` declares a local
 * (a write of it) but reads the property p; `delete obj.p` it calls a read. In JavaScript and
 * TypeScript documents the syntax around the reference decides, read from the text:
 *
 * - destructuring: a property name or shorthand in a binding pattern (`const { p } = o`,
 *   `let { p: q = 1 } = o`, parameters, `for (const { p } of xs)`, `catch ({ p })`) or in an
 *   assignment pattern (`({ p } = o)`) reads the property; a shorthand in an assignment pattern
 *   writes a variable of that name;
 * - a property access that is an assignment target writes: `obj.p = 1`, compound assignments
 *   (they also read), `obj.p++`, `--obj.p`, `({ x: obj.p } = src)`, `[obj.p] = arr`,
 *   `for (obj.p of xs)`; `delete obj.p` removes the property: a write;
 * - an object literal's property `{ p: 1 }` or shorthand `{ p }` gives the property its value in
 *   a new object: a write of the property, a read of a variable of that name;
 * - a name in the braces of an import or export statement only names the symbol: a read.
 *
 * Anywhere else (and where the text is beyond this reading: a shorthand after a ternary's `:`,
 * `obj['p']`, a parenthesized target) the highlight's word stands.
 */

export type Access = 'read' | 'write';

/** What the document highlight at a reference says (undefined: none covers it). */
export type HighlightKind = 'text' | 'read' | 'write' | undefined;

export interface AccessQuestion {
  text: string;
  /** The reference's start and length in text. */
  offset: number;
  length: number;
  languageId: string;
  highlight: HighlightKind;
  /** The symbol searched is a member (property, field, method), not a variable: a shorthand names both. */
  member: boolean;
}

/** Symbol kinds (VS Code's SymbolKind names) whose shorthand and destructuring uses are the member's, not a variable's. */
export const MEMBER_KINDS: ReadonlySet<string> = new Set(['Property', 'Field', 'Method', 'EnumMember', 'Event']);

const SYNTAX_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/** The access of one reference (see the module comment). */
export function referenceAccess(q: AccessQuestion): Access {
  return accessReader(q.text, q.languageId)(q.offset, q.length, q.highlight, q.member);
}

/** What the syntax said at references of one text, by `offset:length:member` (null: nothing, the highlight's word stands). */
export type SyntaxReadings = Map<string, Access | null>;

/**
 * A reader of many references of one text: the text is scanned once, and only when a reference
 * follows a token the syntax reads (a large file whose references are all calls is never scanned).
 * scanAlways: every reference read from the tokens (the tests compare the two). readings: what the
 * syntax said at references of this same text before, read instead of scanning, and filled in.
 */
export function accessReader(
  text: string,
  languageId: string,
  options: { scanAlways?: boolean; readings?: SyntaxReadings } = {},
): (offset: number, length: number, highlight: HighlightKind, member: boolean) => Access {
  const word = (highlight: HighlightKind): Access => (highlight === 'write' ? 'write' : 'read');
  if (!SYNTAX_LANGUAGES.has(languageId)) return (_o, _l, highlight) => word(highlight);
  let tokens: Tokens | undefined;
  return (offset, length, highlight, member) => {
    if (!options.scanAlways && !mayFollowSyntax(text, offset)) return word(highlight);
    const key = `${offset}:${length}:${member ? 1 : 0}`;
    let said = options.readings?.get(key);
    if (said === undefined) {
      tokens ??= scan(text);
      said = syntacticAccess(tokens, offset, length, member) ?? null;
      options.readings?.set(key, said);
    }
    return said ?? word(highlight);
  };
}

/**
 * Whether the token before offset may be one syntacticAccess reads (`.`, `?.`, `...`, `{`, `,`):
 * the character before it, spaces skipped, is one of them, or a comment's end may hide it.
 */
function mayFollowSyntax(text: string, offset: number): boolean {
  let i = offset - 1;
  let newline = false;
  while (i >= 0 && SPACE.test(text[i])) {
    if (text[i] === '\n') newline = true;
    i--;
  }
  if (i < 0) return false;
  const c = text[i];
  if (c === '.' || c === '{' || c === ',' || c === '/') return true;
  // The line before may end in a line comment: its text is not the token before.
  return newline && text.lastIndexOf('//', i) > text.lastIndexOf('\n', i);
}

const SPACE = /\s/;

// ---------------------------------------------------------------- scanning

interface Token {
  start: number;
  end: number;
  /** name: identifiers and keywords (#private included); punct: punctuators and brackets; other: literals. */
  kind: 'name' | 'punct' | 'other';
  text: string;
}

interface Tokens {
  source: string;
  list: Token[];
  /** For a bracket, the index of its partner. */
  pair: Map<number, number>;
  /** For every token, the index of the innermost open bracket around it (-1: none). */
  parent: number[];
}

const NAME = /[#$_\p{ID_Start}\\][$_\u200c\u200d\p{ID_Continue}\\]*/uy;
const NUMBER = /\.?\d[\w.]*/y;
const PUNCT = />>>=|\.\.\.|===|!==|\*\*=|<<=|>>=|&&=|\|\|=|\?\?=|=>|==|!=|<=|>=|\+=|-=|\*=|\/=|%=|&=|\|=|\^=|\+\+|--|&&|\|\||\?\?|\?\.(?!\d)|\*\*|[^\s]/y;
/** Keywords after which an expression starts (a `/` there begins a regular expression). */
const OPERATOR_WORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
  'default',
  'extends',
]);

function scan(text: string): Tokens {
  const list: Token[] = [];
  const pair = new Map<number, number>();
  const parent: number[] = [];
  const open: number[] = [];
  /** Per open brace: whether it is a template literal's `${`. */
  const templates: boolean[] = [];
  const push = (start: number, end: number, kind: Token['kind']) => {
    parent.push(open.length > 0 ? open[open.length - 1] : -1);
    list.push({ start, end, kind, text: text.slice(start, end) });
  };
  /** Scans template text from i (after ` or }) to its end or a `${`; returns where code resumes. */
  const template = (start: number, i: number): number => {
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        push(start, i + 1, 'other');
        return i + 1;
      } else if (c === '$' && text[i + 1] === '{') {
        push(start, i + 2, 'punct');
        open.push(list.length - 1);
        templates.push(true);
        return i + 2;
      } else i++;
    }
    push(start, i, 'other');
    return i;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      push(i, Math.min(j + 1, text.length), 'other');
      i = j + 1;
      continue;
    }
    if (c === '`') {
      i = template(i, i + 1);
      continue;
    }
    if (c === '/' && regexAllowed(list[list.length - 1])) {
      let j = regexBodyEnd(text, i) + 1;
      while (j < text.length && /\w/.test(text[j])) j++;
      push(i, j, 'other');
      i = j;
      continue;
    }
    const match = (re: RegExp) => {
      re.lastIndex = i;
      return re.exec(text)?.[0];
    };
    const name = match(NAME);
    if (name) {
      push(i, i + name.length, 'name');
      i += name.length;
      continue;
    }
    const number = match(NUMBER);
    if (number) {
      push(i, i + number.length, 'other');
      i += number.length;
      continue;
    }
    const punct = match(PUNCT) ?? c;
    if (punct === '}' && templates[templates.length - 1]) {
      // The end of a template literal's `${`: the template's text goes on.
      pair.set(open[open.length - 1], list.length);
      pair.set(list.length, open[open.length - 1]);
      open.pop();
      templates.pop();
      i = template(i, i + 1);
      continue;
    }
    if (punct === ')' || punct === ']' || punct === '}') {
      const o = open.length > 0 ? open[open.length - 1] : -1;
      if (o >= 0 && list[o].text === OPENERS[punct]) {
        open.pop();
        templates.pop();
        push(i, i + 1, 'punct');
        pair.set(o, list.length - 1);
        pair.set(list.length - 1, o);
      } else push(i, i + 1, 'punct');
      i++;
      continue;
    }
    push(i, i + punct.length, 'punct');
    if (punct === '(' || punct === '[' || punct === '{') {
      open.push(list.length - 1);
      templates.push(false);
    }
    i += punct.length;
  }
  return { source: text, list, pair, parent };
}

const OPENERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function regexAllowed(before: Token | undefined): boolean {
  if (!before) return true;
  if (before.kind === 'name') return OPERATOR_WORDS.has(before.text);
  if (before.kind === 'other') return false;
  return !(before.text === ')' || before.text === ']' || before.text === '}');
}

// ---------------------------------------------------------------- the rule

const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '>>>=', '&=', '|=', '^=', '&&=', '||=', '??=']);
/** Tokens after which a `{` or `[` starts an expression (an object or array literal). */
const EXPRESSION_STARTS = new Set(['=', '(', ',', '?', '[', 'return', '...', '??', '||', '&&', 'yield', 'await', 'throw', 'in', 'of', 'default', '${']);
const CONTROL_WORDS = new Set(['if', 'while', 'for', 'switch', 'with']);

/** What a `{ }` or `[ ]` is. */
type Group = 'declaration' | 'assignment' | 'literal' | 'module' | 'other';

function syntacticAccess(t: Tokens, offset: number, length: number, member: boolean): Access | undefined {
  const i = indexAt(t.list, offset);
  if (i < 0 || t.list[i].kind !== 'name' || t.list[i].end - t.list[i].start !== length) return undefined;
  const text = (k: number) => (k >= 0 && k < t.list.length ? t.list[k].text : '');
  const before = text(i - 1);
  const after = text(i + 1);
  if (before === '.' || before === '?.') {
    // A property access: a write when it is the target of an assignment, ++/--, delete or destructuring.
    if (after === '.' || after === '?.' || after === '[' || after === '(' || after === '!' || after.startsWith('`')) return undefined;
    // ++ and -- after a line break are the next line's prefix, before one the line before's postfix.
    const sameLine = (a: number, b: number) => !t.source.slice(t.list[a].end, t.list[b].start).includes('\n');
    if (ASSIGNMENTS.has(after) || ((after === '++' || after === '--') && sameLine(i, i + 1))) return 'write';
    const start = expressionStart(t, i);
    const prior = text(start - 1);
    if (prior === 'delete') return 'write';
    if ((prior === '++' || prior === '--') && sameLine(start - 1, start)) return 'write';
    if (['}', ',', ']', '='].includes(after)) {
      const g = t.parent[start];
      const element = g >= 0 && (text(g) === '{' ? prior === ':' || prior === '...' : text(g) === '[' && (prior === '[' || prior === ',' || prior === '...'));
      if (element && classify(t, g) === 'assignment') return 'write';
    }
    if (prior === '(' && (after === 'of' || after === 'in') && text(start - 2) === 'for') return 'write';
    return undefined;
  }
  if (before !== '{' && before !== ',') return undefined;
  const g = t.parent[i];
  if (g < 0 || text(g) !== '{') return undefined;
  const group = classify(t, g);
  if (group === 'module') return 'read';
  if (group === 'other' || (after !== '}' && after !== ',' && after !== '=' && after !== ':')) return undefined;
  if (after === ':') return group === 'literal' ? 'write' : 'read';
  // A shorthand names the property and a variable at once.
  if (group === 'literal') return member ? 'write' : 'read';
  if (group === 'assignment') return member ? 'read' : 'write';
  return member ? 'read' : undefined;
}

/** The index of the token starting at offset, or -1. */
function indexAt(list: readonly Token[], offset: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].start < offset) lo = mid + 1;
    else if (list[mid].start > offset) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Whether a token ends an operand (a `[` after it indexes, a `{` after it is no literal). */
function endsOperand(token: Token | undefined): boolean {
  if (!token) return false;
  if (token.kind === 'name') return !OPERATOR_WORDS.has(token.text) && !['const', 'let', 'var', 'import', 'export', 'type'].includes(token.text);
  if (token.kind === 'other') return !token.text.endsWith('${');
  return token.text === ')' || token.text === ']' || token.text === '}' || token.text === '!';
}

/** The first token of the member chain (a.b?.c[0](x).p) whose last token is at e. */
function expressionStart(t: Tokens, e: number): number {
  let s = e;
  for (;;) {
    const token = t.list[s];
    if (token.text === ')' || token.text === ']') {
      const o = t.pair.get(s);
      if (o === undefined) return s;
      const callee = t.list[o - 1];
      if (callee?.text === '?.') s = o - 2;
      else if (endsOperand(callee) && callee.text !== '}') s = o - 1;
      else return o;
      continue;
    }
    if (token.text === '!' && s > 0) {
      s--;
      continue;
    }
    const prior = t.list[s - 1]?.text;
    if ((prior === '.' || prior === '?.') && s >= 2) {
      s -= 2;
      continue;
    }
    return s;
  }
}

/** What the `{ }` or `[ ]` opened at g is. */
function classify(t: Tokens, g: number): Group {
  const text = (k: number) => (k >= 0 && k < t.list.length ? t.list[k].text : '');
  const open = text(g);
  const close = t.pair.get(g);
  if (close === undefined) return 'other';
  const before = text(g - 1);
  const after = text(close + 1);
  if (before === 'const' || before === 'let' || before === 'var') return 'declaration';
  if (open === '{') {
    if (before === 'import' || before === 'export') return 'module';
    if (before === 'type' && (text(g - 2) === 'import' || text(g - 2) === 'export')) return 'module';
    if (before === ',' && t.list[g - 2]?.kind === 'name' && text(g - 3) === 'import') return 'module';
    // type T = { p }: a type.
    if (before === '=' && ((t.list[g - 2]?.kind === 'name' && text(g - 3) === 'type') || text(g - 2) === '>')) return 'other';
  }
  if (endsOperand(t.list[g - 1])) return 'other';
  // An element of an enclosing pattern or literal is what it is.
  const outer = t.parent[g];
  const outerOpen = text(outer);
  if ((outerOpen === '{' && (before === ':' || before === '...')) || (outerOpen === '[' && (before === '[' || before === ',' || before === '...'))) {
    const kind = classify(t, outer);
    if (kind === 'declaration' || kind === 'assignment' || kind === 'literal') return kind;
  }
  const parameter = outerOpen === '(' && (before === '(' || before === ',') && isParameterList(t, outer);
  if (after === '=') return parameter ? 'declaration' : 'assignment';
  const forHead = text(g - 2) === 'for' || (text(g - 2) === 'await' && text(g - 3) === 'for');
  if ((after === 'of' || after === 'in') && before === '(' && forHead) return 'assignment';
  if (parameter) return 'declaration';
  if (EXPRESSION_STARTS.has(before) || (open === '[' && before === '=>')) return 'literal';
  return 'other';
}

/** Whether the ( ) opened at p holds parameters: a body, an arrow or a return type follows, and it is no if (…) {. */
function isParameterList(t: Tokens, p: number): boolean {
  const close = t.pair.get(p);
  if (close === undefined || CONTROL_WORDS.has(t.list[p - 1]?.text ?? '')) return false;
  const after = t.list[close + 1]?.text;
  if (after === '=>' || after === '{') return true;
  if (after !== ':') return false;
  // A return type, unless the `:` is a conditional's: look back over this statement for its `?`.
  for (let k = p - 1; k >= 0 && t.parent[k] === t.parent[p]; k--) {
    const x = t.list[k].text;
    if (x === '?') return false;
    if (x === ';' || x === '{' || x === '}') break;
    const o = t.pair.get(k);
    if (o !== undefined && o < k) k = o;
  }
  return true;
}

/** Where a regular expression literal opening at `start` (its '/') closes: its last '/', or the line's end when it does not; a '/' inside [...] or escaped does not close it. */
export function regexBodyEnd(text: string, start: number): number {
  let j = start + 1;
  let inClass = false;
  while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
    if (text[j] === '\\') j++;
    else if (text[j] === '[') inClass = true;
    else if (text[j] === ']') inClass = false;
    j++;
  }
  return j;
}
