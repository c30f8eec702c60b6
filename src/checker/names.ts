import type * as TS from 'typescript';
import { WORDS } from './statements';
import type { Declarations, Ts } from './view';

/**
 * Which names a change exposes, file by file, between the current and staged views. A file's
 * declarations (its .d.ts) are statements, each declaring names and mentioning others. A name
 * changes when the statements declaring it differ between the views, or mention a name that
 * changed (its own or, through an import or a re-export, one of an exposing file it refers to).
 * Whatever cannot be told apart by name (a default export, `export =`, `declare global`, an
 * ambient module, or declarations that could not be emitted) exposes every name: 'all'.
 *
 * A dependent whose text is unchanged sees the change only through a name it mentions (or a
 * namespace it uses whole, or a re-export it makes: see mayUseExposed), so one that mentions none
 * of the exposed names of the files it imports is covered without computing its diagnostics.
 */
export type Exposed = ReadonlySet<string> | 'all';

interface Statement {
  text: string;
  /** Names the statement binds in the file's scope (imports bind locals, exports name exports). */
  declares: string[];
  mentions: Set<string>;
  /** `export * from`: every name of the module it names. */
  star: boolean;
  /** Cannot be told apart by name: its change exposes everything. */
  opaque: boolean;
}

const union = (a: Exposed, b: Exposed): Exposed => (a === 'all' || b === 'all' ? 'all' : new Set([...a, ...b]));
const size = (e: Exposed) => (e === 'all' ? Infinity : e.size);

export function exposedNames(
  ts: Ts,
  changed: Iterable<string>,
  declarations: (key: string) => [Declarations | null | undefined, Declarations | null | undefined],
  importers: (key: string) => Iterable<string>,
  /**
   * For a file whose text is the same in both views: whether its declarations may differ (it may
   * see what its imports expose, by mayUseExposed over its text, in a statement it exports). One
   * whose cannot are never emitted (emitting them type-checks what it exports).
   */
  maySee?: (key: string, exposed: ReadonlyMap<string, Exposed>) => boolean,
): Map<string, Exposed> {
  const exposed = new Map<string, Exposed>();
  const changedSet = new Set(changed);
  const parsed = new Map<string, { before?: Statement[]; after?: Statement[]; refs: string[]; same: boolean; none: boolean; unknown: boolean }>();
  const shape = (key: string) => {
    let p = parsed.get(key);
    if (!p) {
      const [before, after] = declarations(key);
      const none = before === undefined && after === undefined;
      const unknown = !none && (!before || !after);
      const same = !unknown && before?.text === after?.text;
      p = {
        after: after ? statementsOf(ts, after) : undefined,
        before: before && !same ? statementsOf(ts, before) : undefined,
        refs: [...new Set([...(before?.refs ?? []), ...(after?.refs ?? [])])],
        same,
        none,
        unknown,
      };
      parsed.set(key, p);
    }
    return p;
  };
  /** The names of `key` the change exposes, from its own statements and what its references expose now. */
  const evaluate = (key: string): Exposed => {
    const p = shape(key);
    if (p.none) return new Set();
    if (p.unknown) return 'all';
    let incoming: Exposed = new Set<string>();
    for (const ref of p.refs) {
      const e = exposed.get(ref);
      if (e) incoming = union(incoming, e);
    }
    // A file referring to one that exposes everything: told apart by module, not by name.
    if (incoming === 'all') return 'all';
    const after = p.after!;
    const names = p.same ? new Set<string>() : differing(ts, p.before!, after);
    if (names === 'all') return 'all';
    const statements = p.same ? after : [...p.before!, ...after];
    const active = new Set<string>([...names, ...incoming]);
    if (incoming.size > 0) {
      for (const s of statements.filter((x) => x.star)) {
        for (const n of [...incoming, ...s.declares]) names.add(n);
        s.declares.forEach((n) => active.add(n));
      }
    }
    for (let grew = true; grew;) {
      grew = false;
      for (const s of statements) {
        const touched = [...s.mentions].some((m) => active.has(m));
        if (!touched) continue;
        if (s.opaque) return 'all';
        for (const n of s.declares) {
          if (active.has(n)) continue;
          active.add(n);
          names.add(n);
          grew = true;
        }
      }
    }
    return names;
  };
  const queue: string[] = [];
  const waiting = new Map<string, Set<string>>();
  const visit = (key: string) => {
    // Visited again, as an importer, whenever a file it imports exposes more.
    if (!changedSet.has(key) && maySee && !maySee(key, exposed)) return;
    // Evaluated again whenever a file it refers to exposes more.
    for (const ref of shape(key).refs) waiting.set(ref, (waiting.get(ref) ?? new Set()).add(key));
    const now = evaluate(key);
    const before = exposed.get(key);
    if (size(now) === 0 || (before !== undefined && size(before) >= size(now))) return;
    exposed.set(key, now);
    queue.push(key);
  };
  for (const key of changedSet) visit(key);
  while (queue.length > 0) {
    const key = queue.pop()!;
    for (const k of new Set([...(waiting.get(key) ?? []), ...importers(key)])) visit(k);
  }
  return exposed;
}

