import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registeredToolName } from '../../src/core/chain/definition';
import type { SuccessEnvelope } from '../../src/core/chain/envelope';
import type { LocationOutput } from '../../src/core/documents/context';
import { pathOfSymbol, readSymbol } from '../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../src/core/symbols/symbols';
import type { CodeContextData } from '../../src/tools/codeContext';
import type { SearchData } from '../../src/tools/search';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines, lineReferences, readLines, referencesListed } from '../../src/tools/references';
import {
  activateExtension,
  expectError,
  expectOk,
  invoke,
  outlineLocals,
  outlineOf,
  searchOf,
  rawHoverTexts,
  readListed,
  waitForSymbols,
  workspaceRoot,
} from './helpers';

/*
 * The symbol tools (search-symbols, get-document-outline, resolve-symbol, get-symbol-info,
 * get-symbol-members, get-api-surface, go-to-definition, find-implementations, find-references)
 * on the navigation fixture: exact answers, and parity with the raw VS Code command each wraps.
 */

interface Coll<T> {
  items: T[];
  hasMore: boolean;
  totalCount: number;
}
interface Resolved extends SymbolOutput {
  /** resolve-symbol and get-symbol-info add the containers' names. */
  containers: string[];
  detail?: string;
}
interface Info extends Resolved {
  signature: string;
  hover: string[];
  memberCount: number;
}
/** A target: its location, or the symbol whose name it is. */
interface Target {
  location?: LocationOutput;
  symbol?: SymbolOutput;
}
/** A place as both sides can say it: workspace-relative path and zero-based UTF-16 offset. */
type Place = string;

const root = () => workspaceRoot();
const uri = (file: string) => vscode.Uri.file(path.join(root(), file));
const rel = (u: vscode.Uri) => path.relative(root(), u.fsPath).split(path.sep).join('/');
const sel = (file: string, selectedText: string, extra: Record<string, unknown> = {}) => ({
  location: { selection: { document: { path: file }, selectedText, ...extra } },
});
const sym = (file: string, selectedText: string, extra: Record<string, unknown> = {}) => ({ symbol: sel(file, selectedText, extra) });
const place = (s: SymbolOutput | Target): Place =>
  'symbolId' in s
    ? `${pathOfSymbol(s.documentId ?? s.symbolId)}@${readListed(s).offset}`
    : s.location
      ? `${s.location.documentId.replace(/^[0-9a-f]{8}:/, '')}@${s.location.span.start}`
      : place(s.symbol as SymbolOutput);

async function offsetOf(file: string, text: string, after = ''): Promise<{ doc: vscode.TextDocument; offset: number; position: vscode.Position }> {
  const doc = await vscode.workspace.openTextDocument(uri(file));
  const at = doc.getText().indexOf(after + text);
  assert.ok(at >= 0, `${after}${text} in ${file}`);
  const offset = at + after.length;
  assert.equal(doc.getText().indexOf(after + text, at + 1), -1, `${after}${text} is unique in ${file}`);
  return { doc, offset, position: doc.positionAt(offset) };
}

async function startOf(file: string, text: string): Promise<number> {
  return (await offsetOf(file, text)).offset;
}

async function rawPlaces(locations: (vscode.Location | vscode.LocationLink)[] | undefined): Promise<Place[]> {
  const out: Place[] = [];
  for (const l of locations ?? []) {
    const u = 'targetUri' in l ? l.targetUri : l.uri;
    const r = 'targetUri' in l ? (l.targetSelectionRange ?? l.targetRange) : l.range;
    const doc = await vscode.workspace.openTextDocument(u);
    out.push(`${rel(u)}@${doc.offsetAt(r.start)}`);
  }
  return [...new Set(out)].sort();
}

/** The raw document symbol tree, flattened depth first in the order the host gives it (by range start). */
async function rawOutline(file: string): Promise<{ name: string; kind: string; depth: number; line: number; children: number }[]> {
  const symbols = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri(file))) ?? [];
  const out: { name: string; kind: string; depth: number; line: number; children: number }[] = [];
  const walk = (level: vscode.DocumentSymbol[], depth: number) => {
    for (const s of [...level].sort((a, b) => a.range.start.compareTo(b.range.start))) {
      out.push({ name: s.name, kind: vscode.SymbolKind[s.kind], depth, line: s.selectionRange.start.line + 1, children: s.children.length });
      walk(s.children, depth + 1);
    }
  };
  walk(symbols, 0);
  return out;
}

/** Every listed reference as [path, line, offset, line text, container, write, decl]. */
const refRows = (d: ReferencesData) =>
  d.documents.items.flatMap((doc) => {
    const read = readLines(doc);
    return decodeLines(doc).flatMap((l, i) =>
      lineReferences(l).map(
        (at) => [doc.path, l.line, at, read[i].text, read[i].in ?? '', l.write?.includes(at) ?? false, l.decl?.includes(at) ?? false] as const,
      ),
    );
  });
const refPlaces = (d: ReferencesData): Place[] =>
  refRows(d)
    .map((r) => `${r[0]}@${r[2]}`)
    .sort();
const refCount = (d: ReferencesData): number => referencesListed(d);

