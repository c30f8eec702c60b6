/** Code actions: list-code-actions, stage-code-action, prepare-fix-all. */
import type { ToolContext } from '../core/documents/context';
import { ACTION_REF_TTL_MS } from '../core/documents/caches';
import type { CachedAction } from '../core/documents/caches';
import { defineTool } from '../core/chain/definition';
import { diffTexts } from '../core/transactions/diff';
import type { DiffHunk } from '../core/transactions/diff';
import { callTool, resolveExternally, revise, ToolError } from '../core/chain/envelope';
import type { HostCodeAction, HostWorkspaceEdit } from '../core/documents/editorPort';
import { isInside, toRelativePath, truncate } from '../core/documents/paths';
import { boundedString, collectionOutput, cursorInput, documentSelectorInput, limitParameter, locationSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import type { StagedCoverage } from '../core/transactions/types';
import type { Workspace } from '../core/documents/workspaces';
import { inputSchema, paged, QUERY, queryAnnotations } from './shared/common';
import { MUTATION, mutationAnnotations } from './shared/mutations';
import { applyEdits, effectiveEdits, toChanges } from '../core/transactions/editorEdits';

/** The text a rename's edit replaces at an offset of a document (the symbol's old name), if one covers it. */
import { coverageAfter, refused, semanticMutationSchema, stage } from './shared/semanticStaging';
import { unsupportedFeature } from '../core/symbols/symbols';
import type { SemanticMutationData } from './shared/semanticStaging';

// ---------------------------------------------------------------- code action references

function unstageableReason(workspace: Workspace, action: HostCodeAction): string | undefined {
  if (action.disabled) return `the provider disabled it: ${action.disabled}`;
  if (!action.edit || (action.edit.documents.every((d) => effectiveEdits(d).length === 0) && action.edit.fileOperations.length === 0)) {
    return action.command ? `it only runs the command ${action.command.command}, which cannot be staged without running it` : 'it has no edit';
  }
  const outside = [...action.edit.documents.map((d) => d.absPath), ...action.edit.fileOperations.map((o) => o.absPath)].find(
    (p) => !isInside(workspace.fsPath, p),
  );
  return outside ? `it changes ${truncate(outside)}, outside the workspace folder` : undefined;
}

interface ActionItem {
  actionRef: string;
  title: string;
  kind?: string;
  isPreferred?: boolean;
  stageable: boolean;
  reason?: string;
  runsCommand?: string;
  diagnostics?: { message: string; code?: string; severity: string; line: number }[];
  files?: { path: string; edits: number }[];
}

function describeAction(
  ctx: ToolContext,
  workspace: Workspace,
  action: HostCodeAction,
  lineOf: (offset: number) => number,
  coverage: StagedCoverage,
): ActionItem {
  const reason = unstageableReason(workspace, action);
  const actionRef = ctx.services.caches.codeActions.add({
    workspaceId: workspace.id,
    workspaceEpoch: workspace.snapshot().workspaceEpoch,
    action,
    unstageable: reason,
    coverage,
  });
  const item: ActionItem = { actionRef, title: action.title, stageable: reason === undefined };
  if (action.kind) item.kind = action.kind;
  if (action.isPreferred) item.isPreferred = true;
  if (reason) item.reason = reason;
  if (action.command && action.edit) item.runsCommand = action.command.command;
  if (action.diagnostics.length > 0) {
    item.diagnostics = action.diagnostics.map((d) => ({
      message: truncate(d.message, 300),
      ...(d.code ? { code: d.code } : {}),
      severity: d.severity,
      line: lineOf(d.range.start),
    }));
  }
  if (!reason && action.edit) {
    item.files = action.edit.documents
      .map((d) => ({ path: toRelativePath(workspace.fsPath, d.absPath), edits: effectiveEdits(d).length }))
      .filter((f) => f.edits > 0);
  }
  return item;
}

// ---------------------------------------------------------------- list-code-actions

export interface ListActionsData {
  actions: { items: ActionItem[]; hasMore: boolean; totalCount: number };
  expiresInSeconds: number;
}

const actionItemSchema: JsonSchema = {
  type: 'object',
  properties: {
    actionRef: { type: 'string', description: 'Pass to stage-code-action.' },
    title: { type: 'string' },
    kind: { type: 'string' },
    isPreferred: { type: 'boolean' },
    stageable: { type: 'boolean' },
    reason: { type: 'string', description: 'Why it cannot be staged.' },
    runsCommand: { type: 'string', description: 'A command the editor would also run; staging applies only the edit.' },
    diagnostics: {
      type: 'array',
      items: {
        type: 'object',
        properties: { message: { type: 'string' }, code: { type: 'string' }, severity: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
        required: ['message', 'severity', 'line'],
      },
    },
    files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, edits: { type: 'integer' } }, required: ['path', 'edits'] } },
  },
  required: ['actionRef', 'title', 'stageable'],
};

