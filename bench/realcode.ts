// The part of `npm run bench` that runs inside a real VS Code opened on one real code base
// (scripts/fixtures.mjs CODE_BASES, named by $AW_REALCODE_BASE): a fixed list of agent questions,
// each answered twice: by Agent Workbench's tools through vscode.lm.invokeTool (every envelope the
// agent reads, counted in UTF-8 bytes), and the grep-and-read way an agent would take instead
// (the bytes of the commands' output it would read). Each side's correctness is checked against
// the raw language-service command where there is one. Writes JSON to $AW_BENCH_OUT.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../src/core/chain/envelope';
import { readOutline } from '../src/tools/symbols';
import { readSearch } from '../src/tools/search';
import type { OutlineData } from '../src/tools/symbols';
import type { SearchData } from '../src/tools/search';
import { readCalls } from '../src/tools/calls';
import type { CallsData } from '../src/tools/calls';
import { readDerived } from '../src/tools/hierarchy';
import type { DerivedTypesData } from '../src/tools/hierarchy';
import { waitForDocumentSymbols } from '../scripts/in-host/languageService';
import { invokeLm, short } from './inHost';

type Kind = 'references' | 'derived' | 'callers2' | 'attributes' | 'info' | 'rename' | 'search' | 'outline';

interface Question {
  kind: Kind;
  /** The declaration's file and name, and text just before the name that makes it unique. */
  file: string;
  name: string;
  before: string;
  newName?: string;
  query?: string;
}

/** The questions, per code base: the same kinds everywhere, on symbols each code base uses widely. */
const QUESTIONS: Record<string, Question[]> = {
  rxjs: [
    { kind: 'references', file: 'src/internal/Subscription.ts', name: 'Subscription', before: 'export class ' },
    { kind: 'derived', file: 'src/internal/Subscription.ts', name: 'Subscription', before: 'export class ' },
    { kind: 'callers2', file: 'src/internal/util/arrRemove.ts', name: 'arrRemove', before: 'export function ' },
    { kind: 'attributes', file: 'src/internal/BehaviorSubject.ts', name: 'BehaviorSubject', before: 'export class ' },
    { kind: 'info', file: 'src/internal/Subscriber.ts', name: 'Subscriber', before: 'export class ' },
    { kind: 'rename', file: 'src/internal/util/isFunction.ts', name: 'isFunction', before: 'export function ', newName: 'isCallable' },
    { kind: 'search', file: 'src/internal/Subscriber.ts', name: 'Subscriber', before: 'export class ', query: 'Subscriber' },
    { kind: 'outline', file: 'src/internal/testing/TestScheduler.ts', name: 'TestScheduler', before: 'export class ' },
  ],
  tiptap: [
    { kind: 'references', file: 'src/Editor.ts', name: 'Editor', before: 'export class ' },
    { kind: 'derived', file: 'src/Extendable.ts', name: 'Extendable', before: 'export class ' },
    { kind: 'callers2', file: 'src/helpers/getNodeType.ts', name: 'getNodeType', before: 'export function ' },
    { kind: 'attributes', file: 'src/Node.ts', name: 'Node', before: 'export class ' },
    { kind: 'info', file: 'src/Editor.ts', name: 'Editor', before: 'export class ' },
    { kind: 'rename', file: 'src/types.ts', name: 'RawCommands', before: 'export type ', newName: 'RawCommandMap' },
    { kind: 'search', file: 'src/InputRule.ts', name: 'InputRule', before: 'export class ', query: 'Rule' },
    { kind: 'outline', file: 'src/lib/ResizableNodeView.ts', name: 'ResizableNodeView', before: 'export class ' },
  ],
  loopback: [
    { kind: 'references', file: 'src/keys.ts', name: 'RestBindings', before: 'export namespace ' },
    { kind: 'derived', file: 'src/router/route-entry.ts', name: 'RouteEntry', before: 'export interface ' },
    { kind: 'callers2', file: 'src/body-parsers/body-parser.helpers.ts', name: 'getContentType', before: 'export function ' },
    { kind: 'attributes', file: 'src/sequence.ts', name: 'MiddlewareSequence', before: 'export class ' },
    { kind: 'info', file: 'src/rest.server.ts', name: 'RestServer', before: 'export class ' },
    { kind: 'rename', file: 'src/keys.ts', name: 'RestBindings', before: 'export namespace ', newName: 'RestKeys' },
    { kind: 'search', file: 'src/providers/send.provider.ts', name: 'SendProvider', before: 'export class ', query: 'Provider' },
    { kind: 'outline', file: 'src/rest.server.ts', name: 'RestServer', before: 'export class ' },
  ],
};

