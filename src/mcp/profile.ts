import type { AnyToolDefinition } from '../core/definition';
import { modeAllows } from '../core/modes';
import type { OperationalMode } from '../core/modes';

/**
 * Which tools are offered, through both doors: `full` (every tool), `navigation` (the read-only
 * queries), or `custom` (the names in agentWorkbench.toolProfileTools).
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

export interface Offer {
  effectiveMode: OperationalMode;
  trusted: boolean;
  profile: ToolProfile;
  /** In an untrusted workspace: serve the read tools, or nothing at all. */
  untrusted: 'read-tools' | 'nothing';
}

/** The tools one door offers now: the mode's (inspection-only and untrusted: read tools), within the profile. */
export function offeredTools<T extends Pick<AnyToolDefinition, 'name' | 'effect' | 'operationKind'>>(tools: readonly T[], offer: Offer): T[] {
  if (!offer.trusted && offer.untrusted === 'nothing') return [];
  return tools.filter((t) => modeAllows(offer.effectiveMode, t) && profileAllows(offer.profile, t));
}

/** The context key that hides one Copilot tool when the profile leaves it out (the tool's `when` clause reads it). */
export function profileHiddenContextKey(registeredName: string): string {
  return `agentWorkbench.profileHides.${registeredName}`;
}
