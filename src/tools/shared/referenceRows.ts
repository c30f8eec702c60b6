/** find-references' answer: documents of compact reference rows (see ReferenceRow), and how to read them back. */
import type { SymbolOutput } from '../../core/symbols/symbols';
import type { Residue } from '../../core/symbols/residue';
import type { Collection } from './common';

/**
 * The references on one line of a document, compact because an answer holds hundreds of them:
 * the line's text and container are said once for all its references, and each reference is
 * only its offset (no column: line text and offset say where; the length is the symbol name's),
 * listed once, under its access: `decl`, else `import`, else `write`, else `at`. An import or
 * re-export line gives no text: it says only that the document imports the symbol, and its text
 * cost more than the rest of a reference on real code.
 */
export interface ReferenceLine {
  line: number;
  /** The trimmed line text; a long line is cut to LINE_TEXT_MAX characters around its first reference, "…" marking each cut. "" on import lines. */
  text?: string;
  /** Zero-based UTF-16 document offsets of the references that read the symbol or that the language service did not classify. */
  at?: number[];
  /**
   * Containing symbol, as a dotted name path, leaving out symbols declared on the line itself (the text shows them).
   * A line whose references have different containers appears once per container.
   */
  in?: string;
  /** Offsets of references that write the symbol (document highlights read against the syntax: core/symbols/access.ts), declarations left out. */
  write?: number[];
  /** Offsets of declarations. */
  decl?: number[];
  /** Offsets of references in an import or re-export statement (the line's text is left out). */
  import?: number[];
  /** Lengths of the line's references in position order (at, write and decl together), when one differs from the symbol name's. */
  len?: number[];
  /** Staged view: offsets of references whose text staged edits changed (the span covers what replaced it). */
  edited?: number[];
}

/** Access of a reference, as its line lists it. */
export type ReferenceAccess = 'at' | 'write' | 'decl' | 'import';

/** The offsets of every reference on a line, in position order. */
export const lineReferences = (l: ReferenceLine): number[] =>
  [...(l.at ?? []), ...(l.write ?? []), ...(l.decl ?? []), ...(l.import ?? [])].sort((a, b) => a - b);

/** What a row says beside its text, container and plain offsets: the other accesses, lengths and staged marks. */
export type ReferenceExtra = Pick<ReferenceLine, 'write' | 'decl' | 'len' | 'edited'>;

/** A row's positions, in order: what the definitions name them and what each holds. */
export const REFERENCE_ROW = ['line', 'offsets', 'text', 'container', 'more'] as const;

/**
 * A ReferenceLine as the answer gives it, a row without keys (keys were 30% of an answer on real
 * code, and a reference cost more than a grep line), each position always meaning one thing:
 * `[line, offsets, text, container, more]`. offsets are `at` (an array, empty when all references
 * are other accesses), on an import line its `import`s; text is null when the row before in the
 * document has the same, "" on an import line (its text is not given: an import row was 32 bytes
 * with its offsets under more.import, 12 without); container is null when the row before says it, "" for none
 * after one; more holds the other fields. Trailing nulls are cut, so a row is 2 to 5 long.
 */
export type ReferenceRow = [line: number, offsets: number[], text?: string | null, container?: string | null, more?: ReferenceExtra | null];

/** A document and its references by line. Its documentId is "<folderId>:<path>", folderId the answer's unless given here. */
export interface ReferenceDocument {
  path: string;
  folderId?: string;
  lines: ReferenceRow[];
  /** Staged view: the transaction deletes the document, or its buffer changed after staging (lines are the buffer's). */
  staged?: 'deleted' | 'unmapped';
}

/** The symbol, without the snapshot (the answer's own). */
export type ReferencesSymbol = Omit<SymbolOutput, 'snapshot'>;

export interface ReferencesData {
  symbol: ReferencesSymbol;
  /** The folder of the documents (unless a document names its own): documentId = "<folderId>:<path>". */
  folderId: string;
  /**
   * Documents in path order, lines and offsets in position order. A collection, so output bounding
   * drops whole documents from the end (setting hasMore) instead of failing; totalCount counts
   * every document with a reference.
   */
  documents: Collection<ReferenceDocument>;
  /** References found, before referencesLimit and output bounding. */
  totalReferences: number;
  /** False when the language service may still have been loading the project (see note). */
  complete: boolean;
  /** References in documents outside the open folders (library files), left out. */
  outsideWorkspace?: number;
  /** Asked for: the name's whole-word occurrences in the symbol's folder that are no reference (core/symbols/residue.ts). */
  residue?: Residue;
  note?: string;
}

/**
 * Each entry's text and container as the answer means them: an entry without text has the text of
 * the entry before (an import entry has none), one without in the container of the entry before.
 */
export function readLines(doc: Pick<ReferenceDocument, 'lines'>): { text?: string; in?: string }[] {
  let text: string | undefined;
  let container: string | undefined;
  return decodeLines(doc).map((l) => {
    text = l.import ? undefined : (l.text ?? text);
    if (l.in !== undefined) container = l.in === '' ? undefined : l.in;
    return { ...(text !== undefined ? { text } : {}), ...(container !== undefined ? { in: container } : {}) };
  });
}

/** How many references an answer lists. */
export const referencesListed = (data: Pick<ReferencesData, 'documents'>): number =>
  data.documents.items.reduce((n, d) => n + decodeLines(d).reduce((m, l) => m + lineReferences(l).length, 0), 0);

/** A line as its row: see ReferenceRow. An import line (text "") gives its import references as its offsets. */
export function encodeLine(l: ReferenceLine): ReferenceRow {
  const importLine = l.import !== undefined || l.text === '';
  const extra: ReferenceExtra = {};
  for (const k of ['decl', 'write', 'len', 'edited'] as const) if (l[k] !== undefined) extra[k] = l[k];
  const offsets = importLine ? (l.import ?? []) : (l.at ?? []);
  const row: ReferenceRow = [l.line, offsets, importLine ? '' : (l.text ?? null), l.in ?? null, Object.keys(extra).length > 0 ? extra : null];
  while (row.length > 2 && row[row.length - 1] === null) row.pop();
  return row;
}

/** A document's rows read back as lines, as the tool built them (text and in left out where the rows leave them out; an import line's offsets as import). */
export function decodeLines(doc: Pick<ReferenceDocument, 'lines'>): ReferenceLine[] {
  return doc.lines.map(([line, offsets, text, container, extra]) => {
    const l: ReferenceLine = { line };
    if (typeof text === 'string' && text !== '') l.text = text;
    if (text === '') l.import = offsets;
    else if (offsets.length > 0) l.at = offsets;
    if (typeof container === 'string') l.in = container;
    if (extra) Object.assign(l, extra);
    return l;
  });
}
