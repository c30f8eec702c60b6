import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { pathOfSymbol } from '../../src/core/symbols/symbols';
import type { AttributesData } from '../../src/tools/attributes';
import type { DiagnosticsData } from '../../src/tools/diagnostics';
import {
  activateExtension,
  callsOf,
  derivedOf,
  expectError,
  expectOk as expectOkEnvelope,
  invoke,
  waitForSymbols,
  withSymbolsRead,
  workspaceRoot,
} from './helpers';
import type { Envelope } from '../../src/core/chain/envelope';
import type { SiteRow } from '../../src/tools/shared/callSites';

/** Every listed symbol is compact (symbolId, line, column); its name, kind, container and offset are read from it (withSymbolsRead). */
const expectOk = <T>(envelope: Envelope) => withSymbolsRead(expectOkEnvelope<T>(envelope));
const expectCalls = <T>(envelope: Envelope) => withSymbolsRead(callsOf<T>(envelope));
const expectDerived = <T>(envelope: Envelope) => withSymbolsRead(derivedOf<T>(envelope));

interface Sym {
  symbolId: string;
  name: string;
  kind: string;
  containerName?: string;
  /** Read from the compact answer by withSymbolsRead: the symbolId names the document, span.start is the name's offset. */
  location: { line: number; column: number; span: { start: number } };
}
interface Coll<T> {
  items: T[];
  hasMore: boolean;
  totalCount: number;
}

const at = (file: string, selectedText: string, contextAfter?: string) => ({
  symbol: { location: { selection: { document: { path: file }, selectedText, ...(contextAfter ? { contextAfter } : {}) } } },
});
const names = (items: { name: string; containerName?: string }[]) => items.map((s) => (s.containerName ? `${s.containerName}.${s.name}` : s.name));
const uri = (file: string) => vscode.Uri.file(path.join(workspaceRoot(), file));

async function position(file: string, text: string): Promise<vscode.Position> {
  const doc = await vscode.workspace.openTextDocument(uri(file));
  const offset = doc.getText().indexOf(text);
  assert.ok(offset >= 0, `${text} in ${file}`);
  return doc.positionAt(offset);
}

/** A raw location command's answer at a text, as sorted "path:line" (1-based) strings. */
async function rawLines(command: string, file: string, text: string): Promise<string[]> {
  const raw = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(command, uri(file), await position(file, text));
  return raw
    .map((l) => ('targetUri' in l ? { u: l.targetUri, r: l.targetSelectionRange ?? l.targetRange } : { u: l.uri, r: l.range }))
    .map(({ u, r }) => `${path.relative(workspaceRoot(), u.fsPath).split(path.sep).join('/')}:${r.start.line + 1}`)
    .sort();
}

const lines = (items: Sym[]) => items.map((s) => `${pathOfSymbol(s.symbolId)}:${s.location.line}`).sort();

