// Not a test npm test runs: go-to-definition beside the raw definition provider, loaded as the
// extension tests module by test/perf/run.mjs on a generated workspace (synthetic-workspace).
// Alternates the raw command and the tool through the ToolRunner, the bench's query (Entity in
// src/features/f0500.ts); with AW_PERF_PROFILE, profiles the tool's calls. Writes JSON to $AW_PERF_OUT.
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitForDocumentSymbols } from '../../scripts/in-host/languageService';
import { benchRuntime, envelopeProblem } from '../../bench/inHost';
import { activateWorkbench, perfInput } from './setup';

export async function run(): Promise<void> {
  const { out, folder } = perfInput<unknown>();
  const sample = 'src/features/f0500.ts';
  const uri = vscode.Uri.file(path.join(folder.uri.fsPath, sample));
  await waitForDocumentSymbols(uri);
  const api = await activateWorkbench();
  const { runner, dispose } = await benchRuntime(api.version);
  const doc = await vscode.workspace.openTextDocument(uri);
  const at = doc.getText().indexOf('item: Entity') + 'item: '.length;
  const input = { location: { span: { document: { path: sample }, range: { start: at, length: 'Entity'.length } } } };
  const ours = async (): Promise<void> => {
    const problem = envelopeProblem((await runner.invoke('go-to-definition', input)).text);
    if (problem) throw new Error(problem);
  };
  const raw = () => vscode.commands.executeCommand('vscode.executeDefinitionProvider', uri, doc.positionAt(at));
  const timed = async (f: () => Promise<unknown> | Thenable<unknown>): Promise<number> => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  const iterations = Number(process.env.AW_PERF_ITERATIONS ?? 200);
  const samples: Record<string, number[]> = { raw: [], ours: [] };
  for (let i = 0; i < 20; i++) await Promise.all([raw(), ours()].map((p) => Promise.resolve(p)));
  for (let i = 0; i < iterations; i++) {
    samples.raw.push(await timed(raw));
    samples.ours.push(await timed(ours));
  }
  if (process.env.AW_PERF_PROFILE) {
    const session = new inspector.Session();
    session.connect();
    const post = (method: string, params?: object): Promise<unknown> =>
      new Promise((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
    await post('Profiler.start');
    for (let i = 0; i < iterations; i++) await ours();
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.writeFileSync(`${out}.cpuprofile`, JSON.stringify(profile));
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const result = { median: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, Number(median(v).toFixed(3))])) };
  console.log(`[perf] ${JSON.stringify(result)}`);
  fs.writeFileSync(out, JSON.stringify({ ...result, samples }, null, 2));
  dispose();
}
