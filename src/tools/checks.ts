import { defineTool } from '../core/chain/definition';
import { cursorInput, limitParameter } from '../core/chain/schemas';
import { QUERY, queryAnnotations } from './shared/common';
import { transactionInput } from './shared/mutations';
import { checkData, checkDataSchema, checkRevision } from './shared/stagedCheck';
import type { CheckData } from './shared/stagedCheck';

const CATEGORY = 'Transactions' as const;

export const transactionCheck = defineTool({
  name: 'transaction-check',
  title: 'Transaction Check',
  category: CATEGORY,
  ...QUERY,
  timeoutSeconds: 120,
  description:
    "Type-checks the staged TypeScript/JavaScript before commit (VS Code's TypeScript, the project's tsconfig): errors the revision introduces and resolves, in staged files and their importers. Other languages: unavailable.",
  inputSchema: transactionInput({ diagnosticsLimit: limitParameter('diagnostics'), cursor: cursorInput }),
  dataSchema: checkDataSchema,
  annotations: queryAnnotations('Transaction Check'),
  examples: [
    {
      workflowId: 'check-staged',
      workflowTitle: 'Know before writing',
      step: 1,
      id: 'check',
      title: 'Check before commit',
      purpose: 'Know whether the staged change still compiles.',
      expectedOutcome: 'Introduced and resolved errors, or unavailable for other languages.',
      request: {},
    },
  ],
  async run(input, ctx): Promise<CheckData> {
    const ws = ctx.workspace(input.workspace);
    const tx = ctx.services.transactions.require(ws);
    const check = await checkRevision(ctx, ws, tx);
    return checkData(check!, input.diagnosticsLimit, ctx);
  },
});