describe('navigation 2: attributes, calls, type hierarchy, diagnostics', function () {
  before(async function () {
    await activateExtension();
    await waitForSymbols('src/decorators.ts');
    await waitForSymbols('src/shapes.ts');
    await waitForSymbols('src/chain/c.ts');
  });

  describe('get-symbol-attributes', function () {
    it('reads a legacy decorator with an options object and resolves its declaration', async function () {
      const answer = expectOk<AttributesData>(
        await invoke('get-symbol-attributes', {
          symbol: {
            location: { selection: { document: { path: 'src/decorators.ts' }, selectedText: 'WidgetComponent', contextBefore: 'class ', contextAfter: ' {' } },
          },
        }),
      );
      assert.equal(answer.data.symbol.displayName, 'WidgetComponent');
      assert.equal(answer.data.symbol.kind, 'Class');
      assert.deepEqual(answer.data.symbol.location.snapshot, answer.snapshot, "roslyn-workbench-mcp's location shape carries its snapshot");
      const [component] = answer.data.attributes.items;
      assert.equal(answer.data.attributes.totalCount, 1);
      assert.equal(component.name, 'Component');
      assert.equal(component.inherited, false);
      assert.equal(component.line, 31);
      assert.deepEqual(component.constructorArguments, []);
      assert.deepEqual(component.namedArguments, [
        { name: 'selector', type: 'string', value: "'app-widget'" },
        { name: 'standalone', type: 'boolean', value: 'true' },
      ]);
      assert.equal(component.type?.displayName, 'Component');
      assert.equal(component.type?.kind, 'Function');
      assert.match(component.type?.documentationCommentId ?? '', /src\/decorators\.ts#Function:Component$/);
    });

    it('adds the attributes of base classes and overridden members with includeInherited', async function () {
      const cls = expectOk<AttributesData>(
        await invoke('get-symbol-attributes', { ...at('src/decorators.ts', 'SpecialWidget', ' extends'), includeInherited: true }),
      );
      assert.deepEqual(
        cls.data.attributes.items.map((a) => [a.name, a.inherited, a.line, a.namedArguments.map((n) => n.name).join(',')]),
        [
          ['Component', false, 43, 'selector,template'],
          ['Component', true, 31, 'selector,standalone'],
        ],
      );
      assert.equal(cls.data.attributes.items[0].namedArguments[1].value, '\'<p>(special), "quoted"</p>\'');
      const method = expectOk<AttributesData>(
        await invoke('get-symbol-attributes', { ...at('src/decorators.ts', 'render', '(): string {\n    return `special'), includeInherited: true }),
      );
      assert.deepEqual(
        method.data.attributes.items.map((a) => [a.name, a.inherited, a.constructorArguments.map((c) => c.value).join(',')]),
        [
          ['Log', false, "'info',1"],
          ['Log', true, "'debug',2"],
        ],
      );
      const own = expectOk<AttributesData>(await invoke('get-symbol-attributes', at('src/decorators.ts', 'render', '(): string {\n    return `special')));
      assert.equal(own.data.attributes.totalCount, 1);
    });

    it('reads standard (TC39) decorators and bounds the list', async function () {
      await waitForSymbols('standard/ledger.ts');
      const record = expectOk<AttributesData>(await invoke('get-symbol-attributes', at('standard/ledger.ts', 'record')));
      assert.deepEqual(
        record.data.attributes.items.map((a) => [a.name, a.constructorArguments.map((c) => c.value), a.namedArguments.map((n) => `${n.name}=${n.value}`)]),
        [['tracked', ["'audit'"], ['level=2', "tags=['money', 'a,b']"]]],
      );
      const limited = expectOk<AttributesData>(
        await invoke('get-symbol-attributes', { ...at('src/decorators.ts', 'SpecialWidget', ' extends'), includeInherited: true, attributesLimit: 1 }),
      );
      assert.deepEqual([limited.data.attributes.items.length, limited.data.attributes.hasMore, limited.data.attributes.totalCount], [1, true, 2]);
    });

    it('answers UnsupportedLanguageFeature for plain text and for a language without a symbol provider', async function () {
      const txt = expectError(await invoke('get-symbol-attributes', at('docs/notes.txt', 'NotCode')), 'UnsupportedLanguageFeature');
      assert.equal(txt.continuation?.kind, 'ResolveExternally');
      expectError(await invoke('get-symbol-attributes', at('tools/deploy.py', 'deploy', '(target')), 'UnsupportedLanguageFeature');
    });
  });

  describe('find-callers and find-callees', function () {
    it('finds the callers of chainC across files, in the same answer as the raw incoming calls', async function () {
      const answer = expectCalls<{ symbol: Sym; calls: Coll<{ symbol: Sym; callSites: SiteRow[] }> }>(
        await invoke('find-callers', at('src/chain/c.ts', 'chainC')),
      );
      assert.deepEqual(
        answer.data.calls.items.map((c) => [c.symbol.name, pathOfSymbol(c.symbol.symbolId), c.callSites.map((s) => s[0])]),
        [
          ['shortcut', 'src/chain/a.ts', [9]],
          ['chainB', 'src/chain/b.ts', [4]],
        ],
      );
      const [item] = await vscode.commands.executeCommand<vscode.CallHierarchyItem[]>(
        'vscode.prepareCallHierarchy',
        uri('src/chain/c.ts'),
        await position('src/chain/c.ts', 'chainC('),
      );
      const raw = await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', item);
      assert.equal(answer.data.calls.totalCount, raw.length, 'parity with vscode.provideIncomingCalls');
      assert.deepEqual(raw.map((c) => c.from.name).sort(), answer.data.calls.items.map((c) => c.symbol.name).sort());
    });

    it('finds the callees of chainC: chainD twice', async function () {
      const answer = expectCalls<{ calls: Coll<{ symbol: Sym; callSites: SiteRow[] }> }>(await invoke('find-callees', at('src/chain/c.ts', 'chainC')));
      assert.deepEqual(
        answer.data.calls.items.map((c) => [c.symbol.name, pathOfSymbol(c.symbol.symbolId), c.callSites.map((s) => `${s[0]}:${s[1]}`)]),
        [['chainD', 'src/chain/d.ts', ['4:10', '4:22']]],
      );
      const [item] = await vscode.commands.executeCommand<vscode.CallHierarchyItem[]>(
        'vscode.prepareCallHierarchy',
        uri('src/chain/c.ts'),
        await position('src/chain/c.ts', 'chainC('),
      );
      const raw = await vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[]>('vscode.provideOutgoingCalls', item);
      assert.deepEqual(
        raw.map((c) => [c.to.name, c.fromRanges.map((r) => `${r.start.line + 1}:${r.start.character + 1}`).sort()]),
        answer.data.calls.items.map((c) => [c.symbol.name, c.callSites.map((s) => `${s[0]}:${s[1]}`)]),
        'parity with vscode.provideOutgoingCalls',
      );
    });

    it('follows the chain a -> b -> c -> d one call at a time', async function () {
      let symbolId = expectCalls<{ symbol: Sym }>(await invoke('find-callees', at('src/chain/a.ts', 'chainA'))).data.symbol.symbolId;
      const chain = ['chainA'];
      for (let i = 0; i < 3; i++) {
        const next = expectCalls<{ calls: Coll<{ symbol: Sym }> }>(await invoke('find-callees', { symbol: { symbolId } }));
        const callee = next.data.calls.items.find((c) => c.symbol.name.startsWith('chain'));
        assert.ok(callee, `a callee after ${chain.join(' -> ')}`);
        chain.push(callee.symbol.name);
        symbolId = callee.symbol.symbolId;
      }
      assert.deepEqual(chain, ['chainA', 'chainB', 'chainC', 'chainD']);
    });
  });

  describe('type hierarchy', function () {
    it('gives supertypes and subtypes of Square, and all derived types of Base with depths', async function () {
      // TypeScript has no type hierarchy provider: the raw command prepares nothing, so the answer comes from declarations.
      assert.deepEqual(
        await vscode.commands.executeCommand<vscode.TypeHierarchyItem[]>(
          'vscode.prepareTypeHierarchy',
          uri('src/shapes.ts'),
          await position('src/shapes.ts', 'Square extends'),
        ),
        [],
      );
      const square = expectOk<{ symbol: Sym; supertypes: Coll<Sym>; subtypes: Coll<Sym>; source: string }>(
        await invoke('get-type-hierarchy', {
          symbol: { location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'Square', contextBefore: 'class ' } } },
        }),
      );
      assert.equal(square.data.source, 'declarations');
      assert.deepEqual(names(square.data.supertypes.items), ['Named', 'Base'], 'by position: Named is declared first');
      assert.deepEqual(
        square.data.supertypes.items.map((s) => [s.kind, s.location.line]),
        [
          ['Interface', 7],
          ['Class', 11],
        ],
      );
      assert.deepEqual(
        lines(square.data.supertypes.items),
        [
          ...(await rawLines('vscode.executeDefinitionProvider', 'src/shapes.ts', 'Base implements Named')),
          ...(await rawLines('vscode.executeDefinitionProvider', 'src/shapes.ts', 'Named {\n  constructor(readonly side')),
        ].sort(),
        'each base is where the definition provider puts it',
      );
      assert.deepEqual(names(square.data.subtypes.items), ['UnitSquare']);
      assert.deepEqual([square.data.subtypes.items[0].location.line, square.data.subtypes.hasMore, square.data.subtypes.totalCount], [45, false, 1]);
      const derived = expectDerived<{ derivedTypes: Coll<Sym & { depth: number }> }>(
        await invoke('find-derived-types', {
          symbol: { location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'Base', contextBefore: 'abstract class ' } } },
        }),
      );
      assert.deepEqual(
        derived.data.derivedTypes.items.map((t) => `${t.name}@${t.depth}`),
        ['Circle@1', 'Square@1', 'UnitSquare@2'],
      );
      const baseImplementations = (await rawLines('vscode.executeImplementationProvider', 'src/shapes.ts', 'Base implements Shape')).filter(
        (l) => l !== 'src/shapes.ts:11',
      );
      assert.deepEqual(lines(derived.data.derivedTypes.items), baseImplementations, 'parity with the implementation provider (which also lists Base itself)');
      const shape = expectDerived<{ derivedTypes: Coll<Sym & { depth: number }> }>(
        await invoke('find-derived-types', {
          symbol: { location: { selection: { document: { path: 'src/shapes.ts' }, selectedText: 'Shape', contextBefore: 'interface ' } } },
        }),
      );
      assert.deepEqual(
        shape.data.derivedTypes.items.map((t) => `${t.name}@${t.depth}`),
        ['Base@1', 'Circle@2', 'Square@2', 'UnitSquare@3'],
      );
      assert.deepEqual(
        lines(shape.data.derivedTypes.items),
        await rawLines('vscode.executeImplementationProvider', 'src/shapes.ts', 'Shape {'),
        'parity with the implementation provider',
      );
      const unit = expectOk<{ supertypes: Coll<Sym>; subtypes: Coll<Sym> }>(await invoke('get-type-hierarchy', at('src/shapes.ts', 'UnitSquare')));
      assert.deepEqual([names(unit.data.supertypes.items), unit.data.subtypes.totalCount], [['Square'], 0]);
    });

    it('finds the overrides of Base.area, Square.area and Base.describe, as the implementation provider does', async function () {
      const base = expectOk<{ overrides: Coll<Sym> }>(await invoke('find-overrides', at('src/shapes.ts', 'area', '(): number;\n\n  describe')));
      assert.deepEqual(names(base.data.overrides.items), ['Circle.area', 'Square.area', 'UnitSquare.area']);
      assert.deepEqual(
        base.data.overrides.items.map((o) => o.location.line),
        [26, 36, 50],
      );
      assert.deepEqual(
        lines(base.data.overrides.items),
        await rawLines('vscode.executeImplementationProvider', 'src/shapes.ts', 'area(): number;\n\n  describe'),
        'parity with the implementation provider',
      );
      const square = expectOk<{ overrides: Coll<Sym> }>(await invoke('find-overrides', at('src/shapes.ts', 'area', '(): number {\n    return this.side')));
      assert.deepEqual(names(square.data.overrides.items), ['UnitSquare.area']);
      const describe = expectOk<{ overrides: Coll<Sym> }>(
        await invoke('find-overrides', at('src/shapes.ts', 'describe', '(): string {\n    return `${this.name}')),
      );
      assert.deepEqual(names(describe.data.overrides.items), ['Square.describe']);
      const rawDescribe = await rawLines('vscode.executeImplementationProvider', 'src/shapes.ts', 'describe(): string {\n    return `${this.name}');
      assert.deepEqual(
        lines(describe.data.overrides.items),
        rawDescribe.filter((l) => l !== 'src/shapes.ts:16'),
        'the implementation provider lists Base.describe itself too',
      );
      const limited = expectOk<{ overrides: Coll<Sym> }>(
        await invoke('find-overrides', { ...at('src/shapes.ts', 'area', '(): number;\n\n  describe'), overridesLimit: 2 }),
      );
      assert.deepEqual([limited.data.overrides.items.length, limited.data.overrides.hasMore, limited.data.overrides.totalCount], [2, true, 3]);
    });

    it('finds the partial declarations of merged interfaces, as the definition provider does', async function () {
      await waitForSymbols('src/merging.ts');
      const settings = expectOk<{ declarations: Coll<Sym> }>(await invoke('get-partial-declarations', at('src/merging.ts', 'Settings', ' {\n  theme')));
      assert.deepEqual(
        settings.data.declarations.items.map((d) => d.location.line),
        [2, 6],
      );
      const raw = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        uri('src/merging.ts'),
        await position('src/merging.ts', 'Settings {\n  theme'),
      );
      assert.equal(settings.data.declarations.totalCount, raw.length, 'parity with the definition provider');
    });

    it('finds every overload signature and the implementation, each with its own symbolId', async function () {
      await waitForSymbols('src/overloads.ts');
      // TypeScript's document symbols list each overload signature and the implementation separately.
      const raw = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri('src/overloads.ts'));
      assert.deepEqual(
        raw.filter((s) => s.name === 'format').map((s) => s.selectionRange.start.line + 1),
        [2, 3, 4],
      );
      const format = expectOk<{ symbol: Sym; overloads: Coll<Sym & { signature: string }> }>(
        await invoke('find-overloads', at('src/overloads.ts', 'format', '(value: string')),
      );
      assert.match(format.data.symbol.symbolId, /#Function:format~1$/);
      assert.deepEqual(
        format.data.overloads.items.map((o) => [o.symbolId.slice(o.symbolId.lastIndexOf('#') + 1), `${o.location.line}:${o.location.column}`, o.signature]),
        [
          ['Function:format', '2:17', 'export function format(value: number): string;'],
          ['Function:format~1', '3:17', 'export function format(value: string, width: number): string;'],
          ['Function:format~2', '4:17', 'export function format(value: number | string, width = 0): string'],
        ],
      );
      assert.deepEqual([format.data.overloads.hasMore, format.data.overloads.totalCount], [false, 3]);
      const pad = expectOk<{ overloads: Coll<Sym & { signature: string }> }>(await invoke('find-overloads', at('src/overloads.ts', 'pad', '(value: number)')));
      assert.deepEqual(
        pad.data.overloads.items.map((o) => [o.symbolId.slice(o.symbolId.lastIndexOf('#') + 1), `${o.location.line}:${o.location.column}`, o.signature]),
        [
          ['Class:Formatter/Method:pad', '9:3', 'pad(value: number): string;'],
          ['Class:Formatter/Method:pad~1', '10:3', 'pad(value: string, fill: string): string;'],
          ['Class:Formatter/Method:pad~2', '11:3', "pad(value: number | string, fill = ' '): string"],
        ],
      );
      for (const o of pad.data.overloads.items) {
        const again = expectOk<Sym>(await invoke('resolve-symbol', { symbol: { symbolId: o.symbolId } }));
        assert.equal(again.data.location.line, o.location.line, 'each overload symbolId resolves to its own declaration');
      }
      const limited = expectOk<{ overloads: Coll<Sym> }>(
        await invoke('find-overloads', { symbol: { symbolId: pad.data.overloads.items[2].symbolId }, overloadsLimit: 1 }),
      );
      assert.deepEqual([limited.data.overloads.items.length, limited.data.overloads.hasMore, limited.data.overloads.totalCount], [1, true, 3]);
      const trim = expectOk<{ overloads: Coll<Sym> }>(await invoke('find-overloads', at('src/overloads.ts', 'trim', '(value: string): string {')));
      assert.deepEqual(
        trim.data.overloads.items.map((o) => o.location.line),
        [15],
      );
    });
  });

  describe('get-diagnostics', function () {
    it('opens a named document, waits for its diagnostics and reports the two type errors', async function () {
      const answer = expectOk<DiagnosticsData>(
        await invoke('get-diagnostics', { documents: [{ path: 'src/broken.ts' }, { path: 'src/shapes.ts' }, { path: 'docs/notes.txt' }], waitSeconds: 10 }),
      );
      const broken = answer.data.documents.items.find((d) => d.path === 'src/broken.ts');
      assert.ok(broken);
      assert.deepEqual(
        broken.diagnostics.items.map((d) => [d.severity, d.code, d.line, d.column]),
        [
          ['Error', '2322', 2, 14],
          ['Error', '2304', 5, 3],
        ],
      );
      assert.deepEqual(answer.data.checked, ['src/broken.ts', 'src/shapes.ts']);
      assert.deepEqual(
        answer.data.notChecked.map((n) => n.path),
        ['docs/notes.txt'],
      );
      assert.equal(answer.data.counts.Error, 2);
      const raw = vscode.languages.getDiagnostics(uri('src/broken.ts')).filter((d) => d.severity <= vscode.DiagnosticSeverity.Information);
      assert.equal(broken.diagnostics.totalCount, raw.length, 'parity with vscode.languages.getDiagnostics');
    });

    it('filters by severity and bounds the list', async function () {
      const limited = expectOk<DiagnosticsData>(await invoke('get-diagnostics', { documents: [{ path: 'src/broken.ts' }], diagnosticsLimit: 1 }));
      assert.equal(limited.data.documents.items[0].diagnostics.items.length, 1);
      assert.equal(limited.data.documents.hasMore, true);
      const workspace = expectOk<DiagnosticsData>(await invoke('get-diagnostics', { minimumSeverity: 'Error' }));
      assert.equal(workspace.data.scope, 'workspace');
      assert.ok(workspace.data.documents.items.some((d) => d.path === 'src/broken.ts'));
    });
  });
});
