/**
 * Rename, formatting and code actions through VS Code's execute* commands, converted to the
 * plain types of EditorPort (src/core/documents/editorPort.ts): offsets into the buffer text each edit was
 * computed on, plus that text and its version so the core can check and merge them.
 */
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { executeProvider, isDocumentGone } from './providerCommands';
import type { SourceReader } from './textSource';
import type {
  HostCodeAction,
  HostDiagnostic,
  HostDocumentEdits,
  HostFileOperation,
  HostFormattingOptions,
  HostOutcome,
  HostRange,
  HostTextEdit,
  HostWorkspaceEdit,
} from '../core/documents/editorPort';
import { guessIndentation } from '../core/documents/indentation';
import { LineIndex } from '../core/documents/text';
import { mapConcurrently } from '../core/util/concurrency';

/** Files read at once: a rename over 1,000 files otherwise waits on each read in turn. */
const READ_CONCURRENCY = 16;

/** Reads a file as the editor shows it, without necessarily opening it (src/host/textSource.ts). */
export type Opener = SourceReader;

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim() || 'The language service gave no reason.';
}

/** A provider's failure as an outcome: interrupted when the extension host lost the document (providerCommands.ts). */
const failed = (error: unknown): { ok: false; reason: string; interrupted?: boolean } => ({
  ok: false,
  reason: messageOf(error),
  ...(isDocumentGone(error) ? { interrupted: true } : {}),
});

const toRange = (doc: vscode.TextDocument, range: vscode.Range): HostRange => ({ start: doc.offsetAt(range.start), end: doc.offsetAt(range.end) });
const toVsRange = (doc: vscode.TextDocument, range: HostRange): vscode.Range => new vscode.Range(doc.positionAt(range.start), doc.positionAt(range.end));

/** The shape of vscode.WorkspaceEdit's internal entry list (extHostTypes.ts), the only way to see its file operations in order. */
export interface RawEntry {
  _type: number;
  uri?: vscode.Uri;
  edit?: vscode.TextEdit | vscode.SnippetString;
  range?: vscode.Range;
  from?: vscode.Uri;
  to?: vscode.Uri;
  options?: { overwrite?: boolean; ignoreIfExists?: boolean; ignoreIfNotExists?: boolean; recursive?: boolean };
}

const FILE_EDIT = 1;
const TEXT_EDIT = 2;
const SNIPPET_EDIT = 6;

/** Plain text of a snippet: placeholders keep their default text, tab stops vanish. */
export function snippetText(snippet: string): string {
  let out = snippet;
  for (let i = 0; i < 10; i++) {
    const next = out.replace(/\$\{\d+:([^{}$]*)\}/g, '$1').replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1');
    if (next === out) break;
    out = next;
  }
  return out.replace(/\$\{\d+\}|\$\d+/g, '').replace(/\\([$}\\])/g, '$1');
}

interface PendingEdit {
  range: vscode.Range;
  newText: string;
}

