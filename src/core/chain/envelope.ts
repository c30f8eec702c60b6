import type { ErrorCode } from './errors';
import type { snapshotSchema } from './schemas';
import type { Check, MutuallyAssignable, SchemaType } from './schemaTypes';

/** The workspace state an answer was computed on. */
export interface Snapshot {
  workspaceId: string;
  workspaceEpoch: number;
  snapshotId: string;
  transactionRevision: number | null;
}

/** Snapshot is what snapshotSchema (answers' snapshot, and expectedSnapshot's fields) describes. */
export type SnapshotMatchesSchema = Check<MutuallyAssignable<Snapshot, SchemaType<typeof snapshotSchema>>>;

/** What the agent should do next after a failure: roslyn-workbench-mcp's five continuation kinds. */
export type Continuation =
  | { kind: 'CallTool'; tool: string; instruction: string }
  | { kind: 'ChooseTool'; tools: string[]; instruction: string }
  | { kind: 'RetryRequest'; instruction: string }
  | { kind: 'ReviseRequest'; instruction: string }
  | { kind: 'ResolveExternally'; instruction: string };

export interface SuccessEnvelope<T = unknown> {
  ok: true;
  data: T;
  snapshot: Snapshot;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  correlationId: string;
}

export interface FailureEnvelope {
  ok: false;
  error: ErrorBody;
  continuation?: Continuation;
}

export type Envelope<T = unknown> = SuccessEnvelope<T> | FailureEnvelope;

/**
 * An expected failure a tool reports: the chain turns it into a failure envelope.
 * `details` is kept for get-error-details; the message must already tell the model what to do.
 */
export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly continuation?: Continuation,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export function success<T>(data: T, snapshot: Snapshot): SuccessEnvelope<T> {
  return { ok: true, data, snapshot };
}

export function failure(code: ErrorCode, message: string, correlationId: string, continuation?: Continuation): FailureEnvelope {
  const envelope: FailureEnvelope = { ok: false, error: { code, message, correlationId } };
  if (continuation) envelope.continuation = continuation;
  return envelope;
}

export const revise = (instruction: string): Continuation => ({ kind: 'ReviseRequest', instruction });
export const retry = (instruction: string): Continuation => ({ kind: 'RetryRequest', instruction });
export const callTool = (tool: string, instruction: string): Continuation => ({ kind: 'CallTool', tool, instruction });
export const chooseTool = (tools: string[], instruction: string): Continuation => ({ kind: 'ChooseTool', tools, instruction });
export const resolveExternally = (instruction: string): Continuation => ({ kind: 'ResolveExternally', instruction });
