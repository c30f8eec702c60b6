import { defineTool } from '../core/chain/definition';
import { revise, ToolError } from '../core/chain/envelope';
import { modeAllows } from '../core/chain/modes';
import type { EffectiveSettings, IgnoredWorkspaceSetting, OperationalMode } from '../core/chain/modes';
import type { ErrorRecord } from '../core/chain/errorStore';
import type { RecoveryReport } from '../core/transactions/journal';
import { inputSchema, QUERY, queryAnnotations } from './shared/common';

const CATEGORY = 'Workspaces' as const;

/** What server-status answers. */
export interface ServerStatusData {
  product: { name: string; version: string };
  editor: { version: string };
  operationalMode: OperationalMode;
  effectiveMode: OperationalMode;
  trusted: boolean;
  defaults: { timeoutSeconds: number; maxOutputBytes: number; maxRevisions: number; grantedPermissions: string[] };
  tools: { total: number; allowedInMode: number; refusedInMode: string[] };
  workspaceCount: number;
  uptimeSeconds: number;
  recovery: RecoveryReport;
  recordedFailures: number;
  /** How a commit is approved through each door, in the effective mode: said before an agent needs it. */
  commitApproval: { 'vscode.lm': string; mcp: string };
  /** Workspace values of user-only settings that were not applied; absent when there are none. */
  ignoredWorkspaceSettings?: IgnoredWorkspaceSetting[];
}

export const serverStatus = defineTool({
  name: 'server-status',
  title: 'Server Status',
  category: CATEGORY,
  ...QUERY,
  description:
    'Reports Agent Workbench itself: version, editor version, mode, trust, defaults (timeout, output limit, revisions, permissions), tools the mode allows, how a commit is approved per door, uptime, recovery, failures recorded. Call it when a tool is refused or acts oddly.',
  inputSchema: inputSchema({}),
  dataSchema: {
    type: 'object',
    properties: {
      product: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } }, required: ['name', 'version'] },
      editor: { type: 'object', properties: { version: { type: 'string' } }, required: ['version'] },
      operationalMode: { type: 'string', enum: ['inspection-only', 'transactional', 'approval-required', 'autonomous-trusted'] },
      effectiveMode: { type: 'string', enum: ['inspection-only', 'transactional', 'approval-required', 'autonomous-trusted'] },
      trusted: { type: 'boolean' },
      defaults: {
        type: 'object',
        properties: {
          timeoutSeconds: { type: 'integer' },
          maxOutputBytes: { type: 'integer' },
          maxRevisions: { type: 'integer' },
          grantedPermissions: { type: 'array', items: { type: 'string' } },
        },
        required: ['timeoutSeconds', 'maxOutputBytes', 'maxRevisions', 'grantedPermissions'],
      },
      tools: {
        type: 'object',
        properties: { total: { type: 'integer' }, allowedInMode: { type: 'integer' }, refusedInMode: { type: 'array', items: { type: 'string' } } },
        required: ['total', 'allowedInMode', 'refusedInMode'],
      },
      workspaceCount: { type: 'integer' },
      uptimeSeconds: { type: 'number' },
      recovery: {
        type: 'object',
        description: 'Whether staged work was restored after a restart.',
        properties: { state: { type: 'string', enum: ['clean', 'recovered', 'failed'] }, detail: { type: 'string' } },
        required: ['state', 'detail'],
      },
      recordedFailures: { type: 'integer', description: 'Failures kept for get-error-details in this session.' },
      commitApproval: {
        type: 'object',
        description: "How each door's commit is approved (vscode.lm: Copilot).",
        properties: { 'vscode.lm': { type: 'string' }, mcp: { type: 'string' } },
        required: ['vscode.lm', 'mcp'],
      },
      ignoredWorkspaceSettings: {
        type: 'array',
        description: 'What the workspace set but only user settings may.',
        items: {
          type: 'object',
          properties: { setting: { type: 'string' }, value: {}, source: { type: 'string' } },
          required: ['setting', 'value', 'source'],
        },
      },
    },
    required: [
      'product',
      'editor',
      'operationalMode',
      'effectiveMode',
      'trusted',
      'defaults',
      'tools',
      'workspaceCount',
      'uptimeSeconds',
      'recovery',
      'recordedFailures',
      'commitApproval',
    ],
  },
  annotations: queryAnnotations('Server Status'),
  examples: [
    {
      workflowId: 'diagnose',
      workflowTitle: 'Understand a refusal or failure',
      step: 1,
      id: 'server-status',
      title: 'Check mode and trust',
      purpose: 'Learn why a mutation tool was refused.',
      expectedOutcome: 'The effective mode, trust and the tools the mode refuses.',
      request: {},
    },
  ],
  async run(input, ctx): Promise<ServerStatusData> {
    if (input.workspace) ctx.workspace(input.workspace);
    const s = ctx.services.settings();
    const tools = ctx.services.tools();
    const refused = tools.filter((t) => !modeAllows(s.effectiveMode, t)).map((t) => t.name);
    return {
      product: { name: 'Agent Workbench', version: ctx.editor.version },
      editor: { version: ctx.editor.editorVersion },
      operationalMode: s.operationalMode,
      effectiveMode: s.effectiveMode,
      trusted: s.trusted,
      defaults: {
        timeoutSeconds: s.defaultTimeoutSeconds,
        maxOutputBytes: s.defaultMaxOutputBytes,
        maxRevisions: s.maxRevisions,
        grantedPermissions: s.grantedPermissions,
      },
      tools: { total: tools.length, allowedInMode: tools.length - refused.length, refusedInMode: refused },
      workspaceCount: ctx.registry.all().length,
      uptimeSeconds: Math.round((Date.now() - ctx.services.startedAt) / 100) / 10,
      recovery: ctx.services.transactions.recovery(),
      recordedFailures: ctx.services.errors.size,
      commitApproval: commitApproval(s),
      ...(s.ignoredWorkspaceSettings.length > 0 ? { ignoredWorkspaceSettings: [...s.ignoredWorkspaceSettings] } : {}),
    };
  },
});

