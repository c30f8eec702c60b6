import type { ToolInfo } from './toolInfo';

export const OPERATIONAL_MODES = ['inspection-only', 'transactional', 'approval-required', 'autonomous-trusted'] as const;
export type OperationalMode = (typeof OPERATIONAL_MODES)[number];

/** The installation defaults, read from VS Code settings at each call. */
export interface Settings {
  operationalMode: OperationalMode;
  defaultTimeoutSeconds: number;
  defaultMaxOutputBytes: number;
  maxRevisions: number;
  grantedPermissions: string[];
  /** What an agent's commit does when the staged TypeScript or JavaScript introduces errors: refused in autonomous-trusted mode, or allowed. */
  newErrorsOnCommit: 'refuse' | 'allow';
}

/** A workspace value of a user-only setting that was not applied (core/chain/userSettings.ts). */
export interface IgnoredWorkspaceSetting {
  /** The full setting name, e.g. agentWorkbench.operationalMode. */
  setting: string;
  value: unknown;
  /** Where it was written: `.vscode/settings.json`, `<folder>/.vscode/settings.json` or the `.code-workspace` file's name. */
  source: string;
}

export interface EffectiveSettings extends Settings {
  /** The mode that applies: inspection-only whenever the workspace is not trusted. */
  effectiveMode: OperationalMode;
  trusted: boolean;
  ignoredWorkspaceSettings: readonly IgnoredWorkspaceSetting[];
}

export const DEFAULT_SETTINGS: Settings = {
  operationalMode: 'transactional',
  defaultTimeoutSeconds: 30,
  defaultMaxOutputBytes: 65536,
  maxRevisions: 20,
  grantedPermissions: ['workspace.read', 'workspace.stage', 'workspace.commit'],
  newErrorsOnCommit: 'refuse',
};

export function effectiveSettings(settings: Settings, trusted: boolean, ignoredWorkspaceSettings: readonly IgnoredWorkspaceSetting[] = []): EffectiveSettings {
  return { ...settings, trusted, effectiveMode: trusted ? settings.operationalMode : 'inspection-only', ignoredWorkspaceSettings };
}

/** Whether a mode lets agents call a tool at all. Approval is a separate, later step. */
export function modeAllows(mode: OperationalMode, tool: Pick<ToolInfo, 'effect' | 'operationKind'>): boolean {
  if (mode === 'inspection-only') return tool.effect === 'Read' && tool.operationKind === 'Query';
  return true;
}

/**
 * The `when` clause that hides a tool from agents when the mode does not allow it; the chain
 * enforces the same rule again at call time.
 */
export function whenClause(tool: Pick<ToolInfo, 'effect' | 'operationKind'>): string | undefined {
  if (modeAllows('inspection-only', tool)) return undefined;
  return "isWorkspaceTrusted && config.agentWorkbench.operationalMode != 'inspection-only'";
}
