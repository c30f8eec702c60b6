import type * as TS from 'typescript';

type Ts = typeof TS;

/** Identifier-like words of a text (comments and strings included: a name there may still be used, as in obj["name"]). */
export const WORDS = /[A-Za-z_$\u00a0-\uffff][\w$\u00a0-\uffff]*/g;

/**
 * A dependent's top-level statements that may see the names its imports expose. The others see
 * only names the change leaves alone, so their diagnostics are the same in both views: the
 * argument that spares a whole dependent (names.ts), statement by statement.
 */
export interface Touched {
  readonly statements: readonly TS.Statement[];
  /** Whether one of them is exported and may change what it declares: when none is, the file's declarations are the same in both views. */
  readonly exported: boolean;
}

interface Part {
  statement: TS.Statement;
  words: ReadonlySet<string>;
  /**
   * The names whose types or narrowing the statement can change: what it declares and what it
   * assigns of the file's own names (or, outside any function, of any), or, for anything else (an
   * expression, an if, a loop), every word it mentions.
   */
  binds: ReadonlySet<string>;
  /**
   * The words of its declared types, when every name it declares has one written out (a function's
   * parameters and return type, or a type literal): while none of them is a name that changed, what
   * it declares keeps its type whatever its body sees. Undefined when it has none.
   */
  signature: ReadonlySet<string> | undefined;
  exported: boolean;
}

/**
 * The statements of `sf` mentioning one of `names`, then those mentioning what these change, to a
 * fixpoint. Undefined when the file must be checked whole: not TypeScript source, a script (global
 * scope), an augmentation or ambient module, or a `@ts-expect-error` (whose "unused" error only a
 * whole check reports).
 */
export function touchedStatements(ts: Ts, sf: TS.SourceFile, names: ReadonlySet<string>): Touched | undefined {
  const parts = partsOf(ts, sf);
  if (!parts) return undefined;
  const active = new Set(names);
  const touched = new Set<Part>();
  const bound = new Set<Part>();
  for (let grew = true; grew;) {
    grew = false;
    for (const part of parts) {
      if (!touched.has(part)) {
        if (!mentionsAny(part.words, active)) continue;
        touched.add(part);
      }
      if (bound.has(part) || (part.signature && !mentionsAny(part.signature, active))) continue;
      bound.add(part);
      grew = true;
      part.binds.forEach((n) => active.add(n));
    }
  }
  const list = parts.filter((p) => touched.has(p));
  // A touched statement whose declared types hold (not bound) prints the same declarations.
  return { statements: list.map((p) => p.statement), exported: list.some((p) => p.exported && bound.has(p)) };
}

/** Whether a diagnostic lies in one of the statements: what a check of those statements alone is compared on. */
export function inStatements(statements: readonly TS.Statement[], d: TS.Diagnostic): boolean {
  // Unused locals and parameters are reported by a whole file's check only; a dependent's text is unchanged, and so are they.
  if (d.start === undefined || d.reportsUnnecessary) return false;
  return statements.some((s) => d.start! >= s.pos && d.start! < s.end);
}

const mentionsAny = (words: ReadonlySet<string>, active: ReadonlySet<string>) => {
  const [small, large] = words.size < active.size ? [words, active] : [active, words];
  for (const w of small) if (large.has(w)) return true;
  return false;
};

/** A parsed file never changes: neither do its parts. */
const partsCache = new WeakMap<TS.SourceFile, Part[] | null>();

function partsOf(ts: Ts, sf: TS.SourceFile): Part[] | null {
  let parts = partsCache.get(sf);
  if (parts === undefined) partsCache.set(sf, (parts = readParts(ts, sf)));
  return parts;
}

