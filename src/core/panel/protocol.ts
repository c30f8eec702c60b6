import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { PanelModel } from './model';
import { MAX_PATH_LENGTH } from '../chain/schemas';
import type { JsonSchema } from '../chain/schemas';

/**
 * The messages between the review panel's webview and the extension. Everything a webview sends
 * is untrusted: it is validated against a closed schema, then checked against the transaction it
 * names (id and revision the person saw), so a malformed, forged or stale message changes nothing.
 */

/** Actions on the whole transaction. */
export const TRANSACTION_ACTIONS = ['commit', 'rollback', 'undo', 'redo'] as const;
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

/** Which transaction state the person acted on. */
export interface Seen {
  workspaceId: string;
  transactionId: string;
  revision: number;
}

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'select'; workspaceId: string; path: string }
  | { type: 'showWorkspace'; workspaceId: string }
  | { type: 'openAllChanges'; workspaceId: string }
  | { type: 'openDiff'; workspaceId: string; path: string }
  | ({ type: 'action'; action: TransactionAction } & Seen)
  | ({ type: 'discardFile'; path: string } & Seen)
  | ({ type: 'discardHunk'; path: string; hunk: number; originalStartLine: number; updatedStartLine: number } & Seen);

export type ExtensionMessage = { type: 'model'; model: PanelModel };

const id: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };
const relPath: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_PATH_LENGTH };
const line: JsonSchema = { type: 'integer', minimum: 0, maximum: 2147483647 };
const seen = { workspaceId: id, transactionId: id, revision: { type: 'integer', minimum: 0, maximum: 100000 } };

const variant = (type: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties: { type: { const: type }, ...properties },
  required: ['type', ...Object.keys(properties)],
  additionalProperties: false,
});

export const webviewMessageSchema: JsonSchema = {
  oneOf: [
    variant('ready', {}),
    variant('select', { workspaceId: id, path: relPath }),
    variant('showWorkspace', { workspaceId: id }),
    variant('openAllChanges', { workspaceId: id }),
    variant('openDiff', { workspaceId: id, path: relPath }),
    variant('action', { action: { enum: [...TRANSACTION_ACTIONS] }, ...seen }),
    variant('discardFile', { path: relPath, ...seen }),
    variant('discardHunk', { path: relPath, hunk: { type: 'integer', minimum: 0, maximum: 100000 }, originalStartLine: line, updatedStartLine: line, ...seen }),
  ],
};

const ajv = new Ajv({ allErrors: false, strict: true });
let compiled: ValidateFunction | undefined;

export type Parsed = { ok: true; message: WebviewMessage } | { ok: false; problem: string };

/** Validates one message from the webview; anything not exactly one of the known shapes is refused. */
export function parseWebviewMessage(data: unknown): Parsed {
  compiled ??= ajv.compile(webviewMessageSchema);
  if (compiled(data)) return { ok: true, message: data as WebviewMessage };
  const type = typeof data === 'object' && data !== null && 'type' in data ? String((data as { type: unknown }).type).slice(0, 40) : typeof data;
  return { ok: false, problem: `refused a malformed message from the review panel (${type})` };
}

/** Checks that a message acts on the transaction that is active now, at the revision the person saw. */
export function checkSeen(seen: Seen, current: { transactionId: string; revision: number } | undefined): string | undefined {
  if (!current) return 'There is no active transaction any more; nothing was changed.';
  if (seen.transactionId !== current.transactionId) return 'The panel showed another transaction; nothing was changed.';
  if (seen.revision !== current.revision) {
    return `The panel showed revision ${seen.revision}, but the transaction is at revision ${current.revision} now; nothing was changed. Look again and retry.`;
  }
  return undefined;
}
