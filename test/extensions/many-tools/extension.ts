import * as vscode from 'vscode';

/*
 * A test-only extension (never in the .vsix): 100 language model tools (many_tool_001 …
 * many_tool_100, declared in package.json, written by generate-manifest.mjs), each answering one
 * line of text. They are hidden (`when: manyToolsTest.enabled`) until the command
 * manyToolsTest.enable sets that context key, so a run's earlier conversations see the usual tools;
 * with them, an agent request has more than 128 tools enabled and Copilot Chat groups tools into
 * virtual tools (scripts/copilot-test.mjs).
 */

interface DeclaredTool {
  readonly name: string;
  readonly modelDescription: string;
}

interface Input {
  readonly id?: string;
}

export function activate(context: vscode.ExtensionContext): void {
  const manifest = context.extension.packageJSON as { contributes: { languageModelTools: DeclaredTool[] } };
  for (const tool of manifest.contributes.languageModelTools) {
    context.subscriptions.push(
      vscode.lm.registerTool<Input>(tool.name, {
        invoke: (options) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`${tool.name} (${options.input.id ?? 'default'}): done.`)]),
      }),
    );
  }
  context.subscriptions.push(
    vscode.commands.registerCommand('manyToolsTest.enable', () => vscode.commands.executeCommand('setContext', 'manyToolsTest.enabled', true)),
  );
}

export function deactivate(): void {}
