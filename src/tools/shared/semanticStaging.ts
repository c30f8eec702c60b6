/** What the semantic mutations share: staging a language service's edit, its answer, and refusals. */
import type { ToolContext } from '../../core/documents/context';
import { resolveExternally, retry, revise, ToolError } from '../../core/chain/envelope';
import type { HostOutcome } from '../../core/documents/editorPort';
import { truncate } from '../../core/documents/paths';
import { collectionOutput } from '../../core/chain/schemas';
import type { JsonSchema } from '../../core/chain/schemas';
import type { BoundedList, MutationData, RenameNames, StagedCoverage, StagedFileSummary } from '../../core/transactions/types';
import type { Workspace } from '../../core/documents/workspaces';
import type { ResolvedDocument } from '../../core/documents/context';
import { starting } from '../../core/symbols/readiness';
import { mutationDataSchema, stagedFileSchema } from './mutations';
import type { ConvertedEdit } from '../../core/transactions/editorEdits';
import { utf8Bytes } from '../../core/chain/bounding';
import { stagedPath } from '../../core/transactions/transaction';
import { DIFF_RESERVE_BYTES, documentDiffs, pathDiffsSchema, renameLinesSchema } from './reviewDiffs';
import type { PathDiff } from './reviewDiffs';
import type { Collection } from './common';

/** A language service that is missing or refused: the error an agent can act on. */
export function refused(outcome: Extract<HostOutcome<object>, { ok: false }>, what: string, languageId: string, revision: string): ToolError {
  if (outcome.unsupported) {
    return new ToolError(
      'UnsupportedLanguageFeature',
      `No ${what} is available for ${languageId} documents: ${outcome.reason}`,
      resolveExternally('Install or enable a language extension that provides it, or make the change with edit-text.'),
    );
  }
  if (outcome.interrupted) {
    return new ToolError(
      'Cancelled',
      `The ${what} was interrupted: the editor dropped a document it was asked about (${outcome.reason}), also after it was opened again. Nothing was staged.`,
      retry('Call again: the document is opened again on each call.'),
    );
  }
  return new ToolError('InvalidRequest', `The ${what} refused: ${outcome.reason}`, revise(revision));
}

export const nothingChanged = (what: string, instruction: string): ToolError =>
  new ToolError('InvalidRequest', `${what}; nothing was staged.`, revise(instruction));

/** What every semantic mutation answers: the transaction core's result plus what this call staged. */
export type SemanticMutationData = Omit<MutationData, 'documents'> & {
  /** Each listed file with the language service's edit count in it. */
  documents: BoundedList<StagedFileSummary & { edits?: number }>;
  staged: { edits: number; fileOperations: number };
};

const stagedSummarySchema: JsonSchema = {
  type: 'object',
  description: 'What this call staged: all edits and file operations (each listed document says its edits).',
  properties: {
    edits: { type: 'integer', minimum: 0 },
    fileOperations: { type: 'integer', minimum: 0 },
  },
  required: ['edits', 'fileOperations'],
};

const mutationDocuments = (mutationDataSchema.properties as Record<string, JsonSchema>).documents;
export const semanticMutationSchema: JsonSchema = {
  ...mutationDataSchema,
  properties: {
    ...(mutationDataSchema.properties as Record<string, JsonSchema>),
    documents: collectionOutput(String(mutationDocuments.description), {
      ...stagedFileSchema,
      properties: {
        ...(stagedFileSchema.properties as Record<string, JsonSchema>),
        edits: { type: 'integer', minimum: 0, description: "The language service's edits in the file." },
      },
    }),
    staged: stagedSummarySchema,
  },
  required: [...((mutationDataSchema.required as string[] | undefined) ?? []), 'staged'],
};

export async function stage(
  ctx: ToolContext,
  workspace: Workspace,
  provenance: { tool: string; summary: string; codeActionKind?: string },
  converted: ConvertedEdit,
  coverage?: StagedCoverage,
  rename?: RenameNames,
): Promise<SemanticMutationData> {
  const result = await ctx.services.transactions.stage(
    ctx,
    workspace,
    { ...provenance, summary: truncate(provenance.summary.replace(/\s+/g, ' '), 200) },
    converted.changes,
    {
      basis: 'buffer',
      computedOn: converted.computedOn,
      ...(coverage ? { coverage } : {}),
      ...(rename ? { rename } : {}),
    },
  );
  const edits = new Map(converted.documents.map((d) => [d.path, d.edits]));
  const items = result.documents.items.map((d) => (edits.has(d.path) ? { ...d, edits: edits.get(d.path) } : d));
  const notes = [...(result.notes ?? []), ...converted.notes];
  return {
    ...result,
    ...(notes.length > 0 ? { notes } : {}),
    documents: { ...result.documents, items },
    staged: { edits: converted.documents.reduce((n, d) => n + d.edits, 0), fileOperations: converted.fileOperations },
  };
}

/**
 * Coverage once a service's cross-file edit came back: one that began loading another project
 * meanwhile may have computed it from the open files only. Refused now; recorded on the revision
 * so the commit checks it again.
 */
export async function coverageAfter(ctx: ToolContext, doc: ResolvedDocument, what: string): Promise<StagedCoverage> {
  const after = await ctx.services.readiness.coverage(ctx, doc, 0);
  if (after.state === 'loading') throw starting(after, `${what} may have been computed from the open files only, so nothing was staged`);
  return { languageId: doc.host.languageId, state: after.state };
}

/** A semantic mutation's answer with its review: each changed file's diff instead of the documents list. */
export type ReviewedMutationData = Omit<SemanticMutationData, 'documents'> & { diffs: Collection<PathDiff> };

export const reviewedMutationSchema: JsonSchema = {
  ...semanticMutationSchema,
  properties: {
    ...(semanticMutationSchema.properties as Record<string, JsonSchema>),
    diffs: pathDiffsSchema(
      "With includeDiff, instead of documents: each file this revision changed, in path order, with its word diff since the transaction began (as transaction-preview's diffs); cut from the end to fit the output limit (truncated, notes).",
      renameLinesSchema('A file whose every change is the old name made newName (whole words)'),
    ),
  },
  required: ['transaction', 'revision', 'staged'],
};

/**
 * The files this revision changed, each with its word diff (from the transaction's base, as
 * transaction-preview shows them), in place of the documents list: a change and its review in
 * one answer, the paths said once.
 */
export async function reviewed<T extends SemanticMutationData>(
  ctx: ToolContext,
  workspace: Workspace,
  data: T,
  rename?: { from: string; to: string },
): Promise<Omit<T, 'documents'> & ReviewedMutationData> {
  const tm = ctx.services.transactions;
  const revision = tm.history(workspace).find((r) => r.revision === data.revision.revision);
  const paths = new Set(revision?.paths ?? data.documents.items.map((d) => d.path));
  const changed = tm.changedDocuments(workspace).filter((d) => paths.has(stagedPath(d)));
  const { documents: _listed, ...rest } = data;
  const budget = ctx.maxOutputBytes - utf8Bytes(JSON.stringify(rest)) - DIFF_RESERVE_BYTES;
  const { diffs, note } = documentDiffs(changed, (d) => tm.counts(d), {
    words: true,
    contextLines: 0,
    budget,
    askOne: 'Ask transaction-preview with includeDiff and document',
    ...(rename ? { rename } : {}),
  });
  const notes = [...(rest.notes ?? []), ...(note ? [note] : [])];
  return { ...rest, ...(notes.length > 0 ? { notes } : {}), diffs };
}
