// Not a test npm test runs: what find-references' first call pays per listed document, measured
// with the raw commands on the generated workspace (test/perf/run.mjs ... coldRefs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitForDocumentSymbols } from '../../scripts/in-host/languageService';
import { perfInput } from './setup';

export async function run(): Promise<void> {
  const { out, folder } = perfInput<unknown>();
  const channel = vscode.Uri.file(path.join(folder.uri.fsPath, 'src/model/channel.ts'));
  await waitForDocumentSymbols(channel);
  const pos = new vscode.Position(0, 'export class '.length);
  let refs: vscode.Location[] = [];
  for (let i = 0; i < 40 && refs.length < 121; i++) {
    refs = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', channel, pos)) ?? [];
    await new Promise((r) => setTimeout(r, 250));
  }
  const first = new Map<string, vscode.Location>();
  for (const r of refs) if (!first.has(r.uri.toString())) first.set(r.uri.toString(), r);
  const docs = [...first.values()];
  const timed = async (f: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await f();
    return Math.round(performance.now() - t);
  };
  const result: Record<string, number[]> = { references: [], symbolsAll: [], highlightsAll: [], symbolsSeq: [], highlightsSeq: [], openAll: [] };
  for (let k = 0; k < 5; k++) {
    result.references.push(await timed(() => Promise.resolve(vscode.commands.executeCommand('vscode.executeReferenceProvider', channel, pos))));
    result.openAll.push(await timed(() => Promise.all(docs.map((d) => vscode.workspace.openTextDocument(d.uri)))));
    result.symbolsAll.push(await timed(() => Promise.all(docs.map((d) => vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', d.uri)))));
    result.highlightsAll.push(
      await timed(() => Promise.all(docs.map((d) => vscode.commands.executeCommand('vscode.executeDocumentHighlights', d.uri, d.range.start)))),
    );
    result.symbolsSeq.push(
      await timed(async () => {
        for (const d of docs) await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', d.uri);
      }),
    );
    result.highlightsSeq.push(
      await timed(async () => {
        for (const d of docs) await vscode.commands.executeCommand('vscode.executeDocumentHighlights', d.uri, d.range.start);
      }),
    );
  }
  console.log(`[perf] docs=${docs.length} ${JSON.stringify(result)}`);
  fs.writeFileSync(out, JSON.stringify(result));
}
