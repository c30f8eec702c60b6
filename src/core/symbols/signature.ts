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