async function exists(absPath: string): Promise<boolean> {
  try {
    await fs.stat(absPath);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every entry of a WorkspaceEdit, file operations included. The public API lists only text edits
 * (entries()), so this reads VS Code's internal `_allEntries()`: the one place that does. The
 * `semanticEdits` integration test fails when its shape changes; without it, callers fall back
 * to entries() and say that file operations could not be read.
 */
export function allEntries(edit: vscode.WorkspaceEdit): RawEntry[] | undefined {
  const all = (edit as unknown as { _allEntries?: () => unknown })._allEntries;
  if (typeof all !== 'function') return undefined;
  const entries = all.call(edit);
  return Array.isArray(entries) && entries.every((e) => typeof e === 'object' && e !== null && typeof (e as RawEntry)._type === 'number')
    ? (entries as RawEntry[])
    : undefined;
}

/** Converts a WorkspaceEdit; undefined offsets never happen because each document is opened to convert positions. */
export async function convertWorkspaceEdit(edit: vscode.WorkspaceEdit, open: Opener): Promise<HostWorkspaceEdit> {
  const textByUri = new Map<string, { uri: vscode.Uri; edits: PendingEdit[] }>();
  const fileOperations: HostFileOperation[] = [];
  const created = new Set<string>();
  const addText = (uri: vscode.Uri, range: vscode.Range, newText: string): void => {
    const key = uri.toString();
    let entry = textByUri.get(key);
    if (!entry) textByUri.set(key, (entry = { uri, edits: [] }));
    entry.edits.push({ range, newText });
  };
  const raw = allEntries(edit);
  if (raw) {
    for (const e of raw) {
      if (e._type === FILE_EDIT) {
        const o = e.options ?? {};
        if (e.from && e.to) fileOperations.push({ kind: 'rename', absPath: e.from.fsPath, newAbsPath: e.to.fsPath, overwrite: o.overwrite === true });
        else if (e.to) {
          // TypeScript adds "create, ignore if it exists" for files it only edits: a no-op whose edits apply to the existing text.
          if (o.ignoreIfExists && !o.overwrite && (await exists(e.to.fsPath))) continue;
          fileOperations.push({ kind: 'create', absPath: e.to.fsPath, overwrite: o.overwrite === true, ignoreIfExists: o.ignoreIfExists === true });
          created.add(e.to.toString());
        } else if (e.from) {
          fileOperations.push({ kind: 'delete', absPath: e.from.fsPath, recursive: o.recursive === true, ignoreIfNotExists: o.ignoreIfNotExists === true });
        }
      } else if (e._type === TEXT_EDIT && e.uri && e.edit && 'range' in e.edit) {
        addText(e.uri, e.edit.range, e.edit.newText);
      } else if (e._type === SNIPPET_EDIT && e.uri && e.range && e.edit) {
        addText(e.uri, e.range, snippetText((e.edit as vscode.SnippetString).value));
      }
    }
  } else {
    for (const [uri, edits] of edit.entries()) for (const t of edits) addText(uri, t.range, t.newText);
  }
  const unread = raw === undefined ? { fileOperationsUnread: true } : {};
  const entries = [...textByUri.values()];
  const sources = await mapConcurrently(entries, READ_CONCURRENCY, ({ uri }) => (created.has(uri.toString()) ? Promise.resolve(undefined) : open(uri.fsPath)));
  const documents: HostDocumentEdits[] = [];
  for (const [i, { uri, edits }] of entries.entries()) {
    const doc = sources[i];
    const baseText = doc ? doc.getText() : '';
    const lines = doc ? undefined : new LineIndex('');
    const offsetAt = (p: vscode.Position): number => (doc ? doc.offsetAt(p) : (lines as LineIndex).offsetAt({ line: p.line, character: p.character }));
    const converted: HostTextEdit[] = edits
      .map((t) => {
        const start = offsetAt(t.range.start);
        return { start, length: offsetAt(t.range.end) - start, newText: t.newText };
      })
      .sort((a, b) => a.start - b.start || a.length - b.length);
    documents.push({ absPath: uri.fsPath, edits: converted, version: doc ? doc.version : 0, baseText });
  }
  documents.sort((a, b) => a.absPath.localeCompare(b.absPath));
  return { documents, fileOperations, ...unread };
}

/** Runs a command that computes an edit, and checks that no buffer it touches changed while it ran. */
async function stable<T extends { documents: HostDocumentEdits[] }>(compute: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.fsPath, d.version]));
    const result = await compute();
    if (!result) return result;
    const moved = result.documents.some((d) => {
      const was = before.get(d.absPath);
      return d.version !== 0 && was !== undefined && was !== d.version;
    });
    if (!moved) return result;
  }
  return undefined;
}

/**
 * The command runs VS Code's rename: each provider's prepareRename first (a refusal is thrown with its reason,
 * before any edit is asked for), then provideRenameEdits. So no separate vscode.prepareRename call: for
 * TypeScript that would run the whole rename request twice. Without a provider it answers an empty edit.
 */
export async function renameEdits(doc: vscode.TextDocument, offset: number, newName: string, open: Opener): Promise<HostOutcome<{ edit: HostWorkspaceEdit }>> {
  try {
    const edit = await stable(async () => {
      const result = await executeProvider<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', doc.uri, doc.positionAt(offset), newName);
      return result && result.size > 0 ? convertWorkspaceEdit(result, open) : undefined;
    });
    if (!edit) return { ok: false, reason: `No rename provider for ${doc.languageId} documents answered with edits.`, unsupported: true };
    return { ok: true, edit };
  } catch (error) {
    return failed(error);
  }
}

/**
 * tabSize and insertSpaces as the editor would use them for the file: a visible editor's, else
 * what an editor opening it would detect from its text (`editor.detectIndentation`), else the
 * `editor` settings for it.
 */
export function formattingOptions(doc: vscode.TextDocument): HostFormattingOptions {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  if (typeof editor?.options.tabSize === 'number' && typeof editor.options.insertSpaces === 'boolean') {
    return { tabSize: editor.options.tabSize, insertSpaces: editor.options.insertSpaces };
  }
  const config = vscode.workspace.getConfiguration('editor', { uri: doc.uri, languageId: doc.languageId });
  const configuredTabSize = config.get<number | string>('tabSize', 4);
  const configured = { tabSize: typeof configuredTabSize === 'number' ? configuredTabSize : 4, insertSpaces: config.get<boolean>('insertSpaces', true) };
  return config.get<boolean>('detectIndentation', true) ? guessIndentation(doc.getText(), configured) : configured;
}

