// The in-host part of the MCP bench (bench/mcp.mjs), loaded as the extension tests module with
// agentWorkbench.mcp.enabled on. Round trips of server-status and find-references at 8 concurrent
// callers: over MCP (a separate Node process with the SDK's client, bench/mcpClients.mjs), through
// vscode.lm.invokeTool, and, for find-references, the raw language-service command. Not a test.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registeredToolName } from '../src/core/chain/definition';
import type { DiscoveryEntry } from '../src/mcp/discovery';
import { waitForDocumentSymbols } from '../scripts/in-host/languageService';
import { activatedWorkbench } from './inHost';

const REFERENCES_INPUT = { symbol: { location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatName' } } } };

interface Measured {
  latencies: number[];
  wallMs: number;
}

export interface McpBenchRow {
  tool: string;
  door: 'raw command' | 'vscode.lm.invokeTool' | 'MCP (Streamable HTTP, SDK client in another process)';
  calls: number;
  concurrency: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  callsPerSecond: number;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function row(tool: string, door: McpBenchRow['door'], m: Measured, concurrency: number): McpBenchRow {
  const s = [...m.latencies].sort((a, b) => a - b);
  return {
    tool,
    door,
    calls: s.length,
    concurrency,
    p50Ms: percentile(s, 0.5),
    p99Ms: percentile(s, 0.99),
    meanMs: s.reduce((a, b) => a + b, 0) / s.length,
    callsPerSecond: (s.length / m.wallMs) * 1000,
  };
}

/** `calls` calls of `call` from `concurrency` callers at once, after `warmup` unmeasured ones. */
async function concurrently(call: () => PromiseLike<unknown>, calls: number, concurrency: number, warmup: number): Promise<Measured> {
  const once = async (n: number): Promise<Measured> => {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          next++;
          const t = performance.now();
          await call();
          latencies.push(performance.now() - t);
        }
      }),
    );
    return { latencies, wallMs: performance.now() - started };
  };
  await once(warmup);
  return once(calls);
}

function overMcp(entry: DiscoveryEntry, tool: string, input: object, calls: number, concurrency: number, warmup: number): Promise<Measured> {
  const script = path.resolve(__dirname, '..', '..', 'bench', 'mcpClients.mjs');
  return new Promise((resolve, reject) => {
    const env = { ...process.env, AW_MCP_URL: entry.url, AW_MCP_TOKEN: entry.token };
    execFile(
      process.execPath,
      [script, tool, JSON.stringify(input), String(concurrency), String(calls), String(warmup)],
      { maxBuffer: 64 * 1024 * 1024, env },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as Measured);
      },
    );
  });
}

async function lm(tool: string, input: object): Promise<void> {
  const r = await vscode.lm.invokeTool(registeredToolName(tool), { input, toolInvocationToken: undefined });
  const text = (r.content[0] as vscode.LanguageModelTextPart).value;
  if (!text.startsWith('{"ok":true')) throw new Error(`${tool} failed: ${text.slice(0, 300)}`);
}

export async function run(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  if (!out) throw new Error('AW_BENCH_OUT is not set; run node bench/mcp.mjs');
  const calls = Number(process.env.AW_BENCH_CALLS ?? 1000);
  const concurrency = Number(process.env.AW_BENCH_CONCURRENCY ?? 8);
  const warmup = Number(process.env.AW_BENCH_WARMUP ?? 50);
  const api = await activatedWorkbench();
  const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  await waitForDocumentSymbols(vscode.Uri.file(path.join(folder, 'src/greeter.ts')));
  await new Promise((r) => setTimeout(r, 3000));
  const end = Date.now() + 20_000;
  while (!api.testHooks.mcp.discoveryFile && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  const entry = JSON.parse(fs.readFileSync(api.testHooks.mcp.discoveryFile!, 'utf8')) as DiscoveryEntry;

  const util = vscode.Uri.file(path.join(folder, 'src/util.ts'));
  const utilDoc = await vscode.workspace.openTextDocument(util);
  const position = utilDoc.positionAt(utilDoc.getText().indexOf('formatName'));
  const rows: McpBenchRow[] = [];
  // Twice each, alternating the doors, so drift in the host spreads over all of them; the rows keep both halves.
  const halves = Math.max(1, Math.floor(calls / 2));
  const merge = (a: Measured, b: Measured): Measured => ({ latencies: [...a.latencies, ...b.latencies], wallMs: a.wallMs + b.wallMs });
  for (const [tool, input] of [
    ['server-status', {}],
    ['find-references', REFERENCES_INPUT],
  ] as const) {
    const results: Partial<Record<McpBenchRow['door'], Measured>> = {};
    const doors: [McpBenchRow['door'], () => Promise<Measured>][] = [
      ['vscode.lm.invokeTool', () => concurrently(() => lm(tool, input), halves, concurrency, warmup)],
      ['MCP (Streamable HTTP, SDK client in another process)', () => overMcp(entry, tool, input, halves, concurrency, warmup)],
    ];
    if (tool === 'find-references') {
      doors.unshift([
        'raw command',
        () => concurrently(() => vscode.commands.executeCommand('vscode.executeReferenceProvider', util, position), halves, concurrency, warmup),
      ]);
    }
    for (const order of [doors, [...doors].reverse()]) {
      for (const [door, measure] of order) {
        console.log(`[bench:mcp] ${tool} via ${door}: ${halves} calls at ${concurrency}`);
        const m = await measure();
        results[door] = results[door] ? merge(results[door]!, m) : m;
      }
    }
    for (const [door] of doors) rows.push(row(tool, door, results[door]!, concurrency));
  }
  fs.writeFileSync(out, JSON.stringify({ vscodeVersion: vscode.version, node: process.version, rows }, null, 2));
}
