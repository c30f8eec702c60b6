import { defineTool } from '../core/chain/definition';
import type { ToolContext, ResolvedDocument, LocationOutput } from '../core/documents/context';
import type { HostSymbol } from '../core/documents/editorPort';
import { locationOutput, locationSelectorInput } from '../core/chain/schemas';
import { utf8Bytes } from '../core/chain/bounding';
import { inputSchema, QUERY, queryAnnotations } from './shared/common';
import { signatureOf } from '../core/symbols/signature';

export interface EnclosingSymbol {
  name: string;
  kind: string;
  detail: string;
  signature: string;
  location: LocationOutput;
}

/** What get-code-context answers in `data`. */
export interface CodeContextData {
  location: LocationOutput;
  languageId: string;
  source: 'buffer' | 'disk';
  isDirty: boolean;
  eol: 'LF' | 'CRLF';
  window: { startLine: number; endLine: number; text: string; contextLines: number; truncated: boolean };
  enclosingSymbols: EnclosingSymbol[];
  symbolProvider: 'available' | 'noResult' | 'unavailable' | 'skipped';
  /** Present when the text is the staged text of the active transaction. */
  view?: 'staged';
}

const LINE_MAX = 2000;

/** Symbols whose range contains [start, end], outermost first. */
export function enclosingSymbols(symbols: readonly HostSymbol[], start: number, end: number): HostSymbol[] {
  const chain: HostSymbol[] = [];
  let level = symbols;
  for (;;) {
    const next = level.find((s) => s.range.start <= start && end <= s.range.end);
    if (!next) return chain;
    chain.push(next);
    level = next.children;
  }
}

function windowAround(doc: ResolvedDocument, start: number, end: number, contextLines: number) {
  const first = doc.lines.positionAt(start).line;
  const last = doc.lines.positionAt(end).line;
  const startLine = Math.max(0, first - contextLines);
  const endLine = Math.min(doc.lines.lineCount - 1, last + contextLines);
  let longLines = false;
  const lines: string[] = [];
  for (let l = startLine; l <= endLine; l++) {
    const text = doc.lines.lineText(l);
    if (text.length > LINE_MAX && (l < first || l > last)) {
      longLines = true;
      lines.push(`${text.slice(0, LINE_MAX)}…`);
    } else {
      lines.push(text);
    }
  }
  return { startLine: startLine + 1, endLine: endLine + 1, text: lines.join(doc.host.eol === 'CRLF' ? '\r\n' : '\n'), longLines };
}

export const getCodeContext = defineTool({
  name: 'get-code-context',
  title: 'Get Code Context',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    "Text around a location with its enclosing symbols' signatures, outermost first, from the editor buffer (unsaved changes included) or the staged view. contextLines (default 10) each side.",
  inputSchema: inputSchema(
    {
      location: locationSelectorInput,
      contextLines: { type: ['integer', 'null'], minimum: 0, maximum: 500, default: 10 },
      includeSymbols: { type: 'boolean', default: true },
      view: { enum: ['buffer', 'staged'] },
    },
    ['location'],
    { workspace: false },
  ),
  dataSchema: {
    type: 'object',
    properties: {
      location: locationOutput,
      languageId: { type: 'string' },
      source: { type: 'string', enum: ['buffer', 'disk'], description: 'Whether the text came from an open editor buffer or from disk.' },
      isDirty: { type: 'boolean', description: 'True when the buffer has unsaved changes; the answer reflects them.' },
      eol: { type: 'string', enum: ['LF', 'CRLF'] },
      window: {
        type: 'object',
        properties: {
          startLine: { type: 'integer', minimum: 1, description: 'One-based first line of text.' },
          endLine: { type: 'integer', minimum: 1, description: 'One-based last line of text.' },
          text: { type: 'string' },
          contextLines: { type: 'integer', description: 'Context lines actually shown on each side.' },
          truncated: { type: 'boolean', description: 'True when fewer context lines than asked, or shortened long lines, were returned to fit.' },
        },
        required: ['startLine', 'endLine', 'text', 'contextLines', 'truncated'],
      },
      enclosingSymbols: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            kind: { type: 'string' },
            detail: { type: 'string' },
            signature: { type: 'string' },
            location: locationOutput,
          },
          required: ['name', 'kind', 'detail', 'signature', 'location'],
        },
      },
      symbolProvider: { type: 'string', enum: ['available', 'noResult', 'unavailable', 'skipped'], description: 'What the document symbol provider answered.' },
      view: {
        type: 'string',
        enum: ['staged'],
        description: 'Present when the text is the staged text of the active transaction (symbols are then skipped unless the staged text equals the buffer).',
      },
    },
    required: ['location', 'languageId', 'source', 'isDirty', 'eol', 'window', 'enclosingSymbols', 'symbolProvider'],
  },
  annotations: queryAnnotations('Get Code Context'),
  examples: [
    {
      workflowId: 'read-code',
      workflowTitle: 'Read code around a place',
      step: 1,
      id: 'code-context-selection',
      title: 'Read around a selection',
      purpose: 'See the code and enclosing declarations around a piece of text.',
      expectedOutcome: 'Ten lines each side, the canonical span of the selection, and the enclosing class and method signatures.',
      request: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'greet(name: string)' } }, contextLines: 10 },
    },
  ],
  async run(input, ctx: ToolContext): Promise<CodeContextData> {
    const target = await ctx.location(input.location, undefined, input.view ?? 'buffer');
    const doc = target.document;
    const end = target.start + target.length;
    let symbolProvider: CodeContextData['symbolProvider'] = 'skipped';
    let enclosing: EnclosingSymbol[] = [];
    // Symbols come from the editor buffer; their offsets do not fit staged text that differs from it.
    const stagedDiffers = doc.view === 'staged' && (await ctx.editor.readDocument(doc.absolutePath))?.text !== doc.host.text;
    if (input.includeSymbols !== false && !stagedDiffers) {
      const symbols = await ctx.editor.documentSymbols(doc.absolutePath);
      symbolProvider = symbols === undefined ? 'unavailable' : symbols.length === 0 ? 'noResult' : 'available';
      enclosing = enclosingSymbols(symbols ?? [], target.start, end).map((s) => ({
        name: s.name,
        kind: s.kind,
        detail: s.detail,
        signature: signatureOf(doc, s),
        location: ctx.toLocation(doc, s.selectionRange.start, s.selectionRange.end - s.selectionRange.start),
      }));
    }
    const asked = input.contextLines ?? 10;
    const build = (contextLines: number): CodeContextData => {
      const w = windowAround(doc, target.start, end, contextLines);
      return {
        location: ctx.toLocation(doc, target.start, target.length),
        languageId: doc.host.languageId,
        source: doc.host.source,
        isDirty: doc.host.isDirty,
        eol: doc.host.eol,
        window: { startLine: w.startLine, endLine: w.endLine, text: w.text, contextLines, truncated: contextLines < asked || w.longLines },
        enclosingSymbols: enclosing,
        symbolProvider,
        ...(doc.view === 'staged' ? { view: 'staged' as const } : {}),
      };
    };
    // The envelope adds a few hundred bytes; keep the data well inside the limit.
    const budget = ctx.maxOutputBytes - 1024;
    let contextLines = asked;
    let data = build(contextLines);
    while (contextLines > 0 && utf8Bytes(JSON.stringify(data)) > budget) {
      contextLines = Math.floor(contextLines / 2);
      data = build(contextLines);
    }
    return data;
  },
});