const kindInput = { type: ['string', 'null'], maxLength: 200 } as const;

export const listCodeActions = defineTool({
  name: 'list-code-actions',
  title: 'List Code Actions',
  category: 'Mutations',
  ...QUERY,
  description:
    'Lists quick fixes, refactorings and source actions at a location, optionally of one kind (quickfix, refactor.extract...). Each has the files it edits and an actionRef for stage-code-action, valid 10 minutes or until those files change.',
  inputSchema: inputSchema(
    { location: locationSelectorInput, kind: kindInput, actionsLimit: limitParameter('actions', 50, 200), cursor: cursorInput },
    ['location'],
    {
      workspace: false,
    },
  ),
  dataSchema: {
    type: 'object',
    properties: { actions: collectionOutput('Code actions in the order the providers gave them.', actionItemSchema), expiresInSeconds: { type: 'integer' } },
    required: ['actions', 'expiresInSeconds'],
  },
  annotations: queryAnnotations('List Code Actions'),
  examples: [
    {
      workflowId: 'quick-fix',
      workflowTitle: 'Fix a diagnostic with a quick fix',
      step: 1,
      id: 'list-code-actions-quickfix',
      title: 'Quick fixes for an unresolved name',
      purpose: 'See what the language service offers for an error.',
      expectedOutcome: 'Quick fixes such as adding the missing import, each with an actionRef.',
      request: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'formatName', contextAfter: '(name)' } }, kind: 'quickfix' },
    },
  ],
  async run(input, ctx): Promise<ListActionsData> {
    const target = await ctx.location(input.location);
    const doc = target.document;
    // Actions such as adding an import or moving a symbol reach other files: not from a service that knows only the open ones.
    await ctx.services.readiness.require(ctx, doc, 'the code actions');
    const result = await ctx.editor.codeActions(doc.absolutePath, { start: target.start, end: target.start + target.length }, input.kind ?? undefined);
    const coverage = await coverageAfter(ctx, doc, 'the code actions');
    if (!result.ok) throw refused(result, 'code action provider', doc.host.languageId, 'Try another location or kind.');
    const lineOf = (offset: number): number => doc.lines.positionAt(offset).line + 1;
    const page = paged(ctx, 'actions', result.actions, input.actionsLimit, { paths: [doc.relativePath], key: (a) => [a.title, a.kind ?? null] });
    const items = page.items.map((a) => describeAction(ctx, doc.workspace, a, lineOf, coverage));
    return { actions: { ...page, items }, expiresInSeconds: ACTION_REF_TTL_MS / 1000 };
  },
});

// ---------------------------------------------------------------- stage-code-action

/** The action behind a ref, checked against the current buffers; stale or unknown refs ask for a new listing. */
async function liveAction(ctx: ToolContext, ref: string): Promise<{ workspace: Workspace; entry: CachedAction }> {
  const entry = ctx.services.caches.codeActions.get(ref);
  const again = callTool('list-code-actions', 'List the code actions at that location again and use a fresh actionRef.');
  if (!entry) {
    throw new ToolError('SnapshotMismatch', `actionRef "${truncate(ref, 40)}" is unknown or expired (refs live ${ACTION_REF_TTL_MS / 60_000} minutes).`, again);
  }
  const workspace = ctx.registry.byId(entry.workspaceId);
  if (!workspace || workspace.snapshot().workspaceEpoch !== entry.workspaceEpoch) {
    ctx.services.caches.codeActions.delete(ref);
    throw new ToolError('SnapshotMismatch', `actionRef "${ref}" belongs to a workspace that was closed or reloaded.`, again);
  }
  ctx.workspace({ workspaceId: workspace.id });
  for (const doc of entry.action.edit?.documents ?? []) {
    const current = await ctx.editor.readDocument(doc.absPath);
    if (doc.version !== 0 && current?.text !== doc.baseText) {
      ctx.services.caches.codeActions.delete(ref);
      throw new ToolError(
        'SnapshotMismatch',
        `${toRelativePath(workspace.fsPath, doc.absPath)} changed since the code action was listed; its edit no longer applies.`,
        again,
        { actionRef: ref },
      );
    }
  }
  return { workspace, entry };
}