function readParts(ts: Ts, sf: TS.SourceFile): Part[] | null {
  if (sf.isDeclarationFile || !/\.(ts|tsx|mts|cts)$/i.test(sf.fileName) || !ts.isExternalModule(sf) || /@ts-expect-error/.test(sf.text)) return null;
  const declared = sf.statements.map((s) => declaredNames(ts, s));
  const own = new Set(declared.flatMap((d) => d ?? []));
  const parts: Part[] = [];
  sf.statements.forEach((statement, i) => {
    if (ts.isModuleDeclaration(statement) && (!ts.isIdentifier(statement.name) || statement.flags & ts.NodeFlags.GlobalAugmentation)) return;
    // Leading comments count: a name there may still be used (as in obj["name"], names.ts's words).
    const words = new Set(sf.text.slice(statement.pos, statement.end).match(WORDS) ?? []);
    const names = declared[i];
    const binds = names === undefined ? words : new Set([...names, ...assignedNames(ts, statement, own)]);
    parts.push({ statement, words, binds, signature: signatureWords(ts, sf, statement), exported: isExported(ts, statement) });
  });
  return parts.length === sf.statements.length ? parts : null;
}

/** The names a declaration statement binds in the file's scope; undefined for a statement that declares nothing (it may narrow what it mentions). */
function declaredNames(ts: Ts, s: TS.Statement): string[] | undefined {
  if (ts.isVariableStatement(s)) return s.declarationList.declarations.flatMap((d) => bindingNames(ts, d.name));
  if (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) return s.name ? [s.name.text] : [];
  if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s) || ts.isModuleDeclaration(s) || ts.isImportEqualsDeclaration(s)) {
    return ts.isIdentifier(s.name) ? [s.name.text] : [];
  }
  if (ts.isImportDeclaration(s)) {
    const clause = s.importClause;
    const bindings = clause?.namedBindings;
    return [
      ...(clause?.name ? [clause.name.text] : []),
      ...(bindings === undefined ? [] : ts.isNamespaceImport(bindings) ? [bindings.name.text] : bindings.elements.map((e) => e.name.text)),
    ];
  }
  // Exports bind no local name; what they mention is what they show.
  if (ts.isExportDeclaration(s) || ts.isExportAssignment(s) || ts.isEmptyStatement(s)) return [];
  return undefined;
}

function bindingNames(ts: Ts, name: TS.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(ts, e.name)));
}

/**
 * The identifiers on the left of an assignment (or ++, --) inside a statement: a variable assigned
 * there may be narrowed after it. Inside a function or class body only the file's own names count
 * (what others can see of it); outside, any (a global narrowed by the assignment).
 */
function assignedNames(ts: Ts, statement: TS.Statement, own: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const identifiers = (n: TS.Node, inBody: boolean) => {
    if (ts.isIdentifier(n) && (!inBody || own.has(n.text))) out.push(n.text);
    ts.forEachChild(n, (c) => identifiers(c, inBody));
  };
  const walk = (n: TS.Node, inBody: boolean) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      identifiers(n.left, inBody);
    } else if (
      (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) &&
      (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)
    ) {
      identifiers(n.operand, inBody);
    }
    const body = inBody || ts.isFunctionLike(n) || ts.isClassLike(n);
    ts.forEachChild(n, (c) => walk(c, body));
  };
  walk(statement, false);
  return out;
}

/** The words of a declaration's written-out types, when every name it declares has them (see Part.signature). */
function signatureWords(ts: Ts, sf: TS.SourceFile, s: TS.Statement): ReadonlySet<string> | undefined {
  const typed: TS.Node[] = [];
  const fn = (f: TS.SignatureDeclarationBase) => {
    if (!f.type || f.parameters.some((p) => !p.type)) return false;
    typed.push(f.type, ...f.parameters.map((p) => p.type!), ...(f.typeParameters ?? []));
    return true;
  };
  if (ts.isFunctionDeclaration(s)) {
    if (!fn(s)) return undefined;
  } else if (ts.isVariableStatement(s)) {
    for (const d of s.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) return undefined;
      // A written type that cannot be a union (a union's declared type is narrowed by its initializer).
      if (d.type && (ts.isTypeLiteralNode(d.type) || ts.isFunctionTypeNode(d.type) || ts.isConstructorTypeNode(d.type))) typed.push(d.type);
      else if (d.type || !d.initializer || !(ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)) || !fn(d.initializer)) {
        return undefined;
      }
    }
  } else return undefined;
  return new Set(typed.flatMap((n) => sf.text.slice(n.pos, n.end).match(WORDS) ?? []));
}

function isExported(ts: Ts, s: TS.Statement): boolean {
  if (ts.isExportDeclaration(s) || ts.isExportAssignment(s)) return true;
  return (
    ts.canHaveModifiers(s) && (ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword) ?? false)
  );
}
