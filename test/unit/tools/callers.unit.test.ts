import * as assert from 'node:assert/strict';
import type { HostCall, HostHierarchyItem, HostSymbol } from '../../../src/core/documents/editorPort';
import { isModuleItem, namedOwner, placeOfItem, viaOf } from '../../../src/core/symbols/callers';
import type { SiteRow } from '../../../src/tools/shared/callSites';
import { FakeHost } from '../support/fakeHost';
import { createHarness } from '../support/harness';

/*
 * Which declaration a call belongs to (src/core/symbols/callers.ts): the innermost named one, the
 * callbacks between kept per call as via. The provider here gives items as TypeScript's call
 * hierarchy does (a const holding an arrow function and a class field are items of their own,
 * callbacks are not), and, in one test, callbacks as items of their own as other providers may.
 */

const LOG = 'export function log(message: string): void {}\n';

const OPS = [
  "import { log } from './log';",
  '',
  "log('loaded');",
  '',
  'export function bufferTime(ms: number) {',
  '  return operate((source) => {',
  '    const startBuffer = () => {',
  "      log('start');",
  '    };',
  "    source.subscribe(() => log('next'));",
  "    log('direct');",
  '  });',
  '}',
  '',
  'export class Timer {',
  "  tick = () => log('tick');",
  '  run() {',
  '    function inner() {',
  "      log('inner');",
  '    }',
  "    log('run');",
  '  }',
  '}',
  '',
].join('\n');

/** A symbol from its declaration's text to the end of `to`, named at `nameAt`; a callback (no name in the text) is selected whole, as TypeScript's outline gives it. */
function sym(name: string, kind: string, from: string, to: string, children: HostSymbol[] = [], nameAt?: string): HostSymbol {
  const start = OPS.indexOf(from);
  const end = OPS.indexOf(to, start) + to.length;
  const callback = name.endsWith(' callback');
  const nameStart = callback ? start : OPS.indexOf(nameAt ?? name, start);
  const nameEnd = callback ? end : nameStart + (nameAt ?? name).length;
  assert.ok(start >= 0 && end > start && nameStart >= start, `${name} in the text`);
  return { name, kind, detail: '', range: { start, end }, selectionRange: { start: nameStart, end: nameEnd }, children };
}

/** The outline TypeScript gives OPS: callbacks as functions named by their call, locals and fields under their containers. */
function opsOutline(): HostSymbol[] {
  const subscribe = sym('source.subscribe() callback', 'Function', "() => log('next')", "log('next')");
  const startBuffer = sym('startBuffer', 'Variable', 'startBuffer', '\n    }');
  const operate = sym('operate() callback', 'Function', '(source) =>', '\n  }', [startBuffer, subscribe]);
  const inner = sym('inner', 'Function', 'function inner', '\n    }');
  return [
    sym('bufferTime', 'Function', 'export function bufferTime', '\n}', [operate]),
    sym('Timer', 'Class', 'export class Timer', '\n}', [sym('tick', 'Property', 'tick =', "log('tick')"), sym('run', 'Method', 'run()', '\n  }', [inner])]),
  ];
}

const at = (text: string, word: string) => ({ start: text.indexOf(word), end: text.indexOf(word) + 3 });

