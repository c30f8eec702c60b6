import * as path from 'node:path';
import { readOutline } from '../../../../src/tools/symbols';
import { readSearch } from '../../../../src/tools/search';
import type { OutlineData } from '../../../../src/tools/symbols';
import type { SearchData } from '../../../../src/tools/search';
import * as assert from 'node:assert/strict';
import { LinkedCancellation } from '../../../../src/core/chain/cancellation';
import { beforeTimeout, READINESS } from '../../../../src/core/symbols/readiness';
import { WARM_EVERY_MS, WARM_REFRESH_MS } from '../../../../src/core/transactions/check';
import type { StagedChecker, StagedWarmRequest } from '../../../../src/core/transactions/check';
import { ToolContext } from '../../../../src/core/documents/context';
import type { Transaction } from '../../../../src/core/transactions/transaction';
import { deserializeTransaction, serializeTransaction } from '../../../../src/core/transactions/store';
import { readSymbol } from '../../../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../../../src/core/symbols/symbols';
import type { HostSymbol, HostWorkspaceSymbol } from '../../../../src/core/documents/editorPort';
import { FakeHost, symbolsIn } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';
import type { Harness } from '../../support/harness';

/*
 * One readiness check for every project-wide answer: a language service that answers from the
 * open files only (TypeScript while its project loads) is never taken at its word.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const BASE = 'export interface Shape {\n  area(): number;\n}\nexport class Circle implements Shape {\n  area(): number { return 1; }\n}\n';
const OTHER = 'import { Circle } from "./base";\nexport class Big extends Circle {}\nexport function makeBig(): Big { return new Big(); }\n';

const THIRD = 'export const third = 3;\nexport function helper(): number { return third; }\n';

/** A workspace symbol as a provider gives it: the name's line and character in the text. */
function declared(name: string, kind: string, absPath: string, text: string, after = ''): HostWorkspaceSymbol {
  const at = text.indexOf(name, text.indexOf(after));
  const before = text.slice(0, at).split('\n');
  const start = { line: before.length - 1, character: before[before.length - 1].length };
  return { name, kind, containerName: '', absPath, start, end: { line: start.line, character: start.character + name.length } };
}

