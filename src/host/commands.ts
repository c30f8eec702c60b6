import * as vscode from 'vscode';
import { OPERATIONAL_MODES } from '../core/chain/modes';
import type { OperationalMode } from '../core/chain/modes';
import { readSettings, SECTION } from './settings';

const MODE_DESCRIPTIONS: Record<OperationalMode, string> = {
  'inspection-only': 'Queries only: nothing can be staged or written.',
  transactional: 'Agents stage changes; a commit runs after you confirm it.',
  'approval-required': 'Agents stage changes; only you commit them.',
  'autonomous-trusted': 'Agents stage and commit without asking.',
};

/** Command palette commands and the status bar item that shows the effective mode. */
export function registerCommands(log: vscode.LogOutputChannel): vscode.Disposable[] {
  const status = vscode.window.createStatusBarItem('agentWorkbench.mode', vscode.StatusBarAlignment.Left, 50);
  status.name = 'Agent Workbench';
  status.command = 'agentWorkbench.chooseOperationalMode';
  const refresh = (): void => {
    const s = readSettings();
    status.text = `$(tools) ${s.effectiveMode}`;
    status.tooltip = new vscode.MarkdownString(
      `**Agent Workbench**: ${MODE_DESCRIPTIONS[s.effectiveMode]}${s.trusted ? '' : '\n\nThe workspace is not trusted, so agents can only inspect.'}\n\nClick to change the mode.`,
    );
    status.show();
  };
  refresh();

  return [
    status,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    vscode.commands.registerCommand('agentWorkbench.showLog', () => log.show(true)),
    vscode.commands.registerCommand('agentWorkbench.chooseOperationalMode', async (mode?: unknown) => {
      let chosen: OperationalMode | undefined;
      if (typeof mode === 'string' && (OPERATIONAL_MODES as readonly string[]).includes(mode)) {
        chosen = mode as OperationalMode;
      } else {
        const current = readSettings().operationalMode;
        const pick = await vscode.window.showQuickPick(
          OPERATIONAL_MODES.map((m) => ({ label: m, description: m === current ? '(current)' : undefined, detail: MODE_DESCRIPTIONS[m] })),
          { title: 'Agent Workbench: what may agents do?' },
        );
        chosen = pick?.label as OperationalMode | undefined;
      }
      if (!chosen) return undefined;
      await vscode.workspace.getConfiguration(SECTION).update('operationalMode', chosen, vscode.ConfigurationTarget.Global);
      log.info(`Operational mode set to ${chosen}.`);
      return chosen;
    }),
  ];
}
