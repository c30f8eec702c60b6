/**
 * Workspace symbols, document highlights and hovers through VS Code's commands, converted to
 * the plain types of EditorPort (offsets into each file's current text).
 */
import * as vscode from 'vscode';
import { tryProvider } from './providerCommands';
import type { HostHighlight, HostWorkspaceSymbol } from '../core/documents/editorPort';

export async function workspaceSymbols(query: string): Promise<HostWorkspaceSymbol[] | undefined> {
  const result = await tryProvider<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query);
  if (!result) return undefined;
  return result
    .filter((s) => s.location.uri.scheme === 'file')
    .map((s) => ({
      name: s.name,
      kind: vscode.SymbolKind[s.kind] ?? String(s.kind),
      containerName: s.containerName ?? '',
      absPath: s.location.uri.fsPath,
      start: { line: s.location.range.start.line, character: s.location.range.start.character },
      end: { line: s.location.range.end.line, character: s.location.range.end.character },
    }));
}

const HIGHLIGHT_KINDS: HostHighlight['kind'][] = ['text', 'read', 'write'];

export async function documentHighlights(doc: vscode.TextDocument, offset: number): Promise<HostHighlight[] | undefined> {
  const result = await tryProvider<vscode.DocumentHighlight[]>('vscode.executeDocumentHighlights', doc.uri, doc.positionAt(offset));
  if (!result) return undefined;
  return result.map((h) => ({ range: { start: doc.offsetAt(h.range.start), end: doc.offsetAt(h.range.end) }, kind: HIGHLIGHT_KINDS[h.kind ?? 0] ?? 'text' }));
}

export async function hover(doc: vscode.TextDocument, offset: number): Promise<string[] | undefined> {
  const result = await tryProvider<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, doc.positionAt(offset));
  if (!result) return undefined;
  const texts: string[] = [];
  for (const h of result) {
    for (const c of h.contents) {
      if (typeof c === 'string') texts.push(c);
      else if (c instanceof vscode.MarkdownString) texts.push(c.value);
      else if ('value' in c) texts.push('language' in c && c.language ? `\`\`\`${c.language}\n${c.value}\n\`\`\`` : c.value);
    }
  }
  return texts.filter((t) => t.trim() !== '');
}
