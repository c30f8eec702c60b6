import { randomUUID } from 'node:crypto';
import { boundToFit, essentials, SHORTENED_NOTE, utf8Bytes } from './bounding';
import type { Fits } from './bounding';
import { LinkedCancellation } from './cancellation';
import type { CancellationSignal } from './cancellation';
import { ToolContext } from '../documents/context';
import type { Services, TextView } from '../documents/context';
import type { AnyToolDefinition } from './definition';
import type { ApprovalSummary } from './toolInfo';
import { failure, resolveExternally, retry, revise, success, ToolError } from './envelope';
import type { Envelope, Snapshot } from './envelope';
import type { ErrorCode } from './errors';
import { modeAllows } from './modes';
import { truncate } from '../documents/paths';
import { compileInputValidator } from './validation';
import { encodeCursor, offerCursors, readCursor, requestFingerprint, settleCursors } from './paging';
import type { PagedList } from './paging';
import type { InputValidator } from './validation';

export interface CallOptions {
  token?: CancellationSignal;
  /** tokenizationOptions from VS Code: the result must also fit this many tokens. */
  tokenBudget?: number;
  countTokens?: (text: string) => PromiseLike<number>;
  /** The person already confirmed this call in VS Code's confirmation UI. */
  confirmed?: boolean;
  /** Which door the call came through (the tool call log says it); default 'vscode.lm'. */
  door?: CallDoor;
  /** Asks the person instead of the environment's confirm (a door whose client cannot show VS Code's confirmation). */
  confirm?: ChainEnvironment['confirm'];
}

export type CallDoor = 'vscode.lm' | 'mcp';

export interface CallLog {
  tool: string;
  correlationId: string;
  durationMs: number;
  outcome: 'ok' | ErrorCode;
  bytes: number;
  truncated: boolean;
  door: CallDoor;
}

export interface ChainEnvironment {
  services: Services;
  log(entry: CallLog): void;
  /** Asks the person to approve a call that was not confirmed before it reached the tool. */
  confirm(tool: AnyToolDefinition, summary: ApprovalSummary): Promise<ApprovalAnswer>;
}

/** The person's answer: approved, declined, or `{ unasked }` when no person could be asked (why, e.g. no dialog can show). */
export type ApprovalAnswer = boolean | { unasked: string };

export interface CallResult {
  envelope: Envelope;
  /** The serialized envelope exactly as returned to the model. */
  text: string;
}

/** The snapshot of a window with no folder open: there is no workspace to describe. */
export const NO_WORKSPACE_SNAPSHOT: Snapshot = {
  workspaceId: '00000000-0000-0000-0000-000000000000',
  workspaceEpoch: 0,
  snapshotId: '00000000-0000-0000-0000-000000000000',
  transactionRevision: null,
};

const MAX_MESSAGE_LENGTH = 4000;

class TimeoutSignal extends Error {}

const pageable = (tool: AnyToolDefinition): boolean => Object.hasOwn((tool.inputSchema as { properties?: object }).properties ?? {}, 'cursor');

/**
 * Runs every tool call through one chain, outermost first: explained failure, authorization,
 * input validation, timeout, approval, output bounding, the tool. Each input schema is compiled
 * once, on the tool's first call, so activation does not pay for tools never called.
 */
export class ToolRunner {
  private readonly byName = new Map<string, { tool: AnyToolDefinition; validate: InputValidator }>();