/** How the grep-and-read side of each kind is defined (the README repeats it). */
export const GREP_WAYS: Record<Kind, string> = {
  references: '`grep -rnw Name src`',
  derived: '`grep -rnE "(extends|implements)\\b.*\\bX\\b" src` for X = the type, then for every class or interface name those lines declare, until no new name',
  callers2:
    '`grep -rnw f src`, then `grep -rnw g src` for every function or method g that calls f (the names an agent would find by reading around each hit; that reading is not counted)',
  attributes: "`cat` of the class's file and of the files of its base classes in the code base",
  info: "`cat` of the declaration's file",
  rename:
    '`grep -rnw Name src` to list the uses, plus the unified diff of every renamed file (`diff -u`, git-style `a/` `b/` labels) an agent reads to review it',
  search: '`grep -rniE "(class|interface|function|type|enum|namespace|const|let|var) +\\w*query\\w*" src`',
  outline: '`cat` of the file (grep finds no method or property by a keyword)',
};

const TOOL_WAYS: Record<Kind, string> = {
  references: 'find-references (referencesLimit 1000)',
  derived: 'find-derived-types (typesLimit 1000)',
  callers2: 'find-callers depth 2 (each caller with its own callers)',
  attributes: 'get-symbol-attributes (includeInherited)',
  info: 'get-symbol-info',
  rename: "rename-symbol with includeDiff (the rename and every document's word diff in one answer; one transaction-preview per document it left out)",
  search: 'search-symbols (default limit)',
  outline: 'get-document-outline (symbolsLimit 1000; locals left out and counted)',
};

export interface Answer {
  codeBase: string;
  id: string;
  kind: Kind;
  question: string;
  status: 'measured' | 'failed';
  error?: string;
  tool?: {
    way: string;
    calls: number;
    bytes: number;
    ms: number;
    sample: string;
    byTool?: Record<string, { calls: number; bytes: number; sample: string; end: string }>;
  };
  grep?: { way: string; commands: number; bytes: number; sample: string };
  /** A rename: the residue its answer carried, and what the scan costs (find-references asked without and with it, after a warm-up). */
  residue?: { totalCount: number; kinds: Record<string, number>; bytes: number; referencesMs: number; referencesWithResidueMs: number };
  /** Items each side lists, and how they compare with the raw language-service answer. */
  correctness?: {
    raw: string;
    rawCount: number | null;
    toolCount: number;
    toolMisses: number | null;
    grepCount: number;
    grepFalsePositives: number | null;
    grepMisses: number | null;
    note: string;
  };
}

export interface RealcodeResult {
  codeBase: string;
  package: string;
  version: string;
  files: number;
  lines: number;
  bytes: number;
  readyMs: number;
  answers: Answer[];
}

/** A symbol by its name path and document, as an agent writes it from the definitions alone (no lookup call first). */
interface Selector {
  name: string;
  path: string;
}

interface SymbolRef {
  symbolId: string;
  /** Only when the symbolId escapes it (nameOf reads it). */
  name?: string;
}

