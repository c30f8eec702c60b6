import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../../src/core/chain/envelope';
import { pathOfSymbol, readSymbol } from '../../src/core/symbols/symbols';
import type { SolutionStructureData } from '../../src/tools/workspace';
import { readSearch } from '../../src/tools/search';
import type { SearchData } from '../../src/tools/search';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines, lineReferences } from '../../src/tools/references';
import { diffMatrix, LANGUAGES, MATRIX_TOOLS, TOOL_FEATURES } from '../../scripts/languageMatrix';
import type { Cell, Matrix } from '../../scripts/languageMatrix';
import { activateExtension, expectOk, invoke, rawHoverTexts, waitForSymbols, workspaceRoot } from './helpers';

/*
 * One matrix: every tool that takes a document, symbol or location, on one small realistic
 * document per language (test/fixtures/languages), each answer classified against the raw
 * vscode.execute*Provider command the tool relies on. Supported: an answer consistent with the
 * raw provider's. Unsupported: UnsupportedLanguageFeature naming the feature, where the raw
 * provider answers nothing either. Anything else (an ok empty answer that reads as "none", a
 * refusal where the provider answers, another error) is a failure of the product. The results go
 * to out/test-artifacts/languages.json and must equal docs/languages.json, from which
 * `npm run gen` writes the table in docs/languages.md.
 */

const REPO = path.resolve(__dirname, '..', '..', '..');
const EXPECTED = path.join(REPO, 'docs', 'languages.json');
const ARTIFACT = path.join(REPO, 'out', 'test-artifacts', 'languages.json');

interface Selection {
  selectedText: string;
  contextBefore?: string;
  contextAfter?: string;
}

interface LanguageCase {
  language: (typeof LANGUAGES)[number];
  languageId: string;
  file: string;
  /** A declaration with members. */
  symbol: Selection;
  /** A usage whose definition is elsewhere in the document. */
  usage: Selection;
  /** A function (callers, callees, body). */
  fn: Selection;
  /** A type with a subtype, the subtype, and a method the subtype overrides. */
  base?: Selection;
  derived?: Selection;
  method?: Selection;
  query: string;
  rename: { at: Selection; newName: string };
  /** A line that belongs in the language's text, for the insert tools. */
  line: string;
  body: string;
  newFile: string;
}

