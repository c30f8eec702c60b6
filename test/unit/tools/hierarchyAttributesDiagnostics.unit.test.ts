import * as assert from 'node:assert/strict';
import { findCallers, readCalls } from '../../../src/tools/calls';
import type { CallsData } from '../../../src/tools/calls';
import { READINESS } from '../../../src/core/symbols/readiness';
import * as path from 'node:path';
import type { HostCall, HostHierarchyItem, HostSymbol, HostTarget } from '../../../src/core/documents/editorPort';
import { readSymbol, walkSymbols } from '../../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../../src/core/symbols/symbols';
import type { AttributesData } from '../../../src/tools/attributes';
import { readDerived } from '../../../src/tools/hierarchy';
import type { DerivedTypesData } from '../../../src/tools/hierarchy';
import { folderOf } from '../../../src/tools/shared/symbolRows';
import type { DiagnosticsData } from '../../../src/tools/diagnostics';
import type { ExternalSymbol } from '../../../src/tools/shared/symbolAccess';
import { readSite } from '../../../src/tools/shared/callSites';
import type { SiteRow } from '../../../src/tools/shared/callSites';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

const SHAPES = [
  'export interface Shape {',
  '  area(): number;',
  '}',
  '',
  'export abstract class Base implements Shape {',
  '  abstract area(): number;',
  '  describe(): string {',
  "    return 'base';",
  '  }',
  '}',
  '',
  'export class Circle extends Base {',
  '  area(): number {',
  '    return 3;',
  '  }',
  '}',
  '',
  'export class Square extends Base {',
  '  area(): number {',
  '    return 4;',
  '  }',
  '  describe(): string {',
  "    return 'square';",
  '  }',
  '}',
  '',
  'export class UnitSquare extends Square {',
  '  area(): number {',
  '    return 1;',
  '  }',
  '}',
  '',
].join('\n');

const CHAIN = [
  'export function leaf(): number {',
  '  return 1;',
  '}',
  '',
  'export function middle(): number {',
  '  return leaf() + leaf();',
  '}',
  '',
  'export function top(): number {',
  '  return middle() + Math.max(1, 2);',
  '}',
  '',
  'export function other(): number {',
  '  return middle() * 2;',
  '}',
  '',
  'export const value = 1;',
  '',
].join('\n');

const OVERLOADS = [
  'export function format(value: number): string;',
  'export function format(value: string, width: number): string;',
  'export function format(value: number | string, width = 0): string {',
  '  return String(value);',
  '}',
  '',
  'export class Formatter {',
  '  pad(value: number): string;',
  '  pad(value: string, fill: string): string;',
  "  pad(value: number | string, fill = ' '): string {",
  '    return `${fill}${value}`;',
  '  }',
  '  trim(value: string): string {',
  '    return value.trim();',
  '  }',
  '}',
  '',
].join('\n');

const WIDGETS = [
  'export function Component(options: object) {',
  '  return (target: unknown) => target;',
  '}',
  '',
  "@Component({ selector: 'app-base', standalone: true })",
  'export class BaseWidget {}',
  '',
  "@Component({ selector: 'app-special' })",
  'export class SpecialWidget extends BaseWidget {}',
  '',
].join('\n');

const LIB = 'declare namespace Math {\n  function max(...values: number[]): number;\n}\n';

const method = (name: string, from: string, to = '\n  }') => ({ name, kind: 'Method', from, to });

function shapeSymbols(): HostSymbol[] {
  return symbolsIn(SHAPES, [
    { name: 'Shape', kind: 'Interface', from: 'export interface Shape', to: '\n}', children: [method('area', 'area()', ';')] },
    {
      name: 'Base',
      kind: 'Class',
      from: 'export abstract class Base',
      to: '\n}',
      children: [method('area', 'abstract area', ';'), method('describe', 'describe()')],
    },
    { name: 'Circle', kind: 'Class', from: 'export class Circle', to: '\n}', children: [method('area', 'area()')] },
    { name: 'Square', kind: 'Class', from: 'export class Square', to: '\n}', children: [method('area', 'area()'), method('describe', 'describe()')] },
    { name: 'UnitSquare', kind: 'Class', from: 'export class UnitSquare', to: '\n}', children: [method('area', 'area()')] },
  ]);
}

const fn = (name: string, to = '\n}') => ({ name, kind: 'Function', from: `export function ${name}`, to });

function chainSymbols(): HostSymbol[] {
  return symbolsIn(CHAIN, [fn('leaf'), fn('middle'), fn('top'), fn('other'), { name: 'value', kind: 'Variable', from: 'export const value', to: ';' }]);
}

/** As TypeScript reports them: every declaration after the first of a merged symbol has its whole range as selection range. */
function overloadSymbols(): HostSymbol[] {
  const roots = symbolsIn(OVERLOADS, [
    { name: 'format', kind: 'Function', from: 'export function format(value: number)', to: ';' },
    { name: 'format', kind: 'Function', from: 'export function format(value: string', to: ';' },
    { name: 'format', kind: 'Function', from: 'export function format(value: number |', to: '\n}' },
    {
      name: 'Formatter',
      kind: 'Class',
      from: 'export class Formatter',
      to: '\n}',
      children: [
        method('pad', 'pad(value: number)', ';'),
        method('pad', 'pad(value: string', ';'),
        method('pad', 'pad(value: number |'),
        method('trim', 'trim('),
      ],
    },
  ]);
  for (const list of [roots, roots[3].children]) {
    for (const later of list.filter((x, i) => list.findIndex((y) => y.name === x.name) < i)) later.selectionRange = { ...later.range };
  }
  return roots;
}

/**
 * A tiny word-based language service over the fake files: definitions go to the declaration
 * named by the word, references are the word's occurrences, implementations of a member are
 * the same-named members of the classes below its class. Each test removes what it wants missing.
 */
class FakeService {
  readonly files = new Map<string, { text: string; symbols: HostSymbol[] }>();
  constructor(private readonly host: FakeHost) {}

  add(absPath: string, text: string, symbols: HostSymbol[]): void {
    this.files.set(absPath, { text, symbols });
    this.host.setSymbols(absPath, symbols);
  }

  wordAt(absPath: string, offset: number): string {
    const text = this.files.get(absPath)?.text ?? '';
    let s = offset;
    let e = offset;
    while (s > 0 && /\w/.test(text[s - 1])) s--;
    while (e < text.length && /\w/.test(text[e])) e++;
    return text.slice(s, e);
  }

