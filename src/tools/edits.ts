import * as path from 'node:path';
import type { ToolContext } from '../core/documents/context';
import { defineTool } from '../core/chain/definition';
import { revise, ToolError } from '../core/chain/envelope';
import { confinePath, joinFolder, toRelativePath } from '../core/documents/paths';
import { boundedString, documentSelectorInput, locationSelectorInput, MAX_PATH_LENGTH, MAX_TEXT_LENGTH, symbolSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { indentationOf, indentUnit, LineIndex, reindentLines, unitBelow } from '../core/documents/text';
import type { MutationData, StagedChange } from '../core/transactions/types';
import type { OffsetEdit } from '../core/transactions/plan';
import type { Workspace } from '../core/documents/workspaces';
import { countOf, pathsSaid } from '../core/util/wording';
import { resolveSymbol } from '../core/symbols/selectors';
import { elementBody, hasElementBodies, hasIndentedBodies, hasSectionBodies, indentedBody, sectionBody } from '../core/symbols/bodies';
import { attributesOf } from '../core/symbols/attributes';
import { inputSchema } from './shared/common';
import { MUTATION, mutationAnnotations, mutationDataSchema } from './shared/mutations';

const CATEGORY = 'Mutations' as const;

// ------------------------------------------------------------------ edit-text

export const editText = defineTool({
  name: 'edit-text',
  title: 'Edit Text',
  category: CATEGORY,
  ...MUTATION,
  description:
    "Stages one revision replacing locations with newText, resolved against the staged text (earlier staged edits included); one call's locations must not overlap. Writes nothing until transaction-commit.",
  inputSchema: inputSchema(
    {
      edits: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          properties: { location: locationSelectorInput, newText: { type: 'string', maxLength: MAX_TEXT_LENGTH } },
          required: ['location', 'newText'],
          additionalProperties: false,
        },
      },
    },
    ['edits'],
    { workspace: false },
  ),
  dataSchema: mutationDataSchema,
  annotations: mutationAnnotations('Edit Text'),
  examples: [
    {
      workflowId: 'transaction-change',
      workflowTitle: 'Stage, review and commit one change',
      step: 2,
      id: 'edit-text',
      title: 'Replace a selection',
      purpose: 'Stage a small text change.',
      expectedOutcome: 'Revision 1 with the document Modified.',
      request: { edits: [{ location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: "language: 'en'" } }, newText: "language: 'en-GB'" }] },
    },
  ],
  async run(input, ctx): Promise<MutationData> {
    // The first location names the folder; every location is then resolved inside the folder's mutation queue.
    const workspace = (await ctx.location(input.edits[0].location, undefined, 'staged')).document.workspace;
    return ctx.services.transactions.mutate(ctx, workspace, async () => {
      const byPath = new Map<string, OffsetEdit[]>();
      const computedOn: Record<string, string> = {};
      for (const e of input.edits) {
        const loc = await ctx.location(e.location, undefined, 'staged');
        if (loc.document.workspace.id !== workspace.id) {
          throw new ToolError('InvalidRequest', 'All edits of one edit-text call must be in the same workspace folder.', revise('Split the call per folder.'));
        }
        const list = byPath.get(loc.document.relativePath) ?? [];
        list.push({ start: loc.start, end: loc.start + loc.length, newText: e.newText });
        byPath.set(loc.document.relativePath, list);
        computedOn[loc.document.relativePath] = loc.document.host.text;
      }
      const changes: StagedChange[] = [...byPath].map(([p, edits]) => ({ kind: 'edit', path: p, edits }));
      return {
        provenance: { tool: 'edit-text', summary: `Edit ${countOf(input.edits.length, 'location')} in ${pathsSaid([...byPath.keys()])}` },
        changes,
        options: { basis: 'staged', computedOn },
      };
    });
  },
});

// ------------------------------------------------------------------ create-file

/** A workspace-relative path for a file that may not exist yet, confined to the folder. */
async function newPath(ctx: ToolContext, ws: Workspace, input: string, field: string): Promise<string> {
  const rel = toRelativePath(ws.fsPath, input, field);
  if (rel === '') throw new ToolError('InvalidRequest', `${field} names the workspace folder itself.`, revise('Give a file path inside the folder.'));
  await confinePath(ws.fsPath, rel, (p) => ctx.editor.realPath(p), field);
  return rel;
}

