import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ToolRunner } from '../core/chain/chain';
import type { Services } from '../core/documents/context';
import { PanelController } from '../core/panel/controller';
import type { Outcome, PanelModel } from '../core/panel/model';
import type { ExtensionMessage, TransactionAction } from '../core/panel/protocol';
import { TRANSACTION_ACTIONS } from '../core/panel/protocol';
import { statusSummary } from '../core/panel/model';
import type { StagedDocument } from '../core/transactions/types';
import type { Workspace } from '../core/documents/workspaces';
import { nameAndFolder } from '../core/util/wording';
import { baseUri, registerStagedText, stagedUri } from './personEdits';
import { registerTryTool } from './tryTool';
import { settingValue } from './settings';

export const REVIEW_VIEW_TYPE = 'agentWorkbench.review';

export interface ReviewDeps {
  services: Services;
  runner: ToolRunner;
  extensionUri: vscode.Uri;
  log: vscode.LogOutputChannel;
}

const pathOf = (d: StagedDocument): string => d.path ?? d.origin?.path ?? '';

function nonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

/** The panel's HTML: no inline script, a nonce'd script from media/, a CSP that allows nothing else. */
export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css'));
  const n = nonce();
  const csp = [
    `default-src 'none'`,
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${n}'`,
    `img-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Agent Workbench: Review</title>
</head>
<body>
<main id="app" aria-label="Staged transaction review"><p class="empty">Loading…</p></main>
<script nonce="${n}" src="${script.toString()}"></script>
</body>
</html>`;
}

/**
 * After an agent's change the panel follows once the changes pause this long, and at most
 * REFRESH_LATEST_MS after the first: building and rendering its model (hundreds of ms for a rename
 * of 160 files in the workbench) then falls between the agent's calls instead of holding up the next.
 */
const REFRESH_QUIET_MS = 400;
const REFRESH_LATEST_MS = 1_500;

/** The one review panel, its status bar item and its commands. */
class ReviewPanel {
  private panel: vscode.WebviewPanel | undefined;
  private panelDisposables: vscode.Disposable[] = [];
  private refreshing: Promise<void> = Promise.resolve();
  private soon: { timer: ReturnType<typeof setTimeout>; since: number; open: boolean } | undefined;
  private lastModel: PanelModel | undefined;
  readonly status: vscode.StatusBarItem;

  constructor(
    private readonly deps: ReviewDeps,
    readonly controller: PanelController,
  ) {
    this.status = vscode.window.createStatusBarItem('agentWorkbench.staged', vscode.StatusBarAlignment.Left, 49);
    this.status.name = 'Agent Workbench: staged changes';
    this.status.command = 'agentWorkbench.review.open';
    this.status.show();
  }

