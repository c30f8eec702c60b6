import type { CancellationSignal } from './cancellation';
import type { ApprovalSummary, ToolInfo } from './toolInfo';
import type { ToolContext } from '../documents/context';
import type { ToolInput } from './schemaTypes';

export type { ApprovalSummary, OperationKind, ToolAnnotations, ToolCategory, ToolEffect, ToolExample, ToolInfo } from './toolInfo';

/**
 * One tool, marked explicitly. Only definitions listed in src/tools/index.ts exist for agents;
 * nothing is exposed by accident.
 */
export interface ToolDefinition<I = unknown, O = unknown> extends ToolInfo {
  prepareApproval?(input: I, ctx: ToolContext): Promise<ApprovalSummary>;
  run(input: I, ctx: ToolContext, token: CancellationSignal): Promise<O>;
}

export type AnyToolDefinition = ToolDefinition<never, unknown>;

/**
 * The explicit mark: a tool exists only if its definition passes through here and is listed.
 * Its input type is the one its inputSchema accepts (SchemaType), never written by hand; its
 * output type is what run returns.
 */
export function defineTool<const S, O>(definition: ToolDefinition<ToolInput<S>, O> & { inputSchema: S }): ToolDefinition<ToolInput<S>, O> {
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
