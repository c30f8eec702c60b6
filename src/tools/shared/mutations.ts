/** What every mutation tool shares: its marks, annotations and the schemas of what it answers. */
import type { ToolAnnotations } from '../../core/chain/toolInfo';
import type { ToolDefinition } from '../../core/chain/definition';
import { collectionOutput, documentRefOutput } from '../../core/chain/schemas';
import { workspaceSelectorInput } from '../../core/chain/schemas';
import type { JsonSchema } from '../../core/chain/schemas';
import type { TypedSchema } from '../../core/chain/schemaTypes';

/** The marks every mutation (staging) tool shares. */
export const MUTATION: Pick<
  ToolDefinition,
  'operationKind' | 'effect' | 'requiresApproval' | 'requiredPermission' | 'safeToRepeat' | 'timeoutSeconds' | 'maxOutputBytes'
> = {
  operationKind: 'Mutation',
  effect: 'Write',
  requiresApproval: false,
  requiredPermission: 'workspace.stage',
  safeToRepeat: false,
  timeoutSeconds: 0,
  maxOutputBytes: 0,
};

export const mutationAnnotations = (title: string, destructive = false): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: false,
  openWorldHint: false,
});

/** Inputs of the transaction tools that act on the whole transaction: only the workspace (an expectedSnapshot adds nothing there). */
export const transactionInput = <const P extends Record<string, TypedSchema>>(properties: P) =>
  ({
    type: 'object',
    properties: { ...properties, workspace: workspaceSelectorInput },
    additionalProperties: false,
  }) as const;

export const int = (description: string) => ({ type: 'integer', description }) as const;
export const bool = (description: string) => ({ type: 'boolean', description }) as const;

/** The transaction state, in roslyn-workbench-mcp's shape. */
export const transactionStateSchema: JsonSchema = {
  description: 'The active transaction info.',
  type: ['object', 'null'],
  properties: {
    revision: int('Current staged transaction revision.'),
    revisionCount: int('Number of revisions retained in transaction history.'),
    maxRevisions: int('Maximum number of revisions the transaction can retain.'),
    remainingRevisions: int('Number of additional revisions that can be staged.'),
    canMutate: bool('Whether mutation tools may stage another change.'),
    canUndo: bool('Whether transaction history can move to the preceding revision.'),
    canRedo: bool('Whether transaction history can move to the following revision.'),
    canCommit: bool('Whether the staged transaction can be committed to disk.'),
    canRollback: bool('Whether the complete staged transaction can be discarded.'),
  },
  required: ['revision', 'revisionCount', 'maxRevisions', 'remainingRevisions', 'canMutate', 'canUndo', 'canRedo', 'canCommit', 'canRollback'],
};

export const lineCountsSchema: JsonSchema = {
  description: 'The diff summary for the change.',
  type: ['object', 'null'],
  properties: {
    addedLines: int('The number of added lines.'),
    removedLines: int('The number of removed lines.'),
    changedLines: int('The number of changed lines (replaced in place).'),
  },
};

export const changedDocumentSchema: JsonSchema = {
  type: 'object',
  properties: {
    document: { ...documentRefOutput, description: 'The document that changed (its staged path).' },
    changeKind: { description: 'The kind of change applied to the document.', type: 'string', enum: ['Added', 'Modified', 'Deleted', 'Renamed'] },
    previousPath: { type: 'string', description: 'The path before a rename.' },
    preview: lineCountsSchema,
  },
  required: ['document', 'changeKind'],
};

export const revisionInfoSchema: JsonSchema = {
  type: 'object',
  properties: {
    revision: { type: 'integer' },
    tool: { type: 'string' },
    summary: { type: 'string' },
    codeActionKind: { type: 'string' },
    by: { type: 'string', enum: ['agent', 'person'] },
    time: { type: 'string', format: 'date-time' },
    paths: { type: 'array', items: { type: 'string' } },
  },
  required: ['revision', 'tool', 'summary', 'by', 'time', 'paths'],
};

/** One file a revision changed, compact: path and this revision's line counts. */
export const stagedFileSchema: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Staged path.' },
    changeKind: { type: 'string', enum: ['Added', 'Deleted', 'Renamed'], description: 'Left out when Modified.' },
    previousPath: { type: 'string' },
    addedLines: { type: 'integer', minimum: 1 },
    removedLines: { type: 'integer', minimum: 1 },
    changedLines: { type: 'integer', minimum: 1, description: 'Counts of 0, and added/removed equal to this, are left out.' },
  },
  required: ['path'],
};

const revisionHeadSchema: JsonSchema = {
  ...revisionInfoSchema,
  properties: Object.fromEntries(Object.entries(revisionInfoSchema.properties as Record<string, JsonSchema>).filter(([k]) => k !== 'paths')),
  required: ['revision', 'tool', 'summary', 'by', 'time'],
};

/** `data` of every mutation tool: the state, the revision staged, and the files it changed (counts for this revision). */
export const mutationDataSchema: JsonSchema = {
  type: 'object',
  properties: {
    transaction: transactionStateSchema,
    revision: revisionHeadSchema,
    documents: collectionOutput(
      'Files this revision changed, by path; hasMore when the answer was shortened to fit (totalCount counts all).',
      stagedFileSchema,
    ),
    notes: { type: 'array', items: { type: 'string' } },
  },
  required: ['transaction', 'revision', 'documents'],
};