export const stageCodeAction = defineTool({
  name: 'stage-code-action',
  title: 'Stage Code Action',
  category: 'Mutations',
  ...MUTATION,
  description:
    "Stages a code action's edit (actionRef from list-code-actions or prepare-fix-all) as one revision with its kind; commands it would also run are not run. An expired ref or changed files give SnapshotMismatch (list again); edits overlapping staged edits, TransactionConflicted.",
  inputSchema: inputSchema({ actionRef: boundedString('From list-code-actions or prepare-fix-all.', 64, { minLength: 1 }) }, ['actionRef'], {
    workspace: false,
  }),
  dataSchema: semanticMutationSchema,
  annotations: mutationAnnotations('Stage Code Action'),
  examples: [
    {
      workflowId: 'quick-fix',
      workflowTitle: 'Fix a diagnostic with a quick fix',
      step: 2,
      id: 'stage-code-action-ref',
      title: 'Stage a listed quick fix',
      purpose: 'Stage the quick fix chosen from list-code-actions.',
      expectedOutcome: 'One staged revision whose provenance names the action kind.',
      request: { actionRef: 'ca-0123456789ab' },
    },
  ],
  async run(input, ctx): Promise<SemanticMutationData> {
    const { workspace, entry } = await liveAction(ctx, input.actionRef);
    if (entry.unstageable) {
      throw new ToolError(
        'UnsupportedLanguageFeature',
        `The code action "${truncate(entry.action.title, 100)}" cannot be staged: ${entry.unstageable}.`,
        entry.action.command && !entry.action.edit
          ? resolveExternally('Ask the person to apply it from the editor (light bulb), or make the change with edit-text.')
          : revise('Choose another action.'),
      );
    }
    const converted = toChanges(workspace, entry.action.edit as HostWorkspaceEdit, 'code action');
    const provenance: { tool: string; summary: string; codeActionKind?: string } = { tool: 'stage-code-action', summary: entry.action.title };
    if (entry.action.kind) provenance.codeActionKind = entry.action.kind;
    const data = await stage(ctx, workspace, provenance, converted, entry.coverage);
    ctx.services.caches.codeActions.delete(input.actionRef);
    return data;
  },
});

// ---------------------------------------------------------------- prepare-fix-all

export interface FixAllData {
  kind: string;
  action: { actionRef: string; title: string; kind?: string } | null;
  documents: {
    items: { path: string; edits: number; addedLines: number; removedLines: number; changedLines: number; hunks: DiffHunk[] }[];
    hasMore: boolean;
    totalCount: number;
  };
  fileOperations: number;
}

const hunkSchema: JsonSchema = {
  type: 'object',
  properties: {
    originalStartLine: { type: 'integer' },
    originalLineCount: { type: 'integer' },
    updatedStartLine: { type: 'integer' },
    updatedLineCount: { type: 'integer' },
    lines: { type: 'array', items: { type: 'string' } },
  },
  required: ['originalStartLine', 'originalLineCount', 'updatedStartLine', 'updatedLineCount', 'lines'],
};

