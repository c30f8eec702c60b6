/**
 * The base-type list of a type declaration, read from its header text, for languages whose
 * service has no type hierarchy provider (TypeScript's has none): `extends A implements B`
 * (TS, JS, Java), `: A, B` (C#, Kotlin, Swift), `(A, B)` (Python). Each name's offset is then
 * resolved through the definition provider, so the text only says where to ask.
 */

/** Languages whose base lists heritageNames reads (as the header comment says). */
const HERITAGE_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'java', 'csharp', 'kotlin', 'swift', 'python']);

/** Whether a language's type declarations have a base list heritageNames reads; elsewhere only a type hierarchy provider can answer. */
export const readsHeritage = (languageId: string): boolean => HERITAGE_LANGUAGES.has(languageId);

export interface HeritageName {
  name: string;
  /** Offset where the (possibly dotted) name starts. */
  start: number;
  /** Offset of its last segment (where the definition provider is asked). */
  offset: number;
}

/** Where the base list starts and ends: after the name and its type parameters, up to the body. */
export function heritageRegion(text: string, nameEnd: number, declEnd: number): { start: number; end: number } {
  let p = nameEnd;
  while (p < declEnd && /\s/.test(text[p])) p++;
  if (text[p] === '<') {
    let depth = 0;
    for (; p < declEnd; p++) {
      if (text[p] === '<') depth++;
      else if (text[p] === '>' && text[p - 1] !== '=' && --depth === 0) {
        p++;
        break;
      }
    }
  }
  const start = p;
  let depth = 0;
  for (; p < declEnd; p++) {
    const c = text[p];
    if (c === '(' || c === '<' || c === '[') depth++;
    else if ((c === ')' || c === '>' || c === ']') && depth > 0) depth--;
    else if (depth === 0 && (c === '{' || c === ';' || c === '=')) break;
    else if (depth === 0 && c === ':' && /^[ \t]*(?:#.*)?\r?\n/.test(text.slice(p + 1, p + 200))) break;
  }
  return { start, end: p };
}

const KEYWORDS = new Set([
  'extends',
  'implements',
  'where',
  'class',
  'struct',
  'new',
  'public',
  'private',
  'protected',
  'internal',
  'out',
  'in',
  'metaclass',
  'typeof',
]);

/**
 * The names in a base list, top level only: type arguments (`Base<Shape>`), constructor
 * arguments (`Base()` in Kotlin), and C# `where` constraints are not base types.
 */
export function heritageNames(text: string, nameEnd: number, declEnd: number): HeritageName[] {
  const { start, end } = heritageRegion(text, nameEnd, declEnd);
  const names: HeritageName[] = [];
  let depth = 0;
  let p = start;
  const region = text.slice(start, end);
  // Python lists bases inside the parentheses right after the name.
  const python = region.trimStart().startsWith('(');
  let afterWhere = false;
  while (p < end) {
    const c = text[p];
    if (c === '(' || c === '<' || c === '[') {
      depth++;
      p++;
      continue;
    }
    if (c === ')' || c === '>' || c === ']') {
      depth = Math.max(0, depth - 1);
      p++;
      continue;
    }
    const top = python ? depth === 1 : depth === 0;
    const m = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*/u.exec(text.slice(p, end));
    if (!m) {
      p++;
      continue;
    }
    const word = m[0];
    if (word === 'where') afterWhere = true;
    const previous = text.slice(start, p).trimEnd();
    // A name followed by `=` or `:` inside Python's parentheses is a keyword argument (metaclass=...).
    const next = text.slice(p + word.length, end).trimStart();
    const keywordArgument = python && /^=(?!=)/.test(next);
    const isName = top && !afterWhere && !KEYWORDS.has(word) && !keywordArgument && !/[=.]$/.test(previous);
    if (isName) names.push({ name: word, start: p, offset: p + word.lastIndexOf('.') + 1 });
    p += word.length;
  }
  return names;
}

/** Whether an offset lies on a name of a declaration's base list, at its top level (not in type arguments). */
export function inHeritage(text: string, nameEnd: number, declEnd: number, offset: number): boolean {
  return heritageNames(text, nameEnd, declEnd).some((n) => offset >= n.start && offset < n.start + n.name.length);
}