/**
 * The names whose declaring statements differ between two versions of a file's declarations.
 * Statements that differ only in the order of a union's members are the same: a checker prints a
 * union in the order its member types were created, so one that resolved other types first (the
 * current view computed ahead of the check) prints `"a" | "b"` where the other prints `"b" | "a"`.
 */
function differing(ts: Ts, before: Statement[], after: Statement[]): Set<string> | 'all' {
  const byName = (list: Statement[]) => {
    const names = new Map<string, string[]>();
    const opaque: string[] = [];
    for (const s of list) {
      if (s.opaque || s.star) opaque.push(s.text);
      for (const n of s.declares) names.set(n, [...(names.get(n) ?? []), s.text]);
    }
    return { names, opaque: opaque.sort().join('\n') };
  };
  const b = byName(before);
  const a = byName(after);
  if (b.opaque !== a.opaque) return 'all';
  const out = new Set<string>();
  for (const n of new Set([...b.names.keys(), ...a.names.keys()])) {
    const was = b.names.get(n) ?? [];
    const is = a.names.get(n) ?? [];
    if (was.join('\n') === is.join('\n')) continue;
    if (was.length === is.length && was.every((t, i) => t.includes('|') && unionsSorted(ts, t) === unionsSorted(ts, is[i]))) continue;
    out.add(n);
  }
  return out.has('default') ? 'all' : out;
}

/** A statement's text with every union's members in one order (sorted by their own text, so sorted inside out). */
export function unionsSorted(ts: Ts, text: string): string {
  const sf = ts.createSourceFile('statement.d.ts', text, ts.ScriptTarget.Latest, false);
  const print = (node: TS.Node): string => {
    if (ts.isUnionTypeNode(node)) {
      return node.types
        .map(print)
        .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
        .join(' | ');
    }
    let out = '';
    let at = node.getStart(sf);
    ts.forEachChild(node, (child) => {
      const start = child.getStart(sf);
      out += text.slice(at, start) + print(child);
      at = child.end;
    });
    return out + text.slice(at, node.end);
  };
  return print(sf);
}

/**
 * A diagnostic's message as the delta compares a diagnostic left unmatched in each view: the
 * unions of the types it quotes in one order (see unionsSorted), and a type the checker cut short
 * (`...`) as a mark alone, since which members it printed before the cut follows the same order.
 */
export function typesSorted(ts: Ts, message: string): string {
  return message.replace(/'([^'\n]*)'/g, (whole, type: string) =>
    type.includes('...') ? "'…'" : type.includes('|') ? `'${unionsSorted(ts, `type T = ${type};`)}'` : whole,
  );
}

/** A view keeps a file's declarations while the file and what it imports are unchanged: so are their statements. */
const statementsCache = new WeakMap<Declarations, Statement[]>();

/** The top-level statements of a file's declarations (.d.ts text) with what each declares and mentions. */
function statementsOf(ts: Ts, declarations: Declarations): Statement[] {
  let statements = statementsCache.get(declarations);
  if (!statements) statementsCache.set(declarations, (statements = parseStatements(ts, declarations.text)));
  return statements;
}

function parseStatements(ts: Ts, text: string): Statement[] {
  const sf = ts.createSourceFile('declarations.d.ts', text, ts.ScriptTarget.Latest, true);
  return sf.statements.map((node) => {
    const mentions = new Set<string>();
    const walk = (n: TS.Node) => {
      if (ts.isIdentifier(n)) mentions.add(n.text);
      ts.forEachChild(n, walk);
    };
    walk(node);
    const s: Statement = { text: node.getText(sf), declares: [], mentions, star: false, opaque: false };
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) s.declares.push(d.name.text);
        else s.opaque = true;
      }
    } else if (
      ts.isFunctionDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isEnumDeclaration(node)
    ) {
      const isDefault = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (node.name && !isDefault) s.declares.push(node.name.text);
      else s.opaque = true;
    } else if (ts.isModuleDeclaration(node)) {
      if (ts.isIdentifier(node.name) && !(node.flags & ts.NodeFlags.GlobalAugmentation)) s.declares.push(node.name.text);
      else s.opaque = true;
    } else if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.name) s.declares.push(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) s.declares.push(bindings.name.text);
      else if (bindings) for (const e of bindings.elements) s.declares.push(e.name.text);
    } else if (ts.isImportEqualsDeclaration(node)) {
      s.declares.push(node.name.text);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      if (!clause) s.star = true;
      else if (ts.isNamespaceExport(clause)) {
        // export * as NS from: NS holds every name of the module it names.
        s.declares.push(clause.name.text);
        s.star = true;
      } else for (const e of clause.elements) s.declares.push(e.name.text);
    } else if (!ts.isEmptyStatement(node)) {
      s.opaque = true;
    }
    return s;
  });
}

