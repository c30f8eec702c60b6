import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, effectiveSettings, OPERATIONAL_MODES } from '../core/modes';
import type { EffectiveSettings, OperationalMode } from '../core/modes';

export const SECTION = 'agentWorkbench';

/** Reads the installation defaults; a value of the wrong type falls back to its default. */
export function readSettings(): EffectiveSettings {
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
    },
    vscode.workspace.isTrusted,
  );
}
