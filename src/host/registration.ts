import * as vscode from 'vscode';
import type { ToolRunner } from '../core/chain';
import type { AnyToolDefinition } from '../core/definition';
import { registeredToolName } from '../core/definition';

/** Registers every listed tool with vscode.lm; each call goes through the runner's chain. */
export function registerTools(tools: readonly AnyToolDefinition[], runner: ToolRunner): vscode.Disposable[] {
  return tools.map((definition) =>
    vscode.lm.registerTool<unknown>(registeredToolName(definition.name), {
      async prepareInvocation(options) {
        const summary = await runner.prepare(definition.name, options.input);
        if (!summary) return { invocationMessage: `${definition.title}…` };
        return {
          invocationMessage: `${definition.title}…`,
          confirmationMessages: { title: summary.title, message: new vscode.MarkdownString(summary.message, true) },
        };
      },
      async invoke(options, token) {
        const tokenization = options.tokenizationOptions;
        const result = await runner.invoke(definition.name, options.input, {
          token,
          // A chat invocation token means VS Code showed prepareInvocation's confirmation first.
          confirmed: options.toolInvocationToken !== undefined,
          tokenBudget: tokenization?.tokenBudget,
          countTokens: tokenization ? (text) => tokenization.countTokens(text) : undefined,
        });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
      },
    }),
  );
}
