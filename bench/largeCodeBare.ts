// The large-code bench's window without the extension (bench/largeCode.mjs runs it after the main
// window, on the same code base, with an extension that contributes nothing): the project loaded
// and the same raw questions asked as in the main window, then the extension host's memory, for
// the row that sets it beside the main window's. Only `vscode` and Node's modules: it is copied
// into that empty extension's folder and run from there. Writes JSON to $AW_BENCH_OUT.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';

export interface BareResult {
  loadedMs: number;
  references: number;
  gcForced: boolean;
  memory: { heapUsed: number; heapTotal: number; rss: number; external: number };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function run(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  const expected = Number(process.env.AW_LARGE_CODE_REFERENCES ?? 0);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!out || !folder) throw new Error('AW_BENCH_OUT and an open folder are set by bench/largeCode.mjs');
  const started = Date.now();
  const open = async (rel: string, before: string, name: string) => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, rel)));
    const at = doc.getText().indexOf(`${before}${name}`);
    if (at < 0) throw new Error(`${rel} declares no ${name}`);
    return { doc, pos: doc.positionAt(at + before.length) };
  };
  const dual = await open('src/Function.ts', 'export const ', 'dual');
  // The project is loaded when the references settle on the count the main window found.
  let references = 0;
  for (;;) {
    try {
      references = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', dual.doc.uri, dual.pos))?.length ?? 0;
    } catch {
      references = 0;
    }
    if (references >= expected && references > 0) break;
    if (Date.now() - started > 600_000) throw new Error(`references of dual: ${references} after 10 minutes, ${expected} expected`);
    await sleep(500);
  }
  const loadedMs = Date.now() - started;
  const use = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, 'src/Array.ts')));
  await vscode.commands.executeCommand('vscode.executeDefinitionProvider', use.uri, use.positionAt(use.getText().indexOf('dual(')));
  await vscode.commands.executeCommand('vscode.executeWorkspaceSymbolProvider', 'hasProperty');
  const rename = await open('src/Predicate.ts', 'export const ', 'hasProperty');
  await vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', rename.doc.uri, rename.pos, 'hasPropertyRenamed');
  let gc: (() => void) | undefined;
  try {
    v8.setFlagsFromString('--expose-gc');
    const f: unknown = vm.runInNewContext('gc');
    gc = typeof f === 'function' ? (f as () => void) : undefined;
  } catch {
    gc = undefined;
  }
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  const result: BareResult = {
    loadedMs,
    references,
    gcForced: gc !== undefined,
    memory: { heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss, external: m.external },
  };
  fs.writeFileSync(out, JSON.stringify(result));
}