describe('readiness: project-wide answers from a service still loading its project', () => {
  let h: Harness;
  let host: FakeHost;
  let basePath: string;
  let otherPath: string;
  let thirdPath: string;
  /** Whether the fake service has loaded the project: before, workspace symbols know the open files only. */
  let loaded: boolean;
  const saved = { ...READINESS };
  const circle = { symbol: { location: { selection: { document: { path: 'src/base.ts' }, selectedText: 'Circle', contextBefore: 'class ' } } } };
  const shape = { symbol: { location: { selection: { document: { path: 'src/base.ts' }, selectedText: 'Shape', contextBefore: 'interface ' } } } };

  beforeEach(async () => {
    Object.assign(READINESS, { maxWaitMs: 80, stepMs: 10 });
    host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}', 'src/base.ts': BASE, 'src/other.ts': OTHER, 'src/third.ts': THIRD });
    thirdPath = host.abs(folder, 'src/third.ts');
    basePath = host.abs(folder, 'src/base.ts');
    otherPath = host.abs(folder, 'src/other.ts');
    host.setSymbols(
      basePath,
      symbolsIn(BASE, [
        { name: 'Shape', kind: 'Interface', from: 'export interface', to: '}\n' },
        { name: 'Circle', kind: 'Class', from: 'export class', to: '}\n}' },
      ]),
    );
    host.setSymbols(
      otherPath,
      symbolsIn(OTHER, [
        { name: 'Big', kind: 'Class', from: 'export class', to: '{}' },
        { name: 'makeBig', kind: 'Function', from: 'export function', to: '}\n' },
      ]),
    );
    loaded = false;
    const all = [
      declared('Shape', 'Interface', basePath, BASE),
      declared('Circle', 'Class', basePath, BASE, 'class'),
      declared('Big', 'Class', otherPath, OTHER, 'class'),
      declared('makeBig', 'Function', otherPath, OTHER),
      declared('third', 'Constant', thirdPath, THIRD),
      declared('helper', 'Function', thirdPath, THIRD),
    ];
    const open = () => new Set(host.openDocuments().map((d) => d.absPath));
    host.symbolProviders.workspaceSymbols = (q) => all.filter((s) => s.name.toLowerCase().includes(q.toLowerCase()) && (loaded || open().has(s.absPath)));
    host.openDocument(basePath);
    h = await createHarness({ host });
  });

  afterEach(() => Object.assign(READINESS, saved));

  it('search-symbols: LanguageServiceStarting (RetryRequest) instead of an empty list, partial when the open files have matches, whole once loaded', async () => {
    const refused = await h.fail('search-symbols', { query: 'Big' }, 'LanguageServiceStarting');
    assert.equal(refused.continuation?.kind, 'RetryRequest');
    assert.match(refused.error.message, /still loading the project/);
    const partial = (await h.ok<SearchData>('search-symbols', { query: 'Circle' })).data;
    assert.deepEqual(
      readSearch(partial).map((s) => readSymbol(s).name),
      ['Circle'],
    );
    assert.equal(partial.complete, false);
    assert.match(partial.note ?? '', /open files only/);
    loaded = true;
    const whole = (await h.ok<SearchData>('search-symbols', { query: 'Big' })).data;
    assert.deepEqual(
      readSearch(whole).map((s) => readSymbol(s).name),
      ['Big', 'makeBig'],
    );
    assert.equal(whole.complete, undefined, 'a complete answer carries no complete field');
  });

  it('search-symbols with no document open starts the service on the most common source file, then waits for it', async () => {
    host.closeDocument(basePath);
    loaded = true;
    const whole = (await h.ok<SearchData>('search-symbols', { query: 'makeBig' })).data;
    assert.deepEqual(
      readSearch(whole).map((s) => readSymbol(s).name),
      ['makeBig'],
    );
    assert.equal(whole.complete, undefined);
  });

  it('find-implementations, find-derived-types, get-type-hierarchy, find-callers: refused while empty, never an empty list from a loading service', async () => {
    // An implementation provider that exists (it names Circle itself, as TypeScript's does) but finds nothing implementing Shape.
    const circleAt = BASE.indexOf('Circle');
    host.navigation.locations = (feature, absPath, offset) =>
      feature === 'implementation' && offset === circleAt ? [{ absPath, range: { start: circleAt, end: circleAt + 6 } }] : [];
    host.navigation.typeHierarchy = () => ({ roots: [], edges: [] });
    host.openDocument(otherPath);
    host.navigation.callHierarchy = (absPath, offset) => ({
      roots: [
        {
          name: 'makeBig',
          kind: 'Function',
          detail: '',
          absPath,
          range: { start: offset, end: offset + 7 },
          selectionRange: { start: offset, end: offset + 7 },
        },
      ],
      edges: [],
    });
    await h.fail('find-implementations', shape, 'LanguageServiceStarting');
    await h.fail('find-derived-types', circle, 'LanguageServiceStarting');
    await h.fail(
      'find-callers',
      { symbol: { location: { selection: { document: { path: 'src/other.ts' }, selectedText: 'makeBig' } } } },
      'LanguageServiceStarting',
    );
    loaded = true;
    const impls = (await h.ok<{ implementations: { items: unknown[] }; complete?: boolean }>('find-implementations', shape)).data;
    assert.deepEqual([impls.implementations.items.length, impls.complete], [0, undefined], 'once loaded, none is an answer');
    const callers = await h.calls<{ calls: { items: unknown[] }; complete?: boolean }>('find-callers', {
      symbol: { location: { selection: { document: { path: 'src/other.ts' }, selectedText: 'makeBig' } } },
    });
    assert.deepEqual([callers.calls.items.length, callers.complete], [0, undefined]);
  });

  it('find-implementations: no provider answering anywhere in the document (pyright has none) is UnsupportedLanguageFeature, not "none"', async () => {
    loaded = true;
    host.navigation.locations = () => [];
    const refused = await h.fail('find-implementations', shape, 'UnsupportedLanguageFeature');
    assert.match(refused.error.message, /implementation/);
  });

  it('get-symbol-info: a hover that says "(loading...)" is asked again once the project has loaded; still loading, the answer says complete:false', async () => {
    const hovers: string[] = [];
    host.symbolProviders.hover = () => {
      hovers.push(loaded ? 'loaded' : 'loading');
      return [loaded ? '```typescript\nclass Circle\n```' : '```typescript\n(loading...) class Circle\n```'];
    };
    const partial = (await h.ok<{ hover: string[]; complete?: boolean; note?: string }>('get-symbol-info', circle)).data;
    assert.deepEqual(partial.hover, ['```typescript\n(loading...) class Circle\n```']);
    assert.equal(partial.complete, false);
    assert.match(partial.note ?? '', /still loading/);
    // The project finishes loading while the tool waits: the second hover is the loaded one, and the answer is whole.
    hovers.length = 0;
    host.symbolProviders.hover = () => {
      const first = hovers.length === 0;
      hovers.push(first ? 'loading' : 'loaded');
      if (first) setTimeout(() => (loaded = true), 20);
      return [first ? '```typescript\n(loading...) class Circle\n```' : '```typescript\nclass Circle\n```'];
    };
    const whole = (await h.ok<{ hover: string[]; complete?: boolean }>('get-symbol-info', circle)).data;
    assert.deepEqual(whole.hover, ['```typescript\nclass Circle\n```']);
    assert.equal(whole.complete, undefined);
    assert.deepEqual(hovers, ['loading', 'loaded']);
  });

  it('find-implementations: a non-empty answer from a loading service says complete:false', async () => {
    const circleAt = BASE.indexOf('Circle');
    host.navigation.locations = (feature) => (feature === 'implementation' ? [{ absPath: basePath, range: { start: circleAt, end: circleAt + 6 } }] : []);
    const d = (await h.ok<{ implementations: { items: unknown[] }; complete?: boolean; note?: string }>('find-implementations', shape)).data;
    assert.equal(d.implementations.items.length, 1);
    assert.equal(d.complete, false);
    assert.match(d.note ?? '', /Ask again/);
  });

  it('rename-symbol and prepare-fix-all refuse while loading and stage nothing; rename stages once loaded', async () => {
    const circleAt = BASE.indexOf('Circle');
    host.semantics.rename = () => ({ [basePath]: [{ start: circleAt, length: 6, newText: 'Round' }] });
    const refused = await h.fail('rename-symbol', { ...circle, newName: 'Round' }, 'LanguageServiceStarting');
    assert.equal(refused.continuation?.kind, 'RetryRequest');
    assert.match(refused.error.message, /nothing was staged/);
    assert.equal(host.callCount('renameEdits'), 0, 'the rename was not even asked for');
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined, 'no transaction');
    await h.fail('prepare-fix-all', { document: { path: 'src/base.ts' } }, 'LanguageServiceStarting');
    loaded = true;
    const staged = (await h.ok<{ revision: { revision: number } }>('rename-symbol', { ...circle, newName: 'Round' })).data;
    assert.equal(staged.revision.revision, 1);
  });

  it("a rename asked while the language's extension is still activating (no provider registered yet) is refused as loading, never taken as a language without workspace symbol search", async () => {
    const ts = host.languageContributions.find((l) => l.id === 'typescript');
    assert.ok(ts);
    ts.providedBy = [{ extensionId: 'vscode.typescript-language-features', active: false }];
    const symbols = host.symbolProviders.workspaceSymbols;
    host.symbolProviders.workspaceSymbols = () => [];
    const tree = (await host.documentSymbols(basePath)) ?? [];
    host.setSymbols(basePath, undefined);
    host.semantics.rename = () => ({ [basePath]: [{ start: BASE.indexOf('Circle'), length: 6, newText: 'Round' }] });
    // The extension finishes activating while the call waits: its providers answer from the open files (the project still loads).
    setTimeout(() => {
      ts.providedBy = [{ extensionId: 'vscode.typescript-language-features', active: true }];
      host.setSymbols(basePath, tree);
      host.symbolProviders.workspaceSymbols = symbols;
    }, 30);
    const refused = await h.fail('rename-symbol', { ...circle, newName: 'Round' }, 'LanguageServiceStarting');
    assert.match(refused.error.message, /still loading the project/);
    assert.equal(host.callCount('renameEdits'), 0, 'the rename was not asked of a service still loading');
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined, 'nothing staged');
    loaded = true;
    await h.ok('rename-symbol', { ...circle, newName: 'Round' });
  });

  it('a rename cancelled while it waits for a loading service answers Cancelled at once and stops probing the service, staging nothing', async () => {
    Object.assign(READINESS, { maxWaitMs: 5_000 });
    host.semantics.rename = () => ({ [basePath]: [{ start: BASE.indexOf('Circle'), length: 6, newText: 'Round' }] });
    const token = new LinkedCancellation();
    const started = Date.now();
    const call = h.fail('rename-symbol', { ...circle, newName: 'Round' }, 'Cancelled', { token });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(host.callCount('workspaceSymbols') > 0, 'it was probing the loading service');
    token.cancel();
    await call;
    assert.ok(Date.now() - started < 1_000, `answered ${Date.now() - started} ms after the call`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const probes = host.callCount('workspaceSymbols');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(host.callCount('workspaceSymbols'), probes, 'no probe after the cancel (the wait would have gone on for 5 s)');
    assert.equal(host.callCount('renameEdits'), 0, 'the rename was never computed');
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined, 'no transaction');
  });

  it('a rename whose service began loading another project while it computed the edit is refused after it, and stages nothing', async () => {
    loaded = true;
    const circleAt = BASE.indexOf('Circle');
    host.semantics.rename = () => {
      // A document of the language opens meanwhile and its project starts loading.
      host.openDocument(otherPath);
      loaded = false;
      return { [basePath]: [{ start: circleAt, length: 6, newText: 'Round' }] };
    };
    const refused = await h.fail('rename-symbol', { ...circle, newName: 'Round' }, 'LanguageServiceStarting');
    assert.match(refused.error.message, /may have been computed from the open files only, so nothing was staged/);
    assert.equal(host.callCount('renameEdits'), 1);
    assert.equal(h.transactions.active(h.registry.all()[0].id), undefined, 'no transaction');
  });

  it('each revision records what the service covered; one staged while it was loading is not committed until staged again', async () => {
    loaded = true;
    const circleAt = BASE.indexOf('Circle');
    host.semantics.rename = () => ({ [basePath]: [{ start: circleAt, length: 6, newText: 'Round' }] });
    await h.ok('rename-symbol', { ...circle, newName: 'Round' });
    const w = h.registry.all()[0];
    const tx = h.transactions.active(w.id);
    assert.deepEqual(tx?.revisions[0].coverage, { languageId: 'typescript', state: 'loaded' });
    // Defence in depth: every tool refuses to stage from a loading service, so such a revision is made here directly.
    await h.transactions.stage(
      undefined,
      w,
      { tool: 'rename-symbol', summary: 'Rename Big to Large' },
      [{ kind: 'edit', path: 'src/other.ts', edits: [{ start: OTHER.indexOf('Big'), end: OTHER.indexOf('Big') + 3, newText: 'Large' }] }],
      {
        basis: 'staged',
        coverage: { languageId: 'typescript', state: 'loading' },
      },
    );
    const kept = deserializeTransaction(serializeTransaction(tx as Transaction, w.fsPath));
    assert.deepEqual(
      kept.revisions.map((r) => r.coverage?.state),
      ['loaded', 'loading'],
      'kept across a window reload',
    );
    const failed = await h.fail('transaction-commit', {}, 'LanguageServiceStarting');
    assert.match(
      failed.error.message,
      /Revision 2 \(Rename Big to Large\) was staged while the typescript language service was still loading the project.*Nothing was written/,
    );
    assert.equal(failed.continuation?.kind, 'CallTool');
    assert.equal(host.diskText(basePath), BASE, 'nothing written');
    assert.equal(host.diskText(otherPath), OTHER, 'nothing written');
    await assert.rejects(h.transactions.commit(undefined, w, 'person'), /Revision 2/, 'the person cannot commit it either');
    await h.ok('transaction-history', { action: 'undo' });
    await h.ok('transaction-commit', {});
    assert.equal(host.diskText(basePath), BASE.replace('Circle', 'Round'), 'the revision staged from a loaded service is written');
    assert.equal(host.diskText(otherPath), OTHER);
  });

  it('a loading service too slow to answer even from the open files: LanguageServiceStarting within the timeout, not Timeout', async () => {
    Object.assign(READINESS, { marginMs: 300 });
    h.settings.defaultTimeoutSeconds = 1;
    const search = host.workspaceSymbols.bind(host);
    host.workspaceSymbols = async (q: string) => {
      if (q === 'Bi') await new Promise((resolve) => setTimeout(resolve, 3_000));
      return search(q);
    };
    host.locationsAt = () => new Promise(() => undefined);
    const started = Date.now();
    const refused = await h.fail('search-symbols', { query: 'Bi' }, 'LanguageServiceStarting');
    assert.match(refused.error.message, /did not come back before the call's timeout/);
    assert.equal(refused.continuation?.kind, 'RetryRequest');
    await h.fail('find-implementations', shape, 'LanguageServiceStarting');
    assert.ok(Date.now() - started < 2_500, 'both answered within their 1 s timeouts');
  });

  it('a service that just proved it loaded and is too slow to answer: LanguageServiceStarting within the timeout; long after the proof, Timeout', async () => {
    Object.assign(READINESS, { marginMs: 300 });
    h.settings.defaultTimeoutSeconds = 1;
    loaded = true;
    host.locationsAt = () => new Promise(() => undefined);
    const started = Date.now();
    const refused = await h.fail('find-implementations', shape, 'LanguageServiceStarting');
    assert.match(refused.error.message, /implementations did not come back before the call's timeout/);
    const search = host.workspaceSymbols.bind(host);
    host.workspaceSymbols = async (q: string) => (q === 'Bi' ? new Promise(() => undefined) : search(q));
    await h.fail('search-symbols', { query: 'Bi' }, 'LanguageServiceStarting');
    assert.ok(Date.now() - started < 2_500, 'both answered within their 1 s timeouts');
    // The proof is old: a late answer is the call's own Timeout, which says to narrow the question.
    Object.assign(READINESS, { settleMs: 0 });
    await h.fail('find-implementations', shape, 'Timeout');
  });

  it('a call that ran out of time in its own work (a busy machine): Timeout once the service proved loaded long ago, LanguageServiceStarting when it saw it loading', async () => {
    const implementation = (absPath: string, text: string, name: string) => {
      const start = text.indexOf(name);
      host.navigation.locations = (feature) => (feature === 'implementation' ? [{ absPath, range: { start, end: start + name.length } }] : []);
    };
    host.setSymbols(thirdPath, symbolsIn(THIRD, [{ name: 'helper', kind: 'Function', from: 'export function', to: '}\n' }]));
    implementation(thirdPath, THIRD, 'helper');
    // Proved loaded, long ago: a call that runs out of time is the call's own Timeout.
    loaded = true;
    await h.ok('find-implementations', shape);
    Object.assign(READINESS, { settleMs: 0, marginMs: 300 });
    h.settings.defaultTimeoutSeconds = 1;
    // The implementation comes back; reading where it is does not, within the call's time.
    implementation(otherPath, OTHER, 'Big');
    const symbols = host.documentSymbols.bind(host);
    host.documentSymbols = async (p: string) => (p === otherPath ? new Promise<undefined>(() => undefined) : symbols(p));
    await h.fail('find-implementations', shape, 'Timeout');
    // Loading: the same slowness answers LanguageServiceStarting.
    loaded = false;
    h.services.readiness.clear();
    const refused = await h.fail('find-implementations', shape, 'LanguageServiceStarting');
    assert.equal(refused.continuation?.kind, 'RetryRequest');
    assert.match(refused.error.message, /still loading the project .*ran out of time before its answer was complete/);
  });

  it('a call that runs out of time before any verdict (resolving its selector already waits on the service): LanguageServiceStarting until the service proved it loaded', async () => {
    h.settings.defaultTimeoutSeconds = 1;
    const symbols = host.documentSymbols.bind(host);
    host.documentSymbols = async (p: string) => (p === basePath ? new Promise<undefined>(() => undefined) : symbols(p));
    const refused = await h.fail('find-implementations', shape, 'LanguageServiceStarting');
    assert.equal(refused.continuation?.kind, 'RetryRequest');
  });

  it('find-references asked before a concurrent call proved the project loaded asks again: the first answer may predate the load', async () => {
    const circleAt = BASE.indexOf('Circle');
    const bigAt = OTHER.indexOf('Circle');
    const inBase = { absPath: basePath, range: { start: circleAt, end: circleAt + 6 } };
    const inOther = { absPath: otherPath, range: { start: bigAt, end: bigAt + 6 } };
    let asked = 0;
    host.navigation.locations = (feature) => (feature !== 'references' ? [] : loaded ? [inBase, inOther] : [inBase]);
    const locations = host.locationsAt.bind(host);
    host.locationsAt = async (feature, absPath, offset) => {
      const answer = await locations(feature, absPath, offset);
      if (feature === 'references' && asked++ === 0) {
        // While the open-files answer is on its way, the project loads and another call proves it.
        loaded = true;
        await h.ok('search-symbols', { query: 'Shape' });
      }
      return answer;
    };
    const refs = (await h.ok<{ documents: { items: { path: string }[] }; totalReferences: number; complete: boolean }>('find-references', circle)).data;
    assert.equal(refs.complete, true);
    assert.equal(asked, 2, 'asked again after the proof');
    assert.deepEqual(
      refs.documents.items.map((d) => d.path),
      ['src/base.ts', 'src/other.ts'],
    );
    assert.equal(refs.totalReferences, 2);
  });

  it('the proof is kept until a document of the language opens, then asked once more', async () => {
    // A provider that finds nothing implementing Shape, but names Circle itself.
    const circleAt = BASE.indexOf('Circle');
    host.navigation.locations = (feature, absPath, offset) =>
      feature === 'implementation' && offset === circleAt ? [{ absPath, range: { start: circleAt, end: circleAt + 6 } }] : [];
    loaded = true;
    await h.ok('find-implementations', shape);
    const before = host.callCount('workspaceSymbols');
    await h.ok('find-implementations', shape);
    await h.ok('find-derived-types', circle);
    assert.equal(host.callCount('workspaceSymbols'), before, 'no probe while the open documents are the same');
    host.openDocument(thirdPath);
    await h.ok('find-implementations', shape);
    assert.ok(host.callCount('workspaceSymbols') > before, 'probed again after a document opened');
    // A document of another project opens and its service starts loading: the proof no longer holds.
    loaded = false;
    host.openDocument(host.abs(h.registry.all()[0].folder, 'src/fourth.ts'), 'export const fourth = 4;\n');
    await h.fail('search-symbols', { query: 'Big' }, 'LanguageServiceStarting');
  });

  it('find-references: complete:false from a loading service, and complete once loaded', async () => {
    const circleAt = BASE.indexOf('Circle');
    host.navigation.locations = () => [{ absPath: basePath, range: { start: circleAt, end: circleAt + 6 } }];
    const partial = (await h.ok<{ complete: boolean }>('find-references', circle)).data;
    assert.equal(partial.complete, false);
    loaded = true;
    assert.equal((await h.ok<{ complete: boolean }>('find-references', circle)).data.complete, true);
  });

  it("a reference found in a file nobody has open shows the project loaded: the check's current side is computed ahead from a settle after that, not in inspection-only mode", async () => {
    const warmed: StagedWarmRequest[] = [];
    h = await createHarness({ host, checker: { check: async () => ({ outcome: 'cancelled' }), warm: async (r) => (warmed.push(r), undefined) } });
    READINESS.settleMs = 200;
    host.navigation.locations = () => [{ absPath: otherPath, range: { start: OTHER.indexOf('Circle'), end: OTHER.indexOf('Circle') + 6 } }];
    const seen = Date.now();
    assert.equal((await h.ok<{ complete: boolean }>('find-references', circle)).data.complete, true);
    assert.equal(warmed.length, 0);
    await h.services.checks.warmings();
    assert.deepEqual(
      warmed.map((r) => r.files),
      [['src/base.ts']],
    );
    assert.ok(Date.now() - seen >= 190, `started ${Date.now() - seen} ms after the answer that showed it`);
    // Inspection-only (an untrusted workspace, or the person's choice): nothing can be staged, so nothing is computed.
    const inspecting = await createHarness({
      host,
      checker: { check: async () => ({ outcome: 'cancelled' }), warm: async (r) => (warmed.push(r), undefined) },
      settings: { operationalMode: 'inspection-only' },
    });
    assert.equal((await inspecting.ok<{ complete: boolean }>('find-references', circle)).data.complete, true);
    assert.deepEqual(await inspecting.services.checks.warmings(), []);
    assert.equal(warmed.length, 1);
  });

  it("an agent's question in a loaded project computes the check's current side ahead: not while loading, once a minute at most after a change and before the worker would end without one, TypeScript or JavaScript only", async () => {
    const warmed: StagedWarmRequest[] = [];
    const checker: StagedChecker = {
      check: async () => ({ outcome: 'cancelled' }),
      warm: async (r) => (warmed.push(r), { projects: ['tsconfig.json'], files: 3, computed: 3, durationMs: 1 }),
    };
    h = await createHarness({ host, checker });
    const circleAt = BASE.indexOf('Circle');
    host.navigation.locations = () => [{ absPath: basePath, range: { start: circleAt, end: circleAt + 6 } }];
    await h.ok('find-references', circle);
    assert.equal(warmed.length, 0, 'the service is still loading its project: nothing competes with it');
    loaded = true;
    READINESS.settleMs = 300;
    const proved = Date.now();
    await h.ok('find-references', circle);
    await h.ok('find-references', shape);
    assert.equal(warmed.length, 0, 'not while the service settles after its proof');
    assert.deepEqual(await h.services.checks.warmings(), [{ projects: ['tsconfig.json'], files: 3, computed: 3, durationMs: 1 }]);
    assert.ok(Date.now() - proved >= 290, `started ${Date.now() - proved} ms after the proof`);
    assert.deepEqual(warmed, [{ folder: h.registry.all()[0].fsPath, files: ['src/base.ts'], buffers: {} }], 'once for two questions');
    const ws = h.registry.all()[0];
    assert.equal(
      h.services.checks.warm(ws, otherPath, async () => ({}), { now: Date.now() + WARM_EVERY_MS - 1_000 }),
      false,
    );
    assert.equal(
      h.services.checks.warm(ws, `${ws.fsPath}/notes.md`, async () => ({}), { now: Date.now() + WARM_EVERY_MS + 1_000 }),
      false,
    );
    assert.equal(
      h.services.checks.warm(ws, '/elsewhere/x.ts', async () => ({}), { now: Date.now() + WARM_EVERY_MS + 1_000 }),
      false,
    );
    const later = (ms: number) => h.services.checks.warm(ws, otherPath, async () => ({}), { now: Date.now() + ms });
    assert.equal(later(WARM_EVERY_MS + 1_000), false, 'nothing changed: only a refresh before the worker would end');
    assert.equal(later(WARM_REFRESH_MS + 1_000), true, 'a refresh keeps the worker and what it computed');
    h.registry.recordChange(thirdPath, 'content');
    assert.equal(later(WARM_REFRESH_MS + 1_000 + WARM_EVERY_MS - 1_000), false, 'changed, but asked a moment ago');
    assert.equal(later(WARM_REFRESH_MS + 1_000 + WARM_EVERY_MS + 1_000), true, 'changed: again after a minute');
    await h.services.checks.warmings();
    assert.deepEqual(
      warmed.map((r) => r.files),
      [['src/base.ts'], ['src/other.ts'], ['src/other.ts']],
    );
  });
});

