import type { JsonSchema } from '../../core/chain/schemas';
import type { ToolContext } from '../../core/documents/context';
import type { Workspace } from '../../core/documents/workspaces';
import { CHECK_TIME_LIMIT_MS, dirtyBuffers, introducedErrors, PREPARE_AFTER_MS } from '../../core/transactions/check';
import type { RevisionCheck, StagedDiagnostic } from '../../core/transactions/check';
import type { Transaction } from '../../core/transactions/transaction';
import { collectionOf, limited, paged } from './common';
import type { Collection } from './common';

/** The check of the transaction's current revision, against the buffers as they are now. */
export async function checkRevision(ctx: ToolContext, ws: Workspace, tx: Transaction, waitMs = CHECK_TIME_LIMIT_MS): Promise<RevisionCheck | undefined> {
  const answer = ctx.services.checks.of(ws, tx, await dirtyBuffers(ctx.editor, ws), CHECK_TIME_LIMIT_MS);
  if (waitMs >= CHECK_TIME_LIMIT_MS) return answer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

const diagnosticSchema: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    line: { type: 'integer' },
    column: { type: 'integer' },
    code: { type: 'integer', description: 'TypeScript error code (2304: TS2304).' },
    message: { type: 'string' },
    severity: { enum: ['error', 'warning', 'suggestion', 'message'] },
  },
  required: ['path', 'line', 'column', 'code', 'message', 'severity'],
};

export interface CheckData {
  transactionId: string;
  revision: number;
  state: 'checked' | 'unavailable';
  introduced?: Collection<StagedDiagnostic>;
  resolved?: Collection<StagedDiagnostic>;
  checkedDocuments?: number;
  complete?: boolean;
  incomplete?: string[];
  typescriptVersion?: string;
  unchecked?: string[];
  reason?: string;
}

/** A revision's check as answers give it: each list bounded (continued by cursor when `ctx` is given), the rest said once. */
export function checkData(check: RevisionCheck, limit: number | null | undefined, ctx?: ToolContext): CheckData {
  const head = { transactionId: check.transactionId, revision: check.revision, state: check.state };
  const unchecked = check.unchecked.length > 0 ? { unchecked: check.unchecked } : {};
  if (check.state === 'unavailable') return { ...head, reason: check.reason, ...unchecked };
  return {
    ...head,
    introduced: ctx ? paged(ctx, 'introduced', check.introduced, limit) : limited(check.introduced, limit),
    resolved: ctx ? paged(ctx, 'resolved', check.resolved, limit) : limited(check.resolved, limit),
    checkedDocuments: check.checked.length,
    complete: check.complete,
    ...(check.complete ? {} : { incomplete: check.reasons }),
    typescriptVersion: check.typescriptVersion,
    ...unchecked,
  };
}

export const checkDataSchema: JsonSchema = {
  type: 'object',
  properties: {
    transactionId: { type: 'string', format: 'uuid' },
    revision: { type: 'integer' },
    state: { enum: ['checked', 'unavailable'] },
    introduced: {
      ...collectionOf(diagnosticSchema),
      description: 'Diagnostics the staged text has and the files on disk (or unsaved buffers) have not; staged positions.',
    },
    resolved: { ...collectionOf(diagnosticSchema), description: 'Diagnostics the transaction removes; positions before it.' },
    checkedDocuments: { type: 'integer', description: 'Staged documents and those importing them, compared.' },
    complete: { type: 'boolean' },
    incomplete: { type: 'array', items: { type: 'string' }, description: 'dependent-cap or time-limit.' },
    typescriptVersion: { type: 'string' },
    unchecked: { type: 'array', items: { type: 'string' }, description: 'Staged documents no check exists for (not TypeScript or JavaScript).' },
    reason: { type: 'string', description: 'Why nothing was checked.' },
  },
  required: ['transactionId', 'revision', 'state'],
};

/** What a preview says of the check without waiting for it: its counts once done, else that it runs (started by asking). */
export type CheckSummary =
  | { state: 'checked'; introducedErrors: number; introduced: number; resolved: number; complete: boolean }
  | { state: 'running' }
  | { state: 'unavailable'; reason: string };

export const checkSummarySchema: JsonSchema = {
  type: 'object',
  description: 'The TypeScript check of this revision (transaction-check has the list): counts once done, running until then, or unavailable.',
  properties: {
    state: { enum: ['checked', 'running', 'unavailable'] },
    introducedErrors: { type: 'integer' },
    introduced: { type: 'integer' },
    resolved: { type: 'integer' },
    complete: { type: 'boolean' },
    reason: { type: 'string' },
  },
  required: ['state'],
};

export async function checkSummaryOf(ctx: ToolContext, ws: Workspace, tx: Transaction): Promise<CheckSummary> {
  const checks = ctx.services.checks;
  const check = checks.peek(ws, tx);
  if (!check) {
    const reason = checks.unavailableFor(tx);
    if (reason !== undefined) return { state: 'unavailable', reason };
    // Started once the agent's calls pause, as the review panel starts it: handing every staged
    // text to the checker's thread (megabytes on a large rename) would hold up the next call.
    const revision = tx.current;
    const start = () => {
      const current = ctx.services.transactions.active(ws.id) === tx && tx.current === revision;
      if (current && !checks.asked(ws, tx)) void checkRevision(ctx, ws, tx, 0).catch(() => undefined);
    };
    if (!checks.asked(ws, tx)) setTimeout(start, PREPARE_AFTER_MS).unref?.();
    return { state: 'running' };
  }
  if (check.state === 'unavailable') return { state: 'unavailable', reason: check.reason };
  return {
    state: 'checked',
    introducedErrors: introducedErrors(check).length,
    introduced: check.introduced.length,
    resolved: check.resolved.length,
    complete: check.complete,
  };
}
