import type { AnyToolDefinition } from '../core/chain/definition';
import { modeAllows } from '../core/chain/modes';
import type { OperationalMode } from '../core/chain/modes';
import { profileAllows } from '../core/chain/profile';
import type { ToolProfile } from '../core/chain/profile';

export { FULL_PROFILE, parseProfile, profileAllows } from '../core/chain/profile';
export type { ToolProfile } from '../core/chain/profile';

export interface Offer {
  effectiveMode: OperationalMode;
  trusted: boolean;
  profile: ToolProfile;
  /** In an untrusted workspace: serve the read tools, or nothing at all. */
  untrusted: 'read-tools' | 'nothing';
}

/** The tools the MCP door offers now: the mode's (inspection-only and untrusted: read tools), within the profile. */
export function offeredTools<T extends Pick<AnyToolDefinition, 'name' | 'effect' | 'operationKind'>>(tools: readonly T[], offer: Offer): T[] {
  if (!offer.trusted && offer.untrusted === 'nothing') return [];
  return tools.filter((t) => modeAllows(offer.effectiveMode, t) && profileAllows(offer.profile, t));
}
