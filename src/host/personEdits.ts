import * as vscode from 'vscode';
import type { Services } from '../core/documents/context';
import { joinFolder } from '../core/documents/paths';
import type { PanelController } from '../core/panel/controller';
import type { StagedDocument } from '../core/transactions/types';
import type { Workspace } from '../core/documents/workspaces';

/** The staged text, writable: saving a document of this scheme stages the person's text as a revision. */
export const STAGED_SCHEME = 'agent-workbench-staged';
/** The text a staged document started from (read-only): the left side of the diffs. */
export const BASE_SCHEME = 'agent-workbench-base';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** agent-workbench-staged:/src/a.ts?<workspaceId>: the path keeps the file name (tab title, language). */
export function stagedUri(ws: Workspace, relativePath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: STAGED_SCHEME, path: `/${relativePath}`, query: ws.id });
}

export function baseUri(ws: Workspace, relativePath: string, empty = false): vscode.Uri {
  return vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${relativePath}`, query: empty ? `${ws.id}&empty` : ws.id });
}

function parse(services: Services, uri: vscode.Uri): { ws: Workspace; path: string; empty: boolean } {
  const [id, flag] = uri.query.split('&');
  const ws = services.registry.byId(id);
  if (!ws) throw vscode.FileSystemError.FileNotFound(uri);
  return { ws, path: uri.path.replace(/^\//, ''), empty: flag === 'empty' };
}

/** The staged document whose base is at `basePath` (or that is created at it). */
function byBase(services: Services, ws: Workspace, basePath: string): StagedDocument | undefined {
  const tx = services.transactions.active(ws.id);
  return [...(tx?.state().values() ?? [])].find((d) => (d.origin ? d.origin.path === basePath : d.path === basePath));
}

/**
 * The writable staged-text file system. Reading gives the staged text of a path (or, for a path
 * the transaction does not touch, the editor's text); writing stages the difference as a
 * revision by the person. Editors of it reload when the transaction changes.
 */
export class StagedTextFileSystem implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly known = new Set<string>();
  /** The text last read per staged uri: what an editor of it shows before the person types. */
  private readonly served = new Map<string, string>();
  private mtime = Date.now();

  constructor(
    private readonly services: Services,
    private readonly controller: PanelController,
  ) {}

  /** The transaction changed: every open staged-text document may have new text. */
  changed(): void {
    this.mtime = Math.max(Date.now(), this.mtime + 1);
    const events = [...this.known].map((u) => ({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.parse(u) }));
    if (events.length > 0) this.emitter.fire(events);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  private async text(uri: vscode.Uri): Promise<string> {
    await this.services.startup;
    const { ws, path } = parse(this.services, uri);
    const view = this.services.transactions.stagedView(ws, path);
    if (view === 'gone') throw vscode.FileSystemError.FileNotFound(uri);
    if (view) return view.text;
    const doc = await this.services.editor.readDocument(joinFolder(ws.fsPath, path));
    if (!doc) throw vscode.FileSystemError.FileNotFound(uri);
    return doc.text;
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const text = await this.text(uri);
    this.known.add(uri.toString());
    return { type: vscode.FileType.File, ctime: 0, mtime: this.mtime, size: encoder.encode(text).byteLength };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    this.known.add(uri.toString());
    const text = await this.text(uri);
    this.served.set(uri.toString(), text);
    return encoder.encode(text);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    await this.services.startup;
    const { ws, path } = parse(this.services, uri);
    const text = decoder.decode(content);
    const outcome = await this.controller.personText(ws, path, text, this.served.get(uri.toString()));
    if (!outcome.ok) throw vscode.FileSystemError.NoPermissions(outcome.message);
    this.served.set(uri.toString(), text);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/** The base text of a staged document ('' for a file the transaction creates), read-only. */
export class BaseTextProvider implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly known = new Set<string>();

  constructor(private readonly services: Services) {}

  changed(): void {
    for (const u of this.known) this.emitter.fire(vscode.Uri.parse(u));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    this.known.add(uri.toString());
    await this.services.startup;
    const { ws, path, empty } = parse(this.services, uri);
    if (empty) return '';
    const d = byBase(this.services, ws, path);
    return d?.origin && !d.origin.binary ? d.origin.text : '';
  }
}

export function registerStagedText(
  services: Services,
  controller: PanelController,
): { fs: StagedTextFileSystem; base: BaseTextProvider; disposables: vscode.Disposable[] } {
  const fs = new StagedTextFileSystem(services, controller);
  const base = new BaseTextProvider(services);
  return {
    fs,
    base,
    disposables: [
      vscode.workspace.registerFileSystemProvider(STAGED_SCHEME, fs, { isCaseSensitive: true }),
      vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, base),
    ],
  };
}