const CASES: LanguageCase[] = [
  {
    language: 'TypeScript',
    languageId: 'typescript',
    file: 'src/inventory.ts',
    symbol: { selectedText: 'Inventory', contextBefore: 'class ' },
    usage: { selectedText: 'add', contextBefore: 'store.' },
    fn: { selectedText: 'restock', contextBefore: 'function ' },
    base: { selectedText: 'Store', contextBefore: 'abstract class ' },
    derived: { selectedText: 'Inventory', contextBefore: 'class ' },
    method: { selectedText: 'count', contextBefore: 'abstract ' },
    query: 'Inventory',
    rename: { at: { selectedText: 'restock', contextBefore: 'function ' }, newName: 'refill' },
    line: '// A note.',
    body: 'return 0;',
    newFile: 'src/extra.ts',
  },
  {
    language: 'JavaScript',
    languageId: 'javascript',
    file: 'src/report.js',
    symbol: { selectedText: 'Report', contextBefore: 'class ', contextAfter: ' {' },
    usage: { selectedText: 'addLine', contextBefore: 'report.' },
    fn: { selectedText: 'summarize', contextBefore: 'function ' },
    base: { selectedText: 'Report', contextBefore: 'class ', contextAfter: ' {' },
    derived: { selectedText: 'DailyReport', contextBefore: 'class ' },
    method: { selectedText: 'render', contextBefore: '  ', contextAfter: '() {\n    return [' },
    query: 'Report',
    rename: { at: { selectedText: 'summarize', contextBefore: 'function ' }, newName: 'digest' },
    line: '// A note.',
    body: "return '';",
    newFile: 'src/extra.js',
  },
  {
    language: 'Python',
    languageId: 'python',
    file: 'tools/ledger.py',
    symbol: { selectedText: 'Ledger', contextBefore: 'class ' },
    usage: { selectedText: 'record', contextBefore: 'ledger.' },
    fn: { selectedText: 'open_ledger', contextBefore: 'def ' },
    base: { selectedText: 'Book', contextBefore: 'class ' },
    derived: { selectedText: 'Ledger', contextBefore: 'class ' },
    method: { selectedText: 'balance', contextBefore: 'def ', contextAfter: '(self) -> int:\n        return 0' },
    query: 'Ledger',
    rename: { at: { selectedText: 'Entry', contextBefore: 'class ' }, newName: 'Record' },
    line: '# A note.',
    body: 'return Ledger()',
    newFile: 'tools/extra.py',
  },
  {
    language: 'JSON',
    languageId: 'json',
    file: 'config/settings.json',
    symbol: { selectedText: 'server', contextBefore: '"' },
    usage: { selectedText: 'port', contextBefore: '"' },
    fn: { selectedText: 'features', contextBefore: '"' },
    query: 'server',
    rename: { at: { selectedText: 'server', contextBefore: '"' }, newName: 'service' },
    line: '"version": 1,',
    body: '"port": 9090',
    newFile: 'config/extra.json',
  },
  {
    language: 'CSS',
    languageId: 'css',
    file: 'styles/site.css',
    symbol: { selectedText: '@media' },
    usage: { selectedText: '--brand', contextBefore: 'color: var(' },
    fn: { selectedText: '#ledger' },
    query: 'ledger',
    rename: { at: { selectedText: '--gap', contextAfter: ': 8px' }, newName: '--space' },
    line: '/* A note. */',
    body: 'border: none;',
    newFile: 'styles/extra.css',
  },
  {
    language: 'HTML',
    languageId: 'html',
    file: 'index.html',
    symbol: { selectedText: 'nav', contextBefore: '<', contextAfter: '>' },
    usage: { selectedText: 'ledger', contextBefore: 'href="#' },
    fn: { selectedText: 'section', contextBefore: '<', contextAfter: ' id' },
    query: 'section',
    rename: { at: { selectedText: 'section', contextBefore: '<', contextAfter: ' id' }, newName: 'article' },
    line: '<!-- A note. -->',
    body: '<p>Empty.</p>',
    newFile: 'extra.html',
  },
  {
    language: 'Markdown',
    languageId: 'markdown',
    file: 'docs/guide.md',
    symbol: { selectedText: 'Restocking', contextBefore: '## ' },
    usage: { selectedText: 'restocking', contextBefore: '](#' },
    fn: { selectedText: 'Restocking', contextBefore: '## ' },
    query: 'Restocking',
    rename: { at: { selectedText: 'Counting', contextBefore: '## ' }, newName: 'Tally' },
    line: '<!-- A note. -->',
    body: 'Restock later.',
    newFile: 'docs/extra.md',
  },
];

// ---------------------------------------------------------------- the raw side

const uri = (file: string) => vscode.Uri.file(path.join(workspaceRoot(), file));
const rel = (u: vscode.Uri) => path.relative(workspaceRoot(), u.fsPath).split(path.sep).join('/');

async function positionOf(file: string, s: Selection): Promise<{ doc: vscode.TextDocument; offset: number; position: vscode.Position }> {
  const doc = await vscode.workspace.openTextDocument(uri(file));
  const whole = (s.contextBefore ?? '') + s.selectedText + (s.contextAfter ?? '');
  const found = doc.getText().indexOf(whole);
  assert.ok(found >= 0 && doc.getText().indexOf(whole, found + 1) < 0, `${whole} once in ${file}`);
  const offset = found + (s.contextBefore ?? '').length;
  return { doc, offset, position: doc.positionAt(offset) };
}

