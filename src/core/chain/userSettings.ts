import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_SETTINGS, effectiveSettings, OPERATIONAL_MODES } from './modes';
import type { EffectiveSettings, IgnoredWorkspaceSetting, OperationalMode } from './modes';

export const SECTION = 'agentWorkbench';

/**
 * Settings that let agents do more without the person, or hide what they did. They are taken from
 * the person's own settings only: a repository's `.vscode/settings.json`, a `.code-workspace` file
 * or a folder's settings can change them in neither direction, so a cloned repository (or an agent
 * talked into editing its settings) cannot switch off the review, the new-errors gate or the
 * permissions. package.json declares each of them `application` scoped; a unit test keeps the two
 * lists equal, and the host still reads only the user's value, whatever an older VS Code merges.
 */
export const USER_ONLY_SETTINGS = [
  'operationalMode',
  'newErrorsOnCommit',
  'grantedPermissions',
  'toolProfile',
  'toolProfileTools',
  'review.openOnFirstStage',
  'check.computeAhead',
  'mcp.enabled',
  'mcp.port',
  'mcp.allowedOrigins',
  'mcp.untrustedWorkspace',
] as const;
export type UserOnlySetting = (typeof USER_ONLY_SETTINGS)[number];

export function isUserOnly(key: string): key is UserOnlySetting {
  return (USER_ONLY_SETTINGS as readonly string[]).includes(key);
}

/** What VS Code's `WorkspaceConfiguration.inspect` answers for one setting (the fields read here). */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The value that applies: the user's (or the default) for a user-only setting, else the most specific one. */
export function appliedValue(key: string, inspected: InspectedSetting | undefined): unknown {
  if (!inspected) return undefined;
  if (isUserOnly(key)) return inspected.globalValue ?? inspected.defaultValue;
  return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue ?? inspected.defaultValue;
}

/** The settings of one workspace file (`.vscode/settings.json`, or a `.code-workspace` file's `settings`), as parsed. */
export interface WorkspaceSettingsLayer {
  source: string;
  settings: unknown;
}

/**
 * Every user-only setting a workspace layer sets to something other than what applies. Keys are read
 * as VS Code reads them: dotted (`"agentWorkbench.review.openOnFirstStage"`) or nested
 * (`"agentWorkbench": { "review": { ... } }`).
 */
export function ignoredWorkspaceSettings(layers: readonly WorkspaceSettingsLayer[], applied: (key: UserOnlySetting) => unknown): IgnoredWorkspaceSetting[] {
  const ignored: IgnoredWorkspaceSetting[] = [];
  for (const layer of layers) {
    for (const [key, value] of userOnlyEntries(layer.settings)) {
      if (!isDeepStrictEqual(value, applied(key))) ignored.push({ setting: `${SECTION}.${key}`, value, source: layer.source });
    }
  }
  return ignored;
}

function userOnlyEntries(settings: unknown): [UserOnlySetting, unknown][] {
  const found: [UserOnlySetting, unknown][] = [];
  const walk = (path: string, value: unknown): void => {
    const key = path.slice(SECTION.length + 1);
    if (isUserOnly(key)) {
      found.push([key, value]);
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [k, v] of Object.entries(value)) walk(`${path}.${k}`, v);
  };
  if (!isPlainObject(settings)) return found;
  for (const [k, v] of Object.entries(settings)) {
    if (k === SECTION || k.startsWith(`${SECTION}.`)) walk(k, v);
  }
  return found;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The effective settings from what `inspect` answers per key (without the section); a value of the wrong type falls back to its default. */
export function resolveSettings(
  inspect: (key: string) => InspectedSetting | undefined,
  trusted: boolean,
  ignored: readonly IgnoredWorkspaceSetting[] = [],
): EffectiveSettings {
  const value = (key: string): unknown => appliedValue(key, inspect(key));
  const mode = value('operationalMode');
  const int = (key: string, fallback: number): number => {
    const v = value(key);
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
  };
  const permissions = value('grantedPermissions');
  return effectiveSettings(
    {
      operationalMode: OPERATIONAL_MODES.includes(mode as OperationalMode) ? (mode as OperationalMode) : DEFAULT_SETTINGS.operationalMode,
      defaultTimeoutSeconds: int('defaultTimeoutSeconds', DEFAULT_SETTINGS.defaultTimeoutSeconds),
      defaultMaxOutputBytes: int('defaultMaxOutputBytes', DEFAULT_SETTINGS.defaultMaxOutputBytes),
      maxRevisions: int('maxRevisions', DEFAULT_SETTINGS.maxRevisions),
      grantedPermissions: Array.isArray(permissions) ? permissions.filter((p): p is string => typeof p === 'string') : DEFAULT_SETTINGS.grantedPermissions,
      newErrorsOnCommit: value('newErrorsOnCommit') === 'allow' ? 'allow' : DEFAULT_SETTINGS.newErrorsOnCommit,
    },
    trusted,
    ignored,
  );
}

/** The notice a person reads once per window when a workspace asked for more than their settings give: short, grouped by file. */
export function ignoredNotice(ignored: readonly IgnoredWorkspaceSetting[]): string {
  const sources = [...new Set(ignored.map((i) => i.source))];
  const shown = (v: unknown): string => (Array.isArray(v) && JSON.stringify(v).length > 40 ? `${v.length} values` : JSON.stringify(v));
  const parts = sources.map((source) => {
    const list = ignored.filter((i) => i.source === source).map((i) => `${i.setting.slice(SECTION.length + 1)} (${shown(i.value)})`);
    return `${source} sets ${list.join(', ')}`;
  });
  return `Agent Workbench ignored workspace settings: ${parts.join('; ')}. Only your user settings decide what agents may do and what the review shows, so a repository cannot change them.`;
}