/** Every symbolId any tool answered, checked at the end to resolve back to itself. */
const seen = new Map<string, string>();
function remember(...symbols: (Pick<SymbolOutput, 'symbolId' | 'name'> | undefined)[]): void {
  for (const s of symbols) if (s) seen.set(s.symbolId, readSymbol(s).name);
}

async function call<T>(tool: string, input: unknown): Promise<SuccessEnvelope<T>> {
  return expectOk<T>(await invoke(tool, input));
}

/** search-symbols, its rows read as symbols. */
async function searchCall(input: unknown): Promise<{ data: ReturnType<typeof searchOf> }> {
  return { data: searchOf(await invoke('search-symbols', input)) };
}

/** get-document-outline, its rows read as symbols. */
async function outlineCall(input: unknown): Promise<{ data: ReturnType<typeof outlineOf> }> {
  return { data: outlineOf(await invoke('get-document-outline', input)) };
}

async function revertAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
}

async function insertAtTop(file: string, text: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri(file));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(doc.getText().startsWith(text));
}

describe('navigation: symbol tools on the navigation fixture, beside the raw commands', function () {
  before(async function () {
    await activateExtension();
    for (const f of ['src/shapes.ts', 'src/overloads.ts', 'src/odd.ts', 'src/merging.ts', 'src/chain/c.ts']) await waitForSymbols(f);
  });

  afterEach(revertAll);

  it('keeps CRLF bytes in src/windows.ts and resolves symbols after emoji', async function () {
    const crlf = fs.readFileSync(path.join(root(), 'src/windows.ts'), 'utf8');
    assert.equal(crlf.split('\r\n').length, 13, 'every line of windows.ts ends in CRLF');
    const answer = await call<CodeContextData>('get-code-context', {
      location: { selection: { document: { path: 'src/emoji.ts' }, selectedText: 'cheer' } },
      contextLines: 0,
    });
    assert.equal(answer.data.location.line, 5);
    assert.equal(answer.data.location.column, 12, 'a comment holding a surrogate pair precedes cheer');
    assert.deepEqual(
      answer.data.enclosingSymbols.map((s) => s.name),
      ['Fiesta', 'cheer'],
    );
    const fiesta = await call<Resolved>('resolve-symbol', sym('src/emoji.ts', 'Fiesta'));
    assert.equal(fiesta.data.column, 23, 'columns count UTF-16 code units: /* 😀 */ is 8 of them');
    remember(fiesta.data);
  });

  describe('search-symbols', function () {
    it('finds the declarations executeWorkspaceSymbolProvider finds, exact name first, each with a symbolId', async function () {
      for (const query of ['Circle', 'chain', 'pad']) {
        const ours = await searchCall({ query, symbolsLimit: 1000 });
        const raw = ((await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query)) ?? []).filter(
          (s) => s.location.uri.fsPath.startsWith(root() + path.sep) && !/(^|\/)(node_modules|\.git|out|dist)\//.test(rel(s.location.uri)),
        );
        assert.ok(raw.length > 0, `the raw provider finds ${query}`);
        assert.equal(ours.data.symbols.totalCount, raw.length, `${query}: same count as the raw provider`);
        assert.equal(ours.data.symbols.hasMore, false);
        // TypeScript's workspace symbols name functions `f()`; the document symbol tree says `f`.
        assert.deepEqual(
          ours.data.symbols.items.map((s) => `${pathOfSymbol(s.symbolId)}:${readListed(s).name}`).sort(),
          raw.map((s) => `${rel(s.location.uri)}:${s.name.replace(/\(\)$/, '')}`).sort(),
          `${query}: the same declarations`,
        );
        remember(...ours.data.symbols.items);
      }
      const circle = await searchCall({ query: 'Circle' });
      const first = readListed(circle.data.symbols.items[0]);
      assert.deepEqual([first.name, first.kind, pathOfSymbol(first.symbolId), first.line, first.column], ['Circle', 'Class', 'src/shapes.ts', 21, 14]);
      assert.deepEqual(Object.keys(circle.data.symbols.items[0]).sort(), ['column', 'line', 'symbolId'], 'the symbolId says the name and kind');
      // As answered: a row [ref, line, column], the symbolId being "<folderId>:" + ref.
      const answered = expectOk<SearchData>(await invoke('search-symbols', { query: 'Circle' })).data;
      assert.deepEqual(answered.symbols.items[0], ['src/shapes.ts#Class:Circle', 21, 14]);
      assert.equal(`${answered.folderId}:${answered.symbols.items[0][0]}`, first.symbolId);
      const limited = await searchCall({ query: 'chain', symbolsLimit: 1 });
      assert.equal(limited.data.symbols.items.length, 1);
      assert.equal(limited.data.symbols.hasMore, true);
    });
  });

  describe('get-document-outline', function () {
    it('lists what executeDocumentSymbolProvider lists (includeLocals), depth first, with exact names, depths and lines', async function () {
      for (const file of ['src/shapes.ts', 'src/overloads.ts', 'src/merging.ts', 'src/odd.ts', 'src/decorators.ts', 'src/windows.ts']) {
        const ours = await outlineCall({
          document: { path: file },
          symbolsLimit: 1000,
          includeLocals: true,
        });
        const raw = await rawOutline(file);
        assert.ok(raw.length > 0, file);
        assert.deepEqual(
          ours.data.symbols.items.map((s) => [readListed(s).name, readListed(s).kind, s.depth, s.line]),
          raw.map((s) => [s.name, s.kind, s.depth, s.line]),
          `${file}: the same symbols as the raw provider`,
        );
        assert.equal(ours.data.symbols.totalCount, raw.length);
        remember(...ours.data.symbols.items);
      }
      const top = await outlineCall({ document: { path: 'src/shapes.ts' }, maxDepth: 0 });
      assert.deepEqual(
        top.data.symbols.items.map((s) => readListed(s).name),
        ['Shape', 'Named', 'Base', 'Circle', 'Square', 'UnitSquare', 'Box', 'largest', 'totalArea'],
      );
      assert.deepEqual(
        top.data.symbols.items.map((s) => s.line),
        [2, 7, 11, 21, 31, 45, 55, 67, 71],
      );
    });

    it('leaves out and counts what function and method bodies declare, unless includeLocals', async function () {
      const leftOut: string[] = [];
      for (const file of ['src/shapes.ts', 'src/overloads.ts', 'src/merging.ts', 'src/odd.ts', 'src/decorators.ts', 'src/windows.ts']) {
        leftOut.push(...(await outlineLocals(file)).leftOut);
      }
      assert.deepEqual(
        leftOut.map((id) => id.split('#')[1]),
        [
          'Function:largest/Function:sort() callback',
          'Function:totalArea/Function:shapes.reduce() callback',
          'Module:Windows/Function:openAll/Function:titles.map() callback',
        ],
        "callbacks in function bodies; the classes' members, merged declarations and odd names stay",
      );
    });
  });

  describe('resolve-symbol and symbolIds', function () {
    it('gives each overload its own symbolId, and each resolves back to its own declaration', async function () {
      const outline = await outlineCall({ document: { path: 'src/overloads.ts' }, symbolsLimit: 1000 });
      const raw = await rawOutline('src/overloads.ts');
      for (const name of ['format', 'pad']) {
        const items = outline.data.symbols.items.filter((s) => readListed(s).name === name);
        assert.equal(items.length, raw.filter((s) => s.name === name).length, `${name}: as many as the raw outline`);
        assert.equal(new Set(items.map((s) => s.symbolId)).size, items.length, `${name}: distinct symbolIds`);
        for (const s of items) {
          const back = await call<Resolved>('resolve-symbol', { symbol: { symbolId: s.symbolId } });
          assert.deepEqual([back.data.symbolId, back.data.line, readListed(back.data).offset], [s.symbolId, s.line, readListed(s).offset]);
        }
      }
      // Whatever the provider lists, a selection on each signature resolves to the symbol on that line.
      const second = await call<Resolved>('resolve-symbol', sym('src/overloads.ts', 'pad(value: string, fill: string)'));
      assert.equal(readListed(second.data).name, 'pad');
      assert.deepEqual(second.data.containers, ['Formatter']);
      remember(second.data);
    });

    it('resolves a symbolId again after lines are inserted above the symbol in the editor buffer', async function () {
      const before = await call<Resolved>('resolve-symbol', sym('src/overloads.ts', 'trim', { contextAfter: '(value: string)' }));
      const was = readListed(before.data);
      assert.deepEqual([was.name, was.kind, was.containerName, was.line], ['trim', 'Method', 'Formatter', 15]);
      assert.match(before.data.symbolId, /#Class:Formatter\/Method:trim$/);
      await insertAtTop('src/overloads.ts', '// one\n// two\n// three\n');
      const after = await call<Resolved>('resolve-symbol', { symbol: { symbolId: before.data.symbolId } });
      assert.equal(after.data.symbolId, before.data.symbolId);
      assert.deepEqual([after.data.line, after.data.column], [18, was.column]);
      const doc = await vscode.workspace.openTextDocument(uri('src/overloads.ts'));
      const now = doc.offsetAt(new vscode.Position(after.data.line - 1, after.data.column - 1));
      assert.equal(doc.getText().slice(now, now + 4), 'trim');
    });

    it('round-trips the odd member names of src/odd.ts', async function () {
      const outline = await outlineCall({ document: { path: 'src/odd.ts' }, symbolsLimit: 1000 });
      const members = outline.data.symbols.items.filter((s) => readSymbol(s).containerName === 'odd' || readSymbol(s).containerName === 'Odd');
      assert.ok(members.length >= 9, `members of odd and Odd: ${members.map((m) => readSymbol(m).name).join(', ')}`);
      assert.equal(new Set(members.map((m) => m.symbolId)).size, members.length, 'distinct symbolIds');
      for (const m of members) {
        const back = await call<Resolved>('resolve-symbol', { symbol: { symbolId: m.symbolId } });
        assert.deepEqual([back.data.symbolId, back.data.name, readListed(back.data).offset], [m.symbolId, m.name, readListed(m).offset], readSymbol(m).name);
      }
      const cafe = members.find((m) => readSymbol(m).name === 'café');
      assert.equal(cafe?.name, 'café', 'a name the symbolId escapes is said as name');
      assert.ok(cafe, 'café is a member of Odd');
      assert.match(cafe.symbolId, /\/Method:caf%C3%A9$/);
      const slash = await call<Resolved>('resolve-symbol', sym('src/odd.ts', "'a/b'(): number"));
      assert.equal(readSymbol(slash.data).containerName, 'Odd');
      assert.match(slash.data.symbolId, /#Class:Odd\/Method:[^/]*a%2Fb/);
      remember(...members);
    });
  });

  describe('get-symbol-info and get-symbol-members', function () {
    it('describes a method with the raw hover text and its signature', async function () {
      const info = await call<Info>('get-symbol-info', sym('src/shapes.ts', 'describe', { contextAfter: '(): string {\n    return `square' }));
      assert.deepEqual(
        [readSymbol(info.data).name, readSymbol(info.data).kind, info.data.containers, info.data.signature, info.data.memberCount],
        ['describe', 'Method', ['Square'], 'override describe(): string', 0],
      );
      const { doc, position } = await offsetOf('src/shapes.ts', 'describe(): string {\n    return `square', 'override ');
      const raw = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position)) ?? [];
      const rawTexts = rawHoverTexts(raw);
      assert.ok(rawTexts.length > 0);
      for (const t of rawTexts) {
        assert.ok(
          info.data.hover.some((h) => h.includes(t)),
          `hover carries ${t}`,
        );
      }
      assert.ok(
        info.data.hover.some((h) => h.includes('Square.describe(): string')),
        info.data.hover.join('\n'),
      );
      remember(info.data);
    });

    it('lists the members executeDocumentSymbolProvider gives as children, with signatures', async function () {
      const members = await call<{ symbol: SymbolOutput; members: Coll<SymbolOutput & { signature: string }> }>(
        'get-symbol-members',
        sym('src/shapes.ts', 'Square', { contextBefore: 'class ' }),
      );
      const tree = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri('src/shapes.ts'))) ?? [];
      const square = tree.find((s) => s.name === 'Square');
      assert.ok(square);
      const rawChildren = [...square.children].sort((a, b) => a.range.start.compareTo(b.range.start)).map((c) => c.name);
      assert.deepEqual(
        members.data.members.items.map((m) => readSymbol(m).name),
        rawChildren,
      );
      assert.equal(members.data.members.totalCount, rawChildren.length);
      const byName = new Map(members.data.members.items.map((m) => [readSymbol(m).name, m.signature]));
      assert.equal(byName.get('area'), 'area(): number');
      assert.equal(byName.get('describe'), 'override describe(): string');
      remember(members.data.symbol, ...members.data.members.items);
      const info = await call<Info>('get-symbol-info', { symbol: { symbolId: members.data.symbol.symbolId } });
      assert.equal(info.data.memberCount, rawChildren.length);
    });
  });

  describe('get-api-surface', function () {
    it('lists the exported declarations and their non-private members', async function () {
      const api = await call<{ symbols: Coll<SymbolOutput & { signature: string; depth: number }> }>('get-api-surface', {
        document: { path: 'src/shapes.ts' },
        symbolsLimit: 1000,
      });
      const top = api.data.symbols.items.filter((s) => s.depth === 0).map((s) => readSymbol(s).name);
      assert.deepEqual(top, ['Shape', 'Named', 'Base', 'Circle', 'Square', 'UnitSquare', 'Box', 'largest', 'totalArea']);
      const boxMembers = api.data.symbols.items.filter((s) => readSymbol(s).containerName === 'Box').map((s) => readSymbol(s).name);
      assert.ok(boxMembers.includes('map') && boxMembers.includes('get'), boxMembers.join(', '));
      assert.ok(!boxMembers.includes('value'), 'the private parameter property is not API');
      assert.equal(
        api.data.symbols.items.find((s) => readSymbol(s).name === 'totalArea')?.signature,
        'export function totalArea(shapes: readonly Shape[]): number',
      );
      remember(...api.data.symbols.items);
      const merging = await call<{ symbols: Coll<SymbolOutput & { depth: number }> }>('get-api-surface', { document: { path: 'src/chain/a.ts' } });
      assert.deepEqual(
        merging.data.symbols.items.map((s) => readSymbol(s).name),
        ['chainA', 'shortcut'],
      );
    });
  });

  describe('go-to-definition and find-implementations', function () {
    it('follows a call to its definition in another file, as executeDefinitionProvider does', async function () {
      const def = await call<{ targets: Target[]; outsideWorkspace: number }>('go-to-definition', sel('src/chain/a.ts', 'chainB(1)'));
      assert.equal(def.data.targets.length, 1);
      const [t] = def.data.targets;
      assert.deepEqual(
        [
          t.symbol ? pathOfSymbol(t.symbol.symbolId) : '',
          (t.location ?? t.symbol)?.line,
          t.symbol && readSymbol(t.symbol).name,
          t.symbol && readSymbol(t.symbol).kind,
        ],
        ['src/chain/b.ts', 3, 'chainB', 'Function'],
      );
      const { doc, position } = await offsetOf('src/chain/a.ts', 'chainB(1)');
      const raw = await rawPlaces(await vscode.commands.executeCommand('vscode.executeDefinitionProvider', doc.uri, position));
      assert.deepEqual(def.data.targets.map(place).sort(), raw);
      remember(t.symbol);
    });

    it('answers typeDefinition targets as the raw provider does; declaration: UnsupportedLanguageFeature where no declaration provider answers', async function () {
      const { doc, position } = await offsetOf('src/merging.ts', 'defaults', 'export const ');
      const ours = await call<{ targets: Target[] }>('go-to-definition', { ...sel('src/merging.ts', 'defaults'), target: 'typeDefinition' });
      const raw = await rawPlaces(await vscode.commands.executeCommand('vscode.executeTypeDefinitionProvider', doc.uri, position));
      assert.deepEqual(ours.data.targets.map(place).sort(), raw);
      assert.deepEqual(
        ours.data.targets.map((t) => [t.symbol && readSymbol(t.symbol).name, (t.location ?? t.symbol)?.line]),
        [
          ['Settings', 2],
          ['Settings', 6],
        ],
      );
      assert.notEqual(ours.data.targets[0].symbol?.symbolId, ours.data.targets[1].symbol?.symbolId, 'merged declarations have distinct symbolIds');
      remember(...ours.data.targets.map((t) => t.symbol));
      const use = await offsetOf('src/overloads.ts', "format('a', 3)");
      const decl = await invoke('go-to-definition', { ...sel('src/overloads.ts', "format('a', 3)"), target: 'declaration' });
      const rawDecl = await rawPlaces(await vscode.commands.executeCommand('vscode.executeDeclarationProvider', use.doc.uri, use.position));
      if (rawDecl.length === 0) {
        // TypeScript's extension registers no declaration provider: not "no declaration".
        const refused = expectError(decl, 'UnsupportedLanguageFeature');
        assert.match(refused.error.message, /^No declaration provider for language "typescript"/);
      } else {
        assert.deepEqual(expectOk<{ targets: Target[] }>(decl).data.targets.map(place).sort(), rawDecl);
      }
    });

    it('finds implementations of an interface and an abstract method, as executeImplementationProvider does', async function () {
      for (const [selectedText, extra] of [
        ['Shape', { contextBefore: 'interface ' }],
        ['area', { contextBefore: 'abstract ' }],
      ] as const) {
        const ours = await call<{ symbol: SymbolOutput; implementations: Coll<Target> }>('find-implementations', {
          ...sym('src/shapes.ts', selectedText, extra),
          implementationsLimit: 1000,
        });
        const { doc, position } = await offsetOf('src/shapes.ts', selectedText, extra.contextBefore);
        const own = `src/shapes.ts@${doc.offsetAt(position)}`;
        const raw = (await rawPlaces(await vscode.commands.executeCommand('vscode.executeImplementationProvider', doc.uri, position))).filter((p) => p !== own);
        assert.deepEqual(ours.data.implementations.items.map(place).sort(), raw, selectedText);
        assert.equal(ours.data.implementations.totalCount, raw.length);
        remember(ours.data.symbol, ...ours.data.implementations.items.map((t) => t.symbol));
      }
      const area = await call<{ implementations: Coll<Target> }>('find-implementations', sym('src/shapes.ts', 'area', { contextBefore: 'abstract ' }));
      assert.deepEqual(
        area.data.implementations.items.map((t) => `${t.symbol && readSymbol(t.symbol).containerName}.${t.symbol && readSymbol(t.symbol).name}`),
        ['Circle.area', 'Square.area', 'UnitSquare.area'],
      );
    });
  });

  describe('find-references', function () {
    const cases: { label: string; file: string; text: string; before?: string; after?: string }[] = [
      { label: 'function chainC', file: 'src/chain/c.ts', text: 'chainC', before: 'function ' },
      { label: 'function chainD', file: 'src/chain/d.ts', text: 'chainD', before: 'function ' },
      { label: 'class Circle', file: 'src/shapes.ts', text: 'Circle', before: 'class ' },
      { label: 'interface Shape', file: 'src/shapes.ts', text: 'Shape', before: 'interface ' },
      { label: 'abstract method Base.area', file: 'src/shapes.ts', text: 'area', before: 'abstract ' },
      { label: 'overloaded function format', file: 'src/overloads.ts', text: 'format', before: 'export function ', after: '(value: number): string;' },
      { label: 'overloaded method Formatter.pad', file: 'src/overloads.ts', text: 'pad', after: '(value: number): string;' },
      { label: 'merged function+namespace greet', file: 'src/merging.ts', text: 'greet', before: 'function ' },
      { label: 'merged interface Settings', file: 'src/merging.ts', text: 'Settings', before: 'interface ', after: ' {\n  theme' },
      { label: 'class Point', file: 'src/merging.ts', text: 'Point', before: 'class ' },
      { label: 'property radius', file: 'src/shapes.ts', text: 'radius', before: 'readonly ' },
    ];

    async function raw(c: (typeof cases)[number]): Promise<Place[]> {
      const doc = await vscode.workspace.openTextDocument(uri(c.file));
      const text = doc.getText();
      const at = text.indexOf(`${c.before ?? ''}${c.text}${c.after ?? ''}`) + (c.before ?? '').length;
      return rawPlaces(await vscode.commands.executeCommand('vscode.executeReferenceProvider', doc.uri, doc.positionAt(at)));
    }

    const input = (c: (typeof cases)[number], extra: Record<string, unknown> = {}) => ({
      ...sym(c.file, c.text, { ...(c.before ? { contextBefore: c.before } : {}), ...(c.after ? { contextAfter: c.after } : {}) }),
      referencesLimit: 1000,
      ...extra,
    });

    for (const c of cases) {
      it(`finds the same references as executeReferenceProvider: ${c.label}`, async function () {
        const ours = await call<ReferencesData>('find-references', input(c));
        const expected = await raw(c);
        assert.ok(expected.length > 1, `${c.label} has references`);
        assert.equal(ours.data.complete, true);
        assert.deepEqual(refPlaces(ours.data), expected);
        assert.equal(ours.data.totalReferences, expected.length);
        assert.equal(ours.data.documents.hasMore, false);
        assert.equal(ours.data.documents.totalCount, new Set(expected.map((p) => p.split('@')[0])).size);
        assert.ok(ours.data.documents.items.every((d) => d.folderId === undefined) && ours.data.symbol.symbolId.startsWith(`${ours.data.folderId}:`));
        const decls = refRows(ours.data)
          .filter((r) => r[6])
          .map((r) => `${r[0]}@${r[2]}`);
        assert.ok(decls.includes(`${pathOfSymbol(ours.data.symbol.symbolId)}@${readListed(ours.data.symbol).offset}`), 'the declaration is marked decl');
        remember(ours.data.symbol);
      });
    }

    it('gives exact lines, columns, line text and containers for chainC', async function () {
      const ours = await call<ReferencesData>('find-references', input(cases[0]));
      const flat = refRows(ours.data).map((r) => [r[0], r[1], r[2], r[3], r[4], r[6]]);
      assert.deepEqual(flat, [
        ['src/chain/a.ts', 2, await startOf('src/chain/a.ts', "chainC } from './c'"), undefined, '', false],
        ['src/chain/a.ts', 9, await startOf('src/chain/a.ts', 'chainC(2)'), 'return chainC(2);', 'shortcut', false],
        ['src/chain/b.ts', 1, await startOf('src/chain/b.ts', "chainC } from './c'"), undefined, '', false],
        ['src/chain/b.ts', 4, await startOf('src/chain/b.ts', 'chainC(n) * 2'), 'return chainC(n) * 2;', 'chainB', false],
        ['src/chain/c.ts', 3, await startOf('src/chain/c.ts', 'chainC(n: number)'), 'export function chainC(n: number): number {', '', true],
      ]);
      const doc = ours.data.documents.items[0];
      const documentId = `${ours.data.folderId}:${doc.path}`;
      const back = await call<CodeContextData>('get-code-context', {
        location: { span: { document: { documentId }, range: { start: lineReferences(decodeLines(doc)[1])[0], length: 6 } } },
        contextLines: 0,
      });
      assert.equal(back.data.window.text.trim(), 'return chainC(2);', 'folderId:path + an offset make a span selector');
    });

    it('leaves the declaration out on request and honours referencesLimit with hasMore', async function () {
      const all = await raw(cases[0]);
      const without = await call<ReferencesData>('find-references', input(cases[0], { includeDeclaration: false }));
      assert.equal(refCount(without.data), all.length - 1);
      assert.ok(without.data.documents.items.every((d) => decodeLines(d).every((l) => l.decl === undefined)));
      const two = await call<ReferencesData>('find-references', input(cases[0], { referencesLimit: 2 }));
      assert.equal(refCount(two.data), 2);
      assert.equal(two.data.documents.hasMore, true);
      assert.equal(two.data.totalReferences, all.length);
    });

    it('marks write access from document highlights', async function () {
      const doc = await vscode.workspace.openTextDocument(uri('src/overloads.ts'));
      await insertAtTop('src/overloads.ts', 'let counter = 0;\ncounter = counter + 1;\n');
      const ours = await call<ReferencesData>('find-references', sym('src/overloads.ts', 'counter', { contextBefore: 'let ' }));
      // The declaration is listed as decl (TypeScript also counts it a write), the assignment as a write, the read as at.
      assert.deepEqual(
        refRows(ours.data).map((r) => [r[1], r[2], r[5], r[6]]),
        [
          [1, 4, false, true],
          [2, 17, true, false],
          [2, 27, false, false],
        ],
      );
      assert.deepEqual(
        ours.data.documents.items.flatMap((d) => decodeLines(d).map((l) => [l.at, l.write, l.decl])),
        [
          [undefined, undefined, [4]],
          [[27], [17], undefined],
        ],
        'each reference listed once, under its access',
      );
      assert.deepEqual(
        ours.data.documents.items[0].lines,
        [
          [1, [], 'let counter = 0;', null, { decl: [4] }],
          [2, [27], 'counter = counter + 1;', null, { write: [17] }],
        ],
        'as the answer gives them: a row a line, [line, at, text, in, {other accesses}]',
      );
      assert.deepEqual(
        ours.data.documents.items.flatMap((d) => decodeLines(d).map((l) => [l.line, l.text, lineReferences(l).length])),
        [
          [1, 'let counter = 0;', 1],
          [2, 'counter = counter + 1;', 2],
        ],
        'a line is quoted once for its references',
      );
      assert.ok(doc.isDirty, 'answered from the unsaved buffer');
    });
  });

  describe('errors and continuations', function () {
    it('answers LocationAmbiguous for a selection that occurs several times, with candidates', async function () {
      const failure = expectError(await invoke('get-symbol-info', sym('src/shapes.ts', 'area')), 'LocationAmbiguous');
      assert.equal(failure.continuation?.kind, 'ReviseRequest');
      assert.match(failure.error.message, /occurs \d+ times/);
    });

    it('answers LocationNotFound for a selection that is not in the file', async function () {
      const failure = expectError(await invoke('find-references', sym('src/shapes.ts', 'circumference')), 'LocationNotFound');
      // Through vscode.lm the continuation names the tool as this door registers it.
      assert.deepEqual([failure.continuation?.kind, (failure.continuation as { tool?: string } | undefined)?.tool], ['CallTool', 'workbench_get_code_context']);
      assert.match(failure.error.message, /does not occur in src\/shapes\.ts/);
    });

    it('answers SymbolNotFound with the nearest symbols for a location outside every symbol', async function () {
      const failure = expectError(await invoke('resolve-symbol', sym('src/shapes.ts', 'an interface, an abstract base')), 'SymbolNotFound');
      assert.equal(failure.continuation?.kind, 'ReviseRequest');
      assert.match(failure.error.message, /Interface Shape \(line 2\)/);
    });

    it('answers SymbolNotFound naming the symbols that are there for a stale symbolId', async function () {
      const circle = await call<Resolved>('resolve-symbol', sym('src/shapes.ts', 'Circle', { contextBefore: 'class ' }));
      const failure = expectError(await invoke('find-references', { symbol: { symbolId: `${circle.data.symbolId}/Method:aera` } }), 'SymbolNotFound');
      assert.match(failure.error.message, /Method area/);
      assert.equal(failure.continuation?.kind, 'ReviseRequest');
      expectError(await invoke('get-symbol-members', { symbol: { symbolId: 'not a symbol id' } }), 'InvalidRequest');
    });

    it('answers SnapshotMismatch for a stale expectedSnapshot on the document it touches, not on others', async function () {
      const first = await call<Resolved>('resolve-symbol', sym('src/overloads.ts', 'Formatter', { contextBefore: 'class ' }));
      await insertAtTop('src/overloads.ts', '// changed\n');
      const stale = expectError(
        await invoke('get-symbol-members', { symbol: { symbolId: first.data.symbolId }, expectedSnapshot: first.snapshot }),
        'SnapshotMismatch',
      );
      assert.equal(stale.continuation?.kind, 'ReviseRequest');
      await call('get-symbol-members', sym('src/shapes.ts', 'Circle', { contextBefore: 'class ' }));
      const other = await invoke('get-symbol-info', { ...sym('src/shapes.ts', 'Circle', { contextBefore: 'class ' }), expectedSnapshot: first.snapshot });
      expectOk(other);
    });

    it('answers UnsupportedLanguageFeature with ResolveExternally for plaintext and for python (known, no provider)', async function () {
      for (const [file, language, name] of [
        ['docs/notes.txt', 'plaintext', 'NotCode'],
        ['tools/deploy.py', 'python', 'Deployer'],
      ]) {
        const outline = expectError(await invoke('get-document-outline', { document: { path: file } }), 'UnsupportedLanguageFeature');
        assert.equal(outline.continuation?.kind, 'ResolveExternally');
        assert.match(outline.error.message, new RegExp(`"${language}"`));
        for (const tool of ['resolve-symbol', 'find-references', 'find-implementations', 'get-symbol-info', 'get-symbol-members']) {
          const failure = expectError(await invoke(tool, sym(file, name)), 'UnsupportedLanguageFeature');
          assert.equal(failure.continuation?.kind, 'ResolveExternally', tool);
        }
        expectError(await invoke('get-api-surface', { document: { path: file } }), 'UnsupportedLanguageFeature');
      }
    });
  });

  describe('every symbolId answered above', function () {
    it('resolves back to the same symbol', async function () {
      assert.ok(seen.size > 50, `${seen.size} symbolIds`);
      for (const [symbolId, name] of seen) {
        const back = await call<Resolved>('resolve-symbol', { symbol: { symbolId } });
        assert.deepEqual([back.data.symbolId, readSymbol(back.data).name], [symbolId, name]);
      }
    });
  });

  describe("find-references beside VS Code's vscode_listCodeUsages", function () {
    it('finds at least as many of the true references, in fewer bytes per reference than vscode_listCodeUsages', async function () {
      this.timeout(300_000);
      const tool = vscode.lm.tools.find((t) => t.name === 'vscode_listCodeUsages');
      assert.ok(tool, 'VS Code offers vscode_listCodeUsages');
      const targets = [
        { name: 'chainC', file: 'src/chain/c.ts', line: 'export function chainC', before: 'function ' },
        { name: 'chainD', file: 'src/chain/d.ts', line: 'export function chainD', before: 'function ' },
        { name: 'Circle', file: 'src/shapes.ts', line: 'export class Circle extends Base', before: 'class ' },
        { name: 'Shape', file: 'src/shapes.ts', line: 'export interface Shape {', before: 'interface ' },
        { name: 'Square', file: 'src/shapes.ts', line: 'export class Square extends Base', before: 'class ' },
        { name: 'Box', file: 'src/shapes.ts', line: 'export class Box<T>', before: 'class ' },
        { name: 'format', file: 'src/overloads.ts', line: 'export function format(value: number): string;', before: 'function ' },
        { name: 'Formatter', file: 'src/overloads.ts', line: 'export class Formatter', before: 'class ' },
        { name: 'greet', file: 'src/merging.ts', line: 'export function greet', before: 'function ' },
        { name: 'Point', file: 'src/merging.ts', line: 'export class Point', before: 'class ' },
      ];
      let truth = 0;
      let oursFound = 0;
      let theirsFound = 0;
      let oursBytes = 0;
      let oursEmptyBytes = 0;
      let theirsBytes = 0;
      let oursRefs = 0;
      let grepBytes = 0;
      let grepLines = 0;
      const perSymbol: string[] = [];
      for (const t of targets) {
        const doc = await vscode.workspace.openTextDocument(uri(t.file));
        const lineAt = doc.getText().indexOf(t.line);
        assert.ok(lineAt >= 0, t.line);
        const at = lineAt + t.line.indexOf(t.before + t.name) + t.before.length;
        const rawRefs = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', doc.uri, doc.positionAt(at))) ?? [];
        const truthLines = new Set(rawRefs.map((l) => `${rel(l.uri)}:${l.range.start.line + 1}`));
        const selector = { symbol: { location: { span: { document: { path: t.file }, range: { start: at, length: t.name.length } } } }, referencesLimit: 1000 };
        const oursText = await lmText(registeredToolName('find-references'), selector);
        const ours = JSON.parse(oursText) as { ok: boolean; data: ReferencesData };
        assert.ok(ours.ok, oursText.slice(0, 500));
        const emptyText = await lmText(registeredToolName('find-references'), { ...selector, referencesLimit: 0 });
        const oursLines = new Set(refRows(ours.data).map((r) => `${r[0]}:${r[1]}`));
        const theirsText = await lmText('vscode_listCodeUsages', { symbol: t.name, filePath: t.file, lineContent: t.line });
        const theirsLines = new Set<string>();
        for (const m of theirsText.matchAll(/<usage type="(\w+)" uri="([^"]+)" line="(\d+)"/g)) {
          const file = decodeURIComponent(m[2].replace(/^[a-z-]+:\/\/[^/]*/, ''));
          theirsLines.add(`${path.relative(root(), file).split(path.sep).join('/')}:${m[3]}`);
        }
        const hits = (lines: Set<string>) => [...truthLines].filter((l) => lines.has(l)).length;
        truth += truthLines.size;
        oursFound += hits(oursLines);
        theirsFound += hits(theirsLines);
        assert.ok(
          hits(oursLines) >= hits(theirsLines),
          `${t.name}: ours ${hits(oursLines)} of ${truthLines.size}, vscode_listCodeUsages ${hits(theirsLines)}\n${theirsText.slice(0, 1500)}`,
        );
        oursBytes += Buffer.byteLength(oursText);
        oursEmptyBytes += Buffer.byteLength(emptyText);
        theirsBytes += Buffer.byteLength(theirsText);
        oursRefs += refCount(ours.data);
        // What an agent would run instead: grep -rnw prints one line per matching line (comments, strings and namesakes included).
        const grep = execFileSync('grep', ['-rnw', t.name, '.'], { cwd: root(), encoding: 'utf8' });
        const lines = grep.split('\n').filter((l) => l.length > 0).length;
        grepBytes += Buffer.byteLength(grep);
        grepLines += lines;
        perSymbol.push(`${t.name} ${(Buffer.byteLength(oursText) / refCount(ours.data)).toFixed(1)}/${(Buffer.byteLength(grep) / lines).toFixed(1)}`);
      }
      const perRef = (oursBytes - oursEmptyBytes) / oursRefs;
      console.log(
        `      [nav3] recall over ${targets.length} symbols (${truth} reference lines from executeReferenceProvider): find-references ${oursFound}/${truth}, vscode_listCodeUsages ${theirsFound}/${truth}`,
      );
      console.log(
        `      [nav3] bytes: find-references ${oursBytes} B for ${oursRefs} references = ${(oursBytes / oursRefs).toFixed(1)} B/ref including the envelope, ${perRef.toFixed(1)} B/ref marginal (answer minus the referencesLimit 0 answer); vscode_listCodeUsages ${theirsBytes} B = ${(theirsBytes / Math.max(1, theirsFound)).toFixed(1)} B per reference line found`,
      );
      const theirsPerRef = theirsBytes / Math.max(1, theirsFound);
      const oursWhole = oursBytes / oursRefs;
      const grepPerLine = grepBytes / grepLines;
      console.log(
        `      [refs] whole answer ${oursWhole.toFixed(1)} B per reference (${oursBytes} B / ${oursRefs}) vs grep -rnw ${grepPerLine.toFixed(1)} B per matching line (${grepBytes} B / ${grepLines}); per symbol ours/grep: ${perSymbol.join(', ')}`,
      );
      assert.ok(oursFound >= theirsFound);
      assert.equal(oursFound, truth, 'find-references finds every reference line the raw provider finds');
      // This fixture has about one reference per file and three per symbol, the worst case for the per-document part and the fixed
      // part (symbol, snapshot) of the answer: the comparison with grep -rnw is asserted on the generated workspace (coldstart suite).
      assert.ok(perRef < theirsPerRef, `${perRef.toFixed(1)} bytes per reference, vscode_listCodeUsages ${theirsPerRef.toFixed(1)}`);
    });
  });
});

async function lmText(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}
