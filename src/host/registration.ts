import * as vscode from 'vscode';
import type { ToolRunner } from '../core/chain/chain';
import type { AnyToolDefinition } from '../core/chain/definition';
import { registeredToolName } from '../core/chain/definition';

const CONFIRMATION_TTL_MS = 10 * 60 * 1000;

/** Commands a confirmation may link to (a commit's "Open the review panel"); no other command link runs. */
export const CONFIRMATION_COMMANDS = ['agentWorkbench.review.open'];

export function confirmationMarkdown(message: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(message, true);
  md.isTrusted = { enabledCommands: CONFIRMATION_COMMANDS };
  return md;
}

/**
 * Registers every listed tool with vscode.lm; each call goes through the runner's chain.
 * VS Code calls prepareInvocation before every invoke, from chat or from invokeTool, and shows
 * its confirmation (inline in chat, else a modal dialog) before invoke runs; a cancelled
 * confirmation never reaches invoke. So a call counts as confirmed exactly when a confirmation
 * was shown for that very input.
 */
export function registerTools(tools: readonly AnyToolDefinition[], runner: ToolRunner): vscode.Disposable[] {
  const shown = new Map<string, number>();
  const keyOf = (tool: string, input: unknown): string => `${tool}\u0000${JSON.stringify(input) ?? ''}`;
  return tools.map((definition) =>
    vscode.lm.registerTool<unknown>(registeredToolName(definition.name), {
      async prepareInvocation(options) {
        const summary = await runner.prepare(definition.name, options.input);
        if (!summary) return { invocationMessage: `${definition.title}…` };
        const now = Date.now();
        for (const [key, at] of shown) if (now - at > CONFIRMATION_TTL_MS) shown.delete(key);
        shown.set(keyOf(definition.name, options.input), now);
        return {
          invocationMessage: `${definition.title}…`,
          confirmationMessages: { title: summary.title, message: confirmationMarkdown(summary.message) },
        };
      },
      async invoke(options, token) {
        const key = keyOf(definition.name, options.input);
        const confirmed = shown.delete(key);
        const tokenization = options.tokenizationOptions;
        const result = await runner.invoke(definition.name, options.input, {
          token,
          confirmed,
          tokenBudget: tokenization?.tokenBudget,
          countTokens: tokenization ? (text) => tokenization.countTokens(text) : undefined,
        });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
      },
    }),
  );
}
