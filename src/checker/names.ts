import type * as TS from 'typescript';
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
 * namespace it uses whole, or a re-export it makes: see seenNames), so one that mentions none
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
  /** `import * as NS from`, `import NS = require()`: NS holds every name of the module it names. */
  namespace?: boolean;
  /** Names it mentions other than in a member access (`NS.x`): `export { NS }`, `typeof NS`. */
  bare: Set<string>;
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
   * see what its imports expose, by seenNames, in a statement it exports). The declarations of a
   * file it answers false for are never emitted (emitting them type-checks what it exports).
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
    const whole = new Set<string>();
    if (incoming.size > 0) {
      for (const s of statements.filter((x) => x.star)) {
        for (const n of [...incoming, ...s.declares]) names.add(n);
        s.declares.forEach((n) => active.add(n));
      }
      // A namespace of a module exposing a name shows it to a statement using the namespace whole
      // (`export { NS }`, `typeof NS`); one reading `NS.name` mentions the name itself.
      statements.filter((x) => x.namespace).forEach((x) => x.declares.forEach((n) => whole.add(n)));
    }
    for (let grew = true; grew;) {
      grew = false;
      for (const s of statements) {
        const touched = [...s.mentions].some((m) => active.has(m)) || (!s.namespace && [...s.bare].some((m) => whole.has(m)));
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
    const bare = new Set<string>();
    const walk = (n: TS.Node) => {
      if (ts.isIdentifier(n)) {
        mentions.add(n.text);
        if (!ts.isQualifiedName(n.parent) && !ts.isPropertyAccessExpression(n.parent)) bare.add(n.text);
      }
      ts.forEachChild(n, walk);
    };
    walk(node);
    const s: Statement = { text: node.getText(sf), declares: [], mentions, bare, star: false, opaque: false };
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
      if (bindings && ts.isNamespaceImport(bindings)) {
        s.declares.push(bindings.name.text);
        s.namespace = true;
      } else if (bindings) for (const e of bindings.elements) s.declares.push(e.name.text);
    } else if (ts.isImportEqualsDeclaration(node)) {
      s.declares.push(node.name.text);
      s.namespace = ts.isExternalModuleReference(node.moduleReference);
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

/** How a dependent refers to one module it imports (by its specifier). */
interface ModuleUse {
  /** Names it imports (named imports, `export { N } from`), each with the local names it binds. */
  named: Map<string, string[]>;
  /** Names read as members of a namespace import of it (`NS.N`, `NS.T`). */
  members: Set<string>;
  /** Taken whole: a namespace import used other than by member access, `export *`, `import()`, `require()`. */
  whole: boolean;
}

/** What seenNames reads of a dependent, from its syntax tree. */
interface FileFacts {
  modules: Map<string, ModuleUse>;
  /** An `import()` or `require()` of a specifier computed at run time: any module, whole. */
  anyWhole: boolean;
}

/**
 * What a dependent may see of what the modules it imports expose (`exposedOf` a specifier: in
 * either view): undefined for nothing, 'all' when it cannot be told by name (a module exposing
 * everything, or taken whole), else the names it reads: those it imports by name (with the local
 * names they bind) and those it reads as members of a namespace import. A name spelled anywhere
 * else (a property of another object, a comment) is not one of these modules' names. A default
 * import sees only the module's default export, whose change exposes everything.
 */
export function seenNames(ts: Ts, file: TS.SourceFile, exposedOf: (specifier: string) => Exposed[]): ReadonlySet<string> | 'all' | undefined {
  const facts = factsOf(ts, file);
  const names = new Set<string>();
  let any = false;
  for (const [specifier, use] of facts.modules) {
    const exposures = exposedOf(specifier).filter((e) => size(e) > 0);
    if (exposures.length === 0) continue;
    any = true;
    if (use.whole || exposures.some((e) => e === 'all')) return 'all';
    for (const e of exposures as ReadonlySet<string>[]) {
      for (const n of e) {
        const locals = use.named.get(n);
        if (locals) [n, ...locals].forEach((l) => names.add(l));
        if (use.members.has(n)) names.add(n);
      }
    }
  }
  if (facts.anyWhole && any) return 'all';
  return names.size > 0 ? names : undefined;
}

/** A parsed file never changes, and a view keeps the file while it is unchanged: so are its facts. */
const factsCache = new WeakMap<TS.SourceFile, FileFacts>();

function factsOf(ts: Ts, file: TS.SourceFile): FileFacts {
  let facts = factsCache.get(file);
  if (!facts) factsCache.set(file, (facts = readFacts(ts, file)));
  return facts;
}

function readFacts(ts: Ts, sf: TS.SourceFile): FileFacts {
  const modules = new Map<string, ModuleUse>();
  const useOf = (specifier: string) => {
    let use = modules.get(specifier);
    if (!use) modules.set(specifier, (use = { named: new Map(), members: new Set(), whole: false }));
    return use;
  };
  const namespaces = new Map<string, ModuleUse>();
  for (const s of sf.statements) {
    const specifier =
      (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)
        ? s.moduleSpecifier.text
        : undefined;
    if (specifier === undefined) continue;
    const use = useOf(specifier);
    if (ts.isExportDeclaration(s)) {
      if (!s.exportClause || ts.isNamespaceExport(s.exportClause)) use.whole = true;
      else {
        for (const e of s.exportClause.elements) {
          const name = (e.propertyName ?? e.name).text;
          use.named.set(name, use.named.get(name) ?? []);
        }
      }
      continue;
    }
    const clause = (s as TS.ImportDeclaration).importClause;
    // A default import's name reads the module's `default`, which exposes everything when it changes.
    if (clause?.name) use.named.set('default', [...(use.named.get('default') ?? []), clause.name.text]);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, use);
    else if (bindings) {
      for (const e of bindings.elements) {
        const imported = (e.propertyName ?? e.name).text;
        use.named.set(imported, [...(use.named.get(imported) ?? []), e.name.text]);
      }
    }
  }
  let anyWhole = false;
  const wholeBy = (argument: TS.Node | undefined) => {
    if (argument && ts.isStringLiteralLike(argument)) useOf(argument.text).whole = true;
    else anyWhole = true;
  };
  const visit = (n: TS.Node): void => {
    // Read above; `export { NS }` of a local is a use, read here.
    if (ts.isImportDeclaration(n) || (ts.isExportDeclaration(n) && n.moduleSpecifier)) return;
    if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) wholeBy(n.moduleReference.expression);
    else if (ts.isImportTypeNode(n)) wholeBy(ts.isLiteralTypeNode(n.argument) ? n.argument.literal : undefined);
    else if (
      ts.isCallExpression(n) &&
      (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))
    ) {
      wholeBy(n.arguments[0]);
    } else if (ts.isIdentifier(n) && namespaces.has(n.text)) {
      const use = namespaces.get(n.text)!;
      const p = n.parent;
      if (ts.isPropertyAccessExpression(p) && p.expression === n) use.members.add(p.name.text);
      else if (ts.isQualifiedName(p) && p.left === n) use.members.add(p.right.text);
      else if (usedWhole(ts, n)) use.whole = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { modules, anyWhole };
}

/** Whether an identifier spelled like a namespace import, not read as `NS.x`, is a use of it whole. */
function usedWhole(ts: Ts, id: TS.Identifier): boolean {
  const p = id.parent;
  // A member's own name (`x.NS`); a namespace import has no type meaning (`Iterable<A>` beside `import * as Iterable` names the global type).
  if (ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p) || (ts.isTypeReferenceNode(p) && p.typeName === id)) return false;
  if (ts.isShorthandPropertyAssignment(p) || ts.isExportSpecifier(p)) return true;
  // A declaration's or property's own name: not a use (a local declared so shadows the import, and its uses count).
  const named = p as TS.Node & { name?: TS.Node; propertyName?: TS.Node };
  return named.name !== id && named.propertyName !== id;
}