async function raw<T>(command: string, ...args: unknown[]): Promise<T | undefined> {
  try {
    return await vscode.commands.executeCommand<T>(command, ...args);
  } catch {
    return undefined;
  }
}

async function rawSymbols(file: string): Promise<vscode.DocumentSymbol[]> {
  return (await raw<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri(file))) ?? [];
}

function flat(symbols: readonly vscode.DocumentSymbol[]): vscode.DocumentSymbol[] {
  return symbols.flatMap((s) => [s, ...flat(s.children)]);
}

/** The innermost raw symbol around an offset. */
async function rawSymbolAt(file: string, s: Selection): Promise<vscode.DocumentSymbol | undefined> {
  const { position } = await positionOf(file, s);
  let best: vscode.DocumentSymbol | undefined;
  for (const x of flat(await rawSymbols(file))) if (x.range.contains(position) && (!best || best.range.contains(x.range))) best = x;
  return best;
}

async function rawLocations(command: string, file: string, s: Selection): Promise<string[]> {
  const { doc, position } = await positionOf(file, s);
  const found = (await raw<(vscode.Location | vscode.LocationLink)[]>(command, doc.uri, position)) ?? [];
  return [
    ...new Set(
      found.map((l) => {
        const [u, r] = 'targetUri' in l ? [l.targetUri, l.targetSelectionRange ?? l.targetRange] : [l.uri, l.range];
        return `${rel(u)}:${r.start.line + 1}:${r.start.character + 1}`;
      }),
    ),
  ];
}

// ---------------------------------------------------------------- classification

type Outcome = Cell | { status: 'failure'; why: string };

/**
 * What an answer says beside the raw provider's count for the same input. `answered` is how many
 * results the tool gave; `rawCount` undefined when no raw command stands behind the tool.
 */
function classify(envelope: Envelope, answered: (data: never) => number | string, rawCount: number | undefined, emptyMeansNone = true): Outcome {
  if (!envelope.ok) {
    if (envelope.error.code !== 'UnsupportedLanguageFeature') return { status: 'failure', why: `${envelope.error.code}: ${envelope.error.message}` };
    const feature = featureNamed(envelope.error.message);
    if (!feature) return { status: 'failure', why: `UnsupportedLanguageFeature without a feature: ${envelope.error.message}` };
    if (rawCount !== undefined && rawCount > 0) return { status: 'failure', why: `refused (${feature}) though the raw provider answers ${rawCount}` };
    return { status: 'unsupported', feature };
  }
  const got = answered(envelope.data as never);
  if (typeof got === 'string') return { status: 'failure', why: got };
  if (rawCount !== undefined && got !== rawCount) {
    return { status: 'failure', why: `answered ${got} where the raw provider answers ${rawCount}: ${JSON.stringify(envelope.data).slice(0, 400)}` };
  }
  if (emptyMeansNone && got === 0) return { status: 'failure', why: 'an ok empty answer, which reads as "none"' };
  return { status: 'supported' };
}

/** The feature an UnsupportedLanguageFeature message names: "No <feature> provider …", "No <feature> is available …", or attribute syntax. */
function featureNamed(message: string): string | undefined {
  if (/^Attributes are not known for language/.test(message)) return 'attribute syntax';
  return /^No (.+?) (?:provider|is available)\b/.exec(message)?.[1];
}

const symbolInput = (c: LanguageCase, s: Selection) => ({ symbol: { location: { selection: { document: { path: c.file }, ...s } } } });
const locationInput = (c: LanguageCase, s: Selection) => ({ location: { selection: { document: { path: c.file }, ...s } } });
const coll = (d: { totalCount: number }) => d.totalCount;

async function rollback(): Promise<void> {
  expectOk(await invoke('transaction-rollback', {}));
}