describe('find-callers: a call belongs to the innermost named declaration, the callbacks between kept as via', () => {
  let host: FakeHost;
  let opsPath: string;
  let logPath: string;
  let outline: HostSymbol[];
  /** Whether the provider gives the callbacks as items of their own. */
  let callbackItems: boolean;

  const item = (s: HostSymbol): HostHierarchyItem => ({
    name: s.name,
    kind: s.kind === 'Variable' || s.kind === 'Property' ? 'Function' : s.kind,
    detail: '',
    absPath: opsPath,
    range: s.range,
    selectionRange: s.selectionRange,
  });
  const find = (name: string): HostSymbol => {
    const walk = (list: HostSymbol[]): HostSymbol | undefined => list.map((s) => (s.name === name ? s : walk(s.children))).find(Boolean);
    const s = walk(outline);
    assert.ok(s, name);
    return s;
  };
  const calls = (owner: HostHierarchyItem, ...words: string[]): HostCall => ({ item: owner, fromPath: opsPath, fromRanges: words.map((w) => at(OPS, w)) });

  beforeEach(() => {
    host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}', 'src/log.ts': LOG, 'src/ops.ts': OPS });
    opsPath = host.abs(folder, 'src/ops.ts');
    logPath = host.abs(folder, 'src/log.ts');
    outline = opsOutline();
    host.setSymbols(opsPath, outline);
    const logSymbol: HostSymbol = {
      name: 'log',
      kind: 'Function',
      detail: '',
      range: { start: 0, end: LOG.length - 1 },
      selectionRange: at(LOG, 'log'),
      children: [],
    };
    host.setSymbols(logPath, [logSymbol]);
    callbackItems = false;
    host.navigation.callHierarchy = (absPath, _offset, direction) => {
      if (absPath !== logPath || direction !== 'incoming') return { roots: [], edges: [] };
      const root: HostHierarchyItem = {
        name: 'log',
        kind: 'Function',
        detail: '',
        absPath: logPath,
        range: logSymbol.range,
        selectionRange: logSymbol.selectionRange,
      };
      // As TypeScript names the top level: by the file's path, with no name span.
      const module: HostHierarchyItem = {
        name: opsPath,
        kind: 'Module',
        detail: '',
        absPath: opsPath,
        range: { start: 0, end: OPS.length },
        selectionRange: { start: 0, end: 0 },
      };
      const bufferTime = item(find('bufferTime'));
      const edges = [
        calls(item(find('run')), "log('run')"),
        calls(module, "log('loaded')"),
        calls(item(find('startBuffer')), "log('start')"),
        calls(item(find('tick')), "log('tick')"),
        calls(item(find('inner')), "log('inner')"),
        ...(callbackItems
          ? [calls(item(find('source.subscribe() callback')), "log('next')"), calls(item(find('operate() callback')), "log('direct')")]
          : [calls(bufferTime, "log('next')", "log('direct')")]),
      ];
      return { roots: [root], edges };
    };
  });

  type Item = { symbol: { symbolId?: string; module?: string }; callSites: SiteRow[] };
  const answer = async () => {
    const h = await createHarness({ host });
    const d = await h.calls<{ calls: { items: Item[]; totalCount: number } }>('find-callers', {
      symbol: { location: { selection: { document: { path: 'src/log.ts' }, selectedText: 'log', contextBefore: 'function ' } } },
    });
    return d.calls.items.map((i) => [
      i.symbol.symbolId?.replace(/^.*#/, '') ?? `module ${i.symbol.module?.replace(/^[^:]*:/, '')}`,
      i.callSites.map((s) => `${s[0]}${s[3]?.via ? ` via ${s[3].via}` : ''}`),
    ]);
  };

  const expected = [
    ['module src/ops.ts', ['3']],
    ['Function:bufferTime', ['10 via operate() callback/source.subscribe() callback', '11 via operate() callback']],
    ['Function:bufferTime/Function:operate() callback/Variable:startBuffer', ['8']],
    ['Class:Timer/Property:tick', ['16']],
    ['Class:Timer/Method:run', ['21']],
    ['Class:Timer/Method:run/Function:inner', ['19']],
  ];

  it('a const holding an arrow function, a class field, a method, a nested function own their calls; a callback is via; the top level is the module', async () => {
    assert.deepEqual(await answer(), expected);
  });

  it('a provider giving callbacks as items of their own: their calls go to the named function around them, merged into one item, the callbacks as via', async () => {
    callbackItems = true;
    assert.deepEqual(await answer(), expected);
  });

  it('the rule on the outline alone: places, owners, via', () => {
    outline = opsOutline();
    const callback = find('operate() callback');
    const placed = placeOfItem(outline, { kind: 'Function', selectionRange: callback.selectionRange });
    assert.ok('symbol' in placed);
    assert.equal(namedOwner(placed.symbol)?.symbol.name, 'bufferTime');
    assert.deepEqual(placeOfItem(outline, { kind: 'Module', selectionRange: { start: 0, end: 0 } }), { module: true });
    assert.equal(isModuleItem({ kind: 'Module', selectionRange: { start: 4, end: 9 } }), false, 'a namespace has a name');
    assert.deepEqual(placeOfItem(outline, { kind: 'Function', selectionRange: at(OPS, 'operate(') }), { outside: true }, 'a call is no declaration');
    const local = sym('x', 'Variable', "log('direct')", ';', [], "'direct'");
    callback.children.push(local);
    assert.equal(viaOf(outline, find('bufferTime'), at(OPS, "log('direct')")), 'operate() callback', 'a local around the call is passed through, not named');
    assert.equal(viaOf(outline, find('startBuffer'), at(OPS, "log('start')")), undefined);
    assert.equal(viaOf(outline, undefined, at(OPS, "log('loaded')")), undefined);
  });
});