const PERSON_COMMITS = 'The person can always commit from the review panel.';

/** How a commit is approved through each door in the effective mode (the chain's approve step and each door's confirm). */
export function commitApproval(s: EffectiveSettings): ServerStatusData['commitApproval'] {
  switch (s.effectiveMode) {
    case 'inspection-only':
      return both(`No commit: the mode is inspection-only${s.trusted ? '' : ' (the workspace is not trusted)'}.`);
    case 'approval-required':
      return both(`Refused: only the person commits, from the review panel or the command palette.`);
    case 'autonomous-trusted':
      return both(
        s.newErrorsOnCommit === 'refuse'
          ? 'No one is asked; a commit whose TypeScript/JavaScript check finds new errors is refused unless allowNewErrors: true.'
          : 'No one is asked, new errors or not.',
      );
    case 'transactional':
      return {
        'vscode.lm': `The person allows it in Copilot's confirmation in the chat (a dialog outside a chat); skipped is a refusal. ${PERSON_COMMITS}`,
        mcp: `A modal in VS Code asks the person; declined, unanswered or unable to show is a refusal. ${PERSON_COMMITS}`,
      };
  }
}

function both(text: string): ServerStatusData['commitApproval'] {
  return { 'vscode.lm': text, mcp: text };
}

/** What get-error-details answers: the stored failure, its stack null when it had none. */
export type ErrorDetailsData = Omit<ErrorRecord, 'stack'> & { stack: string | null };

export const getErrorDetails = defineTool({
  name: 'get-error-details',
  title: 'Get Error Details',
  category: CATEGORY,
  ...QUERY,
  description:
    "Details of a failed call by its error's correlationId: tool, code, message, time, request and, for UnhandledException, the stack. Kept on this machine: the session's latest 500 failures.",
  inputSchema: inputSchema({ correlationId: { type: 'string', format: 'uuid', maxLength: 36, description: 'error.correlationId of a failure envelope.' } }, [
    'correlationId',
  ]),
  dataSchema: {
    type: 'object',
    properties: {
      correlationId: { type: 'string' },
      tool: { type: 'string' },
      code: { type: 'string' },
      message: { type: 'string' },
      time: { type: 'string', format: 'date-time' },
      input: { type: 'string', description: 'The request as received (shortened).' },
      stack: { type: ['string', 'null'] },
      details: { description: 'Structured details (candidates, problems) when the failure had any.' },
    },
    required: ['correlationId', 'tool', 'code', 'message', 'time', 'input', 'stack'],
  },
  annotations: queryAnnotations('Get Error Details'),
  examples: [
    {
      workflowId: 'diagnose',
      workflowTitle: 'Understand a refusal or failure',
      step: 2,
      id: 'error-details',
      title: 'Read a failure',
      purpose: 'See what went wrong in an UnhandledException.',
      expectedOutcome: 'The stored record with its stack.',
      request: { correlationId: '8f14e45f-ceea-467f-a0e6-6c3b6f5e4c1d' },
    },
  ],
  async run(input, ctx): Promise<ErrorDetailsData> {
    if (input.workspace) ctx.workspace(input.workspace);
    const record = ctx.services.errors.get(input.correlationId);
    if (!record) {
      throw new ToolError(
        'ErrorDetailsNotFound',
        `No failure with correlationId ${input.correlationId} is recorded in this session (only the latest 500 are kept, and successes have none).`,
        revise('Use the correlationId of a recent failure envelope.'),
      );
    }
    return { ...record, stack: record.stack ?? null };
  },
});
