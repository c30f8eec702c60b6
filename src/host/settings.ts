import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { EffectiveSettings, IgnoredWorkspaceSetting } from '../core/chain/modes';
import { appliedValue, ignoredNotice, ignoredWorkspaceSettings, resolveSettings, SECTION } from '../core/chain/userSettings';
import type { UserOnlySetting, WorkspaceSettingsLayer } from '../core/chain/userSettings';

export { SECTION };

let kept: EffectiveSettings | undefined;
let watching = false;
let ignored: readonly IgnoredWorkspaceSetting[] = [];

/**
 * The settings, read again only after they or the workspace trust changed: every tool call reads
 * them several times, and reading VS Code's configuration costs about 50 µs a time. Without
 * watchSettings (the bench's own runtime) they are read on every call.
 */
export function readSettings(): EffectiveSettings {
  if (!watching) return readNow();
  return (kept ??= readNow());
}

/** One setting's value as it applies: a user-only setting's from the person's user settings (or its default), never a workspace's. */
export function settingValue<T>(key: UserOnlySetting | string): T | undefined {
  return appliedValue(key, vscode.workspace.getConfiguration(SECTION).inspect(key)) as T | undefined;
}

function readNow(): EffectiveSettings {
  const c = vscode.workspace.getConfiguration(SECTION);
  return resolveSettings((key) => c.inspect(key), vscode.workspace.isTrusted, ignored);
}

/**
 * Keeps readSettings' answer until the agentWorkbench settings, the workspace trust or a workspace
 * settings file change, and tells the person (once per window and value) about every workspace value
 * of a user-only setting that was ignored, in a notification and in the log.
 */
export function watchSettings(log?: vscode.LogOutputChannel): vscode.Disposable {
  watching = true;
  kept = undefined;
  const forget = () => (kept = undefined);
  const announced = new Set<string>();
  const rescan = (): void => {
    const found = ignoredWorkspaceSettings(workspaceLayers(), (key) => settingValue(key));
    ignored = found;
    forget();
    const fresh = found.filter((i) => !announced.has(JSON.stringify(i)));
    if (fresh.length === 0) return;
    for (const i of fresh) {
      announced.add(JSON.stringify(i));
      log?.warn(`Ignored the workspace setting ${i.setting} = ${JSON.stringify(i.value)} (${i.source}): only user settings can change what agents may do.`);
    }
    void vscode.window.showWarningMessage(ignoredNotice(fresh), 'Open User Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${EXTENSION_ID} `);
    });
  };
  const watchers: vscode.Disposable[] = [];
  const watchFiles = (): void => {
    for (const w of watchers.splice(0)) w.dispose();
    for (const folder of vscode.workspace.workspaceFolders ?? []) watchers.push(watch(new vscode.RelativePattern(folder, '.vscode/settings.json'), rescan));
    const file = vscode.workspace.workspaceFile;
    if (file?.scheme !== 'file') return;
    watchers.push(watch(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file.fsPath)), path.basename(file.fsPath)), rescan));
  };
  watchFiles();
  rescan();
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) rescan();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(forget),
    vscode.workspace.onDidChangeWorkspaceFolders(() => (watchFiles(), rescan())),
  ];
  return new vscode.Disposable(() => {
    watching = false;
    kept = undefined;
    for (const s of [...subscriptions, ...watchers]) s.dispose();
  });
}

const EXTENSION_ID = 'agent-workbench.agent-workbench';

function watch(pattern: vscode.RelativePattern, changed: () => void): vscode.Disposable {
  const w = vscode.workspace.createFileSystemWatcher(pattern);
  w.onDidCreate(changed);
  w.onDidChange(changed);
  w.onDidDelete(changed);
  return w;
}

/**
 * The settings a workspace writes, read from its files: VS Code drops application-scoped values from
 * a workspace's configuration, so inspect() cannot say that a repository asked for them.
 */
function workspaceLayers(): WorkspaceSettingsLayer[] {
  const layers: WorkspaceSettingsLayer[] = [];
  const file = vscode.workspace.workspaceFile;
  if (file?.scheme === 'file') {
    const parsed = readJsonc(file.fsPath) as { settings?: unknown } | undefined;
    if (parsed?.settings !== undefined) layers.push({ source: path.basename(file.fsPath), settings: parsed.settings });
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const settings = readJsonc(path.join(folder.uri.fsPath, '.vscode', 'settings.json'));
    if (settings === undefined) continue;
    layers.push({ source: file ? `${folder.name}/.vscode/settings.json` : '.vscode/settings.json', settings });
  }
  return layers;
}

function readJsonc(file: string): unknown {
  try {
    return parseJsonc(fs.readFileSync(file, 'utf8'), [], { allowTrailingComma: true });
  } catch {
    return undefined;
  }
}
