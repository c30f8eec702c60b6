// Not a test npm test runs: a measurement tx3 runs inside a real VS Code opened on a generated
// workspace (node scripts/synthetic-workspace.mjs <dir> --files 1000 --uses 4 --hubs 20), loaded
// as the extension tests module by test/perf/run.mjs. It renames Entity (5,003 references in
// 1,001 files) through vscode.lm, previews and commits it, checks every file byte for byte, then
// times the same commit through the editor alone (every document opened, one WorkspaceEdit).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registeredToolName } from '../../src/core/chain/definition';
import type { Envelope } from '../../src/core/chain/envelope';
import { commitPlan } from '../../src/host/commit';
import { waitForDocumentSymbols } from '../../scripts/in-host/languageService';
import { benchRuntime } from '../../bench/inHost';
import { activateWorkbench, perfInput } from './setup';

interface Info {
  dir: string;
  files: number;
  entityReferences: number;
  entityPath: string;
}

async function lm(name: string, input: object): Promise<{ ms: number; bytes: number; envelope: Envelope }> {
  const t = performance.now();
  const result = await vscode.lm.invokeTool(registeredToolName(name), { input, toolInvocationToken: undefined });
  const ms = Math.round(performance.now() - t);
  const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  return { ms, bytes: Buffer.byteLength(text), envelope: JSON.parse(text) as Envelope };
}

function data<T>(e: Envelope): T {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.data as T;
}

/** Every source file holds exactly `count` whole-word `name`s and none of `other`. */
function checkDisk(dir: string, name: string, other: string, count: number): { files: number; occurrences: number } {
  let files = 0;
  let occurrences = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        const text = fs.readFileSync(p, 'utf8');
        if (new RegExp(`\\b${other}\\b`).test(text)) throw new Error(`${p} still names ${other}`);
        const n = (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length;
        if (n > 0) files++;
        occurrences += n;
      }
    }
  };
  walk(path.join(dir, 'src'));
  if (occurrences !== count) throw new Error(`${occurrences} ${name} on disk, expected ${count}`);
  return { files, occurrences };
}

export async function run(): Promise<void> {
  const { info, out, folder } = perfInput<Info>();
  const entityUri = vscode.Uri.file(path.join(folder.uri.fsPath, info.entityPath));
  const result: Record<string, unknown> = { typescriptReadyMs: await waitForDocumentSymbols(entityUri) };
  await activateWorkbench();
  await vscode.workspace.getConfiguration('agentWorkbench').update('operationalMode', 'autonomous-trusted', vscode.ConfigurationTarget.Global);
  const symbol = (name: string) => ({
    location: { span: { document: { path: info.entityPath }, range: { start: 'export class '.length, length: name.length } } },
  });

  // 0. What writing 1,001 files costs by itself (identical bytes written back).
  const all: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name.endsWith('.ts')) all.push(path.join(d, e.name));
    }
  };
  walk(path.join(info.dir, 'src'));
  const contents = all.map((f) => fs.readFileSync(f));
  let t0 = performance.now();
  for (let i = 0; i < all.length; i++) await vscode.workspace.fs.writeFile(vscode.Uri.file(all[i]), contents[i]);
  const vscodeFsWrite = Math.round(performance.now() - t0);
  t0 = performance.now();
  for (let i = 0; i < all.length; i++) await fs.promises.writeFile(all[i], contents[i]);
  const nodeFsWrite = Math.round(performance.now() - t0);
  t0 = performance.now();
  for (let i = 0; i < all.length; i++) vscode.workspace.getConfiguration('files', vscode.Uri.file(all[i])).get('encoding');
  result.raw = { files: all.length, vscodeFsWriteMs: vscodeFsWrite, nodeFsWriteMs: nodeFsWrite, getConfigurationMs: Math.round(performance.now() - t0) };
  console.log(`[perf] ${JSON.stringify(result)}`);

  // 1. Through vscode.lm: stage, preview, preview with a diff, commit (direct writes for unopened files).
  const staged = await lm('rename-symbol', { symbol: symbol('Entity'), newName: 'EntityRenamed' });
  const s = data<{ documents: { items: unknown[]; hasMore: boolean; totalCount: number }; staged: { edits: number } }>(staged.envelope);
  result.stage = {
    ms: staged.ms,
    bytes: staged.bytes,
    listed: s.documents.items.length,
    totalCount: s.documents.totalCount,
    hasMore: s.documents.hasMore,
    edits: s.staged.edits,
  };
  const preview = await lm('transaction-preview', {});
  const p = data<{ documents: unknown[]; documentCount: number; documentsTruncated: boolean }>(preview.envelope);
  result.preview = {
    ms: preview.ms,
    bytes: preview.bytes,
    listed: p.documents.length,
    documentCount: p.documentCount,
    documentsTruncated: p.documentsTruncated,
  };
  const diff = await lm('transaction-preview', { document: { path: 'src/features/f0500.ts' }, includeDiff: true });
  const d = data<{ diff: { hunks: unknown[]; truncated: boolean } }>(diff.envelope);
  result.previewDiff = { ms: diff.ms, bytes: diff.bytes, hunks: d.diff.hunks.length, truncated: d.diff.truncated };
  const openBefore = vscode.workspace.textDocuments.filter((x) => x.uri.scheme === 'file').length;
  const committed = await lm('transaction-commit', {});
  const c = data<{ files: { items: unknown[]; hasMore: boolean; totalCount: number } }>(committed.envelope);
  const openAfter = vscode.workspace.textDocuments.filter((x) => x.uri.scheme === 'file').length;
  result.commit = {
    ms: committed.ms,
    bytes: committed.bytes,
    listed: c.files.items.length,
    totalCount: c.files.totalCount,
    hasMore: c.files.hasMore,
    openDocumentsBefore: openBefore,
    openDocumentsAfter: openAfter,
  };
  result.diskAfterCommit = checkDisk(info.dir, 'EntityRenamed', 'Entity', info.entityReferences);
  console.log(`[perf] ${JSON.stringify(result)}`);

  // 2-4. The host's part alone: direct writes (nothing open), then the editor only (opens every document), then with all open.
  const { services, runner, dispose } = await benchRuntime('perf');
  const ws = services.registry.all()[0];
  const hostCommit = async (from: string, to: string, label: string, options?: { directWriteMinFiles?: number }): Promise<void> => {
    data(JSON.parse((await runner.invoke('rename-symbol', { symbol: symbol(from), newName: to })).text) as Envelope);
    const { plan } = services.transactions.commitPlan(ws);
    const t = performance.now();
    const outcome = await commitPlan(plan, options);
    result[label] = {
      ms: Math.round(performance.now() - t),
      ok: outcome.ok,
      files: plan.files.length,
      open: vscode.workspace.textDocuments.filter((x) => x.uri.scheme === 'file').length,
    };
    await services.transactions.rollback(undefined, ws);
    checkDisk(info.dir, to, from, info.entityReferences);
    console.log(`[perf] ${label} ${JSON.stringify(result[label])}`);
  };
  await hostCommit('EntityRenamed', 'Entity', 'hostDirect');
  await hostCommit('Entity', 'EntityRenamed', 'hostEditorOnly', { directWriteMinFiles: Number.POSITIVE_INFINITY });
  await hostCommit('EntityRenamed', 'Entity', 'hostAllOpen');
  dispose();
  console.log(`[perf] ${JSON.stringify(result)}`);
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
}
