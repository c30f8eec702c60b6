import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope, SuccessEnvelope } from '../../src/core/chain/envelope';
import { pathOfSymbol } from '../../src/core/symbols/symbols';
import type { AttributesData } from '../../src/tools/attributes';
import type { DiagnosticsData } from '../../src/tools/diagnostics';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines, lineReferences, readLines } from '../../src/tools/references';
import {
  activateExtension,
  callsOf,
  derivedOf,
  expectError,
  expectOk as expectOkEnvelope,
  invoke,
  outlineLocals,
  outlineOf,
  searchOf,
  rawHoverTexts,
  waitForSymbols,
  withSymbolsRead,
  workspaceRoot,
} from './helpers';
import type { SiteRow } from '../../src/tools/shared/callSites';

/*
 * The tools on Python, answered by a real Python language server: pyright, started by the test
 * extension test/extensions/python-lsp (scripts/test-extensions.mjs installs it for this suite), on
 * test/fixtures/python. Each answer is compared with the raw command in the same test; what
 * pyright does not provide must be refused as UnsupportedLanguageFeature, never answered as "none".
 */

/** Every listed symbol is compact; its name, kind, container and offset are read from it (withSymbolsRead). */
const expectOk = <T>(envelope: Envelope) => withSymbolsRead(expectOkEnvelope<T>(envelope));
const expectCalls = <T>(envelope: Envelope) => withSymbolsRead(callsOf<T>(envelope));
const expectDerived = <T>(envelope: Envelope) => withSymbolsRead(derivedOf<T>(envelope));
/** A search answer, its rows read as symbols and each symbol read as expectOk reads them. */
const searchRead = <T>(envelope: Envelope) =>
  withSymbolsRead({ ...(envelope as SuccessEnvelope<unknown>), data: searchOf(envelope) as unknown as { symbols: Coll<T> } });
/** An outline, its rows read as symbols and each symbol read as expectOk reads them. */
const outlineRead = <T>(envelope: Envelope) =>
  withSymbolsRead({ ...(envelope as SuccessEnvelope<unknown>), data: outlineOf(envelope) as unknown as { symbols: Coll<T> } });

interface Sym {
  symbolId: string;
  name: string;
  kind: string;
  containerName?: string;
  location: { line: number; column: number; span: { start: number } };
}
interface Coll<T> {
  items: T[];
  hasMore: boolean;
  totalCount: number;
}

const root = () => workspaceRoot();
const uri = (file: string) => vscode.Uri.file(path.join(root(), file));
const rel = (u: vscode.Uri) => path.relative(root(), u.fsPath).split(path.sep).join('/');
const onDisk = (file: string) => fs.readFileSync(path.join(root(), file), 'utf8');
const sel = (file: string, selectedText: string, extra: Record<string, unknown> = {}) => ({
  location: { selection: { document: { path: file }, selectedText, ...extra } },
});
const sym = (file: string, selectedText: string, extra: Record<string, unknown> = {}) => ({ symbol: sel(file, selectedText, extra) });
const names = (items: { name: string; containerName?: string }[]) => items.map((s) => (s.containerName ? `${s.containerName}.${s.name}` : s.name));
const places = (items: Sym[]) => items.map((s) => `${pathOfSymbol(s.symbolId)}:${s.location.line}`).sort();

/** The offset and position of `text` (after `before`) in a file; the text must be there once. */
async function at(file: string, text: string, before = ''): Promise<{ doc: vscode.TextDocument; offset: number; position: vscode.Position }> {
  const doc = await vscode.workspace.openTextDocument(uri(file));
  const found = doc.getText().indexOf(before + text);
  assert.ok(found >= 0, `${before}${text} in ${file}`);
  assert.equal(doc.getText().indexOf(before + text, found + 1), -1, `${before}${text} is unique in ${file}`);
  const offset = found + before.length;
  return { doc, offset, position: doc.positionAt(offset) };
}

/** A raw location command's answer as sorted "path:line" strings. */
async function rawLines(command: string, file: string, text: string, before = ''): Promise<string[]> {
  const { doc, position } = await at(file, text, before);
  const raw = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(command, doc.uri, position)) ?? [];
  return [
    ...new Set(
      raw
        .map((l) => ('targetUri' in l ? { u: l.targetUri, r: l.targetSelectionRange ?? l.targetRange } : { u: l.uri, r: l.range }))
        .map(({ u, r }) => `${rel(u)}:${r.start.line + 1}`),
    ),
  ].sort();
}

/** The raw references at a text, as sorted "path@offset". */
async function rawReferencePlaces(file: string, text: string, before = ''): Promise<string[]> {
  const { doc, position } = await at(file, text, before);
  const raw = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', doc.uri, position)) ?? [];
  const out: string[] = [];
  for (const l of raw) {
    const d = await vscode.workspace.openTextDocument(l.uri);
    out.push(`${rel(l.uri)}@${d.offsetAt(l.range.start)}`);
  }
  return [...new Set(out)].sort();
}

const referencePlaces = (d: ReferencesData): string[] =>
  d.documents.items.flatMap((doc) => decodeLines(doc).flatMap((l) => lineReferences(l).map((offset) => `${doc.path}@${offset}`))).sort();

/** The raw document symbol tree, depth first by range start. */
async function rawOutline(file: string): Promise<{ name: string; kind: string; depth: number; line: number }[]> {
  const symbols = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri(file))) ?? [];
  const out: { name: string; kind: string; depth: number; line: number }[] = [];
  const walk = (level: vscode.DocumentSymbol[], depth: number) => {
    for (const s of [...level].sort((a, b) => a.range.start.compareTo(b.range.start))) {
      out.push({ name: s.name, kind: vscode.SymbolKind[s.kind], depth, line: s.selectionRange.start.line + 1 });
      walk(s.children, depth + 1);
    }
  };
  walk(symbols, 0);
  return out;
}

