import type { ToolContext } from '../../core/documents/context';
import { symbolOutput } from '../../core/symbols/symbols';
import type { ResolvedSymbol, SymbolOutput } from '../../core/symbols/symbols';

/** One example per tool: the symbol selected by its name in a file. */
export const symbolExample = (tool: string, title: string, file: string, name: string, outcome: string, contextBefore?: string) => [
  {
    workflowId: `explore-${tool}`,
    workflowTitle: `${title} of a symbol`,
    step: 1,
    id: `${tool}-by-name`,
    title,
    purpose: `${title} of ${name}.`,
    expectedOutcome: outcome,
    request: { symbol: { location: { selection: { document: { path: file }, selectedText: name, ...(contextBefore ? { contextBefore } : {}) } } } },
  },
];

/** A resolved symbol as answers list it. */
export const single = (target: ResolvedSymbol, ctx: ToolContext): SymbolOutput => symbolOutput(ctx, target.document, target.symbol, target.containers);
