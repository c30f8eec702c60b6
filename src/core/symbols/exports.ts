/**
 * What a CommonJS module exports, read from its text: the names of `module.exports = { a, b: c }`
 * (each key, shorthand or not) and of every `exports.x =` / `module.exports.x =` assignment. A
 * JavaScript file without `export` declarations exposes these; its `export` keyword is absent.
 */
export function commonJsExports(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?:^|[^.\w$])(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)) names.add(m[1]);
  for (const m of text.matchAll(/(?:^|[^.\w$])module\.exports\s*=\s*\{/g)) {
    let depth = 0;
    let p = m.index + m[0].length - 1;
    const start = p + 1;
    for (; p < text.length; p++) {
      if (text[p] === '{' || text[p] === '(' || text[p] === '[') depth++;
      else if ((text[p] === '}' || text[p] === ')' || text[p] === ']') && --depth === 0) break;
    }
    // The object's own keys: at depth 1, each entry's leading name (shorthand `a`, `a: x`, `a() {}`).
    let level = 0;
    let entry = '';
    for (const c of text.slice(start, p) + ',') {
      if (c === '{' || c === '(' || c === '[') level++;
      else if (c === '}' || c === ')' || c === ']') level--;
      if (level === 0 && c === ',') {
        const key = /^\s*(?:async\s+)?(?:get\s+|set\s+)?\*?\s*['"]?([A-Za-z_$][\w$]*)/.exec(entry.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ''));
        if (key && !/^\s*\.\.\./.test(entry)) names.add(key[1]);
        entry = '';
      } else entry += c;
    }
  }
  return names;
}
