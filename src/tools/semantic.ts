/**
 * Semantic mutations: rename-symbol, format-document, list-code-actions,
 * stage-code-action and prepare-fix-all. The language services compute their edits on the
 * editor buffers; each mutation stages one revision through the transaction core, which maps
 * the edits onto the staged text or refuses with TransactionConflicted when they overlap.
 */
import type { ToolContext } from '../core/documents/context';
import { ACTION_REF_TTL_MS } from '../core/documents/caches';
import type { CachedAction } from '../core/documents/caches';
import { defineTool } from '../core/chain/definition';
import { diffTexts } from '../core/transactions/diff';
import type { DiffHunk } from '../core/transactions/diff';
import { callTool, resolveExternally, revise, ToolError } from '../core/chain/envelope';
import type { HostCodeAction, HostOutcome, HostWorkspaceEdit } from '../core/documents/editorPort';
import { isInside, toRelativePath, truncate } from '../core/documents/paths';
import { wordAt } from '../core/documents/text';
import { boundedString, collectionOutput, documentSelectorInput, limitParameter, locationSelectorInput, rangeInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { resolveSymbol, symbolLocation, symbolSelectorInput } from '../core/symbols/symbols';
import type { SymbolSelector } from '../core/symbols/symbols';
import type { BoundedList, MutationData, StagedCoverage, StagedFileSummary } from '../core/transactions/types';
import type { Workspace } from '../core/documents/workspaces';
import type { DocumentSelector, LocationSelector, ResolvedDocument } from '../core/documents/context';
import { starting } from '../core/symbols/readiness';
import { inputSchema, QUERY, queryAnnotations } from './shared/common';
import type { CommonInput } from './shared/common';
import { MUTATION, mutationAnnotations, mutationDataSchema, stagedFileSchema } from './shared/mutations';
import { applyEdits, effectiveEdits, toChanges } from '../core/transactions/editorEdits';
import type { ConvertedEdit } from '../core/transactions/editorEdits';

/** The text a rename's edit replaces at an offset of a document (the symbol's old name), if one covers it. */
function renamedText(edit: HostWorkspaceEdit, absPath: string, offset: number): string | undefined {
  const doc = edit.documents.find((d) => d.absPath === absPath);
  const e = doc?.edits.find((x) => x.start <= offset && offset <= x.start + x.length && x.length > 0);
  return doc && e ? doc.baseText.slice(e.start, e.start + e.length) : undefined;
}

/** A language service that is missing or refused: the error an agent can act on. */
function refused(outcome: Extract<HostOutcome<object>, { ok: false }>, what: string, languageId: string, revision: string): ToolError {
  if (outcome.unsupported) {
    return new ToolError(
      'UnsupportedLanguageFeature',
      `No ${what} is available for ${languageId} documents: ${outcome.reason}`,
      resolveExternally('Install or enable a language extension that provides it, or make the change with edit-text.'),
    );
  }
  return new ToolError('InvalidRequest', `The ${what} refused: ${outcome.reason}`, revise(revision));
}

const nothingChanged = (what: string, instruction: string): ToolError => new ToolError('InvalidRequest', `${what}; nothing was staged.`, revise(instruction));

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
const semanticMutationSchema: JsonSchema = {
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

async function stage(
  ctx: ToolContext,
  workspace: Workspace,
  provenance: { tool: string; summary: string; codeActionKind?: string },
  converted: ConvertedEdit,
  coverage?: StagedCoverage,
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
async function coverageAfter(ctx: ToolContext, doc: ResolvedDocument, what: string): Promise<StagedCoverage> {
  const after = await ctx.services.readiness.coverage(ctx, doc, 0);
  if (after.state === 'loading') throw starting(after, `${what} may have been computed from the open files only, so nothing was staged`);
  return { languageId: doc.host.languageId, state: after.state };
}

// ---------------------------------------------------------------- rename-symbol

interface RenameInput extends CommonInput {
  symbol: SymbolSelector;
  newName: string;
}

export const renameSymbol = defineTool<RenameInput, SemanticMutationData>({
  name: 'rename-symbol',
  title: 'Rename Symbol',
  category: 'Mutations',
  ...MUTATION,
  description:
    'Stages renaming a symbol to newName with its references in all files as one revision (written by transaction-commit); a location on a usage works. A refused rename returns the reason; edits overlapping staged edits give TransactionConflicted.',
  inputSchema: inputSchema({ symbol: symbolSelectorInput, newName: { type: 'string', minLength: 1, maxLength: 512 } }, ['symbol', 'newName'], {
    workspace: false,
  }),
  dataSchema: semanticMutationSchema,
  annotations: mutationAnnotations('Rename Symbol'),
  examples: [
    {
      workflowId: 'rename',
      workflowTitle: 'Rename a symbol and review it',
      step: 1,
      id: 'rename-symbol-selection',
      title: 'Rename a function',
      purpose: 'Rename formatName and every reference to it.',
      expectedOutcome: 'One staged revision that edits the declaration and every file that uses it.',
      request: { symbol: { location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatName' } } }, newName: 'formatPersonName' },
    },
  ],
  async run(input, ctx) {
    let resolvedDoc: ResolvedDocument;
    let offset: number;
    if (input.symbol.location) {
      const target = await symbolLocation(ctx, input.symbol.location as LocationSelector, input.workspace);
      resolvedDoc = target.document;
      offset = target.start;
    } else {
      const resolved = await resolveSymbol(ctx, input.symbol, input.workspace);
      resolvedDoc = resolved.document;
      offset = resolved.symbol.selectionRange.start;
    }
    const { absolutePath: absPath, workspace } = resolvedDoc;
    await ctx.services.readiness.require(ctx, resolvedDoc, 'the rename');
    const doc = await ctx.editor.readDocument(absPath);
    const languageId = doc?.languageId ?? 'these';
    // The host runs the providers' prepare-rename check before asking for edits; a refusal comes back with its reason.
    const result = await ctx.editor.renameEdits(absPath, offset, input.newName);
    const coverage = await coverageAfter(ctx, resolvedDoc, 'the rename');
    if (!result.ok) {
      throw refused(
        result,
        'rename provider',
        languageId,
        'Point symbol at the name of a symbol declared in the workspace (not a keyword, literal or library symbol) and give a newName valid in the language.',
      );
    }
    const oldName = renamedText(result.edit, absPath, offset) ?? wordAt(doc?.text ?? '', offset);
    if (oldName === input.newName) throw nothingChanged(`The symbol is already named ${input.newName}`, 'Give a different newName.');
    const converted = toChanges(workspace, result.edit, 'rename');
    if (converted.changes.length === 0) {
      throw nothingChanged('The rename provider returned no edits', 'Check that symbol points at a name the language service knows.');
    }
    return stage(ctx, workspace, { tool: 'rename-symbol', summary: `Rename ${oldName} to ${input.newName}` }, converted, coverage);
  },
});

// ---------------------------------------------------------------- format-document

interface FormatInput extends CommonInput {
  document: DocumentSelector;
  range?: { start: number; length: number } | null;
}

export const formatDocument = defineTool<FormatInput, SemanticMutationData>({
  name: 'format-document',
  title: 'Format Document',
  category: 'Mutations',
  ...MUTATION,
  description:
    "Stages the formatter's edits for a document or range as one revision, with the editor's tab size and spaces/tabs for that file. Edits overlapping staged edits give TransactionConflicted; an already formatted document, InvalidRequest.",
  inputSchema: inputSchema(
    {
      document: documentSelectorInput,
      range: { ...rangeInput, type: ['object', 'null'], description: 'Only this range {start, length} (UTF-16 offsets); omit for the whole document.' },
    },
    ['document'],
    { workspace: false },
  ),
  dataSchema: semanticMutationSchema,
  annotations: mutationAnnotations('Format Document'),
  examples: [
    {
      workflowId: 'format',
      workflowTitle: 'Format a file',
      step: 1,
      id: 'format-document-whole',
      title: 'Format a whole file',
      purpose: 'Stage the formatter edits of src/util.ts.',
      expectedOutcome: 'One staged revision with the formatter edits, or InvalidRequest when the file is already formatted.',
      request: { document: { path: 'src/util.ts' } },
    },
  ],
  async run(input, ctx) {
    const doc = await ctx.document(input.document, input.workspace);
    const range = input.range ?? undefined;
    if (range && range.start + range.length > doc.host.text.length) {
      throw new ToolError(
        'LocationNotFound',
        `The range ${range.start}+${range.length} lies outside ${doc.relativePath} (${doc.host.text.length} UTF-16 code units).`,
        revise('Give a range inside the document, or omit it.'),
      );
    }
    const result = await ctx.editor.formatEdits(doc.absolutePath, range ? { start: range.start, end: range.start + range.length } : undefined);
    if (!result.ok) {
      throw refused(
        result,
        range ? 'range formatter' : 'formatter',
        doc.host.languageId,
        'Fix the syntax errors that stop the formatter, or format a smaller range.',
      );
    }
    const converted = toChanges(doc.workspace, { documents: [result.edit], fileOperations: [] }, 'formatting');
    if (converted.changes.length === 0) {
      throw nothingChanged(
        `${doc.relativePath} is already formatted${range ? ' in that range' : ''} (tabSize ${result.options.tabSize}, ${result.options.insertSpaces ? 'spaces' : 'tabs'})`,
        'Nothing to do; continue with the next step.',
      );
    }
    const where = range ? ` lines ${doc.lines.positionAt(range.start).line + 1}-${doc.lines.positionAt(range.start + range.length).line + 1}` : '';
    return stage(ctx, doc.workspace, { tool: 'format-document', summary: `Format ${doc.relativePath}${where}` }, converted);
  },
});

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

interface ListActionsInput extends CommonInput {
  location: LocationSelector;
  kind?: string | null;
  actionsLimit?: number | null;
}

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

const kindInput: JsonSchema = { type: ['string', 'null'], maxLength: 200 };

export const listCodeActions = defineTool<ListActionsInput, ListActionsData>({
  name: 'list-code-actions',
  title: 'List Code Actions',
  category: 'Mutations',
  ...QUERY,
  description:
    'Lists quick fixes, refactorings and source actions at a location, optionally of one kind (quickfix, refactor.extract...). Each has the files it edits and an actionRef for stage-code-action, valid 10 minutes or until one of those files changes.',
  inputSchema: inputSchema({ location: locationSelectorInput, kind: kindInput, actionsLimit: limitParameter('actions', 50, 200) }, ['location'], {
    workspace: false,
  }),
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
  async run(input, ctx) {
    const target = await ctx.location(input.location, input.workspace);
    const doc = target.document;
    // Actions such as adding an import or moving a symbol reach other files: not from a service that knows only the open ones.
    await ctx.services.readiness.require(ctx, doc, 'the code actions');
    const result = await ctx.editor.codeActions(doc.absolutePath, { start: target.start, end: target.start + target.length }, input.kind ?? undefined);
    const coverage = await coverageAfter(ctx, doc, 'the code actions');
    if (!result.ok) throw refused(result, 'code action provider', doc.host.languageId, 'Try another location or kind.');
    const limit = input.actionsLimit ?? 50;
    const lineOf = (offset: number): number => doc.lines.positionAt(offset).line + 1;
    const items = result.actions.slice(0, limit).map((a) => describeAction(ctx, doc.workspace, a, lineOf, coverage));
    return { actions: { items, hasMore: result.actions.length > limit, totalCount: result.actions.length }, expiresInSeconds: ACTION_REF_TTL_MS / 1000 };
  },
});

// ---------------------------------------------------------------- stage-code-action

interface StageActionInput extends CommonInput {
  actionRef: string;
}

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

export const stageCodeAction = defineTool<StageActionInput, SemanticMutationData>({
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
  async run(input, ctx) {
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

interface FixAllInput extends CommonInput {
  document: DocumentSelector;
  kind?: 'source.fixAll' | 'source.organizeImports' | null;
  contextLines?: number | null;
}

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

export const prepareFixAll = defineTool<FixAllInput, FixAllData>({
  name: 'prepare-fix-all',
  title: 'Prepare Fix All',
  category: 'Mutations',
  ...QUERY,
  description:
    "Previews without staging what a document's source.fixAll or source.organizeImports would change: unified hunks per file, against the editor buffer. Stage it with stage-code-action and action.actionRef; action is null when there is nothing to do.",
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
  async run(input, ctx) {
    const doc = await ctx.document(input.document, input.workspace);
    const kind = input.kind ?? 'source.fixAll';
    await ctx.services.readiness.require(ctx, doc, `the ${kind} action`);
    const result = await ctx.editor.codeActions(doc.absolutePath, { start: 0, end: doc.host.text.length }, kind);
    if (!result.ok) throw refused(result, `${kind} provider`, doc.host.languageId, 'Try the other kind, or use list-code-actions.');
    const coverage = await coverageAfter(ctx, doc, `the ${kind} action`);
    const matching = result.actions.filter((a) => a.kind === kind || a.kind?.startsWith(`${kind}.`));
    const candidates = matching.map((a) => ({ a, reason: unstageableReason(doc.workspace, a) }));
    const chosen = candidates.find((c) => c.reason === undefined);
    const data: FixAllData = { kind, action: null, documents: { items: [], hasMore: false, totalCount: 0 }, fileOperations: 0 };
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
