// Loaded by bench/activation.mjs as the extension tests module: reads how long activate() took
// (the extension's own measurement), when its storage work was done, and whether VS Code had activated it before this module ran.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

const EXTENSION_ID = 'agent-workbench.agent-workbench';

export async function run(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  if (!out) throw new Error('AW_BENCH_OUT (the result file) is not set; run bench/activation.mjs.');
  const ext = vscode.extensions.getExtension<{ activationMs?: number; startupMs?: Promise<number> }>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const wasActive = ext.isActive;
  const started = performance.now();
  const api = await ext.activate();
  const activateCallMs = performance.now() - started;
  // Older builds (compared with --extension) waited for their storage work inside activate().
  const startupMs = api.startupMs ? await api.startupMs : null;
  fs.writeFileSync(out, JSON.stringify({ activationMs: api.activationMs ?? null, startupMs, wasActive, activateCallMs }));
}
