// Runs inside the extension host (bench/python.mjs): the tools on Python, through the whole chain,
// beside pyright's raw commands at the same places, interleaved (measureGroup); and a rename of
// `register` (three import styles) staged and previewed beside the raw rename provider.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitForDocumentSymbols } from '../scripts/in-host/languageService';
import { activatedWorkbench, benchRuntime, envelopeProblem, measureGroup, short, stats } from './inHost';
import type { Row, Stats } from './inHost';

interface Pair {
  question: string;
  toolMs: number;
  rawMs: number;
  target: number;
}

export async function run(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  if (!out) throw new Error('AW_BENCH_OUT (the result file) is not set; run the bench with `npm run bench:python`.');
  const iterations = Number(process.env.AW_BENCH_ITERATIONS ?? 200);
  const warmup = Number(process.env.AW_BENCH_WARMUP ?? 20);
  const renameIterations = Number(process.env.AW_BENCH_RENAME_ITERATIONS ?? 30);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the bench needs the python fixture open');
  const api = await activatedWorkbench();
  const uri = (file: string) => vscode.Uri.file(path.join(folder.uri.fsPath, file));
  /** The position of `text` right after `before` in a file (which must hold it once). */
  const at = async (file: string, text: string, before: string): Promise<vscode.Position> => {
    const doc = await vscode.workspace.openTextDocument(uri(file));
    const found = doc.getText().indexOf(before + text);
    if (found < 0 || doc.getText().indexOf(before + text, found + 1) >= 0) throw new Error(`${before}${text} is not in ${file} once`);
    return doc.positionAt(found + before.length);
  };
  const readyMs = await waitForDocumentSymbols(uri('shapes/registry.py'));
  // pyright answers workspace-wide questions once it has analysed the package: wait for a reference in a closed file.
  const registerAt = await at('shapes/registry.py', 'register', 'def ');
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 250))) {
    const refs = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri('shapes/registry.py'), registerAt)) ?? [];
    if (new Set(refs.map((r) => r.uri.fsPath)).size >= 4) break;
    if (Date.now() - started > 90_000) throw new Error('pyright did not find register in the other modules within 90 s');
  }
  console.log(`[bench:python] pyright answered after ${readyMs} ms; ${warmup} warm-up + ${iterations} measured calls per row`);
  const { runner, dispose } = await benchRuntime(api.version);
  const chain = (tool: string, input: object) => ({
    id: `${tool}.runner`,
    label: `${tool}: ToolRunner.invoke() (whole chain)`,
    call: () => runner.invoke(tool, input),
    verify: (r: unknown) => envelopeProblem((r as { text: string }).text),
    sample: (r: unknown) => short((r as { text: string }).text),
  });
  const raw = (command: string, ...args: unknown[]) => ({
    id: command,
    label: `${command} (raw)`,
    call: () => vscode.commands.executeCommand<unknown>(command, ...args),
    verify: (r: unknown) => (Array.isArray(r) && r.length > 0 ? undefined : 'no answer'),
    sample: (r: unknown) => `${(r as unknown[]).length} items`,
  });
  const sel = (file: string, selectedText: string, contextBefore: string) => ({
    location: { selection: { document: { path: file }, selectedText, contextBefore } },
  });
  const groups: { question: string; tool: ReturnType<typeof chain>; raw: ReturnType<typeof raw> }[] = [
    {
      question: 'get-document-outline of shapes/catalog.py',
      tool: chain('get-document-outline', { document: { path: 'shapes/catalog.py' } }),
      raw: raw('vscode.executeDocumentSymbolProvider', uri('shapes/catalog.py')),
    },
    { question: 'search-symbols "Circle"', tool: chain('search-symbols', { query: 'Circle' }), raw: raw('vscode.executeWorkspaceSymbolProvider', 'Circle') },
    {
      question: 'go-to-definition of an aliased import (reg)',
      tool: chain('go-to-definition', sel('shapes/catalog.py', 'reg', '@')),
      raw: raw('vscode.executeDefinitionProvider', uri('shapes/catalog.py'), await at('shapes/catalog.py', 'reg', '@')),
    },
    {
      question: 'find-references of register (three import styles)',
      tool: chain('find-references', { symbol: sel('shapes/registry.py', 'register', 'def '), referencesLimit: 1000 }),
      raw: raw('vscode.executeReferenceProvider', uri('shapes/registry.py'), registerAt),
    },
  ];
  const rows: Row[] = [];
  const pairs: Pair[] = [];
  for (const g of groups) {
    console.log(`[bench:python] ${g.question}`);
    const [toolRow, rawRow] = await measureGroup(g.question, [g.tool, g.raw], iterations, warmup);
    rows.push(toolRow, rawRow);
    pairs.push({ question: g.question, toolMs: (toolRow.stats as Stats).medianMs, rawMs: (rawRow.stats as Stats).medianMs, target: 1.15 });
  }

  console.log(`[bench:python] rename register -> enroll: raw provider, stage + preview (rolled back), ${renameIterations} each`);
  const timed = async (f: () => PromiseLike<unknown>): Promise<number> => {
    const started = performance.now();
    await f();
    return performance.now() - started;
  };
  const ok = (what: string, text: string): void => {
    const problem = envelopeProblem(text);
    if (problem) throw new Error(`${what}: ${problem}`);
  };
  const rawRename: number[] = [];
  const stagePreview: number[] = [];
  let renamedFiles = 0;
  for (let i = 0; i < renameIterations + 3; i++) {
    const rawMs = await timed(async () => {
      const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
        'vscode.executeDocumentRenameProvider',
        uri('shapes/registry.py'),
        registerAt,
        'enroll',
      );
      renamedFiles = edit.entries().length;
    });
    const stageMs = await timed(async () => {
      ok('rename-symbol', (await runner.invoke('rename-symbol', { symbol: sel('shapes/registry.py', 'register', 'def '), newName: 'enroll' })).text);
      ok('transaction-preview', (await runner.invoke('transaction-preview', {})).text);
    });
    ok('transaction-rollback', (await runner.invoke('transaction-rollback', {})).text);
    // The first three of each are warm-up.
    if (i >= 3) {
      rawRename.push(rawMs);
      stagePreview.push(stageMs);
    }
  }
  const renameQuestion = `rename register -> enroll (${renamedFiles} files): stage + preview`;
  rows.push(
    {
      id: 'rename.stagePreview',
      group: renameQuestion,
      label: 'rename-symbol + transaction-preview through the chain',
      status: 'measured',
      stats: stats(stagePreview),
      sample: '',
    },
    { id: 'rename.raw', group: renameQuestion, label: 'vscode.executeDocumentRenameProvider (raw)', status: 'measured', stats: stats(rawRename), sample: '' },
  );
  pairs.push({ question: renameQuestion, toolMs: stats(stagePreview).medianMs, rawMs: stats(rawRename).medianMs, target: 1.3 });
  dispose();
  fs.writeFileSync(out, JSON.stringify({ vscodeVersion: vscode.version, pairs, rows }));
}