export const createFile = defineTool({
  name: 'create-file',
  title: 'Create File',
  category: CATEGORY,
  ...MUTATION,
  description: 'Stages a new file with the given text (overwrite replaces an existing one). Writes nothing until transaction-commit.',
  inputSchema: inputSchema(
    {
      path: boundedString('Workspace-relative path of the new file.', MAX_PATH_LENGTH, { minLength: 1 }),
      text: { type: 'string', maxLength: MAX_TEXT_LENGTH, description: 'The file content.' },
      overwrite: { type: 'boolean', default: false },
    },
    ['path', 'text'],
  ),
  dataSchema: mutationDataSchema,
  annotations: mutationAnnotations('Create File'),
  examples: [
    {
      workflowId: 'files',
      workflowTitle: 'Add, move and delete files',
      step: 1,
      id: 'create-file',
      title: 'Create a file',
      purpose: 'Stage a new module.',
      expectedOutcome: 'The file is Added in the transaction.',
      request: { path: 'src/constants.ts', text: 'export const one = 1;\n' },
    },
  ],
  async run(input, ctx): Promise<MutationData> {
    const ws = ctx.workspace(input.workspace);
    const rel = await newPath(ctx, ws, input.path, 'path');
    return ctx.services.transactions.stage(
      ctx,
      ws,
      { tool: 'create-file', summary: `Create ${rel}` },
      [{ kind: 'create', path: rel, text: input.text, overwrite: input.overwrite ?? false }],
      { basis: 'staged' },
    );
  },
});

// ------------------------------------------------------------------ delete-file

export const deleteFile = defineTool({
  name: 'delete-file',
  title: 'Delete File',
  category: CATEGORY,
  ...MUTATION,
  effect: 'Destructive',
  description: 'Stages deleting the document (one the transaction created just leaves it). Writes nothing until transaction-commit.',
  inputSchema: inputSchema({ document: documentSelectorInput }, ['document'], { workspace: false }),
  dataSchema: mutationDataSchema,
  annotations: mutationAnnotations('Delete File', true),
  examples: [
    {
      workflowId: 'files',
      workflowTitle: 'Add, move and delete files',
      step: 3,
      id: 'delete-file',
      title: 'Delete a file',
      purpose: 'Stage removing an unused module.',
      expectedOutcome: 'The file is Deleted in the transaction.',
      request: { document: { path: 'src/repeated.ts' } },
    },
  ],
  async run(input, ctx): Promise<MutationData> {
    const doc = await ctx.document(input.document, undefined, 'document', 'staged');
    return ctx.services.transactions.stage(
      ctx,
      doc.workspace,
      { tool: 'delete-file', summary: `Delete ${doc.relativePath}` },
      [{ kind: 'delete', path: doc.relativePath }],
      { basis: 'staged' },
    );
  },
});

// ------------------------------------------------------------------ move-file

const SCRIPT_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1/g;
const SCAN_FILE_LIMIT = 5000;
const REFERENCE_LIMIT = 100;

interface ImportReference {
  document: { documentId: string; path: string };
  span: { start: number; length: number };
  line: number;
  column: number;
  specifier: string;
  suggested: string;
}

function withoutScriptExtension(p: string): string {
  return p.replace(/\.(d\.ts|ts|tsx|mts|cts|js|jsx|mjs|cjs)$/, '');
}

/**
 * The moved file's own relative imports that the move breaks (the module they name stays where it
 * is), with the specifier that reaches it from `target`: at the staged path, where edit-text finds them.
 */
