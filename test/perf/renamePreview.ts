// Not a test npm test runs: the rename preview measurement, loaded as the extension tests module by
// test/perf/run.mjs on a generated workspace (synthetic-workspace --files 1000 --uses 4 --hubs 20).
// Times the raw rename provider, the host's converted rename (renameEdits), rename-symbol and
// transaction-preview through the ToolRunner, alternating with rollback; writes JSON to $AW_PERF_OUT.
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitForDocumentSymbols } from '../../scripts/in-host/languageService';
import { benchRuntime, envelopeProblem } from '../../bench/inHost';
import { activateWorkbench, perfInput } from './setup';

interface Info {
  entityPath: string;
  channelPath: string;
}

export async function run(): Promise<void> {
  const { info, out, folder } = perfInput<Info>();
  const entityAbs = path.join(folder.uri.fsPath, info.entityPath);
  const entityUri = vscode.Uri.file(entityAbs);
  await waitForDocumentSymbols(entityUri);
  const api = await activateWorkbench();
  await vscode.workspace.getConfiguration('agentWorkbench').update('operationalMode', 'autonomous-trusted', vscode.ConfigurationTarget.Global);
  const { services, runner, dispose } = await benchRuntime(api.version);
  const at = 'export class '.length;
  const pos = new vscode.Position(0, at);
  const timed = async (f: () => Promise<unknown> | Thenable<unknown>): Promise<number> => {
    const t = performance.now();
    await f();
    return Math.round(performance.now() - t);
  };
  const ok = (r: { text: string }): void => {
    const problem = envelopeProblem(r.text);
    if (problem) throw new Error(problem);
  };
  const samples: Record<string, number[]> = { raw: [], hostRenameEdits: [], renameSymbol: [], preview: [], stagePreview: [] };
  // The first renames can answer before TypeScript has loaded the whole project: warm up, then measure.
  const warmup = 3;
  const iterations = Number(process.env.AW_PERF_ITERATIONS ?? 7);
  for (let i = 0; i < warmup + iterations; i++) {
    if (i === warmup) for (const list of Object.values(samples)) list.length = 0;
    samples.raw.push(await timed(() => vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', entityUri, pos, 'EntityRenamed')));
    samples.hostRenameEdits.push(await timed(() => services.editor.renameEdits(entityAbs, at, 'EntityRenamed')));
    const s = await timed(async () =>
      ok(
        await runner.invoke('rename-symbol', {
          symbol: { location: { span: { document: { path: info.entityPath }, range: { start: at, length: 6 } } } },
          newName: 'EntityRenamed',
        }),
      ),
    );
    const p = await timed(async () => ok(await runner.invoke('transaction-preview', {})));
    samples.renameSymbol.push(s);
    samples.preview.push(p);
    samples.stagePreview.push(s + p);
    ok(await runner.invoke('transaction-rollback', {}));
  }
  if (process.env.AW_PERF_PROFILE) {
    // One more stage + preview under the CPU profiler, written next to the results.
    const session = new inspector.Session();
    session.connect();
    const post = (method: string, params?: object): Promise<unknown> =>
      new Promise((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
    await post('Profiler.enable');
    await post('Profiler.start');
    ok(
      await runner.invoke('rename-symbol', {
        symbol: { location: { span: { document: { path: info.entityPath }, range: { start: at, length: 6 } } } },
        newName: 'EntityRenamed',
      }),
    );
    ok(await runner.invoke('transaction-preview', {}));
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.writeFileSync(`${out}.cpuprofile`, JSON.stringify(profile));
    ok(await runner.invoke('transaction-rollback', {}));
    // find-references on Channel, warm (its documents' symbol trees and highlights kept): 30 calls under the profiler.
    const refs = { symbol: { location: { span: { document: { path: info.channelPath }, range: { start: at, length: 7 } } } }, referencesLimit: 1000 };
    for (let i = 0; i < 5; i++) ok(await runner.invoke('find-references', refs));
    fs.writeFileSync(`${out}.refs.txt`, (await runner.invoke('find-references', refs)).text);
    const channelUri = vscode.Uri.file(path.join(folder.uri.fsPath, info.channelPath));
    const rawTimes: number[] = [];
    const ourTimes: number[] = [];
    for (let i = 0; i < 30; i++) {
      rawTimes.push(await timed(() => vscode.commands.executeCommand('vscode.executeReferenceProvider', channelUri, new vscode.Position(0, at))));
      ourTimes.push(await timed(async () => ok(await runner.invoke('find-references', refs))));
    }
    const coldTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      services.caches.clear();
      coldTimes.push(await timed(async () => ok(await runner.invoke('find-references', refs))));
    }
    samples.coldReferences = coldTimes;
    samples.rawReferences = rawTimes;
    samples.findReferences = ourTimes;
    await post('Profiler.start');
    for (let i = 0; i < 30; i++) ok(await runner.invoke('find-references', refs));
    const refsProfile = ((await post('Profiler.stop')) as { profile: unknown }).profile;
    fs.writeFileSync(`${out}.refs.cpuprofile`, JSON.stringify(refsProfile));
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const result = { samples, median: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) };
  console.log(`[perf] ${JSON.stringify(result)}`);
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  dispose();
}