  /** The editor column for diffs: one the panel is not in, so opening a diff never hides it. */
  otherColumn(): vscode.ViewColumn {
    return this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  open(preserveFocus: boolean): void {
    if (this.panel) {
      this.panel.reveal(undefined, preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      REVIEW_VIEW_TYPE,
      'Review: staged changes',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      this.webviewOptions(),
    );
    this.adopt(panel);
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.deps.extensionUri, 'media')],
      enableFindWidget: false,
      retainContextWhenHidden: true,
    };
  }

  /** Takes a panel (a new one, or one the serializer restores after a reload). */
  adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    panel.webview.options = this.webviewOptions();
    panel.webview.html = panelHtml(panel.webview, this.deps.extensionUri);
    this.panelDisposables = [
      panel.webview.onDidReceiveMessage((data: unknown) => void this.onMessage(data)),
      panel.onDidChangeViewState(() => void this.refresh()),
      panel.onDidDispose(() => {
        if (this.panel === panel) this.panel = undefined;
        for (const d of this.panelDisposables) d.dispose();
        this.panelDisposables = [];
      }),
    ];
    void this.refresh();
  }

  private async onMessage(data: unknown): Promise<void> {
    const outcome = await this.controller.handle(data);
    if (outcome && !outcome.ok) this.deps.log.warn(`Review panel: ${outcome.message}`);
    else if (outcome) this.deps.log.info(`Review panel (person): ${outcome.message}`);
    await this.refresh();
  }

  /**
   * A refresh once the transaction's changes pause (REFRESH_QUIET_MS; REFRESH_LATEST_MS at most),
   * with `open`, opening the panel then (beside the editor, keeping the focus) if it is closed.
   */
  refreshSoon(open = false): void {
    const since = this.soon?.since ?? Date.now();
    if (this.soon) clearTimeout(this.soon.timer);
    const opening = open || (this.soon?.open ?? false);
    const wait = Math.max(0, Math.min(REFRESH_QUIET_MS, since + REFRESH_LATEST_MS - Date.now()));
    const timer = setTimeout(() => void this.refresh(), wait);
    this.soon = { timer, since, open: opening };
  }

  /** Recomputes the model and sends it to the webview and the status bar; calls run one after another. */
  refresh(): Promise<void> {
    const { services } = this.deps;
    // A transaction that ended before the pause leaves nothing to review: the panel stays closed.
    const opening = this.soon?.open === true && !this.panel && services.registry.all().some((w) => services.transactions.active(w.id));
    if (this.soon) clearTimeout(this.soon.timer);
    this.soon = undefined;
    if (opening) {
      // An opening that was waiting for the pause happens now (opening refreshes).
      this.open(true);
      return this.refreshing;
    }
    this.refreshing = this.refreshing.then(async () => {
      try {
        // Only an open panel starts checks: nobody reads a closed one's.
        const model = await this.controller.model({ startCheck: this.panel !== undefined });
        this.lastModel = model;
        const s = statusSummary(model);
        this.status.text = s.text;
        this.status.tooltip = s.tooltip;
        const message: ExtensionMessage = { type: 'model', model };
        await this.panel?.webview.postMessage(message);
      } catch (error) {
        this.deps.log.error(`Review panel refresh failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    });
    return this.refreshing;
  }

  model(): PanelModel | undefined {
    return this.lastModel;
  }

  dispose(): void {
    if (this.soon) clearTimeout(this.soon.timer);
    this.panel?.dispose();
    this.status.dispose();
  }
}

/** What the panel's "Open diff" and "Open all changes" open. */
function diffSides(ws: Workspace, d: StagedDocument): { left: vscode.Uri; right: vscode.Uri } {
  const basePath = d.origin?.path ?? pathOf(d);
  const left = d.origin ? baseUri(ws, basePath) : baseUri(ws, basePath, true);
  const right = d.path === null ? baseUri(ws, basePath, true) : stagedUri(ws, d.path);
  return { left, right };
}

function findStaged(services: Services, ws: Workspace, path: string): StagedDocument | undefined {
  return services.transactions
    .active(ws.id)
    ?.effectiveDocuments()
    .find((d) => pathOf(d) === path);
}

export function registerReviewPanel(context: vscode.ExtensionContext, deps: ReviewDeps): vscode.Disposable[] {
  const { services } = deps;
  let column = (): vscode.ViewColumn => vscode.ViewColumn.One;
  let refresh = (): void => undefined;
  const controller = new PanelController(services, {
    openDiff: async (ws, path) => {
      const d = findStaged(services, ws, path);
      if (!d) return;
      const { left, right } = diffSides(ws, d);
      await vscode.commands.executeCommand('vscode.diff', left, right, `${path} ↔ staged`, { preview: false, viewColumn: column() });
    },
    openAllChanges: async (ws) => {
      const tx = services.transactions.active(ws.id);
      if (!tx) return;
      const resources = tx.effectiveDocuments().map((d) => {
        const { left, right } = diffSides(ws, d);
        return [vscode.Uri.file(ws.fsPath + '/' + pathOf(d)), left, right];
      });
      await vscode.commands.executeCommand('vscode.changes', `Staged changes in ${ws.alias} (revision ${tx.current})`, resources);
    },
    checkSettled: () => refresh(),
  });
  const staged = registerStagedText(services, controller);
  const panel = new ReviewPanel(deps, controller);
  column = () => panel.otherColumn();
  refresh = () => void panel.refresh();

  const workspaceOrSay = (): Workspace | undefined => {
    const ws = controller.workspace();
    if (!ws || !services.transactions.active(ws.id)) {
      void vscode.window.showInformationMessage('Agent Workbench: nothing is staged.');
      return undefined;
    }
    return ws;
  };
  const report = async (outcome: Outcome): Promise<Outcome> => {
    controller.setOutcome(outcome);
    await panel.refresh();
    if (outcome.ok) void vscode.window.showInformationMessage(`Agent Workbench: ${outcome.message}`);
    else void vscode.window.showErrorMessage(`Agent Workbench: ${outcome.message}`);
    return outcome;
  };
  const pickFile = async (title: string): Promise<{ ws: Workspace; path: string } | undefined> => {
    const ws = workspaceOrSay();
    if (!ws) return undefined;
    const files = await services.transactions.preview(ws);
    // Name first and folder after it, as the Source Control view lists files: a long path cut at its end loses the name.
    const pick = await vscode.window.showQuickPick(
      files.map((f) => {
        const { name, folder } = nameAndFolder(f.document.path);
        return {
          label: name,
          description: [folder, `${f.changeKind} +${f.preview.addedLines} −${f.preview.removedLines}`].filter(Boolean).join(' · '),
          path: f.document.path,
        };
      }),
      { title, matchOnDescription: true },
    );
    return pick ? { ws, path: pick.path } : undefined;
  };
  const actionCommand = (action: TransactionAction): vscode.Disposable =>
    vscode.commands.registerCommand(`agentWorkbench.review.${action}`, async () => {
      const ws = workspaceOrSay();
      return ws ? report(await controller.act(ws, action)) : undefined;
    });

  const disposables: vscode.Disposable[] = [
    panel,
    controller,
    ...staged.disposables,
    services.transactions.onDidChange((e) => {
      controller.show(e.workspaceId);
      // An outcome says what the person's last action did; any later change makes it stale. (The
      // person's own action changes the transaction first and sets its outcome after.)
      controller.setOutcome(null);
      staged.fs.changed();
      staged.base.changed();
      const ws = e.reason === 'staged' && e.revision === 1 && !panel.isOpen ? services.registry.byId(e.workspaceId) : undefined;
      const first = ws ? services.transactions.history(ws)[0] : undefined;
      // An agent's first staging opens the panel, once the agent's calls pause as any refresh does.
      panel.refreshSoon(first?.by === 'agent' && settingValue<boolean>('review.openOnFirstStage') !== false);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentWorkbench')) void panel.refresh();
    }),
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, {
      deserializeWebviewPanel: async (webviewPanel) => panel.adopt(webviewPanel),
    }),
    vscode.commands.registerCommand('agentWorkbench.review.open', () => panel.open(false)),
    ...TRANSACTION_ACTIONS.map(actionCommand),
    vscode.commands.registerCommand('agentWorkbench.review.openDiff', async (path?: unknown) => {
      const ws = controller.workspace();
      const target = typeof path === 'string' && ws ? { ws, path } : await pickFile('Open the diff of a staged file');
      if (target) await controller.handle({ type: 'openDiff', workspaceId: target.ws.id, path: target.path });
    }),
    vscode.commands.registerCommand('agentWorkbench.review.openAllChanges', async () => {
      const ws = workspaceOrSay();
      if (ws) await controller.handle({ type: 'openAllChanges', workspaceId: ws.id });
    }),
    vscode.commands.registerCommand('agentWorkbench.review.discardFile', async () => {
      const target = await pickFile('Discard the staged change of a file (Undo brings it back)');
      return target ? report(await controller.discardFile(target.ws, target.path)) : undefined;
    }),
    vscode.commands.registerCommand('agentWorkbench.review.discardHunk', async () => {
      const target = await pickFile('Discard a hunk of which file?');
      if (!target) return undefined;
      controller.show(target.ws.id);
      await controller.handle({ type: 'select', workspaceId: target.ws.id, path: target.path });
      const model = await controller.model();
      const hunks = model.selected?.hunks ?? [];
      const pick = await vscode.window.showQuickPick(
        hunks.map((h) => ({
          label: h.header,
          description: h.rows
            .filter((r) => r.kind === 'add' || r.kind === 'remove')
            .slice(0, 2)
            .map((r) => (r.kind === 'add' ? '+' : '−') + r.text.trim())
            .join('  '),
          index: h.index,
        })),
        { title: `Discard a hunk of ${target.path} (Undo brings it back)` },
      );
      return pick ? report(await controller.discardHunk(target.ws, target.path, pick.index)) : undefined;
    }),
    ...registerTryTool({ ...deps, storageUri: context.globalStorageUri }),
  ];
  void panel.refresh();
  return disposables;
}