function importsIn(ws: Workspace, text: string, moved: string, target: string): ImportReference[] {
  const from = path.posix.dirname(moved);
  const to = path.posix.dirname(target);
  if (from === to) return [];
  const items: ImportReference[] = [];
  let lines: LineIndex | undefined;
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[2];
    if (!spec.startsWith('.')) continue;
    const named = path.posix.normalize(path.posix.join(from, spec));
    if (withoutScriptExtension(named) === withoutScriptExtension(moved)) continue;
    let suggested = path.posix.relative(to, named) || '.';
    if (!suggested.startsWith('.')) suggested = `./${suggested}`;
    if (spec.endsWith('/') && !suggested.endsWith('/')) suggested += '/';
    if (suggested === spec || items.length >= REFERENCE_LIMIT) continue;
    const start = (m.index ?? 0) + m[0].length - spec.length - 1;
    lines ??= new LineIndex(text);
    const pos = lines.positionAt(start);
    items.push({
      document: { documentId: ws.documentId(target), path: target },
      span: { start, length: spec.length },
      line: pos.line + 1,
      column: pos.character + 1,
      specifier: spec,
      suggested,
    });
  }
  return items;
}

/** Relative import specifiers in script files that resolve to `moved`, with the specifier that would reach `target`. */
async function importsOf(
  ctx: ToolContext,
  ws: Workspace,
  moved: string,
  target: string,
): Promise<{ items: ImportReference[]; scanned: number; hasMore: boolean }> {
  const { paths } = await ws.files();
  const scripts = paths.filter((p) => SCRIPT_FILE.test(p) && p !== moved).slice(0, SCAN_FILE_LIMIT);
  const movedStem = withoutScriptExtension(moved);
  const items: ImportReference[] = [];
  let hasMore = paths.filter((p) => SCRIPT_FILE.test(p)).length > SCAN_FILE_LIMIT;
  for (const p of scripts) {
    const text = ctx.services.transactions.stagedText(ws, p) ?? (await ctx.editor.readFileText(joinFolder(ws.fsPath, p), 2 * 1024 * 1024));
    if (!text || !text.includes(path.posix.basename(movedStem))) continue;
    const dir = path.posix.dirname(p);
    let lines: LineIndex | undefined;
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[2];
      if (!spec.startsWith('.')) continue;
      const resolved = path.posix.normalize(path.posix.join(dir, spec));
      const stem = withoutScriptExtension(resolved);
      if (stem !== movedStem && resolved !== moved && `${stem}/index` !== movedStem) continue;
      if (items.length >= REFERENCE_LIMIT) {
        hasMore = true;
        break;
      }
      const start = (m.index ?? 0) + m[0].length - spec.length - 1;
      lines ??= new LineIndex(text);
      const pos = lines.positionAt(start);
      const targetStem = withoutScriptExtension(target);
      let suggested = path.posix.relative(dir, SCRIPT_FILE.test(spec) ? targetStem + path.posix.extname(spec) : targetStem);
      if (!suggested.startsWith('.')) suggested = `./${suggested}`;
      items.push({
        document: { documentId: ws.documentId(p), path: p },
        span: { start, length: spec.length },
        line: pos.line + 1,
        column: pos.character + 1,
        specifier: spec,
        suggested,
      });
    }
  }
  return { items, scanned: scripts.length, hasMore };
}

/** What move-file answers: the staged move, and the imports that still name the old path. */
export interface MoveFileData extends MutationData {
  /** Left out for files whose imports are not scanned (not TypeScript or JavaScript): the notes say so. */
  referencesToFix?: { items: ImportReference[]; hasMore: boolean; totalCount: number };
}

