import type { AnyToolDefinition } from '../core/definition';
import { getCodeContext } from './codeContext';
import { getErrorDetails, serverStatus } from './server';
import { getProjectDetails, getSolutionStructure, workspaceList, workspaceStatus } from './workspace';

/**
 * Every tool Agent Workbench offers, in the order agents see them. A definition that is not
 * listed here does not exist for agents, the manifest or the reference.
 */
export const ALL_TOOLS: readonly AnyToolDefinition[] = [
  workspaceList,
  workspaceStatus,
  getSolutionStructure,
  getProjectDetails,
  serverStatus,
  getErrorDetails,
  getCodeContext,
];
