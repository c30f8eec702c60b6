// What every perf module starts with: the inputs test/perf/run.mjs passes, and the extension activated.
import * as vscode from 'vscode';
import type { AgentWorkbenchApi } from '../../src/extension';

/** The generated workspace's description (the generator's stdout), the output file and the open folder. */
export function perfInput<T>(): { info: T; out: string; folder: vscode.WorkspaceFolder } {
  const info = JSON.parse(process.env.AW_GENERATED ?? 'null') as T | null;
  const out = process.env.AW_PERF_OUT;
  if (!info || !out) throw new Error('AW_GENERATED and AW_PERF_OUT are set by test/perf/run.mjs');
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no folder open');
  return { info, out, folder };
}

export async function activateWorkbench(): Promise<AgentWorkbenchApi> {
  const ext = vscode.extensions.getExtension<AgentWorkbenchApi>('agent-workbench.agent-workbench');
  if (!ext) throw new Error('extension not loaded');
  return ext.activate();
}
