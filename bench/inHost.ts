// The part of `npm run bench` that runs inside the real VS Code extension host (loaded by
// bench/run.mjs as the extension tests module). It measures activation, the framework's per-call
// overhead at three depths, the language-service call get-code-context relies on, VS Code's own
// agent tools, and the host's memory, then writes everything as JSON to $AW_BENCH_OUT.
// It is not a test: npm test never loads it.
import { StagedChecks } from '../src/core/transactions/check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as inspector from 'node:inspector/promises';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import { NEVER_CANCELLED } from '../src/core/chain/cancellation';
import { ToolRunner } from '../src/core/chain/chain';
import { ToolContext } from '../src/core/documents/context';
import type { Services } from '../src/core/documents/context';
import { registeredToolName } from '../src/core/chain/definition';
import type { AnyToolDefinition } from '../src/core/chain/definition';
import type { Envelope } from '../src/core/chain/envelope';
import { ErrorStore } from '../src/core/chain/errorStore';
import { WorkspaceRegistry } from '../src/core/documents/workspaces';
import type { AgentWorkbenchApi } from '../src/extension';
import { TransactionManager } from '../src/core/transactions/manager';
import { readSettings, watchSettings } from '../src/host/settings';
import { VsCodeHost } from '../src/host/vscodeHost';
import { ALL_TOOLS } from '../src/tools';
import { waitForDocumentSymbols } from '../scripts/in-host/languageService';
import { LanguageServiceCaches } from '../src/core/documents/caches';
import { ProjectReadiness } from '../src/core/symbols/readiness';

export const EXTENSION_ID = 'agent-workbench.agent-workbench';

/** The extension's API, activated (the benches that do not time activation start here). */
export async function activatedWorkbench(): Promise<AgentWorkbenchApi> {
  const ext = vscode.extensions.getExtension<AgentWorkbenchApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext.activate();
}
const GREETER = 'src/greeter.ts';
const CODE_CONTEXT_INPUT = { location: { selection: { document: { path: GREETER }, selectedText: 'greet(name: string)' } }, contextLines: 10 };
/** The line and symbol VS Code's own tools are pointed at (the same method get-code-context reads). */
const VSCODE_TOOL_TARGET = { symbol: 'greet', filePath: GREETER, lineContent: 'greet(name: string): Greeting' };

export interface Stats {
  n: number;
  medianMs: number;
  p95Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
}

export interface Row {
  id: string;
  group: string;
  label: string;
  status: 'measured' | 'refused' | 'failed';
  /** Why a tool refused (status refused), in its own words. */
  reason?: string;
  /** Status failed: the failing call's envelope or exception; stats, if any, are of the calls before it. */
  error?: string;
  stats?: Stats;
  /** The first characters of one answer, to show what was measured. */
  sample?: string;
  note?: string;
}

export interface Memory {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
}

export interface InHostResult {
  vscodeVersion: string;
  appName: string;
  hostNode: string;
  hostPlatform: string;
  config: { iterations: number; warmup: number; settleMs: number };
  extension: { version: string; toolCount: number };
  activation: {
    /** From the extension's API (activate()'s own measurement), or null when the API has no activationMs. */
    activationMs: number | null;
    source: 'api.activationMs' | 'ext.activate() awaited by the bench';
    /** How long `await ext.activate()` took here; about 0 when VS Code had already activated it. */
    activateCallMs: number;
    wasActiveBeforeBench: boolean;
  };
  typescriptReadyMs: number;
  lmTools: { name: string; found: boolean; inputSchema?: unknown }[];
  rows: Row[];
  memory: {
    /** Whether a GC could be forced; when it could, before and afterGc are read right after one. */
    gcForced: boolean;
    before: Memory;
    after: Memory;
    afterGc: Memory;
    calls: number;
  };
}

export function memory(): Memory {
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss, external: m.external };
}

/** Node's gc(), reachable without --expose-gc through V8's flags; undefined when that is refused. */
export function gcFunction(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export function memoryAfterGc(gc: (() => void) | undefined): Memory {
  gc?.();
  gc?.();
  return memory();
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const at = (q: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))];
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return { n, medianMs: median, p95Ms: at(0.95), meanMs: sorted.reduce((s, x) => s + x, 0) / n, minMs: sorted[0], maxMs: sorted[n - 1] };
}

/** Runs bench steps so that one failing keeps its error (stack or message) under its id and the others go on. */
export function failureRecorder(label: string): { failures: Record<string, string>; attempt: (id: string, body: () => Promise<void>) => Promise<void> } {
  const failures: Record<string, string> = {};
  const attempt = async (id: string, body: () => Promise<void>): Promise<void> => {
    try {
      await body();
    } catch (error) {
      failures[id] = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`[${label}] FAILED ${id}: ${failures[id]}`);
    }
  };
  return { failures, attempt };
}

