import type { ResolvedDocument } from '../documents/context';
import type { HostSymbol } from '../documents/editorPort';

const SIGNATURE_MAX = 300;

/** The declaration line of a symbol: from its start to the end of its name's line, without an opening brace. */
export function signatureOf(doc: ResolvedDocument, symbol: HostSymbol): string {
  const nameLine = doc.lines.positionAt(symbol.selectionRange.end).line;
  const text = doc.host.text.slice(symbol.range.start, Math.max(symbol.range.start, doc.lines.lineEnd(nameLine)));
  const compact = text
    .replace(/\s+/g, ' ')
    .replace(/\s*\{\s*$/, '')
    .trim();
  return compact.length > SIGNATURE_MAX ? `${compact.slice(0, SIGNATURE_MAX)}…` : compact;
}

const HOVER_MAX = 4000;
/**
 * A Markdown link whose target is a command: URI (TypeScript links a doc comment's {@link X} to
 * `command:_typescript.openJsDocLink?<JSON naming the file's absolute path>`): a click target in
 * the editor, hundreds of bytes an agent cannot use, and a path outside the workspace's terms.
 * The title, when given, is quoted after the target.
 */
const COMMAND_LINK = /\[([^\]]*)\]\(command:[^)\s]*(?:\s+"[^"]*")?\)/g;

/** A hover's parts as an agent reads them: command links reduced to their text, outer blank lines trimmed, each cut at HOVER_MAX. */
export function readableHover(parts: readonly string[]): string[] {
  return parts
    .map((p) => p.replace(COMMAND_LINK, '$1').trim())
    .filter((p) => p !== '')
    .map((p) => (p.length > HOVER_MAX ? `${p.slice(0, HOVER_MAX)}…` : p));
}

/** TypeScript prefixes its hover with "(loading...)" while its project loads: the type it shows may be wrong. */
export const hoverSaysLoading = (parts: readonly string[]): boolean => parts.some((p) => p.includes('(loading...)'));
