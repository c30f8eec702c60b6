import * as assert from 'node:assert/strict';
import type { HostSymbol, HostWorkspaceSymbol } from '../../../src/core/documents/editorPort';
import { readSymbol, SYMBOLS_READINESS } from '../../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../../src/core/symbols/symbols';
import { readSearch } from '../../../src/tools/search';
import type { SearchData } from '../../../src/tools/search';
import { DEFAULT_LANGUAGES, FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

/*
 * The tools on languages whose services provide less than TypeScript's (the built-in JSON, CSS,
 * HTML and Markdown services): what a service lacks is UnsupportedLanguageFeature naming it,
 * never an empty list that reads as "none"; what the text says (an element's content, a heading's
 * section, CommonJS exports) is read for the language it is written in.
 */

const SETTINGS = ['{', '  "name": "inventory",', '  "server": {', '    "port": 8080', '  }', '}', ''].join('\n');
const SITE = [':root {', '  --brand: #0b5fff;', '}', '', '.page {', '  color: var(--brand);', '}', ''].join('\n');
const PAGE = ['<main>', '  <section id="ledger">', '    <p>Entries.</p>', '  </section>', '  <br/>', '</main>', ''].join('\n');
const GUIDE = [
  '# Guide',
  '',
  'Intro.',
  '',
  '## Restocking',
  '',
  'Restock adds.',
  '',
  '### Limits',
  '',
  'Never below zero.',
  '',
  '## Reports',
  '',
  'Daily.',
  '',
].join('\n');
const REPORT = [
  'class Report {',
  '  render() {',
  "    return '';",
  '  }',
  '}',
  '',
  'function summarize() {',
  "  return '';",
  '}',
  '',
  'function helper() {}',
  '',
  'module.exports = { Report, summarize };',
  '',
].join('\n');
const SOURCE = ['export class Inventory {}', ''].join('\n');

/** The workspace symbol search's answer for src/inventory.ts's class. */
const inventoryIn = (abs: (p: string) => string): HostWorkspaceSymbol => ({
  name: 'Inventory',
  kind: 'Class',
  containerName: '',
  absPath: abs('src/inventory.ts'),
  start: { line: 0, character: 13 },
  end: { line: 0, character: 22 },
});

async function setup(): Promise<{ h: Harness; host: FakeHost; abs: (p: string) => string; ws: () => { documentId: (p: string) => string } }> {
  // Every language's extension active, as after its documents opened.
  const host = new FakeHost({ languages: DEFAULT_LANGUAGES.map((l) => ({ ...l, providedBy: l.providedBy.map((p) => ({ ...p, active: true })) })) });
  const folder = host.addFolder('langs', {
    'config/settings.json': SETTINGS,
    'styles/site.css': SITE,
    'index.html': PAGE,
    'docs/guide.md': GUIDE,
    'src/report.js': REPORT,
    'src/inventory.ts': SOURCE,
  });
  const abs = (p: string) => host.abs(folder, p);
  for (const [p, language] of [
    ['config/settings.json', 'json'],
    ['styles/site.css', 'css'],
    ['index.html', 'html'],
    ['docs/guide.md', 'markdown'],
    ['src/report.js', 'javascript'],
    ['src/inventory.ts', 'typescript'],
  ]) {
    host.openDocument(abs(p), undefined, language);
  }
  host.setSymbols(
    abs('config/settings.json'),
    symbolsIn(SETTINGS, [
      { name: 'name', kind: 'String', from: '"name"', to: '"inventory"' },
      { name: 'server', kind: 'Module', from: '"server"', to: '  }', children: [{ name: 'port', kind: 'Number', from: '"port"', to: '8080' }] },
    ]),
  );
  host.setSymbols(
    abs('styles/site.css'),
    symbolsIn(SITE, [
      { name: ':root', kind: 'Class', from: ':root', to: '}' },
      { name: '.page', kind: 'Class', from: '.page', to: '}' },
    ]),
  );
  // An element's name is its tag, #id and .classes; its selection range is the whole element, as VS Code's HTML service gives them.
  const element = (name: string, from: string, to: string, children: HostSymbol[] = []): HostSymbol => {
    const start = PAGE.indexOf(from);
    const end = PAGE.indexOf(to, start) + to.length;
    return { name, kind: 'Field', detail: '', range: { start, end }, selectionRange: { start, end }, children };
  };
  host.setSymbols(abs('index.html'), [
    element('main', '<main>', '</main>', [element('section#ledger', '<section', '</section>'), element('br', '<br/>', '<br/>')]),
  ]);
  // Section names keep their #, as VS Code's Markdown service gives them.
  host.setSymbols(
    abs('docs/guide.md'),
    symbolsIn(GUIDE, [
      {
        name: '# Guide',
        kind: 'String',
        from: '# Guide',
        to: 'Daily.\n',
        children: [
          {
            name: '## Restocking',
            kind: 'String',
            from: '## Restocking',
            to: 'zero.\n',
            children: [{ name: '### Limits', kind: 'String', from: '### Limits', to: 'zero.\n' }],
          },
          { name: '## Reports', kind: 'String', from: '## Reports', to: 'Daily.\n' },
        ],
      },
    ]),
  );
  host.setSymbols(
    abs('src/report.js'),
    symbolsIn(REPORT, [
      { name: 'Report', kind: 'Class', from: 'class Report', to: '  }\n}', children: [{ name: 'render', kind: 'Method', from: 'render', to: '  }' }] },
      { name: 'summarize', kind: 'Function', from: 'function summarize', to: "'';\n}" },
      { name: 'helper', kind: 'Function', from: 'function helper', to: '{}' },
    ]),
  );
  host.setSymbols(abs('src/inventory.ts'), symbolsIn(SOURCE, [{ name: 'Inventory', kind: 'Class', from: 'export class', to: '{}' }]));
  const h = await createHarness({ host });
  return { h, host, abs, ws: () => h.registry.all()[0] };
}

const at = (file: string, selectedText: string, extra: Record<string, unknown> = {}) => ({
  location: { selection: { document: { path: file }, selectedText, ...extra } },
});
const sym = (file: string, selectedText: string, extra: Record<string, unknown> = {}) => ({ symbol: at(file, selectedText, extra) });

describe('tools on languages with fewer features than TypeScript (JSON, CSS, HTML, Markdown)', () => {
  it('go-to-definition and find-references: UnsupportedLanguageFeature when no declaration of the document gets an answer', async () => {
    const { h, host } = await setup();
    host.navigation.locations = () => [];
    const definition = await h.fail('go-to-definition', at('config/settings.json', 'port', { contextBefore: '"' }), 'UnsupportedLanguageFeature');
    assert.match(definition.error.message, /^No definition provider for language "json"/);
    assert.equal(definition.continuation?.kind, 'ResolveExternally');
    const references = await h.fail('find-references', sym('config/settings.json', 'server', { contextBefore: '"' }), 'UnsupportedLanguageFeature');
    assert.match(references.error.message, /^No references provider for language "json"/);
    const implementations = await h.fail('find-implementations', sym('config/settings.json', 'server', { contextBefore: '"' }), 'UnsupportedLanguageFeature');
    assert.match(implementations.error.message, /^No implementation provider/);
  });

  it('go-to-definition: an empty answer stands where the provider answers at another declaration, remembered for the language', async () => {
    const { h, host, abs } = await setup();
    const root = SITE.indexOf(':root');
    host.navigation.locations = (feature, _absPath, offset) =>
      feature === 'definition' && offset === root ? [{ absPath: abs('styles/site.css'), range: { start: root, end: root + 5 } }] : [];
    const empty = await h.ok<{ targets: unknown[] }>('go-to-definition', at('styles/site.css', 'color'));
    assert.deepEqual(empty.data.targets, []);
    // Asked once more, the language's provider is known: no declaration is asked again.
    const before = host.calls.filter((c) => c.method === 'locationsAt:definition').length;
    await h.ok('go-to-definition', at('styles/site.css', 'color'));
    assert.equal(host.calls.filter((c) => c.method === 'locationsAt:definition').length, before + 1);
  });

  it('find-callers and the type hierarchy tools: UnsupportedLanguageFeature on a CSS rule or a JSON object, not "not callable" or an empty list', async () => {
    const { h, host } = await setup();
    host.navigation.callHierarchy = () => ({ roots: [], edges: [] });
    host.navigation.typeHierarchy = () => ({ roots: [], edges: [] });
    host.navigation.locations = () => [];
    for (const tool of ['find-callers', 'find-callees']) {
      const refused = await h.fail(tool, sym('config/settings.json', 'server', { contextBefore: '"' }), 'UnsupportedLanguageFeature');
      assert.match(refused.error.message, /^No call hierarchy provider for language "json"/);
    }
    for (const tool of ['get-type-hierarchy', 'find-derived-types', 'find-overrides']) {
      const refused = await h.fail(tool, sym('styles/site.css', '.page'), 'UnsupportedLanguageFeature');
      assert.match(refused.error.message, /^No type hierarchy provider for language "css"/);
    }
    // TypeScript's base lists are read without a provider: its class is still a type.
    const ts = await h.ok<{ source: string }>('get-type-hierarchy', sym('src/inventory.ts', 'Inventory'));
    assert.equal(ts.data.source, 'declarations');
  });

  it('get-partial-declarations: with neither a declaration nor a definition answer, the symbol is its one declaration', async () => {
    const { h, host } = await setup();
    host.navigation.locations = () => [];
    const answer = await h.ok<{ declarations: { items: SymbolOutput[]; totalCount: number } }>(
      'get-partial-declarations',
      sym('config/settings.json', 'server', { contextBefore: '"' }),
    );
    assert.deepEqual(
      answer.data.declarations.items.map((s) => readSymbol(s).name),
      ['server'],
    );
  });

  it('get-api-surface: Markdown headings (names starting with #) are listed; a CommonJS module exposes what module.exports names', async () => {
    const { h } = await setup();
    const md = await h.ok<{ symbols: { items: SymbolOutput[] } }>('get-api-surface', { document: { path: 'docs/guide.md' } });
    assert.deepEqual(
      md.data.symbols.items.map((s) => readSymbol(s).name),
      ['# Guide', '## Restocking', '## Reports'],
    );
    const js = await h.ok<{ symbols: { items: SymbolOutput[] } }>('get-api-surface', { document: { path: 'src/report.js' } });
    assert.deepEqual(
      js.data.symbols.items.map((s) => readSymbol(s).name),
      ['Report', 'render', 'summarize'],
    );
  });

  it("replace-symbol-body: an HTML element's content between its tags, a Markdown heading's section under its line", async () => {
    const { h, ws } = await setup();
    await h.ok('replace-symbol-body', { ...sym('index.html', 'section', { contextBefore: '<' }), text: '<p>Empty.</p>\n<p>Later.</p>' });
    assert.equal(
      h.transactions.stagedText(ws() as never, 'index.html'),
      ['<main>', '  <section id="ledger">', '    <p>Empty.</p>', '    <p>Later.</p>', '  </section>', '  <br/>', '</main>', ''].join('\n'),
    );
    const br = await h.fail('replace-symbol-body', { ...sym('index.html', 'br', { contextBefore: '<' }), text: 'x' }, 'InvalidRequest');
    assert.match(br.error.message, /no content between a start and an end tag/);
    await h.ok('replace-symbol-body', { ...sym('docs/guide.md', 'Restocking', { contextBefore: '## ' }), text: 'Restock later.' });
    assert.equal(
      h.transactions.stagedText(ws() as never, 'docs/guide.md'),
      ['# Guide', '', 'Intro.', '', '## Restocking', '', 'Restock later.', '', '## Reports', '', 'Daily.', ''].join('\n'),
    );
  });

  it('search-symbols names the languages whose declarations the symbol search does not cover', async () => {
    const { h, host, abs } = await setup();
    const inventory = inventoryIn(abs);
    // The search covers TypeScript and JavaScript (asked for the JavaScript document's first declaration, it finds it); JSON and Markdown have declarations it never finds.
    host.symbolProviders.workspaceSymbols = (query) =>
      'Inventory'.toLowerCase().includes(query.toLowerCase())
        ? [inventory]
        : query === 'Report'
          ? [{ ...inventory, name: 'Report', absPath: abs('src/report.js') }]
          : [];
    const answer = await h.ok<SearchData>('search-symbols', { query: 'Inventory' });
    assert.deepEqual(
      readSearch(answer.data).map((s) => readSymbol(s).name),
      ['Inventory'],
    );
    assert.deepEqual(answer.data.notSearched, ['json', 'markdown']);
    // Told once per language (its extension active): asked again, the search is not probed again.
    const probes = host.callCount('workspaceSymbols');
    await h.ok('search-symbols', { query: 'Inventory' });
    assert.equal(host.callCount('workspaceSymbols'), probes + 1);
  });

  describe('search-symbols probes a language through a document that declares something', () => {
    const saved = { ...SYMBOLS_READINESS };
    afterEach(() => Object.assign(SYMBOLS_READINESS, saved));

    // A TypeScript workspace's JSON: an empty settings file, a tsconfig that is a bare string, then one with keys.
    const jsonFolder = () => {
      const host = new FakeHost({ languages: DEFAULT_LANGUAGES.map((l) => ({ ...l, providedBy: l.providedBy.map((p) => ({ ...p, active: true })) })) });
      const folder = host.addFolder('app', {
        '.vscode/settings.json': '{}',
        'config/name.json': '"inventory"',
        'config/settings.json': SETTINGS,
        'src/inventory.ts': SOURCE,
      });
      const abs = (p: string) => host.abs(folder, p);
      const inventory = inventoryIn(abs);
      host.symbolProviders.workspaceSymbols = (query) => ('Inventory'.toLowerCase().includes(query.toLowerCase()) ? [inventory] : []);
      host.setSymbols(abs('src/inventory.ts'), symbolsIn(SOURCE, [{ name: 'Inventory', kind: 'Class', from: 'class', to: '{}' }]));
      return { host, abs };
    };

    it('samples without declarations are passed over without the wait a starting service gets', async () => {
      // A wait would outlast the test's timeout.
      Object.assign(SYMBOLS_READINESS, { waitMs: 60_000 });
      const { host, abs } = jsonFolder();
      host.setSymbols(abs('config/settings.json'), symbolsIn(SETTINGS, [{ name: 'name', kind: 'String', from: '"name"', to: '"inventory"' }]));
      const h = await createHarness({ host });
      const answer = await h.ok<SearchData>('search-symbols', { query: 'Inventory' });
      assert.deepEqual(answer.data.notSearched, ['json'], 'the search was asked for "name", found it in no JSON document');
      assert.equal(host.callCount('documentSymbols', abs('.vscode/settings.json')), 0, '{} names nothing: its symbols are not asked for');
      assert.equal(host.callCount('documentSymbols', abs('config/name.json')), 1, 'asked once, not polled');
      assert.equal(host.callCount('workspaceSymbols', 'name'), 1);
    });

    it('when no sample answers at once (a starting service), the longest one is waited for', async () => {
      Object.assign(SYMBOLS_READINESS, { waitMs: 60, stepMs: 10 });
      const { host, abs } = jsonFolder();
      const h = await createHarness({ host });
      const answer = await h.ok<SearchData>('search-symbols', { query: 'Inventory' });
      assert.equal(answer.data.notSearched, undefined, 'no declaration to search for: JSON is not said to be left out');
      assert.equal(host.callCount('documentSymbols', abs('config/name.json')), 1);
      assert.ok(host.callCount('documentSymbols', abs('config/settings.json')) > 2, 'the longest JSON document was asked again while the wait lasted');
    });
  });
});