describe('readiness: the residue read ahead', () => {
  const saved = { ...READINESS };
  afterEach(() => Object.assign(READINESS, saved));

  it("a question in a loaded project has the host read the folder's files of the language family for a rename's residue: once a minute at most, not while loading", async () => {
    Object.assign(READINESS, { maxWaitMs: 80, stepMs: 10, wordsAheadDelayMs: 20 });
    const host = new FakeHost();
    const folder = host.addFolder('app', {
      'tsconfig.json': '{}',
      'src/base.ts': BASE,
      'src/other.ts': OTHER,
      'web/page.js': 'export const page = 1;\n',
      'notes.md': '# Circle\n',
    });
    const basePath = host.abs(folder, 'src/base.ts');
    const otherPath = host.abs(folder, 'src/other.ts');
    host.setSymbols(basePath, symbolsIn(BASE, [{ name: 'Circle', kind: 'Class', from: 'export class', to: '}\n}' }]));
    host.setSymbols(otherPath, symbolsIn(OTHER, [{ name: 'Big', kind: 'Class', from: 'export class', to: '{}' }]));
    let loaded = false;
    const big = declared('Big', 'Class', otherPath, OTHER, 'class');
    host.symbolProviders.workspaceSymbols = (q) => (loaded && 'big'.includes(q.toLowerCase()) ? [big] : []);
    const circleAt = BASE.indexOf('Circle');
    host.navigation.locations = () => [{ absPath: basePath, range: { start: circleAt, end: circleAt + 6 } }];
    const reads: string[][] = [];
    host.readWordsAhead = async (files) => {
      reads.push(files.map((f) => `${path.relative(host.abs(folder, ''), f.absPath)}:${f.languageId}`).sort());
    };
    host.openDocument(basePath);
    const h = await createHarness({ host });
    const circle = { symbol: { location: { selection: { document: { path: 'src/base.ts' }, selectedText: 'Circle', contextBefore: 'class ' } } } };
    await h.ok('find-references', circle);
    await sleep(60);
    assert.deepEqual(reads, [], 'not while the service loads its project');
    loaded = true;
    await h.ok('find-references', circle);
    await h.ok('find-references', circle);
    await sleep(60);
    assert.deepEqual(reads, [['src/base.ts:typescript', 'src/other.ts:typescript', 'web/page.js:javascript']], 'once for two questions');
    READINESS.wordsAheadEveryMs = 0;
    await h.ok('find-references', circle);
    await sleep(60);
    assert.equal(reads.length, 2, 'again after wordsAheadEveryMs');
  });
});