export const prepareFixAll = defineTool({
  name: 'prepare-fix-all',
  title: 'Prepare Fix All',
  category: 'Mutations',
  ...QUERY,
  description:
    "Previews without staging what a document's source.fixAll or source.organizeImports would change: unified hunks per file, against the editor buffer. Stage it with stage-code-action and action.actionRef; action null: nothing to do.",
  inputSchema: inputSchema(
    {
      document: documentSelectorInput,
      kind: { type: ['string', 'null'], enum: ['source.fixAll', 'source.organizeImports', null], default: 'source.fixAll' },
      contextLines: { type: ['integer', 'null'], minimum: 0, maximum: 20, default: 3 },
    },
    ['document'],
    { workspace: false },
  ),
  dataSchema: {
    type: 'object',
    properties: {
      kind: { type: 'string' },
      action: {
        type: ['object', 'null'],
        properties: { actionRef: { type: 'string' }, title: { type: 'string' }, kind: { type: 'string' } },
        required: ['actionRef', 'title'],
      },
      documents: collectionOutput('Files the action changes, with unified hunks.', {
        type: 'object',
        properties: {
          path: { type: 'string' },
          edits: { type: 'integer' },
          addedLines: { type: 'integer' },
          removedLines: { type: 'integer' },
          changedLines: { type: 'integer' },
          hunks: { type: 'array', items: hunkSchema },
        },
        required: ['path', 'edits', 'addedLines', 'removedLines', 'changedLines', 'hunks'],
      }),
      fileOperations: { type: 'integer', description: 'Files the action would create, delete or rename.' },
    },
    required: ['kind', 'action', 'documents', 'fileOperations'],
  },
  annotations: queryAnnotations('Prepare Fix All'),
  examples: [
    {
      workflowId: 'organize-imports',
      workflowTitle: 'Organize imports',
      step: 1,
      id: 'prepare-fix-all-organize-imports',
      title: 'Preview organize imports',
      purpose: 'See which imports would be sorted or removed.',
      expectedOutcome: 'The hunks of the import block and an actionRef to stage them.',
      request: { document: { path: 'src/greeter.ts' }, kind: 'source.organizeImports' },
    },
  ],
  async run(input, ctx): Promise<FixAllData> {
    const doc = await ctx.document(input.document);
    const kind = input.kind ?? 'source.fixAll';
    await ctx.services.readiness.require(ctx, doc, `the ${kind} action`);
    const result = await ctx.editor.codeActions(doc.absolutePath, { start: 0, end: doc.host.text.length }, kind);
    if (!result.ok) throw refused(result, `${kind} provider`, doc.host.languageId, 'Try the other kind, or use list-code-actions.');
    const coverage = await coverageAfter(ctx, doc, `the ${kind} action`);
    const matching = result.actions.filter((a) => a.kind === kind || a.kind?.startsWith(`${kind}.`));
    const candidates = matching.map((a) => ({ a, reason: unstageableReason(doc.workspace, a) }));
    const chosen = candidates.find((c) => c.reason === undefined);
    const data: FixAllData = { kind, action: null, documents: { items: [], hasMore: false, totalCount: 0 }, fileOperations: 0 };
    if (!chosen && matching.length === 0) {
      // No source action of any kind for the document: no extension provides one for its language (pyright offers none), so null would read as "nothing to do".
      const source = await ctx.editor.codeActions(doc.absolutePath, { start: 0, end: doc.host.text.length }, 'source');
      if (source.ok && source.actions.length === 0) throw unsupportedFeature(doc, `${kind} code action`);
    }
    if (!chosen) return data;
    const action = chosen.a;
    const converted = toChanges(doc.workspace, action.edit as HostWorkspaceEdit, kind);
    const actionRef = ctx.services.caches.codeActions.add({
      workspaceId: doc.workspace.id,
      workspaceEpoch: doc.workspace.snapshot().workspaceEpoch,
      action,
      coverage,
    });
    data.action = { actionRef, title: action.title, ...(action.kind ? { kind: action.kind } : {}) };
    const contextLines = input.contextLines ?? 3;
    data.documents.items = converted.documents.map((d) => {
      const diff = diffTexts(d.before, applyEdits(d.before, d.textEdits), contextLines);
      return { path: d.path, edits: d.edits, addedLines: diff.addedLines, removedLines: diff.removedLines, changedLines: diff.changedLines, hunks: diff.hunks };
    });
    data.documents.totalCount = data.documents.items.length;
    data.fileOperations = converted.fileOperations;
    return data;
  },
});
