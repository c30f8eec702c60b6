/**
 * Python's `typing.overload`, read from the source text. Pyright's document symbols name an
 * overloaded function once (one symbol per name in a scope), so the declarations of its overloads
 * are found where they are written: `def name` lines at the same indentation in the same scope,
 * each decorated with `@overload` (or `@typing.overload`, `@typing_extensions.overload`, `@t.overload`),
 * then the implementation, the first `def name` without it that follows them.
 */
import { escapeRegExp, LineIndex } from '../documents/text';

export interface PythonDeclaration {
  /** Offset of `def` (or `async`). */
  start: number;
  nameStart: number;
  nameEnd: number;
  /** Whether an @overload decorator precedes it. */
  overload: boolean;
}

const OVERLOAD_DECORATOR = /^@[ \t]*(?:[\p{L}_][\p{L}\p{N}_]*\.)?overload[ \t]*(?:#.*)?$/u;

/**
 * The overloads of the function `name` declared at `indent` within [from, to) and its
 * implementation, in declaration order; empty when no `def name` there carries @overload.
 */
export function pythonOverloads(text: string, name: string, from: number, to: number, indent: string): PythonDeclaration[] {
  const lines = LineIndex.of(text);
  const escaped = escapeRegExp(name);
  const def = new RegExp(`^(?:async[ \\t]+)?def[ \\t]+(${escaped})(?![\\p{L}\\p{N}_])`, 'u');
  const all: PythonDeclaration[] = [];
  const first = lines.positionAt(from).line;
  const last = lines.positionAt(Math.max(from, to - 1)).line;
  let decorators: string[] = [];
  for (let l = first; l <= last; l++) {
    const line = lines.lineText(l);
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    // Deeper lines (bodies, a decorator's continuation lines) change nothing; a shallower one ends any pending decorators.
    if (!line.startsWith(indent)) decorators = [];
    if (!line.startsWith(indent) || /^[ \t]/.test(line.slice(indent.length))) continue;
    const statement = line.slice(indent.length);
    if (statement.startsWith('@')) {
      decorators.push(statement.trim());
      continue;
    }
    const m = def.exec(statement);
    if (m) {
      const start = lines.starts[l] + indent.length;
      const nameStart = start + statement.indexOf(m[1], m[0].length - m[1].length);
      all.push({ start, nameStart, nameEnd: nameStart + name.length, overload: decorators.some((d) => OVERLOAD_DECORATOR.test(d)) });
    }
    decorators = [];
  }
  const lastOverload = all.map((d) => d.overload).lastIndexOf(true);
  if (lastOverload < 0) return [];
  const implementation = all.slice(lastOverload + 1).find((d) => !d.overload);
  return [...all.filter((d) => d.overload), ...(implementation ? [implementation] : [])];
}
