import type { AnyToolDefinition } from './definition';
import { modeAllows } from './modes';

/**
 * Which tools are offered, through both doors (vscode.lm's `when` clauses and MCP's tools/list):
 * `full` (every tool), `navigation` (the read-only queries), or `custom` (the names in
 * agentWorkbench.toolProfileTools).
 */
export const TOOL_PROFILES = ['full', 'navigation', 'custom'] as const;
export type ToolProfileName = (typeof TOOL_PROFILES)[number];

export interface ToolProfile {
  name: ToolProfileName;
  /** Canonical tool names; only read when name is custom. */
  tools: readonly string[];
}

export const FULL_PROFILE: ToolProfile = { name: 'full', tools: [] };

export function profileAllows(profile: ToolProfile, tool: Pick<AnyToolDefinition, 'name' | 'effect' | 'operationKind'>): boolean {
  switch (profile.name) {
    case 'full':
      return true;
    case 'navigation':
      return modeAllows('inspection-only', tool);
    case 'custom':
      return profile.tools.includes(tool.name);
  }
}

/** Reads a profile from settings values, falling back to full for anything unexpected. */
export function parseProfile(name: unknown, tools: unknown): ToolProfile {
  const n = (TOOL_PROFILES as readonly unknown[]).includes(name) ? (name as ToolProfileName) : 'full';
  return { name: n, tools: Array.isArray(tools) ? tools.filter((t): t is string => typeof t === 'string') : [] };
}

/** The context key that hides one vscode.lm tool when the profile leaves it out (every tool's `when` clause reads it; unset shows the tool). */
export function profileHiddenContextKey(registeredName: string): string {
  return `agentWorkbench.profileHides.${registeredName}`;
}
