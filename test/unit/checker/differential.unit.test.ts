import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ts from 'typescript';
import { typesSorted } from '../../../src/checker/names';
import { Checker, systemReader } from '../../../src/checker/program';
import type { CheckedDiagnostic, CheckedResult, CheckResult } from '../../../src/checker/protocol';

type Workspace = { folder: string; dispose(): void };
type Edit = { rel: string; kind: string; start: number; end: number; newText: string };

/** Every edit worth making of a file's exported declarations: renames, written types replaced by unknown, an interface's first member removed. */
function editsOf(rel: string, sf: ts.SourceFile): Edit[] {
  const edits: Edit[] = [];
  const replace = (kind: string, node: ts.Node, newText: string) => edits.push({ rel, kind, start: node.getStart(sf), end: node.end, newText });
  for (const s of sf.statements) {
    if (!(ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))) continue;
    const declaration = ts.isVariableStatement(s) ? s.declarationList.declarations[0] : undefined;
    const name = declaration?.name ?? (s as ts.Statement & { name?: ts.Node }).name;
    if (name && ts.isIdentifier(name)) replace('rename', name, `${name.text}Renamed`);
    if (ts.isFunctionDeclaration(s) && s.type) replace('return type', s.type, 'unknown');
    if (declaration?.type) replace('variable type', declaration.type, 'unknown');
    const init = declaration?.initializer;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && init.type) replace('arrow return type', init.type, 'unknown');
    if (ts.isInterfaceDeclaration(s) && s.members.length > 0) replace('member removed', s.members[0], '');
    if (ts.isTypeAliasDeclaration(s)) replace('alias', s.type, 'unknown');
  }
  return edits;
}

// The checker computes only the dependents that may see a change, and of those only the statements
// that may (statements.ts): on real code, seeded random edits must get the answer of a checker
// computing every dependent whole.
describe('checker: on real code (rxjs), the answer of a checker computing every dependent whole', function () {
  this.timeout(240_000);
  let ws: Workspace;
  before(async () => {
    const fixtures = (await import(pathToFileURL(path.resolve('scripts/fixtures.mjs')).href)) as { codeBaseWorkspace(name: string): Workspace };
    ws = fixtures.codeBaseWorkspace('rxjs');
  });
  after(() => ws?.dispose());

  it('24 seeded random edits of exported declarations: the same introduced and resolved diagnostics, with dependents covered and checked in part', () => {
    const files: string[] = [];
    const walk = (dir: string) =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .forEach((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') && files.push(path.join(dir, e.name))));
    walk(path.join(ws.folder, 'src'));
    const candidates = files.flatMap((f) =>
      editsOf(path.relative(ws.folder, f), ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true)),
    );
    assert.ok(candidates.length > 1000, `${candidates.length} candidate edits`);

    const pruning = new Checker(ts, systemReader(ts), ws.folder);
    const whole = new Checker(ts, systemReader(ts), ws.folder, { unaffectedDependents: false });
    assert.equal(pruning.warm({ folder: ws.folder, files: ['src/index.ts'], buffers: {} }).outcome, 'warmed');
    const key = (d: CheckedDiagnostic) => `${d.path}:${d.line}:${d.column} TS${d.code} ${typesSorted(ts, d.message)}`;
    const brief = (r: CheckedResult) => ({
      introduced: r.introduced.map(key).sort(),
      resolved: r.resolved.map(key).sort(),
      checked: [...r.checked].sort(),
      complete: r.complete,
    });
    const checked = (r: CheckResult) => {
      assert.equal(r.outcome, 'checked');
      return r as CheckedResult;
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const totals = { introduced: 0, unaffected: 0, inPart: 0 };
    for (let i = 0; i < 24; i++) {
      const edit = candidates[Math.floor(random() * candidates.length)];
      const text = fs.readFileSync(path.join(ws.folder, edit.rel), 'utf8');
      const request = { folder: ws.folder, buffers: {}, staged: { [edit.rel]: text.slice(0, edit.start) + edit.newText + text.slice(edit.end) } };
      const pruned = checked(pruning.check(request));
      assert.deepEqual(brief(pruned), brief(checked(whole.check(request))), `${edit.kind} in ${edit.rel}: ${text.slice(edit.start, edit.end).slice(0, 60)}`);
      totals.introduced += pruned.introduced.length;
      totals.unaffected += pruned.stats.unaffected;
      totals.inPart += pruned.stats.inPart;
    }
    // The edits break code, and the pruning did its work: not a comparison of two whole checks.
    assert.ok(totals.introduced > 20, JSON.stringify(totals));
    assert.ok(totals.unaffected > 100, JSON.stringify(totals));
    assert.ok(totals.inPart > 10, JSON.stringify(totals));
  });
});
