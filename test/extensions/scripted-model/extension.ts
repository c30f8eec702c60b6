import * as fs from 'node:fs';
import * as vscode from 'vscode';

/*
 * A test-only extension (never in the .vsix): a language model that follows a script, so VS Code's
 * own chat agent (Copilot Chat's agent mode over a "bring your own key" model) can be driven end to
 * end with no sign-in and no network. It registers one model (vendor `scripted`, declared in
 * package.json's languageModelChatProviders) that declares tool calling, and:
 *   - answers each agent request (one that offers tools) with the next turn of the script file:
 *     { "id": "...", "prompt": "...", "turns": [{ "text": "..." } | { "toolCalls": [{ "name": "find-references", "input": {...} }] }, ...] }
 *     The file is read on every request; a new id starts again at its first turn. A test writes one
 *     script per conversation; `prompt` (optional) is text the conversation's user messages must hold,
 *     so a request from another conversation (one that failed half-way and is still running) gets a
 *     fixed text and consumes no turn.
 *     A tool name is matched against the offered tools exactly, else by its suffix with `-` read
 *     as `_` (`find-references` -> `workbench_find_references`).
 *     Requests without tools (titles, progress messages: with chat.byokUtilityModelDefault set to
 *     mainAgent the utility model is this one) get a fixed short text and do not consume a turn;
 *   - writes every request (the script id it was answered from, offered tools with descriptions and
 *     input schemas, messages with tool calls and tool results, and what it answered) to the record
 *     file, a JSON list, rewritten after each request.
 * Paths: SCRIPTED_MODEL_SCRIPT / SCRIPTED_MODEL_RECORD, else the scriptedModel.* settings.
 *
 * The provider API is finalized in VS Code 1.104; this repository's @types/vscode is older, so
 * the few types it needs are declared below.
 */

interface ModelInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
  readonly isUserSelectable?: boolean;
}

interface RequestMessage {
  readonly role: vscode.LanguageModelChatMessageRole;
  readonly content: ReadonlyArray<unknown>;
  readonly name: string | undefined;
}

interface ResponseOptions {
  readonly tools?: readonly vscode.LanguageModelChatTool[];
  readonly toolMode?: vscode.LanguageModelChatToolMode;
  readonly modelOptions?: Record<string, unknown>;
}

type ResponsePart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

interface ChatProvider {
  provideLanguageModelChatInformation(options: { silent: boolean }, token: vscode.CancellationToken): ModelInformation[];
  provideLanguageModelChatResponse(
    model: ModelInformation,
    messages: readonly RequestMessage[],
    options: ResponseOptions,
    progress: vscode.Progress<ResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(model: ModelInformation, text: string | RequestMessage, token: vscode.CancellationToken): Promise<number>;
}

interface LmWithProviders {
  registerLanguageModelChatProvider(vendor: string, provider: ChatProvider): vscode.Disposable;
}

/** One scripted answer: text, or tool calls (names as offered, or their suffix). */
export type Turn = { text: string } | { toolCalls: { name: string; input: object }[] };

/** The script file: one conversation's turns, played from the first each time the id changes. */
export interface Script {
  id: string;
  prompt?: string;
  turns: Turn[];
}

export interface RecordedRequest {
  index: number;
  at: string;
  /** The id of the script that answered this request ('' when none did: no script, or another conversation's request). */
  script: string;
  kind: 'agent' | 'utility';
  model: string;
  toolMode: string | undefined;
  tools: { name: string; description: string; inputSchema: object | undefined }[];
  messages: { role: string; name: string | undefined; content: unknown[] }[];
  answer: Turn;
}

const VENDOR = 'scripted';
/** Copilot asks the main model (chat.byokUtilityModelDefault: mainAgent) for titles and for progress messages as a JSON list. */
const UTILITY_TEXT = 'Scripted model session';
const UTILITY_JSON = '["Working on it"]';
const NOT_SCRIPTED = '(not the scripted conversation)';
const MODEL: ModelInformation = {
  id: 'scripted-model',
  name: 'Scripted Model',
  family: 'scripted',
  version: '1',
  tooltip: 'Answers from a script file (Agent Workbench tests)',
  maxInputTokens: 200_000,
  maxOutputTokens: 16_000,
  capabilities: { toolCalling: true, imageInput: false },
  isUserSelectable: true,
};

const records: RecordedRequest[] = [];
let scriptId = '';
let turnsPlayed = 0;
let callIds = 0;

function setting(env: string, key: string): string | undefined {
  return process.env[env] || vscode.workspace.getConfiguration('scriptedModel').get<string>(key) || undefined;
}

function readScript(): Script {
  const file = setting('SCRIPTED_MODEL_SCRIPT', 'scriptPath');
  if (!file || !fs.existsSync(file)) return { id: '', turns: [] };
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Script;
}

function writeRecords(): void {
  const file = setting('SCRIPTED_MODEL_RECORD', 'recordPath');
  if (file) fs.writeFileSync(file, JSON.stringify(records, null, 2));
}

const decoder = new TextDecoder();

/** A message part (or a tool result's part) as plain JSON. */
function describePart(part: unknown): unknown {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', value: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { type: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) {
    return { type: 'toolResult', callId: part.callId, content: part.content.map(describePart) };
  }
  if (part instanceof vscode.LanguageModelPromptTsxPart) return { type: 'promptTsx', value: part.value };
  const p = part as { constructor?: { name?: string }; mimeType?: unknown; data?: unknown; value?: unknown };
  if (typeof p?.mimeType === 'string' && p.data instanceof Uint8Array) {
    const textual = /^text\/|json/.test(p.mimeType);
    return { type: 'data', mimeType: p.mimeType, ...(textual ? { text: decoder.decode(p.data) } : { bytes: p.data.byteLength }) };
  }
  return { type: p?.constructor?.name ?? typeof part, value: p?.value ?? part };
}