  /** Every symbol of every file with its file. */
  all(): { absPath: string; symbol: HostSymbol; containers: HostSymbol[] }[] {
    return [...this.files].flatMap(([absPath, f]) => walkSymbols(f.symbols).map((h) => ({ absPath, ...h })));
  }

  symbolAt(absPath: string, offset: number): HostSymbol | undefined {
    return this.all().find((h) => h.absPath === absPath && h.symbol.selectionRange.start <= offset && offset <= h.symbol.selectionRange.end)?.symbol;
  }

  item(absPath: string, s: HostSymbol): HostHierarchyItem {
    return { name: s.name, kind: s.kind, detail: '', absPath, range: s.range, selectionRange: s.selectionRange };
  }

  definition(absPath: string, offset: number): HostTarget[] {
    const word = this.wordAt(absPath, offset);
    return this.all()
      .filter((h) => h.containers.length === 0 && h.symbol.name === word)
      .slice(0, 1)
      .map((h) => ({ absPath: h.absPath, range: h.symbol.selectionRange }));
  }

  references(absPath: string, offset: number): HostTarget[] {
    const word = this.wordAt(absPath, offset);
    const out: HostTarget[] = [];
    for (const [file, { text }] of this.files) {
      for (const m of text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))) out.push({ absPath: file, range: { start: m.index, end: m.index + word.length } });
    }
    return out;
  }

  /** The members with the same name in every class whose text says it extends the member's class, transitively. */
  implementations(absPath: string, offset: number): HostTarget[] {
    const hit = this.all().find((h) => h.absPath === absPath && h.symbol.selectionRange.start <= offset && offset <= h.symbol.selectionRange.end);
    if (!hit || hit.containers.length === 0) return [];
    const owners = new Set([hit.containers[hit.containers.length - 1].name]);
    const out: HostTarget[] = [];
    for (let grew = true; grew;) {
      grew = false;
      for (const h of this.all()) {
        const header = this.files.get(h.absPath)?.text.slice(h.symbol.range.start, h.symbol.range.end).split('{')[0] ?? '';
        const base = /(?:extends|implements)\s+(\w+)/.exec(header)?.[1];
        if (h.containers.length === 0 && base && owners.has(base) && !owners.has(h.symbol.name)) {
          owners.add(h.symbol.name);
          grew = true;
          const member = h.symbol.children.find((c) => c.name === hit.symbol.name);
          if (member) out.push({ absPath: h.absPath, range: member.selectionRange });
        }
      }
    }
    return out;
  }
}