  constructor(
    tools: readonly AnyToolDefinition[],
    private readonly env: ChainEnvironment,
  ) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Duplicate tool name ${tool.name}`);
      let compiled: InputValidator | undefined;
      this.byName.set(tool.name, { tool, validate: (input) => (compiled ??= compileInputValidator(tool.inputSchema))(input) });
    }
  }

  tool(name: string): AnyToolDefinition | undefined {
    return this.byName.get(name)?.tool;
  }

  /**
   * The confirmation VS Code shows before a requiresApproval tool runs in transactional mode;
   * undefined when the mode needs none (autonomous-trusted) or refuses anyway (the others).
   */
  async prepare(name: string, input: unknown): Promise<ApprovalSummary | undefined> {
    const tool = this.byName.get(name)?.tool;
    if (!tool?.requiresApproval) return undefined;
    await this.env.services.startup;
    const settings = this.env.services.settings();
    if (settings.effectiveMode !== 'transactional') return undefined;
    const fallback: ApprovalSummary = { title: tool.title, message: `Allow ${tool.name} to run? ${tool.description}` };
    if (!tool.prepareApproval || !this.byName.get(name)?.validate(input).valid) return fallback;
    try {
      const ctx = new ToolContext(this.env.services, randomUUID(), settings.defaultMaxOutputBytes, undefined);
      return await tool.prepareApproval(input as never, ctx);
    } catch {
      return fallback;
    }
  }

  async invoke(name: string, input: unknown, options: CallOptions = {}): Promise<CallResult> {
    const correlationId = randomUUID();
    const started = Date.now();
    const entry = this.byName.get(name);
    let result: CallResult;
    let truncated = false;
    try {
      if (!entry) throw new ToolError('InvalidRequest', `There is no tool named ${name}.`, revise('Use one of the listed Agent Workbench tools.'));
      await this.env.services.startup;
      const bounded = await this.authorizeAndRun(entry.tool, entry.validate, input, options, correlationId);
      truncated = bounded.truncated;
      result = { envelope: bounded.envelope, text: bounded.text };
    } catch (error) {
      result = this.explain(name, input, error, correlationId);
    }
    try {
      this.env.log({
        tool: name,
        correlationId,
        durationMs: Date.now() - started,
        outcome: result.envelope.ok ? 'ok' : result.envelope.error.code,
        bytes: utf8Bytes(result.text),
        truncated,
        door: options.door ?? 'vscode.lm',
      });
    } catch {
      // A failing log must not turn an answer into an exception.
    }
    return result;
  }

  private async authorizeAndRun(tool: AnyToolDefinition, validate: InputValidator, input: unknown, options: CallOptions, correlationId: string) {
    const settings = this.env.services.settings();
    if (!modeAllows(settings.effectiveMode, tool)) {
      const why = settings.trusted
        ? `the operational mode is ${settings.effectiveMode}`
        : 'the workspace is not trusted, so Agent Workbench is inspection-only';
      throw new ToolError(
        'SourceMutationDisabled',
        `${tool.name} changes code, and ${why}. Nothing was staged or written.`,
        resolveExternally(
          'Ask the person to trust the workspace or change agentWorkbench.operationalMode in their user settings (a workspace cannot); query tools still work.',
        ),
      );
    }
    if (tool.requiredPermission && !settings.grantedPermissions.includes(tool.requiredPermission)) {
      throw new ToolError(
        'PermissionDenied',
        `${tool.name} needs the permission "${tool.requiredPermission}", which agentWorkbench.grantedPermissions does not grant.`,
        resolveExternally(
          `Ask the person to add "${tool.requiredPermission}" to agentWorkbench.grantedPermissions in their user settings (a workspace cannot).`,
        ),
      );
    }
    const validation = validate(input);
    if (!validation.valid) {
      throw new ToolError(
        'InvalidRequest',
        `The request does not match ${tool.name}'s input schema: ${validation.problems.slice(0, 10).join('; ')}.`,
        revise('Fix the named fields to match the input schema and call again.'),
        { problems: validation.problems },
      );
    }
    const typed = input as { expectedSnapshot?: Snapshot | null };
    const maxBytes = tool.maxOutputBytes > 0 ? tool.maxOutputBytes : settings.defaultMaxOutputBytes;
    const ctx = new ToolContext(this.env.services, correlationId, maxBytes, typed.expectedSnapshot);
    ctx.setView((input as { view?: TextView }).view);
    const cursor = (input as { cursor?: unknown }).cursor;
    if (typeof cursor === 'string') ctx.setCursor(readCursor(tool.name, input, cursor));
    const timeoutSeconds = tool.timeoutSeconds > 0 ? tool.timeoutSeconds : settings.defaultTimeoutSeconds;
    const cancellation = new LinkedCancellation(options.token);
    ctx.bindCancellation(cancellation, Date.now() + timeoutSeconds * 1000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Once the tool passed its point of no return (ctx.commitPoint), its own outcome is the answer: never "timed out" for a change that happens anyway.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (!ctx.passedCommitPoint) reject(new TimeoutSignal());
        cancellation.cancel();
      }, timeoutSeconds * 1000);
    });
    const cancelled = new Promise<never>((_, reject) => {
      cancellation.onCancellationRequested(() => {
        if (!ctx.passedCommitPoint) {
          reject(new ToolError('Cancelled', `${tool.name} was cancelled before it finished.`, retry('Call again if the answer is still needed.')));
        }
      });
    });
    try {
      return await Promise.race([this.approveBoundAndRun(tool, input, options, ctx, cancellation, maxBytes), deadline, cancelled]);
    } catch (error) {
      if (error instanceof TimeoutSignal) {
        // Out of time while a language service was loading: ask again, not narrow the question.
        const late = ctx.lateError();
        if (late) throw late;
        throw new ToolError(
          'Timeout',
          `${tool.name} did not finish within ${timeoutSeconds} s and was cancelled.${tool.operationKind === 'Mutation' ? ' Nothing was staged or written: it stops before its point of no return.' : ''} Language services may still be loading the project.`,
          retry('Retry once; if it times out again, narrow the request (a smaller limit or one document).'),
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      cancellation.dispose();
    }
  }

  private async approveBoundAndRun(
    tool: AnyToolDefinition,
    input: unknown,
    options: CallOptions,
    ctx: ToolContext,
    token: CancellationSignal,
    maxBytes: number,
  ) {
    if (tool.requiresApproval) await this.approve(tool, input, options, ctx);
    // The answer may already be Timeout or Cancelled (say the person approved too late): then the tool must not run.
    if (token.isCancellationRequested) {
      throw new ToolError('Cancelled', `${tool.name} was cancelled before it ran; nothing was done.`, retry('Call again if it is still wanted.'));
    }
    const data = await tool.run(input as never, ctx, token);
    const snapshot = ctx.snapshot() ?? NO_WORKSPACE_SNAPSHOT;
    // Only a tool that takes a cursor gives one: its lists continue.
    const lists = pageable(tool) ? ctx.paging.paged() : [];
    const request = lists.length > 0 ? requestFingerprint(tool.name, input) : '';
    const cursorFor = (list: PagedList, offset: number) => encodeCursor({ request, field: list.field, offset, list: list.digest, snapshot });
    const fits: Fits = async (text) => {
      if (utf8Bytes(text) > maxBytes) return false;
      if (options.tokenBudget === undefined || !options.countTokens) return true;
      try {
        return (await options.countTokens(text)) <= options.tokenBudget;
      } catch (error) {
        // After a change was made a failing tokenizer must not turn its answer into an error: the byte limit holds.
        if (ctx.passedCommitPoint) return true;
        throw error;
      }
    };
    const plain = success(data, snapshot);
    const envelope = lists.length > 0 ? success(offerCursors(data, lists, cursorFor, await fits(JSON.stringify(plain))), snapshot) : plain;
    let bounded = await boundToFit(envelope, fits);
    // Cursors cost bytes: an answer that fits only without them goes without.
    const cursors = bounded !== undefined && lists.length > 0;
    if (!bounded && lists.length > 0) bounded = await boundToFit(plain, fits);
    if (!bounded && ctx.passedCommitPoint) return this.essentialAnswer(data, ctx);
    if (!bounded) {
      throw new ToolError(
        'OutputTooLarge',
        `${tool.name}'s answer exceeds its output limit (${maxBytes} bytes${options.tokenBudget !== undefined ? ` or ${options.tokenBudget} tokens` : ''}) even with its lists emptied.`,
        revise('Ask for less: a smaller window, limit or scope.'),
      );
    }
    const answer = JSON.parse(bounded.text) as Envelope;
    if (!cursors || !answer.ok) return { envelope: answer, text: bounded.text, truncated: bounded.truncated };
    settleCursors(answer.data, lists, cursorFor);
    return { envelope: answer, text: JSON.stringify(answer), truncated: bounded.truncated };
  }

  /**
   * The change was made, so the answer must say so even when its emptied lists do not fit: its
   * essentials (state, counts, a note), over the limit if need be rather than an error that would lie.
   */
  private essentialAnswer(data: unknown, ctx: ToolContext) {
    const kept = essentials(data);
    const envelope = success({ ...(typeof kept === 'object' && kept !== null ? kept : {}), notes: [SHORTENED_NOTE] }, ctx.snapshot() ?? NO_WORKSPACE_SNAPSHOT);
    return { envelope, text: JSON.stringify(envelope), truncated: true };
  }

  private async approve(tool: AnyToolDefinition, input: unknown, options: CallOptions, ctx: ToolContext): Promise<void> {
    const mode = this.env.services.settings().effectiveMode;
    if (mode === 'autonomous-trusted') return;
    const code = tool.notApprovedCode ?? 'ApprovalDenied';
    if (mode === 'approval-required') {
      throw new ToolError(
        code,
        `In approval-required mode only the person can run ${tool.name}. Nothing was applied.`,
        resolveExternally(
          'Tell the person the change is staged and ask them to commit it from the review panel (Agent Workbench: Open Review Panel) or the command palette.',
        ),
      );
    }
    if (options.confirmed) return;
    const summary = tool.prepareApproval ? await tool.prepareApproval(input as never, ctx) : { title: tool.title, message: `Run ${tool.name}?` };
    const answer = await (options.confirm ?? this.env.confirm)(tool, summary);
    if (typeof answer === 'object') {
      throw new ToolError(
        code,
        `No person could be asked to approve ${tool.name} (${answer.unasked}). Nothing was applied.`,
        resolveExternally('Leave the change staged and tell the person: they can commit it from the review panel (Agent Workbench: Open Review Panel).'),
      );
    }
    if (!answer) {
      throw new ToolError(
        code,
        `The person did not approve ${tool.name}. Nothing was applied.`,
        resolveExternally('Ask the person what they want changed before trying again.'),
      );
    }
  }

  private explain(name: string, input: unknown, error: unknown, correlationId: string): CallResult {
    const expected = error instanceof ToolError;
    const code: ErrorCode = expected ? error.code : 'UnhandledException';
    const message = expected
      ? truncate(error.message, MAX_MESSAGE_LENGTH)
      : `${name} failed unexpectedly (${truncate(error instanceof Error ? error.message : String(error), 300)}). Details are kept under correlationId ${correlationId}.`;
    const continuation = expected
      ? error.continuation
      : {
          kind: 'CallTool' as const,
          tool: 'get-error-details',
          instruction: `Call get-error-details with correlationId ${correlationId} for the stored details, or retry once.`,
        };
    let inputText: string;
    try {
      inputText = truncate(JSON.stringify(input) ?? 'undefined', 4000);
    } catch {
      inputText = '(not serializable)';
    }
    this.env.services.errors.add({
      correlationId,
      tool: name,
      code,
      message,
      time: new Date().toISOString(),
      input: inputText,
      stack: expected ? undefined : error instanceof Error ? error.stack : undefined,
      details: expected ? error.details : undefined,
    });
    const envelope = failure(code, message, correlationId, continuation);
    return { envelope, text: JSON.stringify(envelope) };
  }
}
