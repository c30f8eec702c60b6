import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, effectiveSettings, OPERATIONAL_MODES } from '../core/chain/modes';
import type { EffectiveSettings, OperationalMode } from '../core/chain/modes';

export const SECTION = 'agentWorkbench';

let kept: EffectiveSettings | undefined;
let watching = false;

/**
 * The settings, read again only after they or the workspace trust changed: every tool call reads
 * them several times, and reading VS Code's configuration costs about 50 µs a time. Without
 * watchSettings (the bench's own runtime) they are read on every call.
 */
export function readSettings(): EffectiveSettings {
  if (!watching) return readNow();
  return (kept ??= readNow());
}

/** Keeps readSettings' answer until the agentWorkbench settings or the workspace trust change. */
export function watchSettings(): vscode.Disposable {
  watching = true;
  kept = undefined;
  const forget = () => (kept = undefined);
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) forget();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(forget),
  ];
  return new vscode.Disposable(() => {
    watching = false;
    kept = undefined;
    for (const s of subscriptions) s.dispose();
  });
}

/** Reads the installation defaults; a value of the wrong type falls back to its default. */
function readNow(): EffectiveSettings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const mode = c.get<string>('operationalMode');
  const int = (key: string, fallback: number): number => {
    const v = c.get<number>(key);
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
  };
  const permissions = c.get<unknown>('grantedPermissions');
  return effectiveSettings(
    {
      operationalMode: OPERATIONAL_MODES.includes(mode as OperationalMode) ? (mode as OperationalMode) : DEFAULT_SETTINGS.operationalMode,
      defaultTimeoutSeconds: int('defaultTimeoutSeconds', DEFAULT_SETTINGS.defaultTimeoutSeconds),
      defaultMaxOutputBytes: int('defaultMaxOutputBytes', DEFAULT_SETTINGS.defaultMaxOutputBytes),
      maxRevisions: int('maxRevisions', DEFAULT_SETTINGS.maxRevisions),
      grantedPermissions: Array.isArray(permissions) ? permissions.filter((p): p is string => typeof p === 'string') : DEFAULT_SETTINGS.grantedPermissions,
      newErrorsOnCommit: c.get<string>('newErrorsOnCommit') === 'allow' ? 'allow' : DEFAULT_SETTINGS.newErrorsOnCommit,
    },
    vscode.workspace.isTrusted,
  );
}