/** What mayUseExposed reads of a dependent. */
interface FileFacts {
  /** It takes a module whole: re-exports with `export *`, `import()`, `require()`, or uses a namespace or default import other than by member access. */
  wholeModule: boolean;
  words: ReadonlySet<string>;
}

/**
 * Whether a dependent may see a name the files it imports expose: its text mentions one, or it
 * uses an import of an exposing file as a whole (a namespace or default import not followed by a
 * member access, as in `f(NS)` or `typeof NS`; `import()`, `require()`), or re-exports with `export *`.
 */
export function mayUseExposed(ts: Ts, file: TS.SourceFile | undefined, exposedOfImports: Exposed[]): boolean {
  const live = exposedOfImports.filter((e) => size(e) > 0);
  if (live.length === 0) return false;
  if (live.some((e) => e === 'all')) return true;
  const facts = file ? factsOf(ts, file) : NO_FACTS;
  if (facts.wholeModule) return true;
  for (const e of live) for (const n of e as ReadonlySet<string>) if (facts.words.has(n)) return true;
  return false;
}

/**
 * The names a dependent may see (those its imports expose), when they can be told by name: undefined
 * when an import exposes everything or the dependent uses a module whole (mayUseExposed's other reasons).
 */
export function namesSeen(ts: Ts, file: TS.SourceFile, exposedOfImports: Exposed[]): ReadonlySet<string> | undefined {
  if (exposedOfImports.some((e) => e === 'all') || factsOf(ts, file).wholeModule) return undefined;
  return new Set(exposedOfImports.flatMap((e) => [...(e as ReadonlySet<string>)]));
}

const NO_FACTS: FileFacts = { wholeModule: false, words: new Set() };

/** A parsed file never changes, and a view keeps the file while it is unchanged: so are its facts. */
const factsCache = new WeakMap<TS.SourceFile, FileFacts>();

function factsOf(ts: Ts, file: TS.SourceFile): FileFacts {
  let facts = factsCache.get(file);
  if (!facts) {
    // Module specifiers name files, not declarations (`from './make'` does not use make()).
    const code = file.text.replace(/(\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])[^'"\n]*\2/g, '$1""');
    factsCache.set(file, (facts = { wholeModule: usesModuleWhole(ts, file), words: new Set(code.match(WORDS) ?? []) }));
  }
  return facts;
}

/** Read from the syntax tree, so that a comment or string spelling `export *` or a namespace's name is not a use. */
function usesModuleWhole(ts: Ts, sf: TS.SourceFile): boolean {
  const locals = new Set<string>();
  const namespaces = new Set<string>();
  for (const s of sf.statements) {
    // Re-exported whole (export *, export * as NS), or taken by import X = require().
    if (ts.isExportDeclaration(s) && s.moduleSpecifier && (!s.exportClause || ts.isNamespaceExport(s.exportClause))) return true;
    if (ts.isImportEqualsDeclaration(s) && ts.isExternalModuleReference(s.moduleReference)) return true;
    const clause = ts.isImportDeclaration(s) ? s.importClause : undefined;
    if (clause?.name) locals.add(clause.name.text);
    if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) {
      locals.add(clause.namedBindings.name.text);
      namespaces.add(clause.namedBindings.name.text);
    }
  }
  let whole = false;
  const visit = (n: TS.Node): void => {
    if (whole) return;
    if (ts.isImportDeclaration(n)) return;
    if (
      ts.isImportTypeNode(n) ||
      (ts.isCallExpression(n) && (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))) ||
      (ts.isIdentifier(n) && locals.has(n.text) && usedWhole(ts, n, namespaces.has(n.text)))
    ) {
      whole = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return whole;
}

/** Whether an identifier spelled like a namespace or default import is a use of it other than a member access (`NS.x`, `NS.T`). */
function usedWhole(ts: Ts, id: TS.Identifier, namespace: boolean): boolean {
  const p = id.parent;
  // A member access, or the member's own name (`x.NS`).
  if (ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p)) return false;
  // A namespace import has no type meaning: `Iterable<A>` beside `import * as Iterable` names the global type.
  if (namespace && ts.isTypeReferenceNode(p) && p.typeName === id) return false;
  if (ts.isShorthandPropertyAssignment(p) || ts.isExportSpecifier(p)) return true;
  // A declaration's or property's own name: not a use (a local declared so shadows the import, and its uses count).
  const named = p as TS.Node & { name?: TS.Node; propertyName?: TS.Node };
  return named.name !== id && named.propertyName !== id;
}