describe('readiness: languages it cannot test', () => {
  it('reads a bounded number of closed files looking for a declaration, then takes the service at its word (unverifiable)', async () => {
    const host = new FakeHost();
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`docs/page${i}.md`] = `# Page ${i}\n\nText.\n`;
    const folder = host.addFolder('notes', files);
    const page = host.abs(folder, 'docs/page0.md');
    host.openDocument(page);
    host.setSymbols(page, symbolsIn(files['docs/page0.md'], [{ name: 'Page 0', kind: 'String', from: '# Page 0' }]));
    host.symbolProviders.workspaceSymbols = () => [];
    host.navigation.locations = () => [{ absPath: page, range: { start: 2, end: 8 } }];
    const h = await createHarness({ host });
    const before = host.callCount('readFileText');
    const d = (
      await h.ok<{ complete: boolean }>('find-references', {
        symbol: { location: { selection: { document: { path: 'docs/page0.md' }, selectedText: 'Page 0' } } },
      })
    ).data;
    assert.ok(host.callCount('readFileText') - before <= 24, `${host.callCount('readFileText') - before} files read`);
    assert.equal(d.complete, false, 'references only from open files, and nothing to show the service covers the others');
    const again = host.callCount('readFileText');
    await h.ok('find-references', { symbol: { location: { selection: { document: { path: 'docs/page0.md' }, selectedText: 'Page 0' } } } });
    assert.equal(host.callCount('readFileText'), again, 'the verdict is kept while no Markdown document opens');
    host.openDocument(host.abs(folder, 'docs/page1.md'));
    await h.ok('find-references', { symbol: { location: { selection: { document: { path: 'docs/page0.md' }, selectedText: 'Page 0' } } } });
    assert.ok(host.callCount('readFileText') > again, 'and tested again once one opens');
  });

  it("Python: tests the service with a closed file's own names, never special methods such as __init__ (one in every class)", async () => {
    const host = new FakeHost();
    const MODELS = 'class Order:\n    def __init__(self) -> None:\n        self.lines = []\n\n    def total(self) -> int:\n        return 0\n';
    const folder = host.addFolder('shop', { 'pyproject.toml': '[project]\nname = "shop"\n', 'app.py': 'import models\n', 'models.py': MODELS });
    const app = host.abs(folder, 'app.py');
    const models = host.abs(folder, 'models.py');
    host.openDocument(app, undefined, 'python');
    host.setSymbols(app, []);
    // The service finds total only: the probes are asked in order until one is found.
    host.symbolProviders.workspaceSymbols = (query) => (query === 'total' ? [declared('total', 'Method', models, MODELS)] : []);
    const h = await createHarness({ host });
    await h.ok('search-symbols', { query: 'total' });
    const asked = host.calls.filter((c) => c.method === 'workspaceSymbols').map((c) => c.arg);
    assert.deepEqual(asked.slice(0, 2), ['Order', 'total'], 'the names declared in models.py, __init__ left out');
    assert.ok(!asked.includes('__init__'), asked.join(', '));
  });
});

