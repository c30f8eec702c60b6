import type { CancellationSignal } from './cancellation';
import type { JsonSchema } from './schemas';
import type { ErrorCode } from './errors';
import type { ToolContext } from '../documents/context';

export type ToolEffect = 'Read' | 'Write' | 'Destructive' | 'External';
export type OperationKind = 'Query' | 'Mutation';
export type ToolCategory = 'Workspaces' | 'Code discovery and navigation' | 'Mutations' | 'Transactions';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolExample {
  workflowId: string;
  workflowTitle: string;
  step: number;
  id: string;
  title: string;
  purpose: string;
  expectedOutcome: string;
  request: Record<string, unknown>;
}

/** What a requiresApproval tool shows the person before it runs. */
export interface ApprovalSummary {
  title: string;
  message: string;
}

/**
 * One tool, marked explicitly (the Tracon attribute's fields). Only definitions listed in
 * src/tools/index.ts exist for agents; nothing is exposed by accident.
 */
export interface ToolDefinition<I = unknown, O = unknown> {
  name: string;
  title: string;
  category: ToolCategory;
  operationKind: OperationKind;
  /** Tells the model when to call the tool, and what it returns. */
  description: string;
  effect: ToolEffect;
  requiresApproval: boolean;
  /** Permission a caller must hold (setting agentWorkbench.grantedPermissions), or null. */
  requiredPermission: string | null;
  safeToRepeat: boolean;
  /** Zero uses the installation default (setting). */
  timeoutSeconds: number;
  /** Zero uses the installation default (setting). */
  maxOutputBytes: number;
  inputSchema: JsonSchema;
  /** Schema of `data` in the success envelope; the full output schema wraps it in the envelope. */
  dataSchema: JsonSchema;
  annotations: ToolAnnotations;
  examples: ToolExample[];
  /** How this tool departs from the seed tool of the same name; shown on its reference page. */
  seedDifferences?: string;
  /** Code answered when approval is refused (default ApprovalDenied). */
  notApprovedCode?: ErrorCode;
  prepareApproval?(input: I, ctx: ToolContext): Promise<ApprovalSummary>;
  run(input: I, ctx: ToolContext, token: CancellationSignal): Promise<O>;
}

export type AnyToolDefinition = ToolDefinition<never, unknown>;

/** The explicit mark: a tool exists only if its definition passes through here and is listed. */
export function defineTool<I, O>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return Object.freeze(definition);
}

export const TOOL_NAME_PREFIX = 'workbench_';

/** The name registered with vscode.lm: mechanical, at most 64 characters, ^[\w-]+$. */
export function registeredToolName(name: string): string {
  const registered = TOOL_NAME_PREFIX + name.replace(/-/g, '_');
  if (!/^[\w-]+$/.test(registered) || registered.length > 64) {
    throw new Error(`Tool name ${name} cannot be registered as ${registered}`);
  }
  return registered;
}