async function commit(): Promise<void> {
  const config = vscode.workspace.getConfiguration('agentWorkbench');
  await config.update('operationalMode', 'autonomous-trusted', vscode.ConfigurationTarget.Global);
  try {
    expectOkEnvelope(await invoke('transaction-commit', {}));
  } finally {
    await config.update('operationalMode', undefined, vscode.ConfigurationTarget.Global);
  }
}

/** Waits until pyright's diagnostics for a file satisfy `ok` (it analyses open files after each change). */
async function diagnosticsWhen(file: string, ok: (d: readonly vscode.Diagnostic[]) => boolean, timeoutMs = 60_000): Promise<readonly vscode.Diagnostic[]> {
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri(file)), { preview: false });
  const started = Date.now();
  for (;;) {
    const d = vscode.languages.getDiagnostics(uri(file));
    if (ok(d)) return d;
    if (Date.now() - started > timeoutMs) throw new Error(`${file}: diagnostics never matched: ${JSON.stringify(d.map((x) => x.message))}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const FILES = [
  'shapes/registry.py',
  'shapes/base.py',
  'shapes/figures.py',
  'shapes/catalog.py',
  'shapes/overloads.py',
  'shapes/geometry.py',
  'shapes/masse.py',
];

describe('python: the tools on a real Python language server (pyright)', function () {
  this.timeout(180_000);

  before(async function () {
    await activateExtension();
  });

  it('cold start: a project-wide question asked before pyright is ready is complete, marked partial, or refused as starting', async function () {
    const first = await invoke('find-references', { ...sym('shapes/registry.py', 'lookup', { contextBefore: 'def ' }), referencesLimit: 1000 });
    await waitForSymbols('shapes/registry.py');
    const truth = await rawReferencePlaces('shapes/registry.py', 'lookup', 'def ');
    assert.ok(truth.length >= 3, `lookup is declared, imported and called: ${truth.join(', ')}`);
    if (!first.ok) {
      assert.equal(first.error.code, 'LanguageServiceStarting', JSON.stringify(first.error));
      return;
    }
    const data = (first as { data: ReferencesData }).data;
    if (data.complete === false) {
      assert.ok(
        referencePlaces(data).every((p) => truth.includes(p)),
        'a partial answer holds only true references',
      );
    } else assert.deepEqual(referencePlaces(data), truth, 'an answer not marked partial is the whole answer');
  });

  describe('navigation, beside the raw providers', function () {
    before(async function () {
      for (const f of FILES) await waitForSymbols(f);
    });

    it('get-solution-structure: pyright serves python, and the features it lacks are said', async function () {
      const answer = expectOkEnvelope<{
        workspaces: Coll<{ languages: { languageId: string; languageServices: { extensionId: string }[]; features: Record<string, string> }[] }>;
      }>(await invoke('get-solution-structure', {}));
      const python = answer.data.workspaces.items[0].languages.find((l) => l.languageId === 'python');
      assert.ok(python, 'python is listed');
      assert.ok(python.languageServices.some((s) => s.extensionId === 'agent-workbench-tests.python-lsp'));
      for (const f of ['documentSymbols', 'hover', 'definition', 'references', 'rename']) assert.equal(python.features[f], 'available', f);
      assert.equal(python.features.formatting, 'unavailable', 'pyright has no formatter');
    });

    it('get-document-outline lists what executeDocumentSymbolProvider lists, non-ASCII names included', async function () {
      for (const file of FILES) {
        const ours = outlineRead<Sym & { depth: number }>(
          await invoke('get-document-outline', { document: { path: file }, symbolsLimit: 1000, includeLocals: true }),
        );
        const raw = await rawOutline(file);
        assert.ok(raw.length > 0, file);
        assert.deepEqual(
          ours.data.symbols.items.map((s) => [s.name, s.kind, s.depth, s.location.line]),
          raw.map((s) => [s.name, s.kind, s.depth, s.line]),
          `${file}: the same symbols as the raw provider`,
        );
      }
      const masse = outlineRead<Sym>(await invoke('get-document-outline', { document: { path: 'shapes/masse.py' } }));
      assert.ok(names(masse.data.symbols.items).includes('Größe') && names(masse.data.symbols.items).includes('fläche'));
    });

    it("get-document-outline leaves out a function's parameters and locals, keeps the attributes __init__ assigns", async function () {
      const figures = await outlineLocals('shapes/figures.py');
      assert.deepEqual(
        figures.leftOut.map((id) => id.split('#')[1]),
        ['Class:Circle/Method:__init__/Variable:radius', 'Class:Square/Method:__init__/Variable:side'],
        'the parameters of __init__',
      );
      const kept = figures.kept.map((s) => s.symbolId.split('#')[1]);
      assert.ok(kept.includes('Class:Circle/Variable:radius') && kept.includes('Class:Square/Variable:side'), 'self.radius and self.side stay');
      for (const file of FILES) await outlineLocals(file);
    });

    it('search-symbols finds what executeWorkspaceSymbolProvider finds, and each symbolId resolves back', async function () {
      for (const query of ['Square', 'register', 'Größe']) {
        const ours = searchRead<Sym>(await invoke('search-symbols', { query, symbolsLimit: 1000 }));
        const raw = ((await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query)) ?? []).filter((s) =>
          s.location.uri.fsPath.startsWith(root() + path.sep),
        );
        assert.ok(raw.length > 0, `the raw provider finds ${query}`);
        assert.deepEqual(
          ours.data.symbols.items.map((s) => `${pathOfSymbol(s.symbolId)}:${s.name}`).sort(),
          raw.map((s) => `${rel(s.location.uri)}:${s.name}`).sort(),
          `${query}: the same declarations`,
        );
        for (const s of ours.data.symbols.items) {
          const back = expectOk<Sym>(await invoke('resolve-symbol', { symbol: { symbolId: s.symbolId } }));
          assert.deepEqual([back.data.symbolId, back.data.location.line], [s.symbolId, s.location.line]);
        }
      }
    });

    it('get-symbol-info carries the raw hover; get-symbol-members lists the raw children; get-api-surface leaves out _names', async function () {
      const info = expectOk<Sym & { hover: string[]; signature: string; containers: string[] }>(
        await invoke('get-symbol-info', sym('shapes/figures.py', 'perimeter', { contextBefore: 'def ' })),
      );
      assert.deepEqual([info.data.name, info.data.kind, info.data.containers], ['perimeter', 'Method', ['Square']]);
      const { doc, position } = await at('shapes/figures.py', 'perimeter', 'def ');
      const raw = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position)) ?? [];
      const rawTexts = rawHoverTexts(raw);
      assert.ok(rawTexts.length > 0, 'pyright hovers');
      for (const t of rawTexts) {
        assert.ok(
          info.data.hover.some((h) => h.includes(t)),
          `hover carries ${t}`,
        );
      }

      const members = expectOk<{ members: Coll<Sym> }>(await invoke('get-symbol-members', sym('shapes/base.py', 'Shape', { contextBefore: 'class ' })));
      const tree = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri('shapes/base.py'))) ?? [];
      const shape = tree.find((s) => s.name === 'Shape');
      assert.ok(shape);
      assert.deepEqual(
        members.data.members.items.map((m) => m.name),
        [...shape.children].sort((a, b) => a.range.start.compareTo(b.range.start)).map((c) => c.name),
      );

      const api = expectOk<{ symbols: Coll<Sym & { depth: number }> }>(await invoke('get-api-surface', { document: { path: 'shapes/registry.py' } }));
      const top = (await rawOutline('shapes/registry.py')).filter((s) => s.depth === 0 && !s.name.startsWith('_')).map((s) => s.name);
      assert.deepEqual(
        api.data.symbols.items.filter((s) => s.depth === 0).map((s) => s.name),
        top,
      );
    });

    it('go-to-definition follows each import style to the declaration, as executeDefinitionProvider does', async function () {
      const cases: [string, string, string][] = [
        ['shapes/catalog.py', 'reg', '@'],
        ['shapes/figures.py', 'register', 'shapes.registry.'],
        ['shapes/base.py', 'register', '@'],
        ['shapes/catalog.py', 'Circle', 'self.items = ['],
      ];
      for (const [file, text, before] of cases) {
        const ours = expectOk<{ targets: { symbol?: Sym; location?: { documentId: string; line: number } }[] }>(
          await invoke('go-to-definition', sel(file, text, { contextBefore: before })),
        );
        const got = ours.data.targets
          .map((t) =>
            t.symbol
              ? `${pathOfSymbol(t.symbol.symbolId)}:${t.symbol.location.line}`
              : `${t.location?.documentId.replace(/^[0-9a-f]{8}:/, '')}:${t.location?.line}`,
          )
          .sort();
        assert.deepEqual(got, await rawLines('vscode.executeDefinitionProvider', file, text, before), `${file} ${before}${text}`);
      }
    });

    it('find-references on register: every import style, equal to executeReferenceProvider', async function () {
      const ours = expectOk<ReferencesData>(
        await invoke('find-references', { ...sym('shapes/registry.py', 'register', { contextBefore: 'def ' }), referencesLimit: 1000 }),
      );
      const truth = await rawReferencePlaces('shapes/registry.py', 'register', 'def ');
      assert.equal(ours.data.complete, true);
      assert.deepEqual(referencePlaces(ours.data), truth);
      const files = new Set(truth.map((p) => p.split('@')[0]));
      for (const f of ['shapes/__init__.py', 'shapes/base.py', 'shapes/figures.py', 'shapes/catalog.py']) assert.ok(files.has(f), `${f} uses register`);
      // The aliased import (from x import y as z) is one of them, at the imported name.
      const aliased = await at('shapes/catalog.py', 'register', 'from shapes.registry import ');
      assert.ok(referencePlaces(ours.data).includes(`shapes/catalog.py@${aliased.offset}`));
      const lines = ours.data.documents.items.flatMap((d) => readLines(d).map((l) => l.text ?? ''));
      assert.ok(lines.includes('@register("shape", weight=1)') && lines.includes('@shapes.registry.register("circle", weight=3)'), lines.join('\n'));
    });

    it('find-references marks the declaration and the writes the document highlights mark', async function () {
      const ours = expectOk<ReferencesData>(
        await invoke('find-references', { ...sym('shapes/base.py', 'color', { contextAfter: ': str = ' }), referencesLimit: 1000 }),
      );
      assert.deepEqual(referencePlaces(ours.data), await rawReferencePlaces('shapes/base.py', 'color', '    '));
      const { doc, position } = await at('shapes/base.py', 'color', '    ');
      const highlights = (await vscode.commands.executeCommand<vscode.DocumentHighlight[]>('vscode.executeDocumentHighlights', doc.uri, position)) ?? [];
      const writes = highlights.filter((x) => x.kind === vscode.DocumentHighlightKind.Write).map((x) => `shapes/base.py@${doc.offsetAt(x.range.start)}`);
      assert.ok(writes.length > 0, 'pyright marks writes');
      const oursWrites = ours.data.documents.items.flatMap((d) => decodeLines(d).flatMap((l) => (l.write ?? []).map((o) => `${d.path}@${o}`)));
      const decl = ours.data.documents.items.flatMap((d) => decodeLines(d).flatMap((l) => (l.decl ?? []).map((o) => `${d.path}@${o}`)));
      assert.ok(decl.includes(`shapes/base.py@${doc.offsetAt(position)}`), `the declaration is marked: ${decl.join(', ')}`);
      // Each reference is listed once, a declaration as decl (pyright highlights it as a write too).
      assert.deepEqual(oursWrites.sort(), writes.filter((w) => !decl.includes(w)).sort());
      assert.ok(oursWrites.length > 0, 'self.color = color is a write');
    });

    it('find-callers and find-callees match the raw call hierarchy, two levels deep', async function () {
      const callers = expectCalls<{ calls: Coll<{ symbol: Sym; callSites: SiteRow[] }> }>(
        await invoke('find-callers', sym('shapes/catalog.py', 'total_area', { contextBefore: 'def ' })),
      );
      const { doc, position } = await at('shapes/catalog.py', 'total_area', 'def ');
      const [item] = await vscode.commands.executeCommand<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', doc.uri, position);
      const incoming = await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', item);
      assert.deepEqual(callers.data.calls.items.map((c) => c.symbol.name).sort(), incoming.map((c) => c.from.name).sort());
      assert.deepEqual(
        callers.data.calls.items.map((c) => c.symbol.name),
        ['summary'],
      );
      // One level up: who calls summary.
      const up = expectCalls<{ calls: Coll<{ symbol: Sym }> }>(
        await invoke('find-callers', { symbol: { symbolId: callers.data.calls.items[0].symbol.symbolId } }),
      );
      assert.deepEqual(
        up.data.calls.items.map((c) => c.symbol.name),
        ['report'],
      );
      const callees = expectCalls<{ calls: Coll<{ symbol: Sym; callSites: SiteRow[] }> }>(
        await invoke('find-callees', sym('shapes/catalog.py', 'report', { contextBefore: 'def ' })),
      );
      const r = await at('shapes/catalog.py', 'report', 'def ');
      const [reportItem] = await vscode.commands.executeCommand<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', r.doc.uri, r.position);
      const outgoing = await vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[]>('vscode.provideOutgoingCalls', reportItem);
      assert.deepEqual(
        callees.data.calls.items.map((c) => [c.symbol.name, c.callSites.map((s) => `${s[0]}:${s[1]}`)]).sort(),
        outgoing.map((c) => [c.to.name, c.fromRanges.map((x) => `${x.start.line + 1}:${x.start.character + 1}`).sort()]).sort(),
      );
    });

    it('type hierarchy, derived types and overrides follow Python class syntax (pyright has no type hierarchy provider)', async function () {
      const { doc, position } = await at('shapes/figures.py', 'Square', 'class ');
      assert.deepEqual(await vscode.commands.executeCommand<vscode.TypeHierarchyItem[]>('vscode.prepareTypeHierarchy', doc.uri, position), []);
      const square = expectOk<{ supertypes: Coll<Sym>; subtypes: Coll<Sym>; source: string }>(
        await invoke('get-type-hierarchy', sym('shapes/figures.py', 'Square', { contextBefore: 'class ' })),
      );
      assert.equal(square.data.source, 'declarations');
      assert.deepEqual(names(square.data.supertypes.items), ['Shape']);
      assert.deepEqual(places(square.data.supertypes.items), await rawLines('vscode.executeDefinitionProvider', 'shapes/figures.py', 'Shape', 'class Square('));
      assert.deepEqual(names(square.data.subtypes.items), ['ColoredSquare']);
      const colored = expectOk<{ supertypes: Coll<Sym> }>(
        await invoke('get-type-hierarchy', sym('shapes/figures.py', 'ColoredSquare', { contextBefore: 'class ' })),
      );
      assert.deepEqual(names(colored.data.supertypes.items).sort(), ['Colored', 'Square'], 'multiple inheritance');
      const derived = expectDerived<{ derivedTypes: Coll<Sym & { depth: number }> }>(
        await invoke('find-derived-types', sym('shapes/base.py', 'Shape', { contextBefore: 'class ' })),
      );
      assert.deepEqual(
        derived.data.derivedTypes.items.map((t) => `${t.name}@${t.depth}`),
        ['Circle@1', 'Square@1', 'ColoredSquare@2'],
      );
      const overrides = expectOk<{ overrides: Coll<Sym> }>(await invoke('find-overrides', sym('shapes/base.py', 'area', { contextBefore: 'def ' })));
      assert.deepEqual(names(overrides.data.overrides.items), ['Circle.area', 'Square.area', 'ColoredSquare.area']);
    });

    it('find-implementations says pyright has no implementation provider instead of answering none', async function () {
      assert.deepEqual(await rawLines('vscode.executeImplementationProvider', 'shapes/base.py', 'Shape', 'class '), []);
      const refused = expectError(
        await invoke('find-implementations', sym('shapes/base.py', 'Shape', { contextBefore: 'class ' })),
        'UnsupportedLanguageFeature',
      );
      assert.match(refused.error.message, /implementation/);
    });

    it('find-overloads lists the three @overload declarations and the implementation; get-partial-declarations one declaration', async function () {
      const ours = expectOk<{ overloads: Coll<Sym & { signature: string }> }>(
        await invoke('find-overloads', sym('shapes/overloads.py', 'scale', { contextBefore: 'def ', contextAfter: '(value: int | float' })),
      );
      const text = onDisk('shapes/overloads.py').split('\n');
      const defLines = text.map((l, i) => (l.startsWith('def scale(') ? i + 1 : 0)).filter((n) => n > 0);
      assert.equal(defLines.length, 4);
      assert.deepEqual(
        ours.data.overloads.items.map((o) => o.location.line),
        defLines,
      );
      assert.deepEqual(
        ours.data.overloads.items.map((o) => o.signature),
        defLines.map((n) => text[n - 1].trim()),
      );
      const partial = expectOk<{ declarations: Coll<Sym> }>(
        await invoke('get-partial-declarations', sym('shapes/base.py', 'Shape', { contextBefore: 'class ' })),
      );
      assert.deepEqual(places(partial.data.declarations.items), ['shapes/base.py:14']);
    });

    it('get-symbol-attributes reads decorators with their arguments, inherited ones through the bases', async function () {
      const circle = expectOk<AttributesData>(
        await invoke('get-symbol-attributes', { ...sym('shapes/figures.py', 'Circle', { contextBefore: 'class ' }), includeInherited: true }),
      );
      const brief = circle.data.attributes.items.map((a) => ({
        name: a.name,
        inherited: a.inherited,
        positional: a.constructorArguments.map((x) => x.value),
        named: a.namedArguments.map((x) => `${x.name}=${x.value}`),
        type: a.type?.displayName ?? null,
      }));
      assert.deepEqual(brief, [
        { name: 'shapes.registry.register', inherited: false, positional: ['"circle"'], named: ['weight=3'], type: 'register' },
        { name: 'register', inherited: true, positional: ['"shape"'], named: ['weight=1'], type: 'register' },
      ]);
      const point = expectOk<AttributesData>(await invoke('get-symbol-attributes', sym('shapes/figures.py', 'Point', { contextBefore: 'class ' })));
      assert.deepEqual(
        point.data.attributes.items.map((a) => [a.name, a.namedArguments.map((x) => `${x.name}=${x.value}:${x.type}`)]),
        [['dataclass', ['frozen=True:boolean']]],
      );
      const origin = expectOk<AttributesData>(await invoke('get-symbol-attributes', sym('shapes/figures.py', 'origin')));
      assert.deepEqual(
        origin.data.attributes.items.map((a) => a.name),
        ['staticmethod'],
      );
      const area = expectOk<AttributesData>(
        await invoke('get-symbol-attributes', {
          ...sym('shapes/figures.py', 'area', { contextAfter: '(self) -> float:\n        return math.pi' }),
          includeInherited: true,
        }),
      );
      assert.deepEqual(
        area.data.attributes.items.map((a) => [a.name, a.inherited]),
        [['abstractmethod', true]],
        'the overridden Shape.area is abstract',
      );
    });

    it('get-diagnostics reports the type error and the syntax error as pyright does', async function () {
      const files = ['shapes/type_error.py', 'shapes/syntax_error.py'];
      for (const f of files) await diagnosticsWhen(f, (d) => d.length > 0);
      const ours = expectOkEnvelope<DiagnosticsData>(await invoke('get-diagnostics', { documents: files.map((p) => ({ path: p })) }));
      assert.deepEqual(ours.data.checked.sort(), [...files].sort());
      for (const f of files) {
        const raw = vscode.languages.getDiagnostics(uri(f));
        const mine = ours.data.documents.items.find((d) => d.path === f);
        assert.ok(mine, f);
        assert.deepEqual(
          mine.diagnostics.items.map((d) => [d.line, d.column, d.message]),
          [...raw].sort((a, b) => a.range.start.compareTo(b.range.start)).map((d) => [d.range.start.line + 1, d.range.start.character + 1, d.message]),
          f,
        );
      }
      assert.ok(
        ours.data.documents.items.some((d) => d.diagnostics.items.some((x) => /Expected ":"/.test(x.message))),
        'the syntax error',
      );
      assert.ok(
        ours.data.documents.items.some((d) => d.diagnostics.items.some((x) => /"Literal\['four'\]"/.test(x.message))),
        'the type error',
      );
    });

    it('get-code-context, workspace-status, get-project-details and list-code-actions on the Python package', async function () {
      const context = expectOk<{ languageId: string; enclosingSymbols: Sym[]; window: { text: string } }>(
        await invoke('get-code-context', { ...sel('shapes/catalog.py', 'summary(Catalog())'), contextLines: 1 }),
      );
      assert.equal(context.data.languageId, 'python');
      assert.deepEqual(
        context.data.enclosingSymbols.map((s) => s.name),
        ['report'],
      );
      assert.match(context.data.window.text, /def report\(\) -> str:/);
      const status = expectOkEnvelope<{
        projects: Coll<{ kind: string; path: string }>;
        languages: Coll<{ languageId: string; languageServices: { extensionId: string }[] }>;
      }>(await invoke('workspace-status', {}));
      assert.deepEqual(
        status.data.projects.items.map((p) => [p.kind, p.path]),
        [['python', 'pyproject.toml']],
      );
      const python = status.data.languages.items.find((l) => l.languageId === 'python');
      assert.deepEqual(
        python?.languageServices.map((s) => s.extensionId),
        ['agent-workbench-tests.python-lsp'],
      );
      const details = expectOkEnvelope(await invoke('get-project-details', {}));
      assert.match(JSON.stringify(details.data), /typeCheckingMode/);
      const { doc, position } = await at('shapes/type_error.py', '"four"');
      await diagnosticsWhen('shapes/type_error.py', (d) => d.length > 0);
      const range = new vscode.Range(position, position.translate(0, 6));
      const raw = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, range)) ?? [];
      const actions = await invoke('list-code-actions', sel('shapes/type_error.py', '"four"'));
      if (actions.ok) {
        const listed = (actions as { data: { actions: Coll<{ title: string }> } }).data.actions.items.map((a) => a.title);
        assert.deepEqual(
          listed,
          raw.map((a) => a.title),
          "the raw provider's actions",
        );
      } else {
        assert.equal(raw.length, 0, `refused though the raw provider offers ${raw.map((a) => a.title).join(', ')}`);
        assert.equal(actions.error.code, 'UnsupportedLanguageFeature', JSON.stringify(actions.error));
      }
    });

    it("prepare-fix-all and stage-code-action on Python: the raw provider's actions, or a refusal that says none is offered", async function () {
      const doc = await vscode.workspace.openTextDocument(uri('shapes/catalog.py'));
      const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
      for (const kind of ['source.organizeImports', 'source.fixAll']) {
        const raw = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, whole, kind)) ?? [];
        const answer = await invoke('prepare-fix-all', { document: { path: 'shapes/catalog.py' }, kind });
        if (raw.length > 0) expectOkEnvelope(answer);
        else {
          const refused = expectError(answer, 'UnsupportedLanguageFeature');
          assert.match(refused.error.message, /python|catalog\.py/i, refused.error.message);
        }
      }
      const listed = await invoke('list-code-actions', sel('shapes/catalog.py', 'lookup(name)'));
      const refs = listed.ok ? (listed as { data: { actions: Coll<{ ref?: string }> } }).data.actions.items.flatMap((a) => (a.ref ? [a.ref] : [])) : [];
      if (refs.length > 0) expectOkEnvelope(await invoke('stage-code-action', { ref: refs[0] }));
      const bogus = await invoke('stage-code-action', { ref: 'not-a-ref' });
      assert.equal(bogus.ok, false, 'an unknown ref stages nothing');
      const preview = expectOkEnvelope<{ transaction: unknown }>(await invoke('transaction-preview', {}));
      if (refs.length === 0) assert.equal(preview.data.transaction, null, 'nothing staged');
      await invoke('transaction-rollback', {});
    });

    it('format-document refuses: pyright has no formatter', async function () {
      const refused = expectError(await invoke('format-document', { document: { path: 'shapes/geometry.py' } }), 'UnsupportedLanguageFeature');
      assert.match(refused.error.message, /python/i);
    });
  });

  describe('mutations on Python', function () {
    afterEach(async () => {
      await invoke('transaction-rollback', {});
    });

    it('rename-symbol over the three import styles stages exactly the raw rename and commits it byte for byte', async function () {
      const { doc, position } = await at('shapes/registry.py', 'register', 'def ');
      const raw = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', doc.uri, position, 'enroll');
      const expected = new Map<string, string>();
      for (const [u, edits] of raw.entries()) {
        const d = await vscode.workspace.openTextDocument(u);
        let text = d.getText();
        for (const e of [...edits].sort((a, b) => d.offsetAt(b.range.start) - d.offsetAt(a.range.start))) {
          text = text.slice(0, d.offsetAt(e.range.start)) + e.newText + text.slice(d.offsetAt(e.range.end));
        }
        expected.set(rel(u), text);
      }
      for (const f of ['shapes/registry.py', 'shapes/base.py', 'shapes/figures.py', 'shapes/catalog.py']) {
        assert.ok(expected.has(f), `the raw rename edits ${f}`);
      }
      assert.match(expected.get('shapes/catalog.py') ?? '', /from shapes\.registry import enroll as reg/);
      assert.match(expected.get('shapes/figures.py') ?? '', /@shapes\.registry\.enroll\("circle", weight=3\)/);
      const before = new Map([...expected.keys()].map((f) => [f, onDisk(f)]));

      const staged = expectOkEnvelope<{ documents: Coll<{ path: string }> }>(
        await invoke('rename-symbol', { ...sym('shapes/registry.py', 'register', { contextBefore: 'def ' }), newName: 'enroll' }),
      );
      assert.deepEqual(staged.data.documents.items.map((d) => d.path).sort(), [...expected.keys()].sort());
      for (const [f, text] of expected) {
        const ctx = expectOkEnvelope<{ window: { text: string } }>(
          await invoke('get-code-context', {
            location: { span: { document: { path: f }, range: { start: 0, length: 0 } } },
            contextLines: 500,
            includeSymbols: false,
            view: 'staged',
          }),
        );
        assert.equal(ctx.data.window.text, text, `staged ${f}`);
        assert.equal(onDisk(f), before.get(f), `${f} unchanged on disk before the commit`);
      }
      await commit();
      for (const [f, text] of expected) assert.equal(onDisk(f), text, `${f} on disk is the raw rename, byte for byte`);
    });

    it('replace-symbol-body, insert-before-symbol and insert-after-symbol keep Python indentation: committed, pyright finds no new error', async function () {
      const file = 'shapes/geometry.py';
      await diagnosticsWhen(file, () => true);
      const errorsBefore = vscode.languages.getDiagnostics(uri(file)).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
      const original = onDisk(file);
      expectOkEnvelope(
        await invoke('replace-symbol-body', { ...sym(file, 'perimeter_of', { contextBefore: 'def ' }), text: '"""Sums the sides."""\nreturn sum(sides)\n' }),
      );
      expectOkEnvelope(
        await invoke('replace-symbol-body', {
          ...sym(file, 'perimeter', { contextBefore: 'def ', contextAfter: '(self)' }),
          text: 'if self.sides:\n    return perimeter_of(self.sides)\nreturn -1.0',
        }),
      );
      expectOkEnvelope(await invoke('replace-symbol-body', { ...sym(file, 'one_liner'), text: 'y = x + 1\nreturn y' }));
      expectOkEnvelope(
        await invoke('insert-before-symbol', {
          ...sym(file, 'perimeter', { contextBefore: 'def ', contextAfter: '(self)' }),
          text: '@property\ndef count(self) -> int:\n    return len(self.sides)\n',
        }),
      );
      // After __init__: staged edits may not overlap, and perimeter's body is replaced already.
      expectOkEnvelope(await invoke('insert-after-symbol', { ...sym(file, '__init__'), text: '\ndef largest(self) -> float:\n    return max(self.sides)' }));
      await commit();
      const expected = original
        .replace(
          '    """Sums the sides."""\n    total = 0.0\n    for side in sides:\n        total += side\n    return total',
          '    """Sums the sides."""\n    return sum(sides)',
        )
        .replace(
          '        self.sides = sides\n\n    def perimeter(self) -> float:\n        if not self.sides:\n            return 0.0\n        return perimeter_of(self.sides)',
          '        self.sides = sides\n\n    def largest(self) -> float:\n        return max(self.sides)\n\n' +
            '    @property\n    def count(self) -> int:\n        return len(self.sides)\n' +
            '    def perimeter(self) -> float:\n        if self.sides:\n            return perimeter_of(self.sides)\n        return -1.0',
        )
        .replace('def one_liner(x: int) -> int: return x + 1', 'def one_liner(x: int) -> int:\n    y = x + 1\n    return y');
      assert.notEqual(expected, original);
      assert.equal(onDisk(file), expected);
      // pyright analyses the saved file again: its outline shows the new members, and no error appeared.
      const start = Date.now();
      while (!(await rawOutline(file)).some((s) => s.name === 'largest')) {
        assert.ok(Date.now() - start < 60_000, 'pyright sees the new method');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const after = expectOkEnvelope<DiagnosticsData>(await invoke('get-diagnostics', { documents: [{ path: file }] }));
      assert.deepEqual(after.data.checked, [file]);
      assert.equal(after.data.counts.Error, errorsBefore, JSON.stringify(after.data.documents.items));
      assert.equal(vscode.languages.getDiagnostics(uri(file)).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length, errorsBefore);
    });

    it("replace-symbol-body of a class's last method and insert-after-symbol of the class meet at one point: both staged, in either order", async function () {
      // pyright ends Square and its last method, perimeter, at the same point: the end of `return 4 * self.side`.
      const file = 'shapes/figures.py';
      await waitForSymbols(file);
      const original = onDisk(file);
      const stagedText = async () =>
        expectOkEnvelope<{ window: { text: string } }>(
          await invoke('get-code-context', {
            location: { span: { document: { path: file }, range: { start: 0, length: 0 } } },
            contextLines: 500,
            includeSymbols: false,
            view: 'staged',
          }),
        ).data.window.text;
      const body = () => invoke('replace-symbol-body', { ...sym(file, 'perimeter', { contextBefore: 'def ' }), text: 'return self.side * 4' });
      const after = () =>
        invoke('insert-after-symbol', {
          ...sym(file, 'Square', { contextBefore: 'class ', contextAfter: '(Shape)' }),
          text: '\n\nclass Cube(Square):\n    def volume(self) -> float:\n        return self.side**3',
        });
      const expected = original.replace(
        '    @property\n    def perimeter(self) -> float:\n        return 4 * self.side\n\n\nclass ColoredSquare',
        '    @property\n    def perimeter(self) -> float:\n        return self.side * 4\n\n\n' +
          'class Cube(Square):\n    def volume(self) -> float:\n        return self.side**3\n\n\nclass ColoredSquare',
      );
      assert.notEqual(expected, original);

      expectOkEnvelope(await body());
      const inserted = expectOkEnvelope<{ transaction: { revision: number }; documents: Coll<{ path: string; addedLines?: number }> }>(await after());
      assert.equal(inserted.data.transaction.revision, 2);
      assert.deepEqual(inserted.data.documents.items, [{ path: file, addedLines: 5 }]);
      assert.equal(await stagedText(), expected);
      const preview = expectOkEnvelope<{
        documents: { document: { path: string }; changeKind: string; preview: object }[];
        diff: { hunks: { originalStartLine: number; lines: string[] }[] };
      }>(await invoke('transaction-preview', { document: { path: file }, includeDiff: true, contextLines: 0 }));
      assert.deepEqual(
        preview.data.documents.map((d) => [d.document.path, d.changeKind]),
        [[file, 'Modified']],
      );
      // The replaced line and the inserted ones (where the diff puts the two blank lines is its choice).
      const lines = preview.data.diff.hunks.flatMap((h) => h.lines);
      assert.deepEqual(
        lines.filter((l) => l.startsWith('-')),
        ['-        return 4 * self.side'],
      );
      assert.deepEqual(
        lines.filter((l) => l.startsWith('+')).sort(),
        ['+', '+', '+        return self.side * 4', '+        return self.side**3', '+    def volume(self) -> float:', '+class Cube(Square):'].sort(),
      );
      const check = expectOkEnvelope<{ state: string }>(await invoke('transaction-check', {}));
      assert.equal(check.data.state, 'unavailable', 'no staged-program check for Python');
      assert.equal(onDisk(file), original, 'nothing written');

      // The other order: the insertion staged first stays after the replaced body.
      expectOkEnvelope(await invoke('transaction-rollback', {}));
      expectOkEnvelope(await after());
      expectOkEnvelope(await body());
      assert.equal(await stagedText(), expected);
    });

    it('edit-text, create-file and delete-file stage and commit Python files byte for byte; pyright then serves the new module', async function () {
      const created = 'from shapes.figures import Circle\n\n\ndef unit_circle() -> Circle:\n    return Circle(1.0)\n';
      const catalog = onDisk('shapes/catalog.py');
      expectOkEnvelope(await invoke('create-file', { path: 'shapes/extra.py', text: created }));
      expectOkEnvelope(await invoke('edit-text', { edits: [{ ...sel('shapes/catalog.py', 'Square(2.0)'), newText: 'Square(3.0)' }] }));
      expectOkEnvelope(await invoke('delete-file', { document: { path: 'shapes/syntax_error.py' } }));
      await commit();
      assert.equal(onDisk('shapes/extra.py'), created);
      assert.equal(onDisk('shapes/catalog.py'), catalog.replace('Square(2.0)', 'Square(3.0)'));
      assert.equal(fs.existsSync(path.join(root(), 'shapes/syntax_error.py')), false);
      const start = Date.now();
      for (;;) {
        const found = searchRead<Sym>(await invoke('search-symbols', { query: 'unit_circle' }));
        if (found.data.symbols.items.some((x) => pathOfSymbol(x.symbolId) === 'shapes/extra.py')) break;
        assert.ok(Date.now() - start < 60_000, 'pyright indexes the created module');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    });

    it('bad input: tabs and spaces mixed, a byte order mark with CRLF, and a Latin-1 file: staged as said and committed byte for byte, or refused', async function () {
      const write = (file: string, bytes: Buffer) => {
        fs.mkdirSync(path.dirname(path.join(root(), file)), { recursive: true });
        fs.writeFileSync(path.join(root(), file), bytes);
      };
      const bytesOf = (file: string) => fs.readFileSync(path.join(root(), file));
      const TABS = 'class Legacy:\n\tdef tabbed(self):\n\t\treturn 1\n\n\tdef other(self):\n\t\treturn 2\n\n\ndef spaced():\n    return 3\n';
      const BOM_CRLF = '\ufeffdef crlf_fn():\r\n    return 1\r\n\r\n\r\nVALUE = crlf_fn()\r\n';
      const LATIN1 = Buffer.from('# -*- coding: latin-1 -*-\nNAME = "caf\xe9"\n\n\ndef latin():\n    return NAME\n', 'latin1');
      write('legacy/tabs.py', Buffer.from(TABS, 'utf8'));
      write('legacy/bom_crlf.py', Buffer.from(BOM_CRLF, 'utf8'));
      write('legacy/latin1.py', LATIN1);
      try {
        await waitForSymbols('legacy/tabs.py');
        await waitForSymbols('legacy/bom_crlf.py');
        // Tabs where the file indents with tabs, spaces where it indents with spaces.
        expectOkEnvelope(await invoke('replace-symbol-body', { ...sym('legacy/tabs.py', 'tabbed'), text: 'x = 1\nreturn x' }));
        expectOkEnvelope(
          await invoke('insert-after-symbol', { ...sym('legacy/tabs.py', 'other', { contextBefore: 'def ' }), text: '\ndef added(self):\n    return 4' }),
        );
        expectOkEnvelope(await invoke('replace-symbol-body', { ...sym('legacy/tabs.py', 'spaced'), text: 'y = 3\nreturn y' }));
        // A byte order mark and CRLF: a rename, and a body given with LF line ends (selected in the file as it is, not as staged).
        const renamed = expectOkEnvelope<{ documents: Coll<{ path: string }> }>(
          await invoke('rename-symbol', { ...sym('legacy/bom_crlf.py', 'crlf_fn', { contextBefore: 'def ' }), newName: 'crlf_func' }),
        );
        assert.deepEqual(
          renamed.data.documents.items.map((d) => d.path),
          ['legacy/bom_crlf.py'],
        );
        expectOkEnvelope(
          await invoke('replace-symbol-body', { ...sym('legacy/bom_crlf.py', 'crlf_fn', { contextBefore: 'def ' }), text: 'one = 1\nreturn one' }),
        );
        // Latin-1 read as UTF-8: every change refused, naming the file; nothing staged for it.
        const latin = 'legacy/latin1.py';
        for (const [tool, input] of [
          ['edit-text', { edits: [{ ...sel(latin, 'return NAME'), newText: 'return NAME + "!"' }] }],
          ['replace-symbol-body', { ...sym(latin, 'latin', { contextBefore: 'def ' }), text: 'return NAME' }],
          ['rename-symbol', { ...sym(latin, 'latin', { contextBefore: 'def ' }), newName: 'latin_name' }],
          ['delete-file', { document: { path: latin } }],
        ] as const) {
          const refused = expectError(await invoke(tool, input), 'InvalidRequest');
          assert.match(refused.error.message, /^legacy\/latin1\.py is not valid utf8, the encoding the editor reads it with/, tool);
        }
        const preview = expectOkEnvelope<{ documents: { document: { path: string } }[] }>(await invoke('transaction-preview', {}));
        assert.deepEqual(preview.data.documents.map((d) => d.document.path).sort(), ['legacy/bom_crlf.py', 'legacy/tabs.py']);
        await commit();
        assert.equal(
          bytesOf('legacy/tabs.py').toString('utf8'),
          'class Legacy:\n\tdef tabbed(self):\n\t\tx = 1\n\t\treturn x\n\n\tdef other(self):\n\t\treturn 2\n\n\tdef added(self):\n\t\treturn 4\n\n\ndef spaced():\n    y = 3\n    return y\n',
        );
        assert.deepEqual(
          bytesOf('legacy/bom_crlf.py'),
          Buffer.from('\ufeffdef crlf_func():\r\n    one = 1\r\n    return one\r\n\r\n\r\nVALUE = crlf_func()\r\n', 'utf8'),
        );
        assert.deepEqual(bytesOf(latin), LATIN1, 'the Latin-1 file is byte for byte as it was');
        // pyright finds no error in what was written (a tab and space mix in one block would be one).
        for (const file of ['legacy/tabs.py', 'legacy/bom_crlf.py']) {
          await diagnosticsWhen(file, (d) => d.every((x) => x.severity !== vscode.DiagnosticSeverity.Error));
        }
      } finally {
        fs.rmSync(path.join(root(), 'legacy'), { recursive: true, force: true });
      }
    });

    it('move-file of a Python module says its imports were neither updated nor searched', async function () {
      const moved = expectOkEnvelope<{ notes: string[]; referencesToFix?: unknown }>(
        await invoke('move-file', { document: { path: 'shapes/masse.py' }, newPath: 'shapes/units/masse.py' }),
      );
      assert.equal(moved.data.referencesToFix, undefined, 'no list that would read as "nothing imports it"');
      assert.ok(
        moved.data.notes.some((n) => /neither updated nor searched/.test(n)),
        moved.data.notes.join('\n'),
      );
    });
  });

  describe('real code', function () {
    // rich's segment.py (Debian's python3-rich, installed by scripts/ensure-host.sh): pyright lists every parameter and local.
    const SEGMENT = '/usr/lib/python3/dist-packages/rich/segment.py';
    const copy = 'real_code/segment.py';

    after(() => fs.rmSync(path.join(root(), 'real_code'), { recursive: true, force: true }));

    it("get-document-outline of rich's segment.py (739 lines) costs a fraction of reading it: the methods, not their locals", async function () {
      assert.ok(fs.existsSync(SEGMENT), `${SEGMENT} is missing: scripts/ensure-host.sh installs python3-rich`);
      fs.mkdirSync(path.join(root(), 'real_code'), { recursive: true });
      fs.copyFileSync(SEGMENT, path.join(root(), copy));
      await waitForSymbols(copy);
      const outline = await outlineLocals(copy);
      const fileBytes = fs.statSync(path.join(root(), copy)).size;
      const kept = outline.kept.map((s) => s.symbolId.split('#')[1]);
      for (const member of [
        'Class:Segment/Method:split_cells',
        'Class:Segment/Method:divide',
        'Class:Segments/Method:__rich_console__',
        'Class:ControlType/Constant:BELL',
      ]) {
        assert.ok(kept.includes(member), member);
      }
      assert.ok(outline.leftOut.length > 100, `${outline.leftOut.length} locals left out`);
      assert.ok(outline.bytes < fileBytes / 3, `outline ${outline.bytes} B against the file's ${fileBytes} B`);
    });
  });
});