export const moveFile = defineTool({
  name: 'move-file',
  title: 'Move File',
  category: CATEGORY,
  ...MUTATION,
  description:
    'Stages moving the document to newPath. Imports are not updated: for TS/JS the answer lists relative imports of it and in it (text scan) with the specifier to use (other languages: not searched, notes say so); fix them with edit-text.',
  inputSchema: inputSchema(
    {
      document: documentSelectorInput,
      newPath: boundedString('Workspace-relative target path.', MAX_PATH_LENGTH, { minLength: 1 }),
      overwrite: { type: 'boolean', default: false },
    },
    ['document', 'newPath'],
    { workspace: false },
  ),
  dataSchema: {
    ...mutationDataSchema,
    properties: {
      ...(mutationDataSchema.properties as JsonSchema),
      referencesToFix: {
        type: 'object',
        description: 'Imports that still name the old path.',
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                document: { type: 'object', properties: { documentId: { type: 'string' }, path: { type: 'string' } }, required: ['documentId', 'path'] },
                span: { type: 'object', properties: { start: { type: 'integer' }, length: { type: 'integer' } }, required: ['start', 'length'] },
                line: { type: 'integer' },
                column: { type: 'integer' },
                specifier: { type: 'string' },
                suggested: { type: 'string', description: 'The specifier that reaches the new path.' },
              },
              required: ['document', 'span', 'line', 'column', 'specifier', 'suggested'],
            },
          },
          hasMore: { type: 'boolean' },
          totalCount: { type: 'integer' },
        },
        required: ['items', 'hasMore'],
      },
    },
  },
  annotations: mutationAnnotations('Move File'),
  examples: [
    {
      workflowId: 'files',
      workflowTitle: 'Add, move and delete files',
      step: 2,
      id: 'move-file',
      title: 'Move a file',
      purpose: 'Stage moving a module.',
      expectedOutcome: 'The file is Renamed; imports to fix are listed.',
      request: { document: { path: 'src/util.ts' }, newPath: 'src/lib/util.ts' },
    },
  ],
  async run(input, ctx): Promise<MoveFileData> {
    const doc = await ctx.document(input.document, undefined, 'document', 'staged');
    const ws = doc.workspace;
    const target = await newPath(ctx, ws, input.newPath, 'newPath');
    const data = await ctx.services.transactions.stage(
      ctx,
      ws,
      { tool: 'move-file', summary: `Move ${doc.relativePath} to ${target} (imports of it not updated)` },
      [{ kind: 'rename', from: doc.relativePath, to: target, overwrite: input.overwrite ?? false }],
      { basis: 'staged' },
    );
    if (!SCRIPT_FILE.test(doc.relativePath)) {
      // Only TypeScript/JavaScript relative imports are scanned: for other languages an empty list would read as "nothing imports it".
      const note = `Imports of ${doc.relativePath} (${doc.host.languageId}) were neither updated nor searched: only TypeScript and JavaScript relative imports are scanned. Find its importers with find-references or a text search for its module name, and fix them with edit-text.`;
      return { ...data, notes: [...(data.notes ?? []), note] };
    }
    const refs = await importsOf(ctx, ws, doc.relativePath, target);
    const own = importsIn(ws, ctx.services.transactions.stagedText(ws, target) ?? doc.host.text, doc.relativePath, target);
    const notes = [
      ...(data.notes ?? []),
      refs.items.length > 0
        ? `${doc.relativePath} is still named by ${countOf(refs.items.length, 'import')}; VS Code offers import updates only during a real rename, so they are not staged. Replace each span with its suggested specifier using edit-text.`
        : `No relative import of ${doc.relativePath} was found in ${countOf(refs.scanned, 'script file')}; other references (non-relative paths, other languages) are not searched.`,
      ...(own.length > 0
        ? [`Listed too, at its new path: ${countOf(own.length, 'relative import')} in the moved file, to change so they reach the same modules from there.`]
        : []),
    ];
    const items = [...refs.items, ...own];
    return { ...data, notes, referencesToFix: { items, hasMore: refs.hasMore, totalCount: items.length } };
  },
});

// ------------------------------------------------------------------ symbol-level edits

type SymbolEditKind = 'replace-symbol-body' | 'insert-before-symbol' | 'insert-after-symbol';

/**
 * Where a symbol edit goes, as an edit on the buffer text the language service described. The
 * text's line breaks become the document's and its common indentation the symbol's (one level
 * deeper inside a body), so a model need not know the file's indentation or line endings.
 */