export async function run(): Promise<void> {
  try {
    await measure();
  } catch (error) {
    console.error(`[bench:realcode] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw error;
  }
}

function dataOf<T>(text: string): T {
  const e = JSON.parse(text) as Envelope;
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.data as T;
}

const bytesOf = (s: string): number => Buffer.byteLength(s, 'utf8');
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The path in a symbolId `<folderId>:<path>#<Kind>:<name>/…`. */
const pathOfSymbolId = (id: string): string => id.slice(id.indexOf(':') + 1, id.indexOf('#'));
/** A listed symbol's name: given when the symbolId escapes it, else its symbolId's last segment ("Kind:name~n"). */
/** TypeScript's outline names an accessor "(get) x", its call hierarchy "x". */
const accessorName = (name: string): string => name.replace(/^\((?:get|set)\) /, '');
const nameOf = (s: { name?: string; symbolId?: string }): string =>
  s.name ??
  decodeURIComponent(
    (s.symbolId ?? '')
      .slice((s.symbolId ?? '').lastIndexOf('#') + 1)
      .split('/')
      .pop()
      ?.replace(/^[^:]*:/, '')
      .replace(/~\d+$/, '') ?? '',
  );

async function measure(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  const codeBase = process.env.AW_REALCODE_BASE;
  const meta = JSON.parse(process.env.AW_REALCODE_META ?? '{}') as { package?: string; version?: string };
  if (!out || !codeBase) throw new Error('AW_BENCH_OUT and AW_REALCODE_BASE are set by bench/run.mjs');
  const questions = QUESTIONS[codeBase];
  if (!questions) throw new Error(`no questions for code base ${codeBase}`);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the bench needs the code base open');
  const root = folder.uri.fsPath;
  const uri = (rel: string): vscode.Uri => vscode.Uri.file(path.join(root, ...rel.split('/')));
  const rel = (u: vscode.Uri): string | undefined => {
    const r = path.relative(root, u.fsPath);
    return r.startsWith('..') || path.isAbsolute(r) ? undefined : r.split(path.sep).join('/');
  };
  const textOf = (relPath: string): string => fs.readFileSync(path.join(root, ...relPath.split('/')), 'utf8');
  const sel = (q: Question): Selector => ({ name: q.name, path: q.file });
  const declPos = async (q: Question): Promise<vscode.Position> => {
    const doc = await vscode.workspace.openTextDocument(uri(q.file));
    const at = doc.getText().indexOf(`${q.before}${q.name}`);
    if (at < 0) throw new Error(`${q.before}${q.name} is not in ${q.file}`);
    return doc.positionAt(at + q.before.length);
  };
  /** grep's output as an agent reads it (exit 1 = no match, an empty answer). */
  const grep = (args: string[]): string => {
    try {
      return execFileSync('grep', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      if ((error as { status?: number }).status === 1) return '';
      throw error;
    }
  };
  const grepKeys = (output: string): string[] =>
    output
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(':', 2).join(':'));
  const lineKey = (u: vscode.Uri, line0: number): string => `${rel(u) ?? u.fsPath}:${line0 + 1}`;

  // Sizes of what grep walks.
  let files = 0;
  let lines = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts')) {
        const t = fs.readFileSync(full, 'utf8');
        files++;
        bytes += bytesOf(t);
        lines += t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
      }
    }
  };
  walk(path.join(root, 'src'));

  // The project loads for seconds after the first symbols; references are complete once it has.
  const started = Date.now();
  const first = questions[0];
  await waitForDocumentSymbols(uri(first.file), 120_000);
  for (;;) {
    const data = dataOf<{ complete?: boolean }>(await invokeLm('workbench_find_references', { symbol: sel(first), referencesLimit: 1000 }));
    if (data.complete !== false) break;
    if (Date.now() - started > 180_000) throw new Error('find-references never became complete within 180 s');
    await new Promise((r) => setTimeout(r, 1000));
  }
  const readyMs = Date.now() - started;
  console.log(`[bench:realcode] ${codeBase}: ${files} files, project loaded after ${readyMs} ms`);

  const answers: Answer[] = [];
  let residueCost: Answer['residue'];
  for (const q of questions) {
    const id = `${codeBase}.${q.kind}`;
    const question = describe(q);
    console.log(`[bench:realcode] ${id}: ${question}`);
    const calls: string[] = [];
    const byTool: Record<string, { calls: number; bytes: number; sample: string; end: string }> = {};
    let toolMs = 0;
    const tool = async (name: string, input: object): Promise<string> => {
      const t = performance.now();
      const text = await invokeLm(`workbench_${name.replace(/-/g, '_')}`, input);
      toolMs += performance.now() - t;
      calls.push(text);
      // $AW_REALCODE_DUMP: every answer whole, one file per call, to see where an answer's bytes go.
      const dump = process.env.AW_REALCODE_DUMP;
      if (dump) fs.writeFileSync(path.join(dump, `${id}.${calls.length}.${name}.json`), text);
      const key = name === 'transaction-preview' && 'includeDiff' in input ? 'transaction-preview includeDiff' : name;
      const entry = (byTool[key] ??= { calls: 0, bytes: 0, sample: short(text, 1500), end: text.length > 1500 ? short(text.slice(-700), 700) : '' });
      entry.calls++;
      entry.bytes += bytesOf(text);
      return text;
    };
    const greps: string[] = [];
    const read = (output: string): string => {
      greps.push(output);
      return output;
    };
    residueCost = undefined;
    try {
      const correctness = await answer(q, tool, (args) => read(grep(args)), read);
      const toolBytes = calls.reduce((n, t) => n + bytesOf(t), 0);
      answers.push({
        codeBase,
        id,
        kind: q.kind,
        question,
        status: 'measured',
        tool: { way: TOOL_WAYS[q.kind], calls: calls.length, bytes: toolBytes, ms: Math.round(toolMs), sample: short(calls[0] ?? '', 700), byTool },
        grep: { way: GREP_WAYS[q.kind], commands: greps.length, bytes: greps.reduce((n, g) => n + bytesOf(g), 0), sample: short(greps.join(''), 400) },
        correctness,
        ...(residueCost ? { residue: residueCost } : {}),
      });
      if (residueCost) console.log(`[bench:realcode] ${id}: residue ${JSON.stringify(residueCost)}`);
      console.log(`[bench:realcode] ${id}: tool ${toolBytes} B in ${calls.length} calls, grep-and-read ${answers[answers.length - 1].grep?.bytes} B`);
    } catch (error) {
      // A failing row reports its failure and the bench goes on.
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`[bench:realcode] FAILED ${id}: ${message}`);
      answers.push({
        codeBase,
        id,
        kind: q.kind,
        question,
        status: 'failed',
        error: message,
        ...(calls.length > 0
          ? {
              tool: {
                way: TOOL_WAYS[q.kind],
                calls: calls.length,
                bytes: calls.reduce((n, t) => n + bytesOf(t), 0),
                ms: Math.round(toolMs),
                sample: short(calls[calls.length - 1], 700),
              },
            }
          : {}),
      });
    } finally {
      if (q.kind === 'rename') await invokeLm('workbench_transaction_rollback', {}).catch(() => undefined);
    }
  }

  const result: RealcodeResult = { codeBase, package: meta.package ?? codeBase, version: meta.version ?? '', files, lines, bytes, readyMs, answers };
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log('[bench:realcode] results written for the runner');

  function describe(x: Question): string {
    switch (x.kind) {
      case 'references':
        return `Where is ${x.name} used?`;
      case 'derived':
        return `Which types derive from ${x.name}, at any depth?`;
      case 'callers2':
        return `Who calls ${x.name}, two levels up?`;
      case 'attributes':
        return `Which decorators does ${x.name} carry, inherited included?`;
      case 'info':
        return `What is ${x.name}?`;
      case 'rename':
        return `Rename ${x.name} to ${x.newName ?? ''} and review every changed file`;
      case 'search':
        return `Which declarations have names containing "${x.query ?? ''}"?`;
      case 'outline':
        return `What does ${x.file.split('/').pop() ?? ''} declare?`;
    }
  }

  /** `run` greps and `read` takes any other output the agent reads (a file's text, a diff); both count their bytes. */
  async function answer(
    q: Question,
    tool: (name: string, input: object) => Promise<string>,
    run: (args: string[]) => string,
    read: (output: string) => string,
  ): Promise<NonNullable<Answer['correctness']>> {
    const u = uri(q.file);
    const pos = await declPos(q);
    switch (q.kind) {
      case 'references': {
        const answer = await tool('find-references', { symbol: sel(q), referencesLimit: 1000 });
        const data = dataOf<{ documents: { items: { path: string; lines: [number, ...unknown[]][] }[]; hasMore?: boolean }; totalReferences: number }>(answer);
        const toolLines = new Set(data.documents.items.flatMap((d) => d.lines.map((row) => `${d.path}:${row[0]}`)));
        const raw = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', u, pos)) ?? [];
        const rawLines = new Set(raw.filter((l) => rel(l.uri)).map((l) => lineKey(l.uri, l.range.start.line)));
        const printed = run(['-rnw', q.name, 'src']);
        const g = grepKeys(printed);
        return {
          raw: 'vscode.executeReferenceProvider (lines)',
          rawCount: rawLines.size,
          toolCount: toolLines.size,
          toolMisses: [...rawLines].filter((k) => !toolLines.has(k)).length,
          grepCount: g.length,
          grepFalsePositives: g.filter((k) => !rawLines.has(k)).length,
          grepMisses: [...rawLines].filter((k) => !g.includes(k)).length,
          note: `lines with a reference; the tool lists ${data.totalReferences} references${data.documents.hasMore ? ' (hasMore: documents left out)' : ''}; grep's extra lines are comments, strings and namesakes; ${(bytesOf(answer) / Math.max(1, data.totalReferences)).toFixed(1)} B a reference (envelope included) against grep's ${(bytesOf(printed) / Math.max(1, g.length)).toFixed(1)} B a line`,
        };
      }
      case 'derived': {
        const data = dataOf<DerivedTypesData>(await tool('find-derived-types', { symbol: sel(q), typesLimit: 1000 }));
        const toolNames = new Set(readDerived(data).map(nameOf));
        const raw = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeImplementationProvider', u, pos)) ?? [];
        const rawNames = new Set<string>();
        for (const l of raw) {
          const target = 'targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l;
          if (!rel(target.uri)) continue;
          const doc = await vscode.workspace.openTextDocument(target.uri);
          const word = doc.getText(doc.getWordRangeAtPosition(target.range.start) ?? target.range);
          if (/^[A-Za-z_$][\w$]*$/.test(word) && word !== q.name) rawNames.add(word);
        }
        // grep, repeated until no new name: a line that names no class or interface on it (a
        // constraint `T extends X`, a header split over lines) gives the agent nothing to follow.
        const seen = new Set([q.name]);
        const frontier = [q.name];
        let matched = 0;
        let falsePositives = 0;
        while (frontier.length > 0) {
          const n = frontier.shift() as string;
          for (const line of run(['-rnE', `(extends|implements)\\b.*\\b${escapeRe(n)}\\b`, 'src'])
            .split('\n')
            .filter(Boolean)) {
            matched++;
            const declared = /\b(?:class|interface)\s+([A-Za-z_$][\w$]*)/.exec(line)?.[1];
            if (!declared || declared === n || !(rawNames.has(declared) || toolNames.has(declared))) falsePositives++;
            if (declared && !seen.has(declared)) {
              seen.add(declared);
              frontier.push(declared);
            }
          }
        }
        const grepNames = new Set([...seen].filter((n) => n !== q.name));
        const truth = new Set([...rawNames, ...toolNames]);
        return {
          raw: 'vscode.executeImplementationProvider (type names)',
          rawCount: rawNames.size,
          toolCount: toolNames.size,
          toolMisses: [...rawNames].filter((n) => !toolNames.has(n)).length,
          grepCount: matched,
          grepFalsePositives: falsePositives,
          grepMisses: [...truth].filter((n) => !grepNames.has(n)).length,
          note: `tool missed: ${[...rawNames].filter((n) => !toolNames.has(n)).join(', ') || 'none'}; types: tool ${[...toolNames].join(', ')}; raw ${[...rawNames].join(', ')}; grep ${[...grepNames].join(', ')}`,
        };
      }
      case 'callers2': {
        interface Call {
          symbol: SymbolRef & { external?: unknown };
          calls?: { items: Call[] };
        }
        const answer = {
          calls: readCalls(dataOf<CallsData>(await tool('find-callers', { symbol: sel(q), callersLimit: 1000, depth: 2 }))) as { items: Call[] },
        };
        const toolCallers = new Set<string>();
        for (const c of answer.calls.items) {
          const level2 = (c.calls?.items ?? []).map((x) => x.symbol);
          for (const s of [c.symbol, ...level2]) toolCallers.add(`${accessorName(nameOf(s))}@${s.symbolId ? pathOfSymbolId(s.symbolId) : 'external'}`);
        }
        const items = (await vscode.commands.executeCommand<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', u, pos)) ?? [];
        const rawCallers = new Set<string>();
        const callSiteLines = new Set<string>();
        const level1Names = new Set<string>();
        for (const item of items) {
          const incoming = (await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', item)) ?? [];
          for (const call of incoming) {
            rawCallers.add(`${call.from.name}@${rel(call.from.uri) ?? 'external'}`);
            level1Names.add(call.from.name);
            for (const r of call.fromRanges) callSiteLines.add(lineKey(call.from.uri, r.start.line));
            const up = (await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', call.from)) ?? [];
            for (const c2 of up) rawCallers.add(`${c2.from.name}@${rel(c2.from.uri) ?? 'external'}`);
          }
        }
        const g1 = grepKeys(run(['-rnw', q.name, 'src']));
        // Callers that are not named functions (callbacks, `constructor`) leave the agent nothing to grep by name.
        const names = [...level1Names].filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'constructor');
        let g2 = 0;
        for (const n of names) g2 += grepKeys(run(['-rnw', n, 'src'])).length;
        return {
          raw: 'vscode.prepareCallHierarchy + provideIncomingCalls, two levels (callers)',
          rawCount: rawCallers.size,
          toolCount: toolCallers.size,
          toolMisses: [...rawCallers].filter((k) => !toolCallers.has(k)).length,
          grepCount: g1.length + g2,
          grepFalsePositives: g1.filter((k) => !callSiteLines.has(k)).length,
          grepMisses: null,
          note: `tool missed: ${[...rawCallers].filter((k) => !toolCallers.has(k)).join(', ') || 'none'}; first grep: ${g1.length} lines, of which ${g1.filter((k) => !callSiteLines.has(k)).length} are no call (imports, the declaration, comments); second level: ${names.length} greps, ${g2} lines, every line to be read around to find its enclosing function`,
        };
      }
      case 'attributes': {
        const data = dataOf<{ attributes: { items: { name: string; inherited?: boolean }[] } }>(
          await tool('get-symbol-attributes', { symbol: sel(q), includeInherited: true, attributesLimit: 1000 }),
        );
        // The class's file and its base classes' files, found through the definition of each `extends` name.
        const filesRead: string[] = [];
        let file = q.file;
        let name = q.name;
        let written = 0;
        let memberDecorators = 0;
        for (let guard = 0; guard < 20 && file && !filesRead.includes(file); guard++) {
          filesRead.push(file);
          const text = read(textOf(file));
          const classAt = text.search(new RegExp(`\\bclass\\s+${escapeRe(name)}\\b`));
          if (classAt < 0) break;
          // Top-level decorators start at column 0; their arguments are indented or close with `)` there.
          for (const l of text.slice(0, classAt).split('\n').slice(0, -1).reverse()) {
            if (/^@/.test(l)) written++;
            else if (l === '' || /^[^\s)]/.test(l)) break;
          }
          const body = text.slice(classAt);
          for (const l of body.slice(0, body.search(/\n}\s*(\n|$)/) + 1).split('\n')) {
            if (!/^\s*(\*|\/\*|\/\/)/.test(l)) memberDecorators += (l.match(/(^|[\s(,])@[A-Za-z_$][\w$.]*/g) ?? []).length;
          }
          const base = /^[^{]*?\bextends\s+([A-Za-z_$][\w$]*)/.exec(body)?.[1];
          if (!base) break;
          const doc = await vscode.workspace.openTextDocument(uri(file));
          const at = classAt + body.indexOf(base, body.indexOf('extends'));
          const defs =
            (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
              'vscode.executeDefinitionProvider',
              doc.uri,
              doc.positionAt(at),
            )) ?? [];
          const d = defs[0];
          const target = d && ('targetUri' in d ? d.targetUri : d.uri);
          file = target ? (rel(target) ?? '') : '';
          name = base;
        }
        return {
          raw: 'decorators written before `class` in the files read (no language-service command lists decorators)',
          rawCount: written,
          toolCount: data.attributes.items.length,
          toolMisses: Math.max(0, written - data.attributes.items.length),
          grepCount: filesRead.length,
          grepFalsePositives: null,
          grepMisses: null,
          note: `files read: ${filesRead.join(', ')}; the class${filesRead.length > 1 ? ' and its bases' : ''} carry ${written} class decorators and ${memberDecorators} member or parameter decorators; the tool lists ${data.attributes.items.map((a) => `@${a.name}${a.inherited ? ' (inherited)' : ''}`).join(', ') || 'none'}${written === 0 && memberDecorators === 0 ? '; this code base has no decorators here' : ''}`,
        };
      }
      case 'outline': {
        const data = dataOf<OutlineData>(await tool('get-document-outline', { document: { path: q.file }, symbolsLimit: 1000 }));
        const listed = new Set(readOutline(data).map((s) => `${nameOf(s)}@${s.line}`));
        // The raw tree's declarations outside any function, method, constructor or accessor body and
        // not a variable in a variable's initializer: what the tool must list.
        const raw = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', u)) ?? [];
        const bodies = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);
        const declarations: string[] = [];
        let rawCount = 0;
        const variables = new Set([vscode.SymbolKind.Variable, vscode.SymbolKind.Constant]);
        const walk = (level: readonly vscode.DocumentSymbol[], inBody: boolean, inVariable: boolean): void => {
          for (const s of level) {
            rawCount++;
            if (!inBody && !(inVariable && (variables.has(s.kind) || s.kind === vscode.SymbolKind.Function))) {
              declarations.push(`${s.name}@${s.selectionRange.start.line + 1}`);
            }
            walk(s.children, inBody || bodies.has(s.kind) || /^\((get|set)\) /.test(s.name), inVariable || variables.has(s.kind));
          }
        };
        walk(raw, false, false);
        const file = read(textOf(q.file));
        return {
          raw: 'vscode.executeDocumentSymbolProvider (declarations outside bodies)',
          rawCount: declarations.length,
          toolCount: listed.size,
          toolMisses: declarations.filter((d) => !listed.has(d)).length,
          grepCount: file.split('\n').length - 1,
          grepFalsePositives: null,
          grepMisses: null,
          note: `grep count: lines of ${q.file} read; the raw tree has ${rawCount} symbols, the tool lists ${data.symbols.items.length} and says ${data.localsLeftOut ?? 0} locals were left out${data.symbols.hasMore ? ' (hasMore)' : ''}`,
        };
      }
      case 'info': {
        const text = await tool('get-symbol-info', { symbol: sel(q) });
        // The name is said by the symbolId's last segment ("…#Class:Name"), or by name when the symbolId escapes it.
        const ok = new RegExp(`[":]${escapeRe(q.name)}"`).test(text) && /"ok":true/.test(text);
        const file = read(textOf(q.file));
        return {
          raw: 'none (the tool is checked to name the symbol)',
          rawCount: null,
          toolCount: ok ? 1 : 0,
          toolMisses: ok ? 0 : 1,
          grepCount: file.split('\n').length - 1,
          grepFalsePositives: null,
          grepMisses: null,
          note: `grep count: lines of ${q.file} read`,
        };
      }
      case 'rename': {
        const newName = q.newName as string;
        const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', u, pos, newName);
        const rawDocs = new Map<string, string>();
        const editLines = new Set<string>();
        for (const [eu, edits] of edit.entries()) {
          const r = rel(eu);
          if (!r) continue;
          const original = textOf(r);
          const doc = await vscode.workspace.openTextDocument(eu);
          let next = original;
          for (const e of [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start))) {
            next = next.slice(0, doc.offsetAt(e.range.start)) + e.newText + next.slice(doc.offsetAt(e.range.end));
            editLines.add(lineKey(eu, e.range.start.line));
          }
          rawDocs.set(r, next);
        }
        // The rename answers its own review (includeDiff: every changed file's word diff, cut from the end to fit); what it left out is asked for one document at a time.
        const staged = dataOf<{
          diffs: { items: { path: string; diff?: string; truncated?: boolean }[]; totalCount: number; hasMore: boolean };
          residue?: { totalCount: number; kinds: Record<string, number> };
        }>(await tool('rename-symbol', { symbol: sel(q), newName, includeDiff: true }));
        const referencesMs = async (residue: boolean): Promise<number> => {
          const t = performance.now();
          await invokeLm('workbench_find_references', { symbol: sel(q), referencesLimit: 1000, ...(residue ? { residue } : {}) });
          return Math.round(performance.now() - t);
        };
        await referencesMs(false);
        const plainMs = await referencesMs(false);
        residueCost = {
          totalCount: staged.residue?.totalCount ?? 0,
          kinds: staged.residue?.kinds ?? {},
          bytes: bytesOf(JSON.stringify(staged.residue ?? null)),
          referencesMs: plainMs,
          referencesWithResidueMs: await referencesMs(true),
        };
        let truncatedDiffs = 0;
        for (const d of staged.diffs.items) {
          if (!d.truncated) continue;
          const diff = dataOf<{ diff?: { truncated?: boolean } }>(await tool('transaction-preview', { document: { path: d.path }, includeDiff: true }));
          if (diff.diff?.truncated) truncatedDiffs++;
        }
        const toolDocs = new Set(staged.diffs.items.map((d) => d.path));
        const g = grepKeys(run(['-rnw', q.name, 'src']));
        // The diff an agent reads to review the same change: GNU diff -u of each file, labelled like git diff.
        const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-realcode-diff-'));
        try {
          for (const [r, next] of [...rawDocs].sort(([a], [b]) => a.localeCompare(b))) {
            const renamedFile = path.join(scratch, r.replace(/\//g, '__'));
            fs.writeFileSync(renamedFile, next);
            let d = '';
            try {
              execFileSync('diff', ['-u', '--label', `a/${r}`, '--label', `b/${r}`, path.join(root, ...r.split('/')), renamedFile], {
                encoding: 'utf8',
                maxBuffer: 64 * 1024 * 1024,
              });
            } catch (error) {
              if ((error as { status?: number }).status !== 1) throw error;
              d = (error as { stdout: string }).stdout;
            }
            read(d);
          }
        } finally {
          fs.rmSync(scratch, { recursive: true, force: true });
        }
        return {
          raw: 'vscode.executeDocumentRenameProvider (files; lines edited)',
          rawCount: rawDocs.size,
          toolCount: toolDocs.size,
          toolMisses: [...rawDocs.keys()].filter((r) => !toolDocs.has(r)).length,
          grepCount: g.length,
          grepFalsePositives: g.filter((k) => !editLines.has(k)).length,
          grepMisses: [...editLines].filter((k) => !g.includes(k)).length,
          note: `${rawDocs.size} files, ${editLines.size} edited lines; the tool staged ${staged.diffs.totalCount} documents and showed ${toolDocs.size} diffs${staged.diffs.hasMore ? ' (list truncated)' : ''}, ${truncatedDiffs} diffs truncated; grep's lines that the rename does not edit are ones a sed would wrongly change`,
        };
      }
      case 'search': {
        const query = q.query as string;
        const answered = dataOf<SearchData>(await tool('search-symbols', { query }));
        const data = { ...answered, symbols: { ...answered.symbols, items: readSearch(answered) } };
        const raw = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
        const contains = (n: string): boolean => n.toLowerCase().includes(query.toLowerCase());
        const rawIn = raw.filter((s) => rel(s.location.uri) && contains(s.name));
        // TypeScript's navto names functions `f()`; the tools say `f`.
        const rawKeys = new Set(rawIn.map((s) => `${s.name.replace(/\(\)$/, '')}@${rel(s.location.uri)}`));
        const rawLines = new Set(rawIn.map((s) => lineKey(s.location.uri, s.location.range.start.line)));
        const toolKeys = new Set(data.symbols.items.map((s) => `${nameOf(s)}@${pathOfSymbolId(s.symbolId)}`));
        // Locals the tool leaves out by default (it says how many: localsLeftOut): asked again with includeLocals, not counted as the agent's bytes.
        const keysOf = async (includeLocals: boolean): Promise<Set<string>> => {
          const e = JSON.parse(await invokeLm('workbench_search_symbols', { query, includeLocals, symbolsLimit: 1000 })) as Envelope<SearchData>;
          return new Set((e.ok ? readSearch(e.data) : []).map((s) => `${nameOf(s)}@${pathOfSymbolId(s.symbolId)}`));
        };
        const nonLocal = await keysOf(false);
        const localKeys = new Set([...(await keysOf(true))].filter((k) => !nonLocal.has(k)));
        const missed = [...rawKeys].filter((k) => !toolKeys.has(k) && !localKeys.has(k));
        const g = grepKeys(run(['-rniE', `(class|interface|function|type|enum|namespace|const|let|var) +[A-Za-z0-9_$]*${escapeRe(query)}`, 'src']));
        return {
          raw: 'vscode.executeWorkspaceSymbolProvider, names containing the query, in the code base',
          rawCount: rawKeys.size,
          toolCount: data.symbols.items.length,
          toolMisses: missed.length,
          grepCount: g.length,
          grepFalsePositives: g.filter((k) => !rawLines.has(k)).length,
          grepMisses: [...rawLines].filter((k) => !g.includes(k)).length,
          note: `tool missed: ${missed.join(', ') || 'none'}; locals left out and counted (localsLeftOut ${data.localsLeftOut ?? 0}): ${[...rawKeys].filter((k) => localKeys.has(k)).length} of the raw command's; the tool lists ${data.symbols.items.length}${data.symbols.hasMore ? ` of ${data.symbols.totalCount ?? 'more'} (hasMore)` : ''}; grep misses are declarations its pattern does not catch (methods, properties); its false positives are lines that declare nothing of that name (comments, strings, uses)`,
        };
      }
    }
  }
}
