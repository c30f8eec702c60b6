// Loaded by `node bench/check.mjs --navigation` as the extension tests module, in a real VS Code on
// the generated workspace: how long a navigation call (go-to-definition through the extension's
// own tools, vscode.lm.invokeTool) takes idle (before the rename is staged and after its check),
// and while the first (cold) check of a staged rename of Entity (1,001 files) runs: the rename's
// answer starts it, transaction-check joins it and answers when it is done. The review panel is
// open throughout; the cost of its first opening is reported apart. Each call asks from
// another module (the import of Entity on its first line), so no answer is served from a kept
// one. Writes JSON to $AW_BENCH_OUT.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitForDocumentSymbols } from '../scripts/in-host/languageService';
import { activatedWorkbench, envelopeProblem, invokeLm, short, stats } from './inHost';

interface Synthetic {
  files: number;
  entityPath: string;
  channelPath: string;
  channelReferences: number;
}

export async function run(): Promise<void> {
  try {
    await measure();
  } catch (error) {
    console.error(`[bench:check-nav] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw error;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function measure(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  const synthetic = JSON.parse(process.env.AW_BENCH_SYNTHETIC ?? 'null') as Synthetic | null;
  if (!out || !synthetic) throw new Error('AW_BENCH_OUT and AW_BENCH_SYNTHETIC are set by bench/check.mjs');
  const calls = Number(process.env.AW_BENCH_NAV_CALLS ?? 20);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the bench needs the generated folder open');
  await activatedWorkbench();
  const channelUri = vscode.Uri.file(path.join(folder.uri.fsPath, synthetic.channelPath));
  await waitForDocumentSymbols(channelUri);
  // The TypeScript server has loaded the project once its references to Channel are all there.
  for (let probe = 0; probe < 240; probe++) {
    const found = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', channelUri, new vscode.Position(0, 13))) ?? [];
    if (found.length >= synthetic.channelReferences) break;
    await sleep(500);
  }
  const ok = (call: string, text: string): string => {
    const problem = envelopeProblem(text);
    if (problem) throw new Error(`${call} answered ${short(text, 1500)}`);
    return text;
  };
  let next = 0;
  /** go-to-definition on `Entity` in the import on the first line of the next module; its duration and when it ended. */
  const navigate = async (): Promise<{ ms: number; endedAt: number }> => {
    const file = `src/features/f${String(next++ % synthetic.files).padStart(4, '0')}.ts`;
    const started = performance.now();
    ok(
      `go-to-definition in ${file}`,
      await invokeLm('workbench_go_to_definition', {
        location: { span: { document: { path: file }, range: { start: 'import { '.length, length: 6 } } },
      }),
    );
    const endedAt = performance.now();
    return { ms: endedAt - started, endedAt };
  };
  for (let i = 0; i < 5; i++) await navigate();
  // The review panel opens on a window's first staged revision and stays open: every figure below
  // is taken with it open, as a person reviewing has it. Its first opening in a window (a webview
  // the browser builds) holds up calls routed through the workbench meanwhile: measured apart, as
  // the call made right after it opens, beside a call just before.
  const beforePanel = (await navigate()).ms;
  await vscode.commands.executeCommand('agentWorkbench.review.open');
  const firstAfterPanel = (await navigate()).ms;
  for (let i = 0; i < 5; i++) await navigate();
  const idleBefore: number[] = [];
  for (let i = 0; i < calls; i++) idleBefore.push((await navigate()).ms);

  // The extension host's event loop: the longest gap between ticks of a 50 ms timer, per phase.
  let lastTick = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - lastTick);
    lastTick = now;
  }, 50);
  const gapSince = (): number => {
    const gap = longestGap;
    longestGap = 0;
    return gap;
  };
  gapSince();
  const renameStarted = performance.now();
  const renamed = ok(
    'rename-symbol',
    await invokeLm('workbench_rename_symbol', {
      symbol: { location: { span: { document: { path: synthetic.entityPath }, range: { start: 'export class '.length, length: 'Entity'.length } } } },
      newName: 'EntityRenamed',
    }),
  );
  const renameMs = performance.now() - renameStarted;
  const gapDuringRename = gapSince();
  const checkStarted = performance.now();
  let checkEnded: number | undefined;
  const checking = invokeLm('workbench_transaction_check', {}).then((text) => {
    checkEnded = performance.now();
    return text;
  });
  const during: number[] = [];
  let overlapping = 0;
  while (checkEnded === undefined) {
    const call = await navigate();
    // Only calls that ended while the check ran count: the last one may have outlived it.
    if (checkEnded === undefined || call.endedAt <= checkEnded) during.push(call.ms);
    else overlapping++;
  }
  const checkText = ok('transaction-check', await checking);
  const gapDuringCheck = gapSince();
  const idleAfter: number[] = [];
  for (let i = 0; i < calls; i++) idleAfter.push((await navigate()).ms);
  const gapAfterCheck = gapSince();
  clearInterval(ticker);
  ok('transaction-rollback', await invokeLm('workbench_transaction_rollback', {}));

  const idle = [...idleBefore, ...idleAfter];
  const result = {
    vscode: vscode.version,
    calls,
    idle: stats(idle),
    idleBefore: stats(idleBefore),
    idleAfter: stats(idleAfter),
    during: during.length > 0 ? stats(during) : null,
    duringCalls: during.length,
    overlapping,
    checkMs: (checkEnded ?? checkStarted) - checkStarted,
    renameMs,
    /** go-to-definition just before the review panel's first opening in the window, and right after it. */
    panelFirstOpen: { beforeMs: beforePanel, firstCallAfterMs: firstAfterPanel },
    /** The extension host's longest event-loop gap (a 50 ms timer's) while the rename was staged, while the check ran, and idle after it. */
    eventLoopGapMs: { rename: gapDuringRename, check: gapDuringCheck, afterCheck: gapAfterCheck },
    check: short(checkText, 600),
    rename: short(renamed, 300),
    samples: { idleBefore, during, idleAfter },
  };
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(
    `[bench:check-nav] go-to-definition idle median ${result.idle.medianMs} ms, during the check ${result.during?.medianMs ?? '-'} ms (${during.length} calls); check ${Math.round(result.checkMs)} ms`,
  );
}
