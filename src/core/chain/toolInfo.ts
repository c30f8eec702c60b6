/** A tool as data: what modes, the manifest and the chain read, without its code. */
import type { ErrorCode } from './errors';
import type { JsonSchema } from './schemas';

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
 * What a tool is, apart from how it runs: its marks (the fields of Tracon's tool attribute:
 * effect, approval, permission, timeout, output limit), schemas, annotations and examples.
 */
export interface ToolInfo {
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
  /** How this tool departs from roslyn-workbench-mcp's tool of the same name; shown on its reference page. */
  roslynWorkbenchDifferences?: string;
  /** Code answered when approval is refused (default ApprovalDenied). */
  notApprovedCode?: ErrorCode;
}