describe('tools: calls, type hierarchy, overloads, declarations, attributes and diagnostics over the fake host', () => {
  let h: Harness;
  let host: FakeHost;
  let service: FakeService;
  let shapesPath: string;
  let chainPath: string;
  let overloadsPath: string;
  let libPath: string;

  const at = (file: string, selectedText: string, contextBefore?: string) => ({
    symbol: { location: { selection: { document: { path: file }, selectedText, ...(contextBefore ? { contextBefore } : {}) } } },
  });
  const names = (items: (SymbolOutput | ExternalSymbol)[]) =>
    items.map((s) => {
      const r = readSymbol(s);
      return r.containerName ? `${r.containerName}.${r.name}` : r.name;
    });
  const page = (c: { items: unknown[]; hasMore: boolean; totalCount?: number | null }) => [c.items.length, c.hasMore, c.totalCount];

  beforeEach(async () => {
    host = new FakeHost();
    const folder = host.addFolder('app', {
      'tsconfig.json': '{}',
      'src/shapes.ts': SHAPES,
      'src/chain.ts': CHAIN,
      'src/overloads.ts': OVERLOADS,
      'src/widgets.ts': WIDGETS,
      'notes.txt': 'plain words\n',
    });
    shapesPath = host.abs(folder, 'src/shapes.ts');
    chainPath = host.abs(folder, 'src/chain.ts');
    overloadsPath = host.abs(folder, 'src/overloads.ts');
    libPath = path.resolve('/awb-lib/lib.d.ts');
    host.writeFile(libPath, LIB, { notify: false });
    service = new FakeService(host);
    service.add(shapesPath, SHAPES, shapeSymbols());
    service.add(chainPath, CHAIN, chainSymbols());
    service.add(overloadsPath, OVERLOADS, overloadSymbols());
    service.add(
      host.abs(folder, 'src/widgets.ts'),
      WIDGETS,
      symbolsIn(WIDGETS, [
        fn('Component'),
        { name: 'BaseWidget', kind: 'Class', from: 'export class BaseWidget', to: '{}' },
        { name: 'SpecialWidget', kind: 'Class', from: 'export class SpecialWidget', to: '{}' },
      ]),
    );
    host.navigation.locations = (feature, absPath, offset) => {
      if (feature === 'definition') return service.definition(absPath, offset);
      if (feature === 'references') return service.references(absPath, offset);
      if (feature === 'implementation') return service.implementations(absPath, offset);
      return undefined;
    };
    host.navigation.callHierarchy = (absPath, offset, direction) => {
      const s = service.symbolAt(absPath, offset);
      if (!s || s.kind !== 'Function') return { roots: [], edges: [] };
      const call = (caller: string, callee: string, order: 'forward' | 'reverse' = 'forward'): HostCall => {
        const from = chainSymbols().find((x) => x.name === caller) as HostSymbol;
        const ranges = [...CHAIN.slice(from.range.start, from.range.end).matchAll(new RegExp(`\\b${callee}\\(`, 'g'))].map((m) => ({
          start: from.range.start + m.index,
          end: from.range.start + m.index + callee.length,
        }));
        return { item: service.item(chainPath, from), fromPath: chainPath, fromRanges: order === 'reverse' ? ranges.reverse() : ranges };
      };
      const root = service.item(absPath, s);
      if (direction === 'incoming') {
        // Given out of order: the tool sorts by path and position.
        if (s.name === 'middle') return { roots: [root], edges: [call('other', 'middle'), call('top', 'middle')] };
        if (s.name === 'leaf') return { roots: [root], edges: [call('middle', 'leaf')] };
        return { roots: [root], edges: [] };
      }
      if (s.name === 'middle') {
        return { roots: [root], edges: [{ ...call('middle', 'leaf', 'reverse'), item: service.item(chainPath, chainSymbols()[0]) }] };
      }
      if (s.name === 'top') {
        const maxAt = LIB.indexOf('max');
        const max: HostHierarchyItem = {
          name: 'max',
          kind: 'Function',
          detail: '',
          absPath: libPath,
          range: { start: maxAt, end: maxAt + 3 },
          selectionRange: { start: maxAt, end: maxAt + 3 },
        };
        const maxCall = CHAIN.indexOf('max(');
        return {
          roots: [root],
          edges: [
            { item: max, fromPath: chainPath, fromRanges: [{ start: maxCall, end: maxCall + 3 }] },
            { ...call('top', 'middle'), item: service.item(chainPath, chainSymbols()[1]) },
          ],
        };
      }
      return { roots: [root], edges: [] };
    };
    h = await createHarness({ host });
  });

  // ------------------------------------------------------------ find-callers / find-callees

  it('find-callers: every caller with its call sites, by path and position whatever order the provider gives', async () => {
    const d = await h.calls<{
      symbol: SymbolOutput;
      calls: {
        items: { symbol: SymbolOutput; callSites: SiteRow[] }[];
        hasMore: boolean;
        totalCount: number;
      };
    }>('find-callers', at('src/chain.ts', 'middle', 'function '));
    assert.equal(readSymbol(d.symbol).name, 'middle');
    assert.deepEqual(
      d.calls.items.map((c) => [readSymbol(c.symbol).name, readSymbol(c.symbol).kind, c.symbol.line, c.callSites.map((s) => `${s[0]}:${s[1]}`)]),
      [
        ['top', 'Function', 9, ['10:10']],
        ['other', 'Function', 13, ['14:10']],
      ],
    );
    assert.deepEqual(
      d.calls.items[0].callSites,
      [[10, 10, CHAIN.indexOf('middle() +')]],
      "a row [line, column, at]: the span is at and the called name's length",
    );
    assert.deepEqual(readSite(d.calls.items[0].callSites[0]), { line: 10, column: 10, at: CHAIN.indexOf('middle() +') });
    assert.deepEqual(readSite([3, 5, 40, { len: 7, staged: 'edited' }]), { line: 3, column: 5, at: 40, len: 7, staged: 'edited' });
    assert.match(d.calls.items[0].symbol.symbolId, /src\/chain\.ts#Function:top$/);
    assert.deepEqual(page(d.calls), [2, false, 2]);
  });

  it('find-callers and find-callees answer a workspace symbol as a row under the folderId, a library one as an object; readCalls makes each whole', async () => {
    const raw = (await h.ok<CallsData>('find-callees', { ...at('src/chain.ts', 'top', 'function '), depth: 2 })).data;
    assert.equal(raw.folderId, raw.symbol.symbolId.slice(0, raw.symbol.symbolId.indexOf(':')));
    assert.deepEqual(raw.calls.items[0][0], ['src/chain.ts#Function:middle', 5, 17], 'the symbolId after "<folderId>:", its line and column');
    assert.deepEqual(raw.calls.items[0][2]?.[0][0], ['#Function:leaf', 1, 17], 'nested levels too, the path of the ref printed before it said as "#"');
    assert.deepEqual(
      readCalls(raw).items[0].calls?.items.map((c) => ('symbolId' in c.symbol ? c.symbol.symbolId : undefined)),
      [`${raw.folderId}:src/chain.ts#Function:leaf`],
    );
    assert.equal(raw.calls.items[0].length, 3, 'a caller expanded in full: [symbol, callSites, calls], no leftOut');
    assert.equal(raw.calls.items[1].length, 2, 'a library callee is not expanded: [symbol, callSites]');
    assert.equal(JSON.stringify(raw).includes(`${raw.folderId}:src/chain.ts#Function:middle`), false, 'the folderId is said once, not per row');
    const read = readCalls(raw);
    assert.deepEqual(read.items[0].symbol, { symbolId: `${raw.folderId}:src/chain.ts#Function:middle`, line: 5, column: 17 });
    assert.deepEqual(read.items[0].calls?.items[0].symbol, { symbolId: `${raw.folderId}:src/chain.ts#Function:leaf`, line: 1, column: 17 });
    assert.deepEqual(raw.calls.items[1][0], read.items[1].symbol, 'a library callee is an object as it was');
    assert.equal('external' in read.items[1].symbol, true);
  });

  it('find-callers: callersLimit bounds the list, hasMore and totalCount say so', async () => {
    const d = await h.calls<{ calls: { items: { symbol: SymbolOutput }[]; hasMore: boolean; totalCount: number } }>('find-callers', {
      ...at('src/chain.ts', 'middle', 'function '),
      callersLimit: 1,
    });
    assert.deepEqual(page(d.calls), [1, true, 2]);
    assert.equal(readSymbol(d.calls.items[0].symbol).name, 'top');
  });

  type Call = { symbol: SymbolOutput | ExternalSymbol; callSites: SiteRow[]; calls?: Calls };
  type Calls = { items: Call[]; hasMore: boolean; totalCount: number };
  /** A call answer as a tree of names: each item's name, then its nested calls when it has them. */
  const tree = (c: Calls): unknown[] => c.items.map((i) => (i.calls ? [readSymbol(i.symbol).name, tree(i.calls)] : readSymbol(i.symbol).name));

  it('find-callers depth 2 and 3: each caller carries its own callers in calls, with call sites; depth 1 nests nothing', async () => {
    const leaf = at('src/chain.ts', 'leaf', 'function ');
    const one = await h.calls<{ calls: Calls; unexpanded?: number }>('find-callers', leaf);
    assert.deepEqual(tree(one.calls), ['middle']);
    const two = await h.calls<{ calls: Calls; unexpanded?: number }>('find-callers', { ...leaf, depth: 2 });
    assert.deepEqual(tree(two.calls), [['middle', ['top', 'other']]]);
    const middle = two.calls.items[0];
    assert.deepEqual(
      middle.calls?.items.map((c) => c.callSites.map((s) => s[0])),
      [[10], [14]],
      "each nested caller's call sites of middle",
    );
    assert.deepEqual(page(middle.calls as Calls), [2, false, 2]);
    assert.equal(two.unexpanded, undefined);
    const three = await h.calls<{ calls: Calls }>('find-callers', { ...leaf, depth: 3 });
    assert.deepEqual(
      tree(three.calls),
      [
        [
          'middle',
          [
            ['top', []],
            ['other', []],
          ],
        ],
      ],
      'the last level expanded has calls, empty when nothing calls it',
    );
    const limited = await h.calls<{ calls: Calls }>('find-callers', { ...leaf, depth: 2, callersLimit: 1 });
    assert.deepEqual(page(limited.calls.items[0].calls as Calls), [1, true, 2], 'callersLimit bounds every level');
    const raw = (await h.ok<CallsData>('find-callers', { ...leaf, depth: 2, callersLimit: 1 })).data;
    const [, , nested, leftOut] = raw.calls.items[0];
    assert.deepEqual([nested?.length, leftOut], [1, 1], 'a cut level says how many it left out in the row, after its rows');
  });

  it('find-callers depth 2 over the output limit: the deeper levels give way first, each cut counted in its leftOut, so the callers themselves stay listed', async () => {
    const leaf = { ...at('src/chain.ts', 'leaf', 'function '), depth: 2 };
    const whole = (await h.ok<CallsData>('find-callers', leaf)).data;
    assert.deepEqual(tree(readCalls(whole) as Calls), [['middle', ['top', 'other']]]);
    const rowBytes = Buffer.byteLength(JSON.stringify(whole.calls.items));
    // Room for the rows less a few bytes (the answer keeps 1,024 B for the rest of it): the last nested caller must go.
    h.setSettings({ defaultMaxOutputBytes: rowBytes + 1024 - 10 });
    const envelope = await h.ok<CallsData>('find-callers', leaf);
    const cut = envelope.data;
    assert.ok(Buffer.byteLength(JSON.stringify(envelope)) <= rowBytes + 1024 - 10, 'the answer fits its limit');
    const [, , nested, leftOut] = cut.calls.items[0];
    assert.deepEqual([nested?.length, leftOut], [1, 1], 'middle keeps its first caller and counts the one cut');
    assert.deepEqual(page(readCalls(cut).items[0].calls as Calls), [1, true, 2]);
    assert.deepEqual(page(cut.calls), [1, false, 1], 'the callers themselves are all listed');
    assert.match(cut.note ?? '', /cut to fit the output limit/);
    assert.equal(cut.complete, undefined, 'bounded, not partial');
  });

  it("find-callers' definition names the row's positions in the order the answer gives them", async () => {
    const described = findCallers.description.match(/rows \[([a-zA-Z, ]+)\]/)?.[1].split(', ');
    assert.deepEqual(described, ['symbol', 'callSites', 'calls', 'leftOut']);
    const raw = (await h.ok<CallsData>('find-callers', { ...at('src/chain.ts', 'leaf', 'function '), depth: 2 })).data;
    // Decoded from the definition's order alone: a row's positions become its keys.
    const decode = (row: unknown[]): Record<string, unknown> =>
      Object.fromEntries(row.map((v, i) => [described![i], described![i] === 'calls' ? (v as unknown[][]).map(decode) : v]));
    const [middle] = raw.calls.items.map(decode);
    assert.deepEqual(middle.symbol, ['src/chain.ts#Function:middle', 5, 17]);
    // A ref as the definition says: "#… reuses the ref before's path, #/… also its first segment, #//… two", in the order printed.
    assert.match(findCallers.description, /#… reuses the ref before's path, #\/… also its first segment, #\/\/… two/);
    let before = '';
    const whole = (ref: string): string => {
      const m = /^#(\/*)(.*)$/.exec(ref);
      if (m) {
        const [path, segments] = before.split('#');
        ref = `${path}#${[...segments.split('/').slice(0, m[1].length), m[2]].join('/')}`;
      }
      return (before = ref);
    };
    whole((middle.symbol as string[])[0]);
    assert.deepEqual(
      (middle.calls as Record<string, unknown>[]).map((c) => [whole((c.symbol as string[])[0]), (c.callSites as number[][]).map((x) => x[0])]),
      [
        ['src/chain.ts#Function:top', [10]],
        ['src/chain.ts#Function:other', [14]],
      ],
    );
  });

  it('find-callees depth 2: a library callee is not expanded; recursion stops at a function already on the path; depth past 3 is refused', async () => {
    const top = await h.calls<{ calls: Calls }>('find-callees', { ...at('src/chain.ts', 'top', 'function '), depth: 2 });
    assert.deepEqual(tree(top.calls), [['middle', ['leaf']], 'max']);
    const callHierarchy = host.navigation.callHierarchy;
    assert.ok(callHierarchy);
    // middle also calls itself: its own callers list it, and it is not expanded again under itself.
    host.navigation.callHierarchy = (absPath, offset, direction) => {
      const answer = callHierarchy(absPath, offset, direction);
      const s = service.symbolAt(absPath, offset);
      if (direction !== 'incoming' || s?.name !== 'middle') return answer;
      const self = answer.roots?.[0] as HostHierarchyItem;
      return { ...answer, edges: [...answer.edges, { item: self, fromPath: chainPath, fromRanges: [self.selectionRange] }] };
    };
    const recursive = await h.calls<{ calls: Calls }>('find-callers', { ...at('src/chain.ts', 'leaf', 'function '), depth: 3 });
    assert.deepEqual(tree(recursive.calls), [['middle', ['middle', ['top', []], ['other', []]]]]);
    await h.fail('find-callers', { ...at('src/chain.ts', 'leaf', 'function '), depth: 4 }, 'InvalidRequest');
  });

  it('find-callers depth 2: a caller the call hierarchy prepares nothing at is left without calls and counted as unexpanded', async () => {
    const callHierarchy = host.navigation.callHierarchy;
    assert.ok(callHierarchy);
    host.navigation.callHierarchy = (absPath, offset, direction) => {
      const answer = callHierarchy(absPath, offset, direction);
      if (service.symbolAt(absPath, offset)?.name !== 'leaf' || direction !== 'incoming') return answer;
      const v = chainSymbols().find((x) => x.name === 'value') as HostSymbol;
      return { ...answer, edges: [...answer.edges, { item: service.item(chainPath, v), fromPath: chainPath, fromRanges: [v.selectionRange] }] };
    };
    const d = await h.calls<{ calls: Calls; unexpanded?: number }>('find-callers', { ...at('src/chain.ts', 'leaf', 'function '), depth: 2 });
    assert.deepEqual(tree(d.calls), [['middle', ['top', 'other']], 'value']);
    assert.equal(d.unexpanded, 1);
    assert.equal((d as { complete?: boolean }).complete, undefined, 'nothing to expand there is no missing level');
  });

  it('find-callers depth 3 near the timeout: the levels found so far come back, the rest counted as unexpanded, not a Timeout', async () => {
    // 2 s to answer, expansions stop 1.5 s before: middle's starts at once, its callers' 700 ms later would not.
    Object.assign(READINESS, { marginMs: 1_500 });
    h.settings.defaultTimeoutSeconds = 2;
    const callHierarchy = host.navigation.callHierarchy;
    assert.ok(callHierarchy);
    const slow = host.callHierarchy.bind(host);
    // Each nested level takes 700 ms.
    let asked = 0;
    host.callHierarchy = async (absPath, offset, direction) => {
      if (asked++ > 0) await new Promise((resolve) => setTimeout(resolve, 700));
      return slow(absPath, offset, direction);
    };
    try {
      const d = await h.calls<{ calls: Calls; unexpanded?: number; complete?: boolean; note?: string }>('find-callers', {
        ...at('src/chain.ts', 'leaf', 'function '),
        depth: 3,
      });
      assert.deepEqual(tree(d.calls), [['middle', ['top', 'other']]], "middle's callers came back; theirs were not asked");
      assert.equal(d.unexpanded, 2);
      assert.equal(d.complete, false, 'levels asked for and not given: partial, never complete');
      assert.match(d.note ?? '', /2 items were left without calls .*Ask again/);
    } finally {
      Object.assign(READINESS, { marginMs: 3_000 });
    }
  });

  it('find-callees: call sites sorted by position; a library callee comes last, outside the workspace, without a symbolId', async () => {
    const middle = await h.calls<{ calls: { items: { symbol: SymbolOutput; callSites: SiteRow[] }[] } }>(
      'find-callees',
      at('src/chain.ts', 'middle', 'function '),
    );
    assert.deepEqual(
      middle.calls.items.map((c) => [readSymbol(c.symbol).name, c.callSites.map((s) => `${s[0]}:${s[1]}`)]),
      [['leaf', ['6:10', '6:19']]],
    );
    const top = await h.calls<{ calls: { items: { symbol: SymbolOutput | ExternalSymbol }[]; totalCount: number } }>(
      'find-callees',
      at('src/chain.ts', 'top', 'function '),
    );
    assert.deepEqual(names(top.calls.items.map((c) => c.symbol)), ['middle', 'max']);
    assert.deepEqual(top.calls.items[1].symbol, { name: 'max', kind: 'Function', external: { path: libPath.split(path.sep).join('/'), line: 2 } });
    const limited = await h.calls<{ calls: { items: unknown[]; hasMore: boolean; totalCount: number } }>('find-callees', {
      ...at('src/chain.ts', 'top', 'function '),
      calleesLimit: 0,
    });
    assert.deepEqual(page(limited.calls), [0, true, 2]);
  });

  it('find-callers / find-callees: UnsupportedLanguageFeature with ResolveExternally when no call hierarchy provider answers; InvalidRequest on a variable', async () => {
    const value = await h.fail('find-callers', at('src/chain.ts', 'value'), 'InvalidRequest');
    assert.match(value.error.message, /Variable value is not callable/);
    host.navigation.callHierarchy = undefined;
    for (const tool of ['find-callers', 'find-callees']) {
      const failure = await h.fail(tool, at('src/chain.ts', 'middle', 'function '), 'UnsupportedLanguageFeature');
      assert.match(failure.error.message, /No call hierarchy provider for language "typescript"/);
      assert.equal(failure.continuation?.kind, 'ResolveExternally');
    }
    // A provider that prepares nothing on a function cannot answer for it either: never an empty list.
    host.navigation.callHierarchy = () => ({ roots: [], edges: [] });
    await h.fail('find-callers', at('src/chain.ts', 'middle', 'function '), 'UnsupportedLanguageFeature');
  });

  // ------------------------------------------------------------ get-type-hierarchy / find-derived-types

  type Hierarchy = {
    symbol: SymbolOutput;
    supertypes: { items: SymbolOutput[]; hasMore: boolean; totalCount: number };
    subtypes: { items: SymbolOutput[]; hasMore: boolean; totalCount: number };
    source: string;
  };

  it('get-type-hierarchy without a type hierarchy provider: base lists resolved by definition, subtypes from references in base lists', async () => {
    const square = (await h.ok<Hierarchy>('get-type-hierarchy', at('src/shapes.ts', 'Square', 'class '))).data;
    assert.deepEqual([names(square.supertypes.items), names(square.subtypes.items), square.source], [['Base'], ['UnitSquare'], 'declarations']);
    assert.match(square.supertypes.items[0].symbolId, /#Class:Base$/);
    const base = (await h.ok<Hierarchy>('get-type-hierarchy', at('src/shapes.ts', 'Base', 'abstract class '))).data;
    assert.deepEqual([names(base.supertypes.items), names(base.subtypes.items)], [['Shape'], ['Circle', 'Square']]);
    assert.deepEqual(page(base.subtypes), [2, false, 2]);
    const limited = (await h.ok<Hierarchy>('get-type-hierarchy', { ...at('src/shapes.ts', 'Base', 'abstract class '), typesLimit: 1 })).data;
    assert.deepEqual(
      [page(limited.subtypes), page(limited.supertypes)],
      [
        [1, true, 2],
        [1, false, 1],
      ],
    );
    assert.deepEqual(names(limited.subtypes.items), ['Circle']);
  });

  it("get-type-hierarchy with a provider: the provider's answer, source typeHierarchy, sorted by position", async () => {
    const all = shapeSymbols();
    const byName = (n: string) => service.item(shapesPath, all.find((s) => s.name === n) as HostSymbol);
    host.navigation.typeHierarchy = (_p, offset, direction) => {
      const s = service.symbolAt(shapesPath, offset);
      if (s?.name !== 'Base') return { roots: [], edges: [] };
      return { roots: [byName('Base')], edges: direction === 'supertypes' ? [byName('Shape')] : [byName('Square'), byName('Circle'), byName('Circle')] };
    };
    host.navigation.locations = undefined;
    const base = (await h.ok<Hierarchy>('get-type-hierarchy', at('src/shapes.ts', 'Base', 'abstract class '))).data;
    assert.deepEqual([names(base.supertypes.items), names(base.subtypes.items), base.source], [['Shape'], ['Circle', 'Square'], 'typeHierarchy']);
  });

  it('get-type-hierarchy: UnsupportedLanguageFeature (ResolveExternally) when neither a type hierarchy nor the definition/reference providers answer; InvalidRequest on a method', async () => {
    host.navigation.locations = undefined;
    const failure = await h.fail('get-type-hierarchy', at('src/shapes.ts', 'Square', 'class '), 'UnsupportedLanguageFeature');
    assert.match(failure.error.message, /No type hierarchy provider/);
    assert.equal(failure.continuation?.kind, 'ResolveExternally');
    await h.fail('find-derived-types', at('src/shapes.ts', 'Square', 'class '), 'UnsupportedLanguageFeature');
    const notType = await h.fail(
      'get-type-hierarchy',
      at('src/shapes.ts', 'describe', 'class Square extends Base {\n  area(): number {\n    return 4;\n  }\n  '),
      'InvalidRequest',
    );
    assert.match(notType.error.message, /Method describe is not a type/);
  });

  it('find-derived-types: every descendant breadth first with its depth; limits', async () => {
    const derived = async (input: unknown) => {
      const data = (await h.ok<DerivedTypesData>('find-derived-types', input)).data;
      return { ...data, derivedTypes: { ...data.derivedTypes, items: readDerived(data) } };
    };
    const raw = (await h.ok<DerivedTypesData>('find-derived-types', at('src/shapes.ts', 'Shape', 'interface '))).data;
    assert.deepEqual(raw.derivedTypes.items[0], ['src/shapes.ts#Class:Base', 5, 23, 1], 'a row [ref, line, column, depth] under the folderId');
    assert.equal(raw.folderId, folderOf(raw.symbol.symbolId));
    const shape = await derived(at('src/shapes.ts', 'Shape', 'interface '));
    assert.deepEqual(
      shape.derivedTypes.items.map((t) => `${readSymbol(t).name}@${t.depth}`),
      ['Base@1', 'Circle@2', 'Square@2', 'UnitSquare@3'],
    );
    assert.equal(shape.source, 'declarations');
    const limited = await derived({ ...at('src/shapes.ts', 'Shape', 'interface '), typesLimit: 2 });
    assert.deepEqual(
      [page(limited.derivedTypes), limited.derivedTypes.items.map((t) => readSymbol(t).name)],
      [
        [2, true, 4],
        ['Base', 'Circle'],
      ],
    );
    const leaf = await derived(at('src/shapes.ts', 'UnitSquare', 'class '));
    assert.deepEqual(page(leaf.derivedTypes), [0, false, 0]);
  });

  /** Runs `body` with 2 s to answer, walks stopping 1.5 s before, and every subtypes query after the first taking 700 ms. */
  async function withSlowSubtypes(body: () => Promise<void>): Promise<void> {
    Object.assign(READINESS, { marginMs: 1_500 });
    h.settings.defaultTimeoutSeconds = 2;
    const slow = host.typeHierarchy.bind(host);
    let asked = 0;
    host.typeHierarchy = async (absPath, offset, direction) => {
      if (direction === 'subtypes' && asked++ > 0) await new Promise((resolve) => setTimeout(resolve, 700));
      return slow(absPath, offset, direction);
    };
    try {
      await body();
    } finally {
      Object.assign(READINESS, { marginMs: 3_000 });
      host.typeHierarchy = slow;
    }
  }

  it('find-derived-types near the timeout: the types found so far come back, said to be partial, not a Timeout or "still loading"', async () => {
    // Shape's subtypes at once, Base's after 700 ms, then no time for Circle's.
    await withSlowSubtypes(async () => {
      const d = (await h.ok<DerivedTypesData>('find-derived-types', at('src/shapes.ts', 'Shape', 'interface '))).data;
      assert.deepEqual(
        readDerived(d).map((t) => `${readSymbol(t).name}@${t.depth}`),
        ['Base@1', 'Circle@2', 'Square@2'],
        'the first two levels came back; UnitSquare, below Square, was not reached',
      );
      assert.equal(d.complete, false);
      assert.match(d.note ?? '', /ran short of time at depth 3, after 3 types\. Ask again/);
      assert.equal(d.derivedTypes.hasMore, false, 'not continued by cursor: the walk would run short again');
    });
  });

  // ------------------------------------------------------------ find-overrides

  it('find-overrides near the timeout: the overrides in the derived types reached come back, said to be partial', async () => {
    // Base's subtypes at once, Circle's after 700 ms: the walk stops before UnitSquare's.
    // Without the implementation provider, which would name UnitSquare.area on its own.
    host.navigation.locations = (feature, absPath, offset) =>
      feature === 'definition' ? service.definition(absPath, offset) : feature === 'references' ? service.references(absPath, offset) : undefined;
    await withSlowSubtypes(async () => {
      const d = (
        await h.ok<{ overrides: { items: SymbolOutput[] }; complete?: boolean; note?: string }>('find-overrides', at('src/shapes.ts', 'area', 'abstract '))
      ).data;
      assert.deepEqual(names(d.overrides.items), ['Circle.area', 'Square.area']);
      assert.equal(d.complete, false);
      assert.match(d.note ?? '', /ran short of time at depth 2, after 2 types/);
    });
  });

  it('find-overrides: members of derived types with the same name, through every level, each once', async () => {
    type Overrides = { symbol: SymbolOutput; overrides: { items: SymbolOutput[]; hasMore: boolean; totalCount: number } };
    const area = (await h.ok<Overrides>('find-overrides', at('src/shapes.ts', 'area', 'abstract '))).data;
    assert.deepEqual(names(area.overrides.items), ['Circle.area', 'Square.area', 'UnitSquare.area']);
    assert.deepEqual(
      area.overrides.items.map((o) => o.line),
      [13, 19, 28],
    );
    assert.deepEqual(page(area.overrides), [3, false, 3]);
    const describe = (await h.ok<Overrides>('find-overrides', at('src/shapes.ts', 'describe', 'abstract area(): number;\n  '))).data;
    assert.equal(readSymbol(describe.symbol).containerName, 'Base');
    assert.deepEqual(names(describe.overrides.items), ['Square.describe']);
    const limited = (await h.ok<Overrides>('find-overrides', { ...at('src/shapes.ts', 'area', 'abstract '), overridesLimit: 1 })).data;
    assert.deepEqual([page(limited.overrides), names(limited.overrides.items)], [[1, true, 3], ['Circle.area']]);
    // The same answer without the implementation provider: derived types alone find them.
    host.navigation.locations = (feature, absPath, offset) =>
      feature === 'definition' ? service.definition(absPath, offset) : feature === 'references' ? service.references(absPath, offset) : undefined;
    assert.deepEqual(names((await h.ok<Overrides>('find-overrides', at('src/shapes.ts', 'area', 'abstract '))).data.overrides.items), [
      'Circle.area',
      'Square.area',
      'UnitSquare.area',
    ]);
  });

  it('find-overrides: InvalidRequest for a top-level function; UnsupportedLanguageFeature when no provider can say', async () => {
    const failure = await h.fail('find-overrides', at('src/chain.ts', 'leaf', 'function '), 'InvalidRequest');
    assert.match(failure.error.message, /not a member of a type/);
    host.navigation.locations = undefined;
    const unsupported = await h.fail('find-overrides', at('src/shapes.ts', 'area', 'abstract '), 'UnsupportedLanguageFeature');
    assert.equal(unsupported.continuation?.kind, 'ResolveExternally');
  });

  // ------------------------------------------------------------ find-overloads

  type Overloads = { symbol: SymbolOutput; overloads: { items: (SymbolOutput & { signature: string })[]; hasMore: boolean; totalCount: number } };

  it('find-overloads: each signature and the implementation, in declaration order, each with its own symbolId', async () => {
    const d = (await h.ok<Overloads>('find-overloads', at('src/overloads.ts', 'format', 'string, width: number): string;\nexport function '))).data;
    assert.deepEqual(
      d.overloads.items.map((o) => [o.symbolId.slice(o.symbolId.lastIndexOf('#')), o.line, o.column, o.signature]),
      [
        ['#Function:format', 1, 17, 'export function format(value: number): string;'],
        ['#Function:format~1', 2, 17, 'export function format(value: string, width: number): string;'],
        ['#Function:format~2', 3, 17, 'export function format(value: number | string, width = 0): string'],
      ],
    );
    assert.match(d.symbol.symbolId, /#Function:format~2$/, 'the selected implementation');
    const pad = (
      await h.ok<Overloads>('find-overloads', { symbol: { symbolId: d.overloads.items[0].symbolId.replace(/#.*$/, '#Class:Formatter/Method:pad~1') } })
    ).data;
    assert.deepEqual(names(pad.overloads.items), ['Formatter.pad', 'Formatter.pad', 'Formatter.pad']);
    assert.deepEqual(
      pad.overloads.items.map((o) => `${o.line}:${o.column}`),
      ['8:3', '9:3', '10:3'],
    );
    assert.deepEqual(
      pad.overloads.items.map((o) => o.signature),
      ['pad(value: number): string;', 'pad(value: string, fill: string): string;', "pad(value: number | string, fill = ' '): string"],
    );
    const two = (await h.ok<Overloads>('find-overloads', { symbol: { symbolId: pad.overloads.items[2].symbolId }, overloadsLimit: 2 })).data;
    assert.deepEqual(page(two.overloads), [2, true, 3]);
    const single = (await h.ok<Overloads>('find-overloads', at('src/overloads.ts', 'trim', '  '))).data;
    assert.deepEqual([page(single.overloads), single.overloads.items[0].symbolId], [[1, false, 1], single.symbol.symbolId]);
  });

  it('find-overloads: groups names that carry their parameter list, as C# symbol providers name methods', async () => {
    const text = 'class Formatter {\n  string Pad(int value) => "";\n  string Pad(string value) => "";\n  string Trim() => "";\n}\n';
    const file = host.abs(host.folders()[0], 'src/Formatter.ts');
    host.writeFile(file, text);
    const roots = symbolsIn(text, [
      {
        name: 'Formatter',
        kind: 'Class',
        from: 'class',
        children: [method('Pad', 'string Pad(int', ';'), method('Pad', 'string Pad(string', ';'), method('Trim', 'string Trim', ';')],
      },
    ]);
    roots[0].children.forEach((c, i) => (c.name = ['Pad(int)', 'Pad(string)', 'Trim()'][i]));
    host.setSymbols(file, roots);
    const d = (
      await h.ok<Overloads>('find-overloads', {
        symbol: { location: { span: { document: { path: 'src/Formatter.ts' }, range: { start: text.indexOf('Pad(string'), length: 3 } } } },
      })
    ).data.overloads;
    assert.deepEqual(
      [d.items.map((o) => [readSymbol(o).name, o.line]), d.totalCount],
      [
        [
          ['Pad(int)', 2],
          ['Pad(string)', 3],
        ],
        2,
      ],
    );
  });

  it('find-overloads: UnsupportedLanguageFeature (ResolveExternally) for a document without a symbol provider, never an empty list', async () => {
    const failure = await h.fail('find-overloads', at('notes.txt', 'words'), 'UnsupportedLanguageFeature');
    assert.equal(failure.continuation?.kind, 'ResolveExternally');
  });

  // ------------------------------------------------------------ get-partial-declarations

  it('get-partial-declarations: declaration and definition providers merged, each declaration once, by position; limit', async () => {
    const firstFormat = {
      symbol: { location: { span: { document: { path: 'src/overloads.ts' }, range: { start: OVERLOADS.indexOf('format'), length: 6 } } } },
    };
    type Decls = { declarations: { items: SymbolOutput[]; hasMore: boolean; totalCount: number } };
    const all = overloadSymbols();
    const formats = all.filter((s) => s.name === 'format');
    host.navigation.locations = (feature) =>
      feature === 'declaration'
        ? [formats[2], formats[0]].map((s) => ({ absPath: overloadsPath, range: s.selectionRange }))
        : feature === 'definition'
          ? [formats[1], formats[0]].map((s) => ({ absPath: overloadsPath, range: s.selectionRange }))
          : undefined;
    const d = (await h.ok<Decls>('get-partial-declarations', firstFormat)).data;
    assert.deepEqual(
      d.declarations.items.map((s) => s.line),
      [1, 2, 3],
    );
    assert.deepEqual(
      d.declarations.items.map((s) => s.symbolId.replace(/^.*#/, '')),
      ['Function:format', 'Function:format~1', 'Function:format~2'],
    );
    assert.deepEqual(page(d.declarations), [3, false, 3]);
    const limited = (await h.ok<Decls>('get-partial-declarations', { ...firstFormat, declarationsLimit: 1 })).data;
    assert.deepEqual(page(limited.declarations), [1, true, 3]);
    host.navigation.locations = undefined;
    const failure = await h.fail('get-partial-declarations', firstFormat, 'UnsupportedLanguageFeature');
    assert.equal(failure.continuation?.kind, 'ResolveExternally');
  });

  // ------------------------------------------------------------ get-symbol-attributes

  it('get-symbol-attributes: own decorators, then inherited ones through the base list, with their declaration; limit', async () => {
    const own = (await h.ok<AttributesData>('get-symbol-attributes', at('src/widgets.ts', 'SpecialWidget', 'class '))).data;
    assert.deepEqual(
      own.attributes.items.map((a) => [a.name, a.inherited, a.line, a.namedArguments.map((n) => `${n.name}=${n.value}`)]),
      [['Component', false, 8, ["selector='app-special'"]]],
    );
    assert.deepEqual(own.attributes.items[0].type, {
      displayName: 'Component',
      kind: 'Function',
      documentationCommentId: `${own.symbol.documentationCommentId.replace(/#.*$/, '')}#Function:Component`,
    });
    const all = (await h.ok<AttributesData>('get-symbol-attributes', { ...at('src/widgets.ts', 'SpecialWidget', 'class '), includeInherited: true })).data;
    assert.deepEqual(
      all.attributes.items.map((a) => [a.name, a.inherited, a.line, a.declaredOn?.replace(/^.*#/, '')]),
      [
        ['Component', false, 8, undefined],
        ['Component', true, 5, 'Class:BaseWidget'],
      ],
    );
    const limited = (
      await h.ok<AttributesData>('get-symbol-attributes', { ...at('src/widgets.ts', 'SpecialWidget', 'class '), includeInherited: true, attributesLimit: 1 })
    ).data;
    assert.deepEqual(page(limited.attributes), [1, true, 2]);
  });

  it('get-symbol-attributes: type null when no definition provider answers; UnsupportedLanguageFeature for a language without attribute syntax', async () => {
    host.navigation.locations = undefined;
    const d = (await h.ok<AttributesData>('get-symbol-attributes', at('src/widgets.ts', 'BaseWidget', 'class '))).data;
    assert.deepEqual(
      d.attributes.items.map((a) => [a.name, a.type]),
      [['Component', null]],
    );
    const txt = host.abs(host.folders()[0], 'notes.txt');
    host.setSymbols(txt, symbolsIn('plain words\n', [{ name: 'words', kind: 'String', from: 'words' }]));
    const failure = await h.fail('get-symbol-attributes', at('notes.txt', 'words'), 'UnsupportedLanguageFeature');
    assert.match(failure.error.message, /"plaintext"/);
    assert.equal(failure.continuation?.kind, 'ResolveExternally');
  });

  // ------------------------------------------------------------ get-diagnostics

  it('get-diagnostics: named documents checked or not, sorted, filtered by severity, counted and bounded', async () => {
    host.navigation.diagnosticLanguages = ['typescript'];
    const at = (text: string, word: string) => ({ start: text.indexOf(word), end: text.indexOf(word) + word.length });
    host.navigation.diagnostics = {
      [chainPath]: [
        { message: 'unused', severity: 'Hint', range: at(CHAIN, 'value') },
        { message: 'late', severity: 'Error', code: '2304', source: 'ts', range: at(CHAIN, 'other') },
        { message: 'early', severity: 'Warning', range: at(CHAIN, 'leaf') },
      ],
      [shapesPath]: [{ message: 'shape error', severity: 'Error', range: at(SHAPES, 'Circle') }],
    };
    const d = (
      await h.ok<DiagnosticsData>('get-diagnostics', {
        documents: [{ path: 'src/shapes.ts' }, { path: 'src/chain.ts' }, { path: 'notes.txt' }, { path: 'src/chain.ts' }],
      })
    ).data;
    assert.equal(d.scope, 'documents');
    assert.deepEqual(d.checked, ['src/chain.ts', 'src/shapes.ts']);
    assert.deepEqual(
      d.notChecked.map((n) => n.path),
      ['notes.txt'],
    );
    // A document is its path, said once: no documentId or project beside it.
    assert.deepEqual(
      d.documents.items.map((x) => Object.keys(x)),
      d.documents.items.map(() => ['path', 'diagnostics']),
    );
    assert.deepEqual(
      d.documents.items.map((x) => [x.path, x.diagnostics.items.map((i) => `${i.severity} ${i.line}:${i.column} ${i.message}`)]),
      [
        ['notes.txt', []],
        ['src/chain.ts', ['Warning 1:17 early', 'Error 13:17 late']],
        ['src/shapes.ts', ['Error 12:14 shape error']],
      ],
    );
    assert.deepEqual(d.documents.items[1].diagnostics.items[1], {
      severity: 'Error',
      message: 'late',
      code: '2304',
      source: 'ts',
      line: 13,
      column: 17,
      span: { start: CHAIN.indexOf('other'), length: 5 },
    });
    assert.deepEqual(d.counts, { Error: 2, Warning: 1, Information: 0, Hint: 0 });
    const hints = (await h.ok<DiagnosticsData>('get-diagnostics', { documents: [{ path: 'src/chain.ts' }], minimumSeverity: 'Hint' })).data;
    assert.deepEqual(hints.counts, { Error: 1, Warning: 1, Information: 0, Hint: 1 });
    const limited = (await h.ok<DiagnosticsData>('get-diagnostics', { documents: [{ path: 'src/chain.ts' }, { path: 'src/shapes.ts' }], diagnosticsLimit: 1 }))
      .data;
    assert.deepEqual(
      limited.documents.items.map((x) => [x.path, page(x.diagnostics)]),
      [['src/chain.ts', [1, true, 2]]],
    );
    assert.equal(limited.documents.hasMore, true);
    assert.equal(limited.documents.totalCount, 2);
  });

  it('get-diagnostics: without documents, every document the editor holds diagnostics for, errors only on request', async () => {
    host.navigation.diagnostics = {
      [chainPath]: [{ message: 'a warning', severity: 'Warning', range: { start: 0, end: 6 } }],
      [shapesPath]: [{ message: 'an error', severity: 'Error', range: { start: 0, end: 6 } }],
      [libPath]: [{ message: 'outside', severity: 'Error', range: { start: 0, end: 6 } }],
    };
    const all = (await h.ok<DiagnosticsData>('get-diagnostics', {})).data;
    assert.equal(all.scope, 'workspace');
    assert.deepEqual(
      all.documents.items.map((x) => x.path),
      ['src/chain.ts', 'src/shapes.ts'],
      'a file outside the workspace is not reported',
    );
    const errors = (await h.ok<DiagnosticsData>('get-diagnostics', { minimumSeverity: 'Error' })).data;
    assert.deepEqual(
      errors.documents.items.map((x) => x.path),
      ['src/shapes.ts'],
    );
    assert.deepEqual(errors.counts, { Error: 1, Warning: 0, Information: 0, Hint: 0 });
  });
});