/** A rename's measured steps as rows of one group: a failed step as a failed row (with what it measured before failing). */
export function renameRows(group: string, samples: Record<string, number[]>, failures: Record<string, string>, labels: Record<string, string>): Row[] {
  const rows: Row[] = [];
  for (const [id, list] of Object.entries(samples)) {
    if (failures[id] !== undefined) {
      rows.push({ id: `rename.${id}`, group, label: labels[id], status: 'failed', error: failures[id], ...(list.length > 0 ? { stats: stats(list) } : {}) });
    } else if (list.length > 0) rows.push({ id: `rename.${id}`, group, label: labels[id], status: 'measured', stats: stats(list) });
  }
  return rows;
}

export interface Variant {
  id: string;
  label: string;
  call: () => PromiseLike<unknown>;
  /** A problem with one answer, or undefined; checked outside the timed region. */
  verify: (result: unknown) => string | undefined;
  sample: (result: unknown) => string;
  note?: string;
}

let callCount = 0;

/**
 * Runs the variants of one group interleaved (iteration i starts at variant i mod k), so slow
 * drift in the host (GC, the TypeScript server's background work) spreads evenly over them.
 */
export async function measureGroup(group: string, variants: Variant[], iterations: number, warmup: number): Promise<Row[]> {
  const samples = variants.map(() => [] as number[]);
  const samplesText = variants.map(() => '');
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (i + k) % variants.length;
      const v = variants[index];
      const started = performance.now();
      const result = await v.call();
      const ms = performance.now() - started;
      callCount++;
      const problem = v.verify(result);
      if (problem) throw new Error(`${v.label}: unexpected answer on call ${i + 1}: ${problem}`);
      if (i >= warmup) samples[index].push(ms);
      else if (i === 0) samplesText[index] = v.sample(result);
    }
  }
  return variants.map((v, index) => ({
    id: v.id,
    group,
    label: v.label,
    status: 'measured',
    stats: stats(samples[index]),
    sample: samplesText[index],
    note: v.note,
  }));
}

/**
 * `body`, CPU-profiled into `$AW_BENCH_PROFILE/<name>.cpuprofile` when that variable names a
 * folder (open the file in Chrome's or VS Code's profiler): where a tool's time goes beside the raw call's.
 */
export async function profiled<T>(name: string, body: () => Promise<T>): Promise<T> {
  const folder = process.env.AW_BENCH_PROFILE;
  if (!folder) return body();
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await body();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

export async function invokeLm(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : `[${(p as object).constructor.name}]`)).join('');
}

export const envelopeProblem = (text: unknown): string | undefined => {
  const e = JSON.parse(text as string) as Envelope;
  return e.ok ? undefined : `${e.error.code}: ${e.error.message}`;
};
export const short = (s: string, max = 160): string => (s.length > max ? `${s.slice(0, max)}…` : s).replace(/\s+/g, ' ');

/** Measures one Agent Workbench tool three ways: its body, the whole chain, and through vscode.lm. */
export function overheadVariants(tool: AnyToolDefinition, input: object, services: Services, runner: ToolRunner, options: { cold?: boolean } = {}): Variant[] {
  const maxBytes = tool.maxOutputBytes > 0 ? tool.maxOutputBytes : services.settings().defaultMaxOutputBytes;
  const cold: Variant[] = options.cold
    ? [
        {
          id: `${tool.name}.cold`,
          label: `${tool.name}: ToolRunner.invoke(), kept answers forgotten first`,
          call: () => {
            services.caches.clear();
            return runner.invoke(tool.name, input);
          },
          verify: (r) => envelopeProblem((r as { text: string }).text),
          sample: (r) => short((r as { text: string }).text),
          note: 'the first call on these documents: every symbol tree and highlight asked of the language service (later calls on unchanged documents reuse them)',
        },
      ]
    : [];
  return [
    ...cold,
    {
      id: `${tool.name}.direct`,
      label: `${tool.name}: tool.run() directly`,
      // A fresh context per call, as the chain makes one: part of the tool's own cost.
      call: () => tool.run(input as never, new ToolContext(services, randomUUID(), maxBytes, undefined), NEVER_CANCELLED),
      verify: (data) => (data && typeof data === 'object' ? undefined : 'no data'),
      sample: (data) => short(JSON.stringify(data)),
    },
    {
      id: `${tool.name}.runner`,
      label: `${tool.name}: ToolRunner.invoke() (whole chain)`,
      call: () => runner.invoke(tool.name, input),
      verify: (r) => envelopeProblem((r as { text: string }).text),
      sample: (r) => short((r as { text: string }).text),
    },
    {
      id: `${tool.name}.lm`,
      label: `${tool.name}: vscode.lm.invokeTool() (end to end)`,
      call: () => invokeLm(registeredToolName(tool.name), input),
      verify: envelopeProblem,
      sample: (text) => short(text as string),
      note: 'extension host → VS Code’s tool service in the workbench (browser, over the websocket) → the registered extension (dist bundle) → back',
    },
  ];
}