function symbolEdit(
  kind: SymbolEditKind,
  text: string,
  source: string,
  range: { start: number; end: number },
  selection: { start: number; end: number },
  eol: string,
  languageId: string,
): OffsetEdit {
  const lines = new LineIndex(source);
  const startLine = lines.positionAt(range.start).line;
  const indent = indentationOf(lines.lineText(startLine));
  if (kind === 'replace-symbol-body' && hasIndentedBodies(languageId)) return indentedBodyEdit(text, source, range, selection, eol, languageId);
  if (kind === 'replace-symbol-body' && hasSectionBodies(languageId)) {
    // A heading's section: the lines under it, a blank line between (the heading line stays as it is).
    const body = sectionBody(source, selection.start, range.end);
    const newLines = reindentLines(text, '');
    while (newLines.length > 0 && newLines[0] === '') newLines.shift();
    while (newLines.length > 0 && newLines[newLines.length - 1] === '') newLines.pop();
    return { start: body.start, end: body.end, newText: newLines.length === 0 ? '' : eol + eol + newLines.join(eol) };
  }
  if (kind === 'replace-symbol-body') {
    let open: number;
    let close: number;
    if (hasElementBodies(languageId)) {
      // An element's content, between its start tag's > and its end tag's </.
      const body = elementBody(source, range.start, range.end);
      if (!body) {
        throw new ToolError(
          'InvalidRequest',
          'The element has no content between a start and an end tag to replace.',
          revise('Select an element with an end tag, or use edit-text.'),
        );
      }
      [open, close] = [body.start - 1, body.end + 1];
    } else {
      open = source.indexOf('{', selection.end);
      close = range.end;
      while (close > range.start && /\s/.test(source[close - 1])) close--;
      if (open < 0 || open >= close || source[close - 1] !== '}') {
        throw new ToolError('InvalidRequest', 'The symbol has no braced body to replace.', revise('Use edit-text on the exact text instead.'));
      }
    }
    // The body's own indentation when it has a line of its own, else one level (as the file indents) deeper than the symbol.
    const firstInner = lines.positionAt(open).line + 1;
    const inner = firstInner < lines.positionAt(close - 1).line ? indentationOf(lines.lineText(firstInner)) : '';
    const bodyIndent = inner.length > indent.length && inner.startsWith(indent) ? inner : indent + (indentUnit(source) ?? '    ');
    const body = reindentLines(text, bodyIndent, stepBetween(indent, bodyIndent, source));
    while (body.length > 0 && body[0] === '') body.shift();
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    return { start: open + 1, end: close - 1, newText: body.length === 0 ? '' : eol + body.join(eol) + eol + indent };
  }
  const block = reindentLines(text, indent, unitBelow(indent, source)).join(eol);
  if (kind === 'insert-before-symbol') {
    // Above the symbol's decorators or attributes too, where a provider's range leaves them out: text between them and the declaration would take them over.
    const attributeStart = Math.min(range.start, ...attributesOf(source, range.start, selection.start, languageId).map((a) => a.start));
    const lineStart = lines.starts[lines.positionAt(attributeStart).line];
    const attributeIndent = indentationOf(lines.lineText(lines.positionAt(attributeStart).line));
    return {
      start: lineStart,
      end: lineStart,
      newText: reindentLines(text, attributeIndent, unitBelow(attributeIndent, source)).join(eol) + eol,
    };
  }
  const lineEnd = lines.lineEnd(lines.positionAt(range.end).line);
  return { start: lineEnd, end: lineEnd, newText: eol + block };
}

/** One level of a body as the file writes it there: what the body's indentation adds to its header's. */
function stepBetween(header: string, body: string, source: string): string | undefined {
  return body.length > header.length && body.startsWith(header) ? body.slice(header.length) : unitBelow(header, source);
}

/**
 * replace-symbol-body where blocks are indented (Python): the body is every line after the
 * header's colon up to the declaration's end, docstring included; text becomes those lines at the
 * body's own indentation (one level deeper than the header when the body was inline).
 */