/** The offered tool a scripted name stands for: exact, else the one whose name ends with it (`-` as `_`). */
function resolveToolName(name: string, tools: readonly vscode.LanguageModelChatTool[]): string {
  if (tools.some((t) => t.name === name)) return name;
  const suffix = name.replace(/-/g, '_');
  const matches = tools.filter((t) => t.name === suffix || t.name.endsWith(`_${suffix}`));
  return matches.length === 1 ? matches[0].name : name;
}

const provider: ChatProvider = {
  provideLanguageModelChatInformation: () => [MODEL],

  async provideLanguageModelChatResponse(model, messages, options, progress) {
    const tools = options.tools ?? [];
    const kind = tools.length > 0 ? 'agent' : 'utility';
    let answer: Turn;
    const script = readScript();
    if (script.id !== scriptId) {
      scriptId = script.id;
      turnsPlayed = 0;
    }
    const textOf = (m: RequestMessage): string => m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const userText = messages
      .filter((m) => m.role === vscode.LanguageModelChatMessageRole.User)
      .map(textOf)
      .join('\n');
    const scripted = kind === 'agent' && (!script.prompt || userText.includes(script.prompt));
    if (kind === 'utility') {
      answer = { text: /JSON array/i.test(messages.map(textOf).join('\n')) ? UTILITY_JSON : UTILITY_TEXT };
    } else if (!scripted) {
      answer = { text: NOT_SCRIPTED };
    } else {
      const turn = script.turns[turnsPlayed];
      answer = turn ?? { text: `(the script has no turn ${turnsPlayed + 1})` };
      turnsPlayed++;
      if ('toolCalls' in answer) answer = { toolCalls: answer.toolCalls.map((c) => ({ ...c, name: resolveToolName(c.name, tools) })) };
    }
    records.push({
      index: records.length,
      at: new Date().toISOString(),
      script: scripted ? script.id : '',
      kind,
      model: model.id,
      toolMode: options.toolMode === undefined ? undefined : vscode.LanguageModelChatToolMode[options.toolMode],
      tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      messages: messages.map((m) => ({
        role: vscode.LanguageModelChatMessageRole[m.role] ?? String(m.role),
        name: m.name,
        content: m.content.map(describePart),
      })),
      answer,
    });
    writeRecords();
    if ('text' in answer) {
      progress.report(new vscode.LanguageModelTextPart(answer.text));
    } else {
      for (const call of answer.toolCalls) progress.report(new vscode.LanguageModelToolCallPart(`call_${++callIds}`, call.name, call.input));
    }
  },

  async provideTokenCount(_model, text) {
    const length = typeof text === 'string' ? text.length : JSON.stringify(text.content).length;
    return Math.ceil(length / 4);
  },
};

export function activate(context: vscode.ExtensionContext): void {
  const lm = vscode.lm as unknown as LmWithProviders;
  context.subscriptions.push(lm.registerLanguageModelChatProvider(VENDOR, provider));
}

export function deactivate(): void {}