/** A mutation classified, then rolled back (the disk is never written: nothing is committed). */
async function mutation(envelope: Envelope, answered: (data: never) => number | string, rawCount: number | undefined): Promise<Outcome> {
  try {
    return classify(envelope, answered, rawCount);
  } finally {
    if (envelope.ok) await rollback();
  }
}

/**
 * A symbol edit as the staged text shows it: transaction-preview's diff of the document adds the
 * text given (each of its lines) and does not remove the symbol's declaration (`keeps`).
 */
async function symbolEdit(envelope: Envelope, c: LanguageCase, text: string, keeps: Selection): Promise<Outcome> {
  let shown: string | undefined;
  if (envelope.ok) {
    const preview = expectOk<{ diff: { hunks: { lines: string[] }[] } | null }>(
      await invoke('transaction-preview', { document: { path: c.file }, includeDiff: true, contextLines: 3 }),
    );
    const lines = (preview.data.diff?.hunks ?? []).flatMap((h) => h.lines);
    const added = lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1).trim());
    const removed = lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1));
    const missing = text.split('\n').filter((l) => !added.includes(l.trim()));
    const declaration = (keeps.contextBefore ?? '') + keeps.selectedText;
    if (missing.length > 0) shown = `the staged text does not add ${JSON.stringify(missing)}: ${JSON.stringify(lines)}`;
    else if (removed.some((l) => l.includes(declaration)) && !added.some((l) => l.includes(declaration))) {
      shown = `the staged text loses ${declaration}: ${JSON.stringify(lines)}`;
    }
  }
  return mutation(envelope, () => shown ?? 1, undefined);
}

const stagedIn = (file: string) => (d: { documents: { items: { path: string }[] } }) =>
  d.documents.items.some((x) => x.path === file) ? 1 : `nothing staged in ${file}: ${JSON.stringify(d.documents.items)}`;

type Probe = (c: LanguageCase) => Promise<Outcome>;

