import * as vscode from 'vscode';
import type { ToolRunner } from '../core/chain/chain';
import type { AnyToolDefinition } from '../core/chain/definition';
import { registeredToolName } from '../core/chain/definition';
import { ConfirmationLedger } from '../core/chain/confirmations';
import { DoorNaming } from '../core/chain/doors';

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
 * confirmation never reaches invoke. So a call counts as confirmed when a confirmation was
 * shown for that very input and no other invocation consumed it (core/chain/confirmations.ts).
 * Answers name tools as this door registers them (workbench_*): a failure's message and
 * continuation, a success's notes (core/chain/doors.ts).
 */
export function registerTools(tools: readonly AnyToolDefinition[], runner: ToolRunner): vscode.Disposable[] {
  const confirmations = new ConfirmationLedger(CONFIRMATION_TTL_MS);
  const naming = new DoorNaming(
    'vscode.lm',
    tools.map((t) => t.name),
  );
  return tools.map((definition) =>
    vscode.lm.registerTool<unknown>(registeredToolName(definition.name), {
      async prepareInvocation(options) {
        const summary = await runner.prepare(definition.name, options.input);
        if (!summary) return { invocationMessage: `${definition.title}…` };
        confirmations.shownFor(definition.name, options.input);
        return {
          invocationMessage: `${definition.title}…`,
          confirmationMessages: { title: summary.title, message: confirmationMarkdown(summary.message) },
        };
      },
      async invoke(options, token) {
        const confirmed = confirmations.consume(definition.name, options.input);
        const tokenization = options.tokenizationOptions;
        const result = await runner.invoke(definition.name, options.input, {
          door: naming.door,
          token,
          confirmed,
          tokenBudget: tokenization?.tokenBudget,
          countTokens: tokenization ? (text) => tokenization.countTokens(text) : undefined,
        });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(naming.answer(result).text)]);
      },
    }),
  );
}
