/**
 * symbolIds and document symbol trees (selectors.ts resolves a symbol selector: a name path, a
 * location or a symbolId). A symbolId is an opaque string built from the symbol's container
 * path in its document's symbol tree (the language's document symbol provider), so it keeps
 * resolving after edits elsewhere in the file move the symbol.
 *
 *   symbolId = <documentId> "#" <segment> ("/" <segment>)*
 *   segment  = <kind> ":" <name> ["~" <ordinal>]
 *
 * kind and name are percent-encoded (UTF-8) except [A-Za-z0-9_$-] and ". ()", so "/", "#", "~",
 * ":", "%", quotes and non-ASCII never clash with the separators; the dot, parentheses and space
 * that language services put in names ("(get) nodeViews", TypeScript's "operate() callback") stay
 * as they are, where escaping tripled them. ordinal counts earlier siblings
 * with the same kind and name (overloads, merged declarations); it is left out when 0. The
 * documentId may itself contain "#", which is why the path starts at the last "#".
 */
import type { LocationOutput, Place, ResolvedDocument, ToolContext } from '../documents/context';
import { resolveExternally, retry, ToolError } from '../chain/envelope';
import type { HostSymbol } from '../documents/editorPort';
import { escapeRegExp } from '../documents/text';
import type { symbolSelectorInput } from '../chain/schemas';
import type { JsonSchema } from '../chain/schemas';
import type { SchemaType } from '../chain/schemaTypes';

/** What symbolSelectorInput accepts: a name path, a symbolId or a location (exactly one, checked by resolveSymbol in selectors.ts). */
export type SymbolSelector = SchemaType<typeof symbolSelectorInput>;

/** Input fragment: exactly one of name, symbolId or location, closed. */
export { symbolSelectorInput } from '../chain/schemas';

export interface ResolvedSymbol {
  document: ResolvedDocument;
  symbol: HostSymbol;
  /** Enclosing symbols, outermost first, without the symbol itself. */
  containers: HostSymbol[];
  symbolId: string;
}

/**
 * What every tool returns for a symbol, the one compact encoding of every answer that lists
 * symbols: the symbolId (which names the folder, the path, the container path, the kind and the
 * name) and the line and column of the name. What the symbolId already says is not repeated:
 * kind and container are read from its last segments, the name too unless it needed
 * percent-escapes; a span is not needed to act on it (the symbolId is the selector).
 */
export interface SymbolOutput {
  symbolId: string;
  /** Only when the symbolId's last segment does not spell the name plainly (percent-escapes). */
  name?: string;
  line: number;
  column: number;
  /** Only when the name is in another document than the symbolId names (a staged move). */
  documentId?: string;
  /** Only when it is not the answer's own snapshot (a location in another folder). */
  snapshot?: Place['snapshot'];
  staged?: Place['staged'];
}

export const symbolOutputSchema: JsonSchema = {
  type: 'object',
  properties: {
    symbolId: {
      type: 'string',
      description:
        'Pass it back as symbol.symbolId. "<folderId>:<path>#Class:C/Method:m": says kind, name, container; "~N": the declaration after N of the same kind and name (overloads).',
    },
    name: { type: 'string', description: 'Only when the symbolId percent-escapes it.' },
    line: { type: 'integer', minimum: 1, description: "The name's line." },
    column: { type: 'integer', minimum: 1 },
    documentId: { type: 'string', description: 'Only when not the document the symbolId names.' },
  },
  required: ['symbolId', 'line', 'column'],
};

// ---------------------------------------------------------------- symbolId encoding

export interface Segment {
  kind: string;
  name: string;
  ordinal: number;
}

const SAFE = /[A-Za-z0-9_$. ()-]/;

