import { TextDecoder } from 'node:util';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageIndex } from '../core/documents/languages';
import { LineIndex } from '../core/documents/text';
import { isPlainUtf8, readFileStamped, stampNow } from './files';
import type { FileStamp } from './files';

/**
 * The part of a TextDocument that tools read: an open document satisfies it, and so does a file
 * read from disk without opening it. Opening a document costs about 50 ms in the extension host
 * (measured in VS Code 1.139 over code-server) and makes every language server track and check it,
 * so answers that touch a thousand files (a rename, references across a project) read the files
 * nobody has open straight from disk, exactly as VS Code would show them.
 */
export type TextSource = Pick<vscode.TextDocument, 'uri' | 'version' | 'languageId' | 'eol' | 'isDirty' | 'getText' | 'offsetAt' | 'positionAt'> & {
  /** A file read from disk: its stamp when read. */
  readonly stamp?: FileStamp;
};

export type SourceReader = (absPath: string) => Promise<TextSource | undefined>;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class DiskSource {
  readonly version = 0;
  readonly isDirty = false;
  readonly eol: vscode.EndOfLine;
  private readonly lines: LineIndex;

  constructor(
    readonly uri: vscode.Uri,
    private readonly text: string,
    readonly languageId: string,
    readonly stamp: FileStamp,
  ) {
    this.lines = new LineIndex(text);
    this.eol = text.includes('\r\n') ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF;
  }

  getText(range?: vscode.Range): string {
    return range ? this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : this.text;
  }

  offsetAt(position: vscode.Position): number {
    return this.lines.offsetAt({ line: position.line, character: position.character });
  }

  positionAt(offset: number): vscode.Position {
    const p = this.lines.positionAt(Math.max(0, Math.min(offset, this.text.length)));
    return new vscode.Position(p.line, p.character);
  }
}

/**
 * File bytes of recent reads kept for reuse while the file's stamp is unchanged: a rename is
 * converted on its files and then staged from the same reads, and a reference list's documents
 * are read by the host and then by the tool.
 */
const RECENT_READ_BYTES = 32 * 1024 * 1024;

/**
 * Reads files the way the editor would show them, without opening them. Returns undefined when
 * only the editor can say (a byte-order mark, another encoding, files.associations that may apply,
 * a file of no known language): the caller opens the document then.
 */
export class DiskSources {
  private index: LanguageIndex | undefined;
  /** The latest reads, by path, oldest first, at most RECENT_READ_BYTES of file bytes in all. */
  private readonly recent = new Map<string, { source: TextSource; bytes: Buffer; stat: FileStamp; languageId: string }>();
  private recentBytes = 0;

  private keep(absPath: string, read: { source: TextSource; bytes: Buffer; stat: FileStamp; languageId: string }): void {
    const drop = (p: string): void => {
      this.recentBytes -= this.recent.get(p)?.bytes.length ?? 0;
      this.recent.delete(p);
    };
    drop(absPath);
    this.recent.set(absPath, read);
    this.recentBytes += read.bytes.length;
    while (this.recentBytes > RECENT_READ_BYTES && this.recent.size > 1) drop(this.recent.keys().next().value as string);
  }
  /** By directory (settings apply per folder, so alike for a directory's files): whether files.* settings allow a plain UTF-8 read. */
  private readonly plainUtf8 = new Map<string, boolean>();

  constructor(private readonly languages: () => ConstructorParameters<typeof LanguageIndex>[0]) {
    vscode.extensions.onDidChange(() => (this.index = undefined));
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('files')) this.plainUtf8.clear();
    });
  }

  private allowsPlainUtf8(absPath: string): boolean {
    const dir = path.dirname(absPath);
    let allowed = this.plainUtf8.get(dir);
    if (allowed === undefined) {
      const files = vscode.workspace.getConfiguration('files', vscode.Uri.file(absPath));
      const encoding = files.get<string>('encoding', 'utf8');
      const associations = files.get<Record<string, string>>('associations', {});
      allowed = (encoding === 'utf8' || encoding === 'utf8bom') && !files.get<boolean>('autoGuessEncoding', false) && Object.keys(associations).length === 0;
      this.plainUtf8.set(dir, allowed);
    }
    return allowed;
  }

  /** Whether read would read the file itself (the settings allow plain UTF-8 and its language is known), were it plain UTF-8. */
  readsPlainly(absPath: string): boolean {
    this.index ??= new LanguageIndex(this.languages());
    return this.allowsPlainUtf8(absPath) && this.index.languageOf(absPath) !== undefined;
  }

  async read(absPath: string, maxBytes: number): Promise<TextSource | undefined> {
    return (await this.readWithBytes(absPath, maxBytes)).source;
  }

  /** As read, plus the bytes when it read them (a caller that needs both reads the file once). */
  async readWithBytes(absPath: string, maxBytes: number): Promise<{ source?: TextSource; bytes?: Buffer; stat?: FileStamp }> {
    if (!this.allowsPlainUtf8(absPath)) return {};
    this.index ??= new LanguageIndex(this.languages());
    const languageId = this.index.languageOf(absPath);
    if (!languageId) return {};
    // A file read moments ago (a reference list reads each document in the host, then again in the tool) is reused while its stamp holds.
    const recent = this.recent.get(absPath);
    if (recent && recent.languageId === languageId && recent.bytes.length <= maxBytes && stampNow(absPath) === recent.stat) return recent;
    const read = await readFileStamped(absPath, maxBytes);
    if (!read) return {};
    const { bytes, stat } = read;
    if (!isPlainUtf8(bytes)) return { bytes };
    const text = utf8.decode(bytes);
    const kept = { source: new DiskSource(vscode.Uri.file(absPath), text, languageId, stat), bytes, stat, languageId };
    this.keep(absPath, kept);
    return kept;
  }
}
