import * as vscode from 'vscode';
import type { ToolRunner } from '../core/chain/chain';
import type { Services } from '../core/documents/context';
import { registeredToolName } from '../core/chain/definition';
import type { ToolInfo } from '../core/chain/toolInfo';

interface TryDeps {
  services: Services;
  runner: ToolRunner;
  storageUri: vscode.Uri;
  log: vscode.LogOutputChannel;
}

const INPUT_SUFFIX = '.input.json';
const encoder = new TextEncoder();

/** The input file of a tool: <storage>/try/<tool>.input.json, next to <tool>.schema.json, which its $schema names. */
const inputUri = (deps: TryDeps, tool: string): vscode.Uri => vscode.Uri.joinPath(deps.storageUri, 'try', `${tool}${INPUT_SUFFIX}`);
const schemaUri = (deps: TryDeps, tool: string): vscode.Uri => vscode.Uri.joinPath(deps.storageUri, 'try', `${tool}.schema.json`);

function toolOfDocument(deps: TryDeps, doc: vscode.TextDocument): ToolInfo | undefined {
  const name = doc.uri.path.split('/').pop() ?? '';
  if (!name.endsWith(INPUT_SUFFIX)) return undefined;
  return deps.services.tools().find((t) => t.name === name.slice(0, -INPUT_SUFFIX.length));
}

async function openInput(deps: TryDeps, tool: ToolInfo): Promise<vscode.TextEditor> {
  // The schema file also allows the "$schema" key the input file needs; it is removed before the call.
  const properties = { $schema: { type: 'string' }, ...((tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {}) };
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', title: `${tool.name} input`, ...tool.inputSchema, properties };
  await vscode.workspace.fs.writeFile(schemaUri(deps, tool.name), encoder.encode(`${JSON.stringify(schema, null, 2)}\n`));
  const example = tool.examples[0]?.request ?? {};
  const input = { $schema: `./${tool.name}.schema.json`, ...example };
  const uri = inputUri(deps, tool.name);
  await vscode.workspace.fs.writeFile(uri, encoder.encode(`${JSON.stringify(input, null, 2)}\n`));
  const doc = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(doc, { preview: false });
}

/** Runs the input in a try file through vscode.lm.invokeTool (the chain agents use) and shows the envelope. */
async function run(deps: TryDeps, doc: vscode.TextDocument): Promise<void> {
  const tool = toolOfDocument(deps, doc);
  if (!tool) {
    void vscode.window.showErrorMessage('Agent Workbench: this editor does not hold a tool input (use "Agent Workbench: Try a Tool…").');
    return;
  }
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(doc.getText()) as Record<string, unknown>;
  } catch (error) {
    void vscode.window.showErrorMessage(`Agent Workbench: the input is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
    return;
  }
  if (input && typeof input === 'object' && !Array.isArray(input)) delete input.$schema;
  const result = await vscode.lm.invokeTool(registeredToolName(tool.name), { input, toolInvocationToken: undefined });
  const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: show it as it came
  }
  const out = await vscode.workspace.openTextDocument({ language: 'json', content: pretty });
  await vscode.window.showTextDocument(out, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  deps.log.info(`Try a Tool: ${tool.name} answered ${text.length} characters.`);
}

export function registerTryTool(deps: Omit<TryDeps, 'storageUri'> & { extensionUri: vscode.Uri; storageUri?: vscode.Uri }): vscode.Disposable[] {
  const full: TryDeps = { ...deps, storageUri: deps.storageUri ?? vscode.Uri.joinPath(deps.extensionUri, 'out', 'try') };
  return [
    vscode.commands.registerCommand('agentWorkbench.tryTool', async (name?: unknown) => {
      const tools = full.services.tools();
      let tool = typeof name === 'string' ? tools.find((t) => t.name === name) : undefined;
      if (!tool) {
        const pick = await vscode.window.showQuickPick(
          tools.map((t) => ({ label: t.name, description: t.title, detail: t.description.split('. ')[0], tool: t })),
          // Kept open when a webview (the review panel) takes the focus back as the pick opens: it closes with Escape.
          { title: 'Agent Workbench: try which tool?', matchOnDescription: true, ignoreFocusOut: true },
        );
        tool = pick?.tool;
      }
      if (!tool) return;
      const editor = await openInput(full, tool);
      // Not awaited: the command returns once the input is open; the notification's Run runs it later.
      void vscode.window
        .showInformationMessage(`Edit the input of ${tool.name} (checked against its schema as you type), then run it.`, 'Run')
        .then((choice) => {
          if (choice === 'Run') return run(full, editor.document);
          return undefined;
        });
      return editor.document.uri.toString();
    }),
    vscode.commands.registerCommand('agentWorkbench.tryTool.run', async () => {
      const doc = vscode.window.activeTextEditor?.document;
      if (doc) await run(full, doc);
    }),
  ];
}