function indentedBodyEdit(
  text: string,
  source: string,
  range: { start: number; end: number },
  selection: { start: number; end: number },
  eol: string,
  languageId: string,
): OffsetEdit {
  const body = indentedBody(source, selection.start, selection.end, range.end);
  if (!body) {
    throw new ToolError(
      'InvalidRequest',
      `The symbol is not a ${languageId} def or class with a body after its header's colon.`,
      revise('Use edit-text on the exact text instead.'),
    );
  }
  const lines = new LineIndex(source);
  const headerIndent = indentationOf(lines.lineText(lines.positionAt(body.colon).line));
  const bodyIndent = body.indent !== undefined && body.indent.length > headerIndent.length ? body.indent : headerIndent + (indentUnit(source) ?? '    ');
  const newLines = reindentLines(text, bodyIndent, stepBetween(headerIndent, bodyIndent, source));
  while (newLines.length > 0 && newLines[0] === '') newLines.shift();
  while (newLines.length > 0 && newLines[newLines.length - 1] === '') newLines.pop();
  if (newLines.length === 0) {
    throw new ToolError('InvalidRequest', `A ${languageId} body cannot be empty.`, revise('Give at least one statement, e.g. pass.'));
  }
  return { start: body.start, end: body.end, newText: (body.inline ? eol : '') + newLines.join(eol) };
}

const TEXT_HELP = "text's line breaks become the document's and its common indentation";

function symbolEditTool(name: SymbolEditKind, title: string, description: string, example: Record<string, unknown>) {
  return defineTool({
    name,
    title,
    category: CATEGORY,
    ...MUTATION,
    description,
    inputSchema: inputSchema({ symbol: symbolSelectorInput, text: { type: 'string', maxLength: MAX_TEXT_LENGTH } }, ['symbol', 'text'], { workspace: false }),
    dataSchema: mutationDataSchema,
    annotations: mutationAnnotations(title),
    examples: [
      {
        workflowId: 'symbol-edits',
        workflowTitle: 'Edit code by symbol',
        step: name === 'replace-symbol-body' ? 1 : name === 'insert-before-symbol' ? 2 : 3,
        id: name,
        title,
        purpose: description.split('.')[0],
        expectedOutcome: 'One revision staged.',
        request: example,
      },
    ],
    async run(input, ctx): Promise<MutationData> {
      // Resolved in the editor buffer, where the language service found the symbol: staged on that basis, so staged edits elsewhere merge and overlapping ones conflict.
      const resolved = await resolveSymbol(ctx, input.symbol);
      const doc = resolved.document;
      const eol = doc.host.eol === 'CRLF' ? '\r\n' : '\n';
      const e = symbolEdit(name, input.text, doc.host.text, resolved.symbol.range, resolved.symbol.selectionRange, eol, doc.host.languageId);
      return ctx.services.transactions.stage(
        ctx,
        doc.workspace,
        { tool: name, summary: `${title} ${resolved.symbol.name} in ${doc.relativePath}` },
        [{ kind: 'edit', path: doc.relativePath, edits: [e] }],
        { basis: 'buffer', computedOn: { [doc.relativePath]: doc.host.text } },
      );
    },
  });
}

export const replaceSymbolBody = symbolEditTool(
  'replace-symbol-body',
  'Replace Symbol Body',
  `Stages replacing a symbol's body (function, method, class) with text: between its braces (text without them), or in Python the indented block after the colon, docstring included; ${TEXT_HELP} the body's. The symbol resolves in the editor buffer; overlapping staged edits: TransactionConflicted.`,
  { symbol: { symbolId: '1a2b3c4d:src/greeter.ts#Class:Greeter/Method:greet' }, text: "return { text: `Hi, ${name}`, language: 'en' };" },
);

export const insertBeforeSymbol = symbolEditTool(
  'insert-before-symbol',
  'Insert Before Symbol',
  `Stages text as whole lines before the line where a symbol starts, e.g. a comment or a new function; ${TEXT_HELP} the symbol's. The symbol resolves in the editor buffer.`,
  {
    symbol: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'Greeter', contextBefore: 'class ' } } },
    text: '/** Greets people. */',
  },
);

export const insertAfterSymbol = symbolEditTool(
  'insert-after-symbol',
  'Insert After Symbol',
  `Stages text as whole lines after the line where a symbol ends, e.g. a new method after another (start text with a blank line to separate them); ${TEXT_HELP} the symbol's. The symbol resolves in the editor buffer.`,
  { symbol: { symbolId: '1a2b3c4d:src/greeter.ts#Class:Greeter/Method:greet' }, text: '\nbye(): string {\n  return "bye";\n}' },
);