const PROBES: Record<(typeof MATRIX_TOOLS)[number], Probe> = {
  'get-document-outline': async (c) =>
    classify(
      await invoke('get-document-outline', { document: { path: c.file }, symbolsLimit: 1000, includeLocals: true }),
      (d: { symbols: { totalCount: number } }) => d.symbols.totalCount,
      flat(await rawSymbols(c.file)).length,
    ),
  'search-symbols': async (c) => {
    const rawHere = ((await raw<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', c.query)) ?? []).filter(
      (s) => rel(s.location.uri) === c.file,
    );
    const answer = await invoke('search-symbols', { query: c.query, symbolsLimit: 1000, includeLocals: true });
    // A language the answer says was not searched is one whose service has no symbol search: the raw provider finds nothing there either.
    if (answer.ok && (answer.data as { notSearched?: string[] }).notSearched?.includes(c.languageId)) {
      return rawHere.length === 0
        ? { status: 'unsupported', feature: 'workspace symbols' }
        : { status: 'failure', why: `said not searched, yet the raw provider finds ${rawHere.length}` };
    }
    return classify(answer, (d: SearchData) => readSearch(d).filter((s) => pathOfSymbol(s.symbolId) === c.file).length, rawHere.length);
  },
  'resolve-symbol': async (c) => {
    const truth = await rawSymbolAt(c.file, c.symbol);
    return classify(
      await invoke('resolve-symbol', symbolInput(c, c.symbol)),
      (d: { symbolId: string }) => (readSymbol(d).name === truth?.name ? 1 : `resolved ${readSymbol(d).name}, the raw innermost symbol is ${truth?.name}`),
      truth ? 1 : 0,
    );
  },
  'get-symbol-info': async (c) => {
    const { doc, position } = await positionOf(c.file, c.symbol);
    // The tool first: it waits while TypeScript's hover still says "(loading...)", and the raw hover asked after it then agrees.
    const answer = await invoke('get-symbol-info', symbolInput(c, c.symbol));
    const hovers = (await raw<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position)) ?? [];
    const texts = rawHoverTexts(hovers);
    return classify(
      answer,
      (d: { hover?: string[]; complete?: boolean }) => {
        // A hover asked while the service still loads says so (complete: false); what it shows then may differ.
        if (d.complete === false) return (d.hover ?? []).some((h) => h.includes('(loading...)')) ? 1 : 'partial, yet its hover does not say loading';
        const missing = texts.filter((t) => !(d.hover ?? []).some((h) => h.includes(t)));
        return missing.length === 0 ? 1 : `the hover leaves out ${JSON.stringify(missing)}`;
      },
      undefined,
    );
  },
  'get-symbol-members': async (c) =>
    classify(
      await invoke('get-symbol-members', { ...symbolInput(c, c.symbol), membersLimit: 1000 }),
      (d: { members: { totalCount: number } }) => coll(d.members),
      (await rawSymbolAt(c.file, c.symbol))?.children.length ?? 0,
    ),
  'get-api-surface': async (c) =>
    classify(
      await invoke('get-api-surface', { document: { path: c.file }, symbolsLimit: 1000 }),
      (d: { symbols: { totalCount: number } }) => coll(d.symbols),
      undefined,
    ),
  'get-code-context': async (c) =>
    classify(
      await invoke('get-code-context', locationInput(c, c.usage)),
      (d: unknown) => (JSON.stringify(d).includes(c.usage.selectedText) ? 1 : 'the context does not show the location'),
      undefined,
    ),
  'go-to-definition': async (c) =>
    classify(
      await invoke('go-to-definition', locationInput(c, c.usage)),
      (d: { targets: unknown[]; outsideWorkspace: number }) => d.targets.length + d.outsideWorkspace,
      (await rawLocations('vscode.executeDefinitionProvider', c.file, c.usage)).length,
    ),
  'find-implementations': async (c) => {
    const s = c.base ?? c.symbol;
    const { offset } = await positionOf(c.file, s);
    const rawOthers = (await rawLocations('vscode.executeImplementationProvider', c.file, s)).filter((p) => {
      const [f, line, col] = p.split(':');
      return !(f === c.file && line === String(offset));
      void col;
    });
    return classify(
      await invoke('find-implementations', symbolInput(c, s)),
      (d: { implementations: { totalCount: number } }) => coll(d.implementations),
      rawOthers.length > 0 ? undefined : 0,
    );
  },
  'find-references': async (c) =>
    classify(
      await invoke('find-references', { ...symbolInput(c, c.symbol), referencesLimit: 1000 }),
      (d: ReferencesData) => d.documents.items.flatMap((x) => decodeLines(x).flatMap((l) => lineReferences(l))).length,
      (await rawLocations('vscode.executeReferenceProvider', c.file, c.symbol)).length,
    ),
  'find-callers': async (c) => callHierarchy(c, 'find-callers', 'vscode.provideIncomingCalls'),
  'find-callees': async (c) => callHierarchy(c, 'find-callees', 'vscode.provideOutgoingCalls'),
  'get-type-hierarchy': async (c) =>
    typeHierarchy(c, 'get-type-hierarchy', c.derived ?? c.symbol, 'vscode.provideSupertypes', (d: { supertypes: { totalCount: number } }) =>
      coll(d.supertypes),
    ),
  'find-derived-types': async (c) =>
    typeHierarchy(c, 'find-derived-types', c.base ?? c.symbol, 'vscode.provideSubtypes', (d: { derivedTypes: { totalCount: number } }) => coll(d.derivedTypes)),
  'find-overrides': async (c) =>
    classify(await invoke('find-overrides', symbolInput(c, c.method ?? c.symbol)), (d: { overrides: { totalCount: number } }) => coll(d.overrides), undefined),
  'find-overloads': async (c) =>
    classify(await invoke('find-overloads', symbolInput(c, c.fn)), (d: { overloads: { totalCount: number } }) => coll(d.overloads), undefined),
  'get-partial-declarations': async (c) =>
    classify(
      await invoke('get-partial-declarations', symbolInput(c, c.symbol)),
      (d: { declarations: { totalCount: number } }) => coll(d.declarations),
      undefined,
    ),
  'get-symbol-attributes': async (c) => classify(await invoke('get-symbol-attributes', symbolInput(c, c.symbol)), () => 1, undefined),
  'get-diagnostics': async (c) => {
    const answer = await invoke('get-diagnostics', { documents: [{ path: c.file }], minimumSeverity: 'Hint', diagnosticsLimit: 1000 });
    return classify(
      answer,
      (d: { counts: Record<string, number> }) => Object.values(d.counts).reduce((a, b) => a + b, 0),
      vscode.languages.getDiagnostics(uri(c.file)).length,
      false,
    );
  },
  'list-code-actions': async (c) => {
    const { doc, position } = await positionOf(c.file, c.usage);
    const range = new vscode.Range(position, position.translate(0, c.usage.selectedText.length));
    const rawActions = (await raw<unknown[]>('vscode.executeCodeActionProvider', doc.uri, range)) ?? [];
    return classify(
      await invoke('list-code-actions', { ...locationInput(c, c.usage), actionsLimit: 200 }),
      (d: { actions: { totalCount: number } }) => coll(d.actions),
      rawActions.length,
      false,
    );
  },
  'rename-symbol': async (c) => {
    const { doc, position } = await positionOf(c.file, c.rename.at);
    const edit = await raw<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', doc.uri, position, c.rename.newName);
    const rawEdits = edit ? edit.entries().reduce((n, [, edits]) => n + edits.length, 0) : 0;
    return mutation(
      await invoke('rename-symbol', { ...symbolInput(c, c.rename.at), newName: c.rename.newName }),
      (d: { staged: { edits: number } }) => d.staged.edits,
      rawEdits,
    );
  },
  'format-document': async (c) => {
    const edits = (await raw<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider', uri(c.file), { tabSize: 2, insertSpaces: true })) ?? [];
    return mutation(await invoke('format-document', { document: { path: c.file } }), stagedIn(c.file), edits.length > 0 ? 1 : 0);
  },
  'replace-symbol-body': async (c) => symbolEdit(await invoke('replace-symbol-body', { ...symbolInput(c, c.fn), text: c.body }), c, c.body, c.fn),
  'insert-before-symbol': async (c) => symbolEdit(await invoke('insert-before-symbol', { ...symbolInput(c, c.fn), text: c.line }), c, c.line, c.fn),
  'insert-after-symbol': async (c) => symbolEdit(await invoke('insert-after-symbol', { ...symbolInput(c, c.fn), text: c.line }), c, c.line, c.fn),
  'edit-text': async (c) =>
    mutation(
      await invoke('edit-text', { edits: [{ location: { selection: { document: { path: c.file }, ...c.usage } }, newText: `${c.usage.selectedText}2` }] }),
      () => 1,
      undefined,
    ),
  'create-file': async (c) => mutation(await invoke('create-file', { path: c.newFile, text: `${c.line}\n` }), stagedIn(c.newFile), undefined),
  'delete-file': async (c) => mutation(await invoke('delete-file', { document: { path: c.file } }), () => 1, undefined),
  'move-file': async (c) => mutation(await invoke('move-file', { document: { path: c.file }, newPath: c.newFile }), stagedIn(c.newFile), undefined),
};

async function callHierarchy(c: LanguageCase, tool: string, command: string): Promise<Outcome> {
  const { doc, position } = await positionOf(c.file, c.fn);
  const items = (await raw<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', doc.uri, position)) ?? [];
  let calls = 0;
  for (const item of items) calls += ((await raw<unknown[]>(command, item)) ?? []).length;
  return classify(
    await invoke(tool, symbolInput(c, c.fn)),
    (d: { calls: { totalCount: number } }) => coll(d.calls),
    items.length > 0 ? calls : 0,
    items.length === 0,
  );
}

/**
 * With a type hierarchy provider the tool must answer what it answers; without one (pyright) the
 * tool may read the declarations, and must then find the type the fixture derives.
 */
async function typeHierarchy(c: LanguageCase, tool: string, s: Selection, command: string, answered: (d: never) => number): Promise<Outcome> {
  const { doc, position } = await positionOf(c.file, s);
  const items = (await raw<vscode.TypeHierarchyItem[]>('vscode.prepareTypeHierarchy', doc.uri, position)) ?? [];
  let related = 0;
  for (const item of items) related += ((await raw<unknown[]>(command, item)) ?? []).length;
  return classify(await invoke(tool, symbolInput(c, s)), answered, items.length > 0 ? related : undefined);
}

// ---------------------------------------------------------------- the suite

describe('languages: one matrix of the tools on TypeScript, JavaScript, Python, JSON, CSS, HTML and Markdown', function () {
  this.timeout(600_000);
  const matrix: Matrix = { languages: [...LANGUAGES], tools: {} };
  const failures: string[] = [];

  before(async function () {
    await activateExtension();
    for (const c of CASES) await waitForSymbols(c.file);
  });

  for (const c of CASES) {
    it(`${c.language} (${c.file}): every tool answers, or says the feature is not there`, async function () {
      for (const tool of MATRIX_TOOLS) {
        const outcome = await PROBES[tool](c);
        if (outcome.status === 'failure') failures.push(`${tool} on ${c.language}: ${outcome.why}`);
        (matrix.tools[tool] ??= {})[c.language] = outcome.status === 'failure' ? { status: 'failure', why: outcome.why } : outcome;
      }
      assert.deepEqual(
        failures.filter((f) => f.includes(` on ${c.language}:`)),
        [],
        'every answer is right or a named refusal',
      );
    });
  }

  it('the matrix is docs/languages.json (regenerate: copy out/test-artifacts/languages.json there, then npm run gen)', function () {
    fs.mkdirSync(path.dirname(ARTIFACT), { recursive: true });
    fs.writeFileSync(ARTIFACT, `${JSON.stringify(matrix, null, 2)}\n`);
    const expected = JSON.parse(fs.readFileSync(EXPECTED, 'utf8')) as Matrix;
    const drift = diffMatrix(expected, matrix);
    assert.deepEqual(drift, [], `the matrix drifted from docs/languages.json:\n${drift.join('\n')}`);
  });

  it("get-solution-structure reports each language's features as the matrix found them", async function () {
    let structure: SolutionStructureData | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      structure = expectOk<SolutionStructureData>(await invoke('get-solution-structure', {})).data;
      const starting = structure.workspaces.items[0].languages.find((l) => l.retryAfterSeconds !== undefined);
      if (!starting) break;
      await new Promise((resolve) => setTimeout(resolve, starting.retryAfterSeconds! * 1000));
    }
    assert.ok(structure);
    const disagreements: string[] = [];
    for (const c of CASES) {
      const language = structure.workspaces.items[0].languages.find((l) => l.languageId === c.languageId);
      assert.ok(language?.features, `${c.languageId} is listed and probed`);
      for (const [feature, tool] of Object.entries(TOOL_FEATURES)) {
        const cell = matrix.tools[tool]?.[c.language];
        assert.ok(cell, `${tool} on ${c.language} ran`);
        const matrixSays = cell.status === 'supported';
        const structureSays = language.features[feature] === 'available';
        if (matrixSays !== structureSays) {
          disagreements.push(`${c.language} ${feature}: get-solution-structure ${language.features[feature]}, ${tool} ${cell.status}`);
        }
      }
    }
    assert.deepEqual(disagreements, []);
  });
});