describe('overloads: questions are asked at the name, from any overload or the implementation', () => {
  const TEXT = [
    'export function innerFrom(input: string): number;',
    'export function innerFrom(input: number): number;',
    'export function innerFrom(input: unknown): number {',
    '  return 1;',
    '}',
    'export function caller(): number { return innerFrom(1); }',
    '',
  ].join('\n');
  let h: Harness;
  let host: FakeHost;
  let absPath: string;

  beforeEach(async () => {
    host = new FakeHost();
    const folder = host.addFolder('app', { 'src/inner.ts': TEXT });
    absPath = host.abs(folder, 'src/inner.ts');
    host.openDocument(absPath);
    // As TypeScript gives them: every declaration after the first has its whole range as selection range.
    const decl = (n: number): HostSymbol => {
      const start = TEXT.split('\n').slice(0, n).join('\n').length + (n > 0 ? 1 : 0);
      const end = n === 2 ? TEXT.indexOf('}\n') + 1 : TEXT.indexOf(';', start) + 1;
      const nameAt = TEXT.indexOf('innerFrom', start);
      return {
        name: 'innerFrom',
        kind: 'Function',
        detail: '',
        range: { start, end },
        selectionRange: n === 0 ? { start: nameAt, end: nameAt + 9 } : { start, end },
        children: [],
      };
    };
    const callerAt = TEXT.indexOf('caller');
    host.setSymbols(absPath, [
      decl(0),
      decl(1),
      decl(2),
      {
        name: 'caller',
        kind: 'Function',
        detail: '',
        range: { start: TEXT.lastIndexOf('export'), end: TEXT.length - 1 },
        selectionRange: { start: callerAt, end: callerAt + 6 },
        children: [],
      },
    ]);
    h = await createHarness({ host });
  });

  const names = () => [...TEXT.matchAll(/innerFrom/g)].map((m) => m.index ?? -1).slice(0, 3);

  it('find-callers from the implementation asks the call hierarchy at its name, and finds the caller', async () => {
    const asked: number[] = [];
    const callerAt = TEXT.indexOf('caller');
    const callSite = TEXT.lastIndexOf('innerFrom');
    host.navigation.callHierarchy = (p, offset, direction) => {
      asked.push(offset);
      if (!names().includes(offset)) return { roots: [], edges: [] };
      const root = {
        name: 'innerFrom',
        kind: 'Function',
        detail: '',
        absPath: p,
        range: { start: offset, end: offset + 9 },
        selectionRange: { start: offset, end: offset + 9 },
      };
      const item = {
        name: 'caller',
        kind: 'Function',
        detail: '',
        absPath: p,
        range: { start: callerAt, end: callerAt + 6 },
        selectionRange: { start: callerAt, end: callerAt + 6 },
      };
      return { roots: [root], edges: direction === 'incoming' ? [{ item, fromPath: p, fromRanges: [{ start: callSite, end: callSite + 9 }] }] : [] };
    };
    for (const contextAfter of ['(input: string)', '(input: number)', '(input: unknown)']) {
      const d = await h.calls<{ calls: { items: { symbol: SymbolOutput }[] } }>('find-callers', {
        symbol: { location: { selection: { document: { path: 'src/inner.ts' }, selectedText: 'innerFrom', contextAfter } } },
      });
      assert.deepEqual(
        d.calls.items.map((c) => readSymbol(c.symbol).name),
        ['caller'],
        `from the declaration with ${contextAfter}`,
      );
    }
    assert.deepEqual(asked, names(), 'each asked at the name of its own declaration');
  });

  it('find-callers: a provider with nothing at one name is not "no provider"; no answer anywhere is UnsupportedLanguageFeature', async () => {
    const callerAt = TEXT.indexOf('caller');
    host.navigation.callHierarchy = (p, offset) =>
      offset === callerAt
        ? {
            roots: [
              {
                name: 'caller',
                kind: 'Function',
                detail: '',
                absPath: p,
                range: { start: offset, end: offset + 6 },
                selectionRange: { start: offset, end: offset + 6 },
              },
            ],
            edges: [],
          }
        : { roots: [], edges: [] };
    const selection = {
      symbol: { location: { selection: { document: { path: 'src/inner.ts' }, selectedText: 'innerFrom', contextAfter: '(input: unknown)' } } },
    };
    const notHere = await h.fail('find-callers', selection, 'SymbolNotFound');
    assert.match(notHere.error.message, /answers for other functions/);
    assert.doesNotMatch(notHere.error.message, /[Ii]nstall/);
    host.navigation.callHierarchy = () => ({ roots: [], edges: [] });
    const none = await h.fail('find-callers', selection, 'UnsupportedLanguageFeature');
    assert.equal(none.continuation?.kind, 'ResolveExternally');
  });

  it('every overload and the implementation report the name as their location', async () => {
    const outline = readOutline((await h.ok<OutlineData>('get-document-outline', { document: { path: 'src/inner.ts' } })).data);
    const places = outline.filter((s) => readSymbol(s).name === 'innerFrom').map((s) => `${s.line}:${s.column}`);
    const at = (offset: number) => `${TEXT.slice(0, offset).split('\n').length}:${offset - TEXT.lastIndexOf('\n', offset - 1)}`;
    assert.deepEqual(places, names().map(at));
  });
});

describe('readiness: a language-service request bounded by the call', () => {
  it('waits as long as it takes when the call has no deadline (run directly, as the bench does), and refuses before a deadline it would miss', async () => {
    const h = await createHarness();
    const slow = <T>(value: T, ms: number) => new Promise<T>((r) => setTimeout(() => r(value), ms));
    const open = new ToolContext(h.services, 'c1', 65536, undefined);
    assert.equal(await beforeTimeout(open, 'typescript', 'references', slow('answer', 30)), 'answer');
    const bounded = new ToolContext(h.services, 'c2', 65536, undefined);
    bounded.bindCancellation(
      { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) },
      Date.now() + READINESS.marginMs / 3 + 50,
    );
    await assert.rejects(
      beforeTimeout(bounded, 'typescript', 'references', slow('late', 2000)),
      (e: Error & { code?: string }) => e.code === 'LanguageServiceStarting',
    );
  });
});
