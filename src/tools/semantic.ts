/**
 * Semantic mutations: rename-symbol and format-document (the code actions are in codeActions.ts). The language services compute their edits on the
 * editor buffers; each mutation stages one revision through the transaction core, which maps
 * the edits onto the staged text or refuses with TransactionConflicted when they overlap.
 */
import { defineTool } from '../core/chain/definition';
import { revise, ToolError } from '../core/chain/envelope';
import type { HostWorkspaceEdit } from '../core/documents/editorPort';
import { wordAt } from '../core/documents/text';
import { documentSelectorInput, rangeInput } from '../core/chain/schemas';
import { symbolSelectorInput } from '../core/symbols/symbols';
import { checkSymbolSelector, resolveSymbol, symbolLocation } from '../core/symbols/selectors';
import type { ResolvedDocument } from '../core/documents/context';
import { inputSchema } from './shared/common';
import { MUTATION, mutationAnnotations } from './shared/mutations';
import { toChanges } from '../core/transactions/editorEdits';
import { findResidue, residueSchema, scanAhead } from '../core/symbols/residue';
import type { Residue } from '../core/symbols/residue';
import type { JsonSchema } from '../core/chain/schemas';

import { coverageAfter, nothingChanged, refused, reviewed, reviewedMutationSchema, semanticMutationSchema, stage } from './shared/semanticStaging';
import type { ReviewedMutationData, SemanticMutationData } from './shared/semanticStaging';

/** The text a rename's edit replaces at an offset of a document (the symbol's old name), if one covers it. */
function renamedText(edit: HostWorkspaceEdit, absPath: string, offset: number): string | undefined {
  const doc = edit.documents.find((d) => d.absPath === absPath);
  const e = doc?.edits.find((x) => x.start <= offset && offset <= x.start + x.length && x.length > 0);
  return doc && e ? doc.baseText.slice(e.start, e.start + e.length) : undefined;
}

// ---------------------------------------------------------------- rename-symbol

const renameSchema: JsonSchema = {
  ...reviewedMutationSchema,
  properties: { ...(reviewedMutationSchema.properties as Record<string, JsonSchema>), residue: residueSchema },
  required: [...(reviewedMutationSchema.required as string[]), 'residue'],
};

/** A rename's answer: what it staged, and the old name's occurrences left in the staged texts. */
export type RenameData = (SemanticMutationData | ReviewedMutationData) & { residue: Residue };

export const renameSymbol = defineTool({
  name: 'rename-symbol',
  title: 'Rename Symbol',
  category: 'Mutations',
  ...MUTATION,
  description:
    'Stages renaming a symbol and its references in all files to newName, one revision (written by transaction-commit); a location on a usage works. Overlapping staged edits: TransactionConflicted. residue: the old name left in comments, strings, untyped uses.',
  inputSchema: inputSchema(
    {
      symbol: symbolSelectorInput,
      newName: { type: 'string', minLength: 1, maxLength: 512 },
      includeDiff: {
        type: 'boolean',
        description: "Answer diffs instead of documents: each file's word diff, or lines [[line, staged text]] if its changes are the rename alone.",
      },
    },
    ['symbol', 'newName'],
    { workspace: false },
  ),
  dataSchema: renameSchema,
  annotations: mutationAnnotations('Rename Symbol'),
  examples: [
    {
      workflowId: 'rename',
      workflowTitle: 'Rename a symbol and review it',
      step: 1,
      id: 'rename-symbol-selection',
      title: 'Rename a function',
      purpose: 'Rename formatName and every reference to it, and review the change in the same answer.',
      expectedOutcome: "One staged revision that edits the declaration and every file that uses it, answered with each file's word diff.",
      request: {
        symbol: { location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatName' } } },
        newName: 'formatPersonName',
        includeDiff: true,
      },
    },
  ],
  async run(input, ctx): Promise<RenameData> {
    let resolvedDoc: ResolvedDocument;
    let offset: number;
    checkSymbolSelector(input.symbol);
    if (input.symbol.location) {
      const target = await symbolLocation(ctx, input.symbol.location);
      resolvedDoc = target.document;
      offset = target.start;
    } else {
      const resolved = await resolveSymbol(ctx, input.symbol);
      resolvedDoc = resolved.document;
      offset = resolved.symbol.selectionRange.start;
    }
    const { absolutePath: absPath, workspace } = resolvedDoc;
    await ctx.services.readiness.require(ctx, resolvedDoc, 'the rename');
    const doc = await ctx.editor.readDocument(absPath);
    const languageId = doc?.languageId ?? 'these';
    const tm = ctx.services.transactions;
    const stagedText = (p: string) => {
      const v = tm.stagedView(workspace, p);
      return v === 'gone' ? null : v?.text;
    };
    // The host runs the providers' prepare-rename check before asking for edits; a refusal comes back with its reason.
    const renamed = ctx.editor.renameEdits(absPath, offset, input.newName);
    // Asked first, the rename is computed in the language service's own process while the folder is read and scanned for the residue.
    const guess = wordAt(doc?.text ?? '', offset);
    const ahead = guess ? scanAhead({ name: guess, languageId: resolvedDoc.host.languageId, workspace, editor: ctx.editor, textOf: stagedText }) : undefined;
    const result = await renamed;
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
    // A file not staged before is staged as exactly its edits applied: its residue follows from the scan ahead.
    const edited = new Map(
      converted.documents.filter((d) => tm.stagedView(workspace, d.path) === undefined).map((d) => [d.path, { before: d.before, edits: d.textEdits }]),
    );
    const names = { from: oldName, to: input.newName };
    const staged = await stage(ctx, workspace, { tool: 'rename-symbol', summary: `Rename ${oldName} to ${input.newName}` }, converted, coverage, names);
    // Scanned in the staged texts: what the rename changed no longer spells the old name.
    const scanned = oldName === guess ? await ahead : undefined;
    const residue = await findResidue({
      name: oldName,
      languageId: resolvedDoc.host.languageId,
      workspace,
      editor: ctx.editor,
      textOf: stagedText,
      extraPaths: tm.changedDocuments(workspace).flatMap((d) => (d.path !== null && d.path !== d.origin?.path ? [d.path] : [])),
      inside: input.newName,
      ...(scanned ? { ahead: scanned, edited } : {}),
    });
    const data = { ...staged, residue };
    return input.includeDiff ? reviewed(ctx, workspace, data, names) : data;
  },
});

// ---------------------------------------------------------------- format-document

export const formatDocument = defineTool({
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
  async run(input, ctx): Promise<SemanticMutationData> {
    const doc = await ctx.document(input.document);
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