export function encodePart(text: string): string {
  let out = '';
  for (const ch of text) {
    if (SAFE.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function decodePart(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

export function encodeSegment(s: Segment): string {
  return `${encodePart(s.kind)}:${encodePart(s.name)}${s.ordinal > 0 ? `~${s.ordinal}` : ''}`;
}

/** The symbolId of a symbol reached through `path` (outermost first, the symbol last) from the document's roots. */
export function symbolIdOf(documentId: string, roots: readonly HostSymbol[], path: readonly HostSymbol[]): string {
  const segments: string[] = [];
  let level = roots;
  for (const symbol of path) {
    const ordinal = level.slice(0, Math.max(0, level.indexOf(symbol))).filter((s) => s.kind === symbol.kind && s.name === symbol.name).length;
    segments.push(encodeSegment({ kind: symbol.kind, name: symbol.name, ordinal }));
    level = symbol.children;
  }
  return `${documentId}#${segments.join('/')}`;
}

/** Splits a symbolId; undefined when it is not one. */
export function parseSymbolId(symbolId: string): { documentId: string; segments: Segment[] } | undefined {
  const hash = symbolId.lastIndexOf('#');
  if (hash <= 0 || hash === symbolId.length - 1) return undefined;
  const segments: Segment[] = [];
  for (const raw of symbolId.slice(hash + 1).split('/')) {
    const m = /^([^:~]+):([^:~]*)(?:~(\d+))?$/.exec(raw);
    if (!m) return undefined;
    const kind = decodePart(m[1]);
    const name = decodePart(m[2]);
    if (kind === undefined || name === undefined) return undefined;
    segments.push({ kind, name, ordinal: m[3] === undefined ? 0 : Number(m[3]) });
  }
  return { documentId: symbolId.slice(0, hash), segments };
}

// ---------------------------------------------------------------- document symbol trees

/** Within one call: a resolved document lives as long as the call, so its tree is not asked for twice. */
const trees = new WeakMap<ResolvedDocument, HostSymbol[]>();

/** How long a first request waits for the document symbols of a language whose extension is starting. */
export const SYMBOLS_READINESS = { waitMs: 8000, stepMs: 250, retryAfterSeconds: 5 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The document's symbol tree (cached per resolved document for this call). VS Code answers
 * "nothing" both when no provider exists and when one found no symbols, so: once a language's
 * provider has answered in this session, nothing means no symbols; before that, a language
 * with an extension that serves it is given SYMBOLS_READINESS.waitMs to start (then
 * LanguageServiceStarting if it is still activating); a language without one answers
 * UnsupportedLanguageFeature, never an empty tree.
 */
export async function documentSymbolTree(ctx: ToolContext, doc: ResolvedDocument, waitMs = SYMBOLS_READINESS.waitMs): Promise<HostSymbol[]> {
  const cached = trees.get(doc);
  if (cached) return cached;
  const language = doc.host.languageId;
  // Only a buffer's text is what the provider analyses; a staged document's text is not.
  const kept = doc.view === 'buffer' ? ctx.services.caches.symbolTrees : undefined;
  const key = `${language}\0${doc.absolutePath}`;
  const hit = kept?.get(key, doc.host.text);
  if (hit) {
    trees.set(doc, hit);
    return hit;
  }
  const seen = ctx.services.caches.symbolsAnswered;
  const quiet = ctx.services.caches.symbolsSilent;
  let symbols = await ctx.editor.documentSymbols(doc.absolutePath);
  if (symbols === undefined && !seen.has(language) && !quiet.has(language)) {
    const services = () => ctx.editor.languages().find((l) => l.id === language)?.providedBy ?? [];
    if (services().length > 0 && doc.host.text.trim() !== '') {
      const deadline = Date.now() + waitMs;
      while (symbols === undefined && Date.now() < deadline && !ctx.cancelled) {
        await sleep(SYMBOLS_READINESS.stepMs);
        symbols = await ctx.editor.documentSymbols(doc.absolutePath);
      }
      const starting = services().filter((s) => !s.active);
      if (symbols === undefined && starting.length > 0) {
        throw new ToolError(
          'LanguageServiceStarting',
          `The ${language} language service is still starting (${starting.map((s) => s.extensionId).join(', ')} activating): no symbols for ${doc.relativePath} yet. This is not an empty result.`,
          retry(`Ask again in ${SYMBOLS_READINESS.retryAfterSeconds} seconds.`),
          { languageId: language, retryAfterSeconds: SYMBOLS_READINESS.retryAfterSeconds },
        );
      }
      if (symbols === undefined && waitMs > 0) quiet.add(language);
    }
  }
  if (symbols === undefined) {
    if (!seen.has(language)) throw unsupportedFeature(doc, 'document symbols');
    symbols = [];
  } else {
    seen.add(language);
    if (doc.view === 'buffer') symbols = onNames(doc.host.text, symbols);
    // Kept only when the text did not change while the provider worked on it.
    if (kept && (await ctx.editor.readDocument(doc.absolutePath))?.text === doc.host.text) kept.set(key, doc.host.text, symbols);
  }
  trees.set(doc, symbols);
  return symbols;
}

/**
 * The span of a symbol's name. TypeScript gives the later declarations of a merged symbol (every
 * overload after the first, and the implementation) their whole range as selection range.
 */
export function nameSpan(text: string, s: HostSymbol): HostSymbol['selectionRange'] {
  const { start, end } = s.selectionRange;
  if (text.slice(start, end) === s.name) return s.selectionRange;
  const escaped = escapeRegExp(s.name);
  const m = new RegExp(`(?<![\\p{L}\\p{N}_$])${escaped}(?![\\p{L}\\p{N}_$])`, 'u').exec(text.slice(start, end));
  return m ? { start: start + m.index, end: start + m.index + s.name.length } : s.selectionRange;
}

/**
 * The tree with each selection range on the symbol's name, so that every question asked at a
 * symbol (references, calls, rename) is asked at its name, from any overload or the implementation.
 */
function onNames(text: string, symbols: HostSymbol[]): HostSymbol[] {
  return symbols.map((s) => {
    const children = onNames(text, s.children);
    const selectionRange = nameSpan(text, s);
    return selectionRange === s.selectionRange && children.every((c, i) => c === s.children[i]) ? s : { ...s, selectionRange, children };
  });
}

/** UnsupportedLanguageFeature naming the language and the feature, with a ResolveExternally continuation. */
export function unsupportedFeature(doc: ResolvedDocument, feature: string, probed = false): ToolError {
  const language = doc.host.languageId;
  const why = probed
    ? `asked here and at other declarations of the document, no ${language} service answered (core/symbols/providers.ts)`
    : `VS Code has no extension installed that answers ${feature} for it`;
  return new ToolError(
    'UnsupportedLanguageFeature',
    `No ${feature} provider for language "${language}" (${doc.relativePath}): ${why}. This is not an empty result.`,
    resolveExternally(`Install or enable a VS Code extension that provides ${feature} for ${language}, or use a text search for this file.`),
    { languageId: language, feature, path: doc.relativePath },
  );
}

/** Every symbol of a tree with its containers, depth first in document order (a plain walk: nested generators cost more than the work on a large document's tree). */
export function walkSymbols(roots: readonly HostSymbol[]): { symbol: HostSymbol; containers: HostSymbol[] }[] {
  const all: { symbol: HostSymbol; containers: HostSymbol[] }[] = [];
  const walk = (list: readonly HostSymbol[], containers: HostSymbol[]): void => {
    for (const symbol of list) {
      all.push({ symbol, containers });
      if (symbol.children.length > 0) walk(symbol.children, [...containers, symbol]);
    }
  };
  walk(roots, []);
  return all;
}

const FUNCTION_KINDS = new Set(['Function', 'Method', 'Constructor']);
const INITIALIZER_KINDS = new Set(['Variable', 'Constant']);
const LOCAL_KINDS = new Set(['Variable', 'Constant', 'Function']);

/**
 * Declared inside a function, method, constructor or accessor body (its locals and parameters,
 * the object literals and callbacks in it), or a variable or function inside a variable's
 * initializer: what an agent does not select from outside. The properties and methods of a
 * module-level object literal are not locals.
 */
export function isLocal(symbol: HostSymbol, containers: readonly HostSymbol[]): boolean {
  if (containers.some((c) => FUNCTION_KINDS.has(c.kind) || (c.kind === 'Property' && /^\((get|set)\) /.test(c.name)))) return true;
  return LOCAL_KINDS.has(symbol.kind) && containers.some((c) => INITIALIZER_KINDS.has(c.kind));
}

/** A location without its documentId when the symbolId already names that document (a staged move may put it elsewhere). */
export function placeOf(location: LocationOutput, documentId: string): Place | LocationOutput {
  if (location.documentId !== documentId) return location;
  const { documentId: _named, ...place } = location;
  return place;
}

/** The documentId a symbolId starts with. */
export const documentIdOfSymbol = (symbolId: string): string => symbolId.slice(0, symbolId.lastIndexOf('#'));

/** The workspace-relative path of the document a symbolId names. */
export const pathOfSymbol = (symbolId: string): string => documentIdOfSymbol(symbolId).replace(/^[0-9a-f]{8}:/, '');

/** The last segment of a symbolId, decoded: the symbol's kind and name (undefined when it is not a symbolId). */
export function lastSegmentOf(symbolId: string): { kind: string; name: string } | undefined {
  const parsed = parseSymbolId(symbolId);
  const last = parsed?.segments[parsed.segments.length - 1];
  return last ? { kind: last.kind, name: last.name } : undefined;
}

/** A returned symbol's name, kind and container name, read from its symbolId (its name field when the symbolId escapes it). */
export function readSymbol(s: { symbolId?: string; name?: string; kind?: string }): { name: string; kind: string; containerName?: string } {
  const parsed = s.symbolId === undefined ? undefined : parseSymbolId(s.symbolId);
  const segments = parsed?.segments ?? [];
  const last = segments[segments.length - 1];
  const container = segments[segments.length - 2];
  return { name: s.name ?? last?.name ?? '', kind: s.kind ?? last?.kind ?? 'Unknown', ...(container ? { containerName: container.name } : {}) };
}

/** The compact returned shape of a symbol (SymbolOutput). `roots` defaults to the tree documentSymbolTree loaded for the document. */
export function symbolOutput(
  ctx: ToolContext,
  doc: ResolvedDocument,
  symbol: HostSymbol,
  containers: readonly HostSymbol[],
  roots?: readonly HostSymbol[],
): SymbolOutput {
  const tree = roots ?? trees.get(doc) ?? (containers.length === 0 ? [symbol] : [containers[0]]);
  const { documentId, span: _span, ...place } = ctx.toLocation(doc, symbol.selectionRange.start, symbol.selectionRange.end - symbol.selectionRange.start);
  const out: SymbolOutput = { symbolId: symbolIdOf(doc.ref.documentId, tree, [...containers, symbol]), ...place };
  if (encodePart(symbol.name) !== symbol.name) out.name = symbol.name;
  if (documentId !== doc.ref.documentId) out.documentId = documentId;
  return out;
}

/**
 * The innermost symbol whose name contains [start, end], else the innermost whose range
 * contains it. Several siblings matching at the innermost level make it ambiguous.
 */
export function symbolsAt(
  roots: readonly HostSymbol[],
  start: number,
  end: number,
): { match: { symbol: HostSymbol; containers: HostSymbol[] }[]; byName: boolean } {
  const inName = (s: HostSymbol) => s.selectionRange.start <= start && end <= s.selectionRange.end;
  const inRange = (s: HostSymbol) => s.range.start <= start && end <= s.range.end;
  const all = walkSymbols(roots);
  const innermost = (hits: typeof all) => {
    const depth = Math.max(...hits.map((h) => h.containers.length));
    return hits.filter((h) => h.containers.length === depth);
  };
  const named = all.filter((h) => inName(h.symbol));
  if (named.length > 0) {
    // A symbol without a name of its own (a constructor) has its whole declaration as selectionRange: the tightest name wins.
    const inner = innermost(named);
    const size = (h: (typeof all)[number]) => h.symbol.selectionRange.end - h.symbol.selectionRange.start;
    const tightest = Math.min(...inner.map(size));
    return { match: inner.filter((h) => size(h) === tightest), byName: true };
  }
  const ranged = all.filter((h) => inRange(h.symbol));
  return { match: ranged.length > 0 ? innermost(ranged) : [], byName: false };
}

/** The symbol a name range (from another provider: workspace symbols, call hierarchy, ...) belongs to, if the tree has it. */
export function symbolWithName(roots: readonly HostSymbol[], start: number, end: number): { symbol: HostSymbol; containers: HostSymbol[] } | undefined {
  const found = symbolsAt(roots, start, end);
  return found.match.length === 1 ? found.match[0] : (found.match.find((m) => m.symbol.selectionRange.start === start) ?? found.match[0]);
}