/** Why one of VS Code's tools did not do the job, from its answer; undefined when it did. */
function vscodeToolRefusal(tool: string, text: string): string | undefined {
  if (tool === 'vscode_listCodeUsages') return /\busages? of `greet`/.test(text) ? undefined : text;
  return /^(Could not|No rename provider|Rename rejected|Rename produced no edits|Cannot|Error)/i.test(text) || !/greet/.test(text) ? text : undefined;
}

async function vscodeToolRow(name: string, input: object, iterations: number, warmup: number, note: string): Promise<Row> {
  const label = `${name} via vscode.lm.invokeTool()`;
  const known = vscode.lm.tools.find((t) => t.name === name);
  if (!known) {
    return { id: name, group: 'VS Code agent tools', label, status: 'refused', reason: `not in vscode.lm.tools (${vscode.lm.tools.length} tools listed)` };
  }
  let probe: string;
  try {
    probe = await invokeLm(name, input);
  } catch (error) {
    return { id: name, group: 'VS Code agent tools', label, status: 'refused', reason: short(error instanceof Error ? error.message : String(error), 300) };
  }
  const refusal = vscodeToolRefusal(name, probe);
  if (refusal) return { id: name, group: 'VS Code agent tools', label, status: 'refused', reason: short(refusal, 300), sample: short(probe) };
  const [row] = await measureGroup(
    'VS Code agent tools',
    [{ id: name, label, call: () => invokeLm(name, input), verify: (t) => vscodeToolRefusal(name, t as string), sample: (t) => short(t as string), note }],
    iterations,
    warmup,
  );
  return row;
}

/**
 * The same pieces activate() builds, from the compiled sources (out/src), over the same VS Code,
 * logging like the extension does (a log output channel) so the chain's logging cost is included.
 * Commits are confirmed without asking: the bench measures the work, not a person.
 */
export async function benchRuntime(version: string): Promise<{ services: Services; runner: ToolRunner; dispose: () => void }> {
  const host = new VsCodeHost(version);
  // As the extension does: settings read again only when they change.
  const settingsWatch = watchSettings();
  const memoryStore = new Map<string, unknown>();
  const transactions = new TransactionManager({ editor: host, maxRevisions: () => readSettings().maxRevisions, mode: () => readSettings().effectiveMode });
  const registry = new WorkspaceRegistry(
    host,
    {
      get: <T>(key: string) => memoryStore.get(key) as T | undefined,
      update: async (key: string, value: unknown) => void memoryStore.set(key, value),
    },
    (id) => transactions.revision(id),
  );
  await registry.sync();
  const services: Services = {
    editor: host,
    registry,
    errors: new ErrorStore(),
    tools: () => ALL_TOOLS,
    settings: readSettings,
    startedAt: Date.now(),
    transactions,
    readiness: new ProjectReadiness(),
    caches: new LanguageServiceCaches(),
    checks: new StagedChecks(undefined, 'The bench does not check staged text.'),
  };
  const channel = vscode.window.createOutputChannel('Agent Workbench bench', { log: true });
  const runner = new ToolRunner(ALL_TOOLS, {
    services,
    log: (e) => {
      const line = `${e.tool} ${e.outcome} ${e.durationMs}ms ${e.bytes}B${e.truncated ? ' truncated' : ''} correlationId=${e.correlationId}`;
      if (e.outcome === 'ok') channel.info(line);
      else channel.warn(line);
    },
    confirm: async () => true,
  });
  return {
    services,
    runner,
    dispose: () => {
      channel.dispose();
      settingsWatch.dispose();
    },
  };
}