/**
 * TypeScript formats the code a refactoring or quick fix inserts with the indentation of the
 * file's visible editor, else with its own default of 4 spaces (a 2-space file got a 14-space
 * line among 12-space ones). A range format request with the file's options sets them for the
 * file in the language server, which keeps them until told otherwise; it changes no text.
 */
async function setFileFormatting(doc: vscode.TextDocument): Promise<void> {
  if (vscode.window.visibleTextEditors.some((e) => e.document === doc)) return;
  try {
    await executeProvider('vscode.executeFormatRangeProvider', doc.uri, new vscode.Range(0, 0, 0, 0), formattingOptions(doc));
  } catch {
    // A language without a range formatter: its code actions format as it otherwise would.
  }
}

export async function formatEdits(
  doc: vscode.TextDocument,
  range: HostRange | undefined,
): Promise<HostOutcome<{ edit: HostDocumentEdits; options: HostFormattingOptions }>> {
  const options = formattingOptions(doc);
  const format = (o: HostFormattingOptions) =>
    range
      ? executeProvider<vscode.TextEdit[]>('vscode.executeFormatRangeProvider', doc.uri, toVsRange(doc, range), o)
      : executeProvider<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider', doc.uri, o);
  try {
    const result = await stable(async () => {
      let edits = await format(options);
      // VS Code answers no edits and no formatter alike (undefined). A formatter changes an indented
      // file's indentation to tabs (or spaces): then this file is already formatted, not unsupported.
      if (!edits && (await format({ ...options, insertSpaces: !options.insertSpaces }))?.length) edits = [];
      if (!edits) return undefined;
      const converted = edits
        .map((t) => ({ start: doc.offsetAt(t.range.start), length: doc.offsetAt(t.range.end) - doc.offsetAt(t.range.start), newText: t.newText }))
        .sort((a, b) => a.start - b.start || a.length - b.length);
      const document: HostDocumentEdits = { absPath: doc.uri.fsPath, edits: converted, version: doc.version, baseText: doc.getText() };
      return { documents: [document] };
    });
    if (!result) {
      const reason = `No ${range ? 'range ' : ''}formatter for ${doc.languageId} documents changed anything, even with ${options.insertSpaces ? 'tabs' : 'spaces'} for indentation: none is installed, or the text has nothing one would change.`;
      return { ok: false, reason, unsupported: true };
    }
    return { ok: true, edit: result.documents[0], options };
  } catch (error) {
    return failed(error);
  }
}

const SEVERITY: HostDiagnostic['severity'][] = ['Error', 'Warning', 'Information', 'Hint'];

/** How many actions VS Code resolves (computes the lazy edit of) per request. */
const RESOLVE_COUNT = 50;

export async function codeActions(
  doc: vscode.TextDocument,
  range: HostRange,
  kind: string | undefined,
  open: Opener,
): Promise<HostOutcome<{ actions: HostCodeAction[] }>> {
  try {
    await setFileFormatting(doc);
    const result = await executeProvider<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      toVsRange(doc, range),
      kind,
      RESOLVE_COUNT,
    );
    if (!result) return { ok: false, reason: `No code action provider for ${doc.languageId} documents answered.`, unsupported: true };
    const actions: HostCodeAction[] = [];
    for (const item of result) {
      if (typeof (item as vscode.Command).command === 'string') {
        // A bare Command: running it is its only effect.
        const command = item as vscode.Command;
        actions.push({ title: command.title, isPreferred: false, diagnostics: [], command: { command: command.command, title: command.title } });
        continue;
      }
      const action = item as vscode.CodeAction;
      const converted: HostCodeAction = {
        title: action.title,
        isPreferred: action.isPreferred === true,
        diagnostics: (action.diagnostics ?? []).map((d) => {
          const diagnostic: HostDiagnostic = { message: d.message, severity: SEVERITY[d.severity] ?? 'Error', range: toRange(doc, d.range) };
          const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
          if (code !== undefined) diagnostic.code = String(code);
          if (d.source) diagnostic.source = d.source;
          return diagnostic;
        }),
      };
      if (action.kind) converted.kind = action.kind.value;
      if (action.disabled) converted.disabled = action.disabled.reason;
      if (action.edit && action.edit.size > 0) converted.edit = await convertWorkspaceEdit(action.edit, open);
      else if (action.edit && allEntries(action.edit)?.length) converted.edit = await convertWorkspaceEdit(action.edit, open);
      if (action.command) converted.command = { command: action.command.command, title: action.command.title };
      actions.push(converted);
    }
    return { ok: true, actions };
  } catch (error) {
    return failed(error);
  }
}