/** Entry point the extension host loads (extensionTestsPath). */
export async function run(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  if (!out) throw new Error('AW_BENCH_OUT (the result file) is not set; run the bench with `npm run bench`.');
  const iterations = Number(process.env.AW_BENCH_ITERATIONS ?? 300);
  const warmup = Number(process.env.AW_BENCH_WARMUP ?? 30);
  const settleMs = Number(process.env.AW_BENCH_SETTLE_MS ?? 3000);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the bench needs the sample folder open');

  // Activation: the extension reports how long activate() took; VS Code may have activated it
  // already (onStartupFinished), in which case awaiting activate() here costs nothing.
  const ext = vscode.extensions.getExtension<AgentWorkbenchApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const wasActiveBeforeBench = ext.isActive;
  const activateStarted = performance.now();
  const api = await ext.activate();
  const activateCallMs = performance.now() - activateStarted;
  const reported = (api as Partial<AgentWorkbenchApi>).activationMs;

  const greeter = vscode.Uri.file(path.join(folder.uri.fsPath, GREETER));
  const typescriptReadyMs = await waitForDocumentSymbols(greeter);
  console.log(
    `[bench] extension host ready: VS Code ${vscode.version}, TypeScript answered after ${typescriptReadyMs} ms; ${warmup} warm-up + ${iterations} measured calls per row`,
  );
  // The TypeScript server keeps loading the project for a moment after its first answer.
  await new Promise((r) => setTimeout(r, settleMs));

  const { services, runner, dispose } = await benchRuntime(api.version);
  const tool = (name: string): AnyToolDefinition => {
    const t = ALL_TOOLS.find((d) => d.name === name);
    if (!t) throw new Error(`no tool ${name}`);
    return t;
  };

  const gc = gcFunction();
  const before = memoryAfterGc(gc);
  callCount = 0;
  const rows: Row[] = [];
  console.log('[bench] server-status: direct, chain, vscode.lm');
  rows.push(...(await measureGroup('server-status (pure overhead)', overheadVariants(tool('server-status'), {}, services, runner), iterations, warmup)));
  console.log('[bench] get-code-context: direct, chain, vscode.lm, and the raw document symbol provider');
  rows.push(
    ...(await measureGroup(
      'get-code-context (selection in src/greeter.ts)',
      [
        ...overheadVariants(tool('get-code-context'), CODE_CONTEXT_INPUT, services, runner),
        {
          id: 'executeDocumentSymbolProvider',
          label: 'vscode.executeDocumentSymbolProvider (raw, same document)',
          call: () => vscode.commands.executeCommand<unknown[] | undefined>('vscode.executeDocumentSymbolProvider', greeter),
          verify: (r) => (Array.isArray(r) && r.length > 0 ? undefined : 'no symbols'),
          sample: (r) => `${(r as unknown[]).length} top-level symbols`,
          note: 'the language-service call get-code-context makes once per call',
        },
      ],
      iterations,
      warmup,
    )),
  );

  console.log('[bench] VS Code agent tools: vscode_listCodeUsages, vscode_renameSymbol');
  const lmTools = ['vscode_listCodeUsages', 'vscode_renameSymbol'].map((name) => {
    const t = vscode.lm.tools.find((x) => x.name === name);
    return { name, found: t !== undefined, inputSchema: t?.inputSchema };
  });
  rows.push(
    await vscodeToolRow(
      'vscode_listCodeUsages',
      VSCODE_TOOL_TARGET,
      iterations,
      warmup,
      'definitions + references + implementations of greet, with line previews',
    ),
  );
  // Renaming greet to its own name: the language service computes the full rename, and the edits
  // it applies leave every file as it was, so each call does the same work.
  rows.push(
    await vscodeToolRow(
      'vscode_renameSymbol',
      { ...VSCODE_TOOL_TARGET, newName: VSCODE_TOOL_TARGET.symbol },
      iterations,
      warmup,
      'greet renamed to greet: the whole rename is computed and applied, with no change to the text',
    ),
  );
  const renamedDirty = vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => path.relative(folder.uri.fsPath, d.uri.fsPath));
  const rename = rows.find((r) => r.id === 'vscode_renameSymbol');
  if (rename && rename.status === 'measured' && renamedDirty.length > 0) rename.note += `; left unsaved buffers: ${renamedDirty.join(', ')}`;
  const after = memory();
  const afterGc = memoryAfterGc(gc);
  dispose();

  const result: InHostResult = {
    vscodeVersion: vscode.version,
    appName: vscode.env.appName,
    hostNode: process.version,
    hostPlatform: `${process.platform} ${process.arch}`,
    config: { iterations, warmup, settleMs },
    extension: { version: api.version, toolCount: api.toolNames.length },
    activation: {
      activationMs: typeof reported === 'number' ? reported : null,
      source: typeof reported === 'number' ? 'api.activationMs' : 'ext.activate() awaited by the bench',
      activateCallMs,
      wasActiveBeforeBench,
    },
    typescriptReadyMs,
    lmTools,
    rows,
    memory: { gcForced: gc !== undefined, before, after, afterGc, calls: callCount },
  };
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`[bench] ${callCount} calls measured; results written for the runner`);
}
