/**
 * The residue of a symbol's name: its whole-word occurrences that a language service's answer
 * (references, a rename's edits) left out, each with what kind of text it sits in, so an agent
 * can judge a rename or a reference list without grepping.
 *
 * The files scanned are the workspace's (its file list: no node_modules, build output or other
 * noise folders) of the symbol's language family: TypeScript and JavaScript together (either may
 * use the other's names), any other language alone. Kinds come from the language's syntax, read
 * from the text (JavaScript and TypeScript, Python); in other languages every occurrence is
 * 'other'. A property access (`value.add`) the service left out is one whose receiver it did not
 * resolve to the symbol: an untyped (any) value's, or another type's member of that name. A module
 * specifier (`from '../util/isFunction'`) names a file: counted, not listed (on rxjs, renaming
 * isFunction left 28 of them and nothing else).
 */
import * as path from 'node:path';
import type { JsonSchema } from '../chain/schemas';
import type { EditorPort, HostTextEdit } from '../documents/editorPort';
import { LanguageIndex } from '../documents/languages';
import { LineIndex } from '../documents/text';
import type { Workspace } from '../documents/workspaces';
import { mapConcurrently } from '../util/concurrency';
import { cutAround } from '../util/wording';
import { regexBodyEnd } from './access';
import { segmentReader } from '../transactions/textReader';
import type { Segment } from '../transactions/segments';

/** comment: in a comment; doc: in a doc comment or docstring; string: in string, template or regular expression text; access: `x.name` in code; other: anywhere else. */
export type ResidueKind = 'comment' | 'doc' | 'string' | 'access' | 'other';

/** Code kinds first: what can break without a type error comes before what only reads wrong. */
export const RESIDUE_KINDS: readonly ResidueKind[] = ['access', 'other', 'string', 'doc', 'comment'];

/** One occurrence: [path, line, column, kind, text], line and column one-based (UTF-16), text the trimmed line cut around it. */
export type ResidueRow = [path: string, line: number, column: number, kind: ResidueKind, text: string];

/** The names of a row's positions, given in every answer so a row reads without the definitions. */
export const RESIDUE_COLUMNS = ['path', 'line', 'column', 'kind', 'text'] as const;

export interface Residue {
  columns: typeof RESIDUE_COLUMNS;
  /** The occurrences listed, code kinds first (RESIDUE_KINDS' order), then by path and position. */
  items: ResidueRow[];
  hasMore: boolean;
  totalCount: number;
  /** Occurrences per kind, listed or not. */
  kinds: Partial<Record<ResidueKind, number>>;
  /** Occurrences in module specifiers (`from './isFunction'`), not listed: they name a file, which a rename does not change. */
  modulePaths?: number;
  /** The languages whose files were scanned, and how many files. */
  scanned: { languages: string[]; files: number };
}

export const RESIDUE_LIMIT = 50;
const TEXT_MAX = 80;
const TEXT_BEFORE = 30;
const FILES_AT_ONCE = 16;
/** How long a scan ahead runs before it lets the thread's other work (other extensions, a language service's answer) go first. */
const AHEAD_YIELD_MS = 2;

const JS_FAMILY = ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'];

/** The languages scanned for a symbol of a language. */
export function languageFamily(languageId: string): string[] {
  return JS_FAMILY.includes(languageId) ? JS_FAMILY : [languageId];
}

/** Start offsets of the whole-word occurrences of name (identifier characters and `$` bound a word; in JavaScript and TypeScript also `#`). */
export function wholeWords(text: string, name: string, languageId: string): number[] {
  if (name.length === 0) return [];
  // indexOf finds the name at memory speed; only the characters around each hit are tested (a
  // lookbehind regular expression over every file was most of a rename's residue scan).
  const starts: number[] = [];
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) if (wholeWordAt(text, at, name, languageId)) starts.push(at);
  return starts;
}

const WORD_BEFORE_JS = /^[\p{ID_Continue}$#\u200c\u200d]$/u;
const WORD_BEFORE = /^[\p{ID_Continue}$]$/u;
const WORD_AFTER = /^[\p{ID_Continue}$\u200c\u200d]$/u;

/**
 * wholeWords(applied, name), applied being original with the edits applied, from the starts in
 * original: a start away from every edit moves by the edits before it; around each edit the
 * applied text is searched again, since an edit changes its neighbours' word bounds. The applied
 * text is read only around the edits, from original and the edits' new texts: a rename's staged
 * texts are built of pieces, and reading one whole would copy it (8 MB for a rename's 160 files).
 */
export function wholeWordsAfterEdits(original: string, before: readonly number[], edits: readonly HostTextEdit[], name: string, languageId: string): number[] {
  if (name.length === 0) return [];
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  // A code point before or after a word may be a surrogate pair: two units of margin each side.
  const near = (start: number, e: HostTextEdit) => e.start < start + name.length + 2 && e.start + e.length > start - 2;
  const found = new Set<number>();
  let i = 0;
  let shift = 0;
  for (const start of before) {
    while (i < sorted.length && sorted[i].start + sorted[i].length <= start - 2) {
      shift += sorted[i].newText.length - sorted[i].length;
      i++;
    }
    if (i < sorted.length && near(start, sorted[i])) continue;
    found.add(start + shift);
  }
  const pieces: Segment[] = [];
  let cursor = 0;
  for (const e of sorted) {
    pieces.push({ start: cursor, end: e.start }, { text: e.newText });
    cursor = e.start + e.length;
  }
  const applied = segmentReader(original, [...pieces, { start: cursor, end: original.length }]);
  shift = 0;
  for (const e of sorted) {
    const from = Math.max(0, e.start + shift - name.length - 2);
    const to = Math.min(applied.length, e.start + shift + e.newText.length + 2 + name.length);
    // Searched in the window alone, read with two more units each side for the characters around a hit.
    const outer = Math.max(0, from - 2);
    const window = applied.slice(outer, Math.min(applied.length, to + 2));
    for (let k = window.indexOf(name, from - outer); k !== -1 && outer + k + name.length <= to; k = window.indexOf(name, k + 1)) {
      if (wholeWordAt(window, k, name, languageId, outer, applied.length)) found.add(outer + k);
    }
    shift += e.newText.length - e.length;
  }
  return [...found].sort((a, b) => a - b);
}

/** Whether name at offset is a whole word of text (see wholeWords); text may be a slice of a longer one, starting at `offset` in it. */
function wholeWordAt(text: string, at: number, name: string, languageId: string, offset = 0, length = text.length): boolean {
  const before = JS_FAMILY.includes(languageId) ? WORD_BEFORE_JS : WORD_BEFORE;
  if (offset + at > 0 && before.test(charBefore(text, at))) return false;
  const end = at + name.length;
  return !(offset + end < length && WORD_AFTER.test(String.fromCodePoint(text.codePointAt(end) as number)));
}

/** The code point that ends just before offset (a surrogate pair read whole). */
function charBefore(text: string, offset: number): string {
  const low = text.charCodeAt(offset - 1);
  if (low >= 0xdc00 && low <= 0xdfff && offset >= 2) {
    const high = text.charCodeAt(offset - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(offset - 2, offset);
  }
  return text[offset - 1];
}

// ---------------------------------------------------------------- regions

/** module: a module specifier (`from './isFunction'`), which names a file, not the symbol. */
type TextKind = 'comment' | 'doc' | 'string' | 'module';
interface Region {
  start: number;
  end: number;
  kind: TextKind;
}

/** Keywords after which a `/` starts a regular expression. */
const EXPRESSION_WORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const IDENT = /[\p{ID_Continue}$]/u;
/** What comes before a module specifier: `from`, `import`, `require(`, `import(`, `declare module`. */
const MODULE_BEFORE = /(?:(?<![\w$.])(?:from|import|module)|(?<![\w$.])(?:require|import)\s*\()\s*$/;

/** The comments, strings, templates' text and regular expressions of JavaScript or TypeScript, in order. */
function jsRegions(text: string): Region[] {
  const regions: Region[] = [];
  /** Per open brace: whether it is a template's `${`. */
  const braces: boolean[] = [];
  let lastWord = '';
  let last = ''; // the last significant character of code
  const template = (from: number): number => {
    let i = from;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        regions.push({ start: from, end: i, kind: 'string' });
        last = '`';
        return i + 1;
      } else if (c === '$' && text[i + 1] === '{') {
        regions.push({ start: from, end: i, kind: 'string' });
        braces.push(true);
        last = '{';
        return i + 2;
      } else i++;
    }
    regions.push({ start: from, end: text.length, kind: 'string' });
    return text.length;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      regions.push({ start: i, end: stop, kind: 'comment' });
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      regions.push({ start: i, end: stop, kind: text[i + 2] === '*' && text[i + 3] !== '/' ? 'doc' : 'comment' });
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      const specifier = MODULE_BEFORE.test(text.slice(Math.max(0, i - 16), i));
      regions.push({ start: i, end: Math.min(j + 1, text.length), kind: specifier ? 'module' : 'string' });
      i = j + 1;
      last = c;
    } else if (c === '`') {
      i = template(i + 1);
    } else if (c === '/' && (last === '' || (!IDENT.test(last) && !')]}'.includes(last)) || (IDENT.test(last) && EXPRESSION_WORDS.has(lastWord)))) {
      const j = regexBodyEnd(text, i);
      regions.push({ start: i, end: Math.min(j + 1, text.length), kind: 'string' });
      i = j + 1;
      last = '/';
      lastWord = '';
    } else if (IDENT.test(c)) {
      let j = i + 1;
      while (j < text.length && IDENT.test(text[j])) j++;
      lastWord = text.slice(i, j);
      last = text[j - 1];
      i = j;
    } else {
      if (c === '{') braces.push(false);
      else if (c === '}' && braces.pop() === true) {
        i = template(i + 1);
        continue;
      }
      last = c;
      lastWord = '';
      i++;
    }
  }
  return regions;
}

/** Python's comments and strings; a triple-quoted string that starts its line is a docstring. */
function pythonRegions(text: string): Region[] {
  const regions: Region[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '#') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      regions.push({ start: i, end: stop, kind: 'comment' });
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j) && (triple || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
      const stop = Math.min(j + quote.length, text.length);
      let s = i;
      while (s > 0 && /[rRbBuUfF]/.test(text[s - 1])) s--;
      const lineStart = text.lastIndexOf('\n', s - 1) + 1;
      const doc = triple && text.slice(lineStart, s).trim() === '';
      regions.push({ start: s, end: stop, kind: doc ? 'doc' : 'string' });
      i = stop;
    } else i++;
  }
  return regions;
}

/** A reader of occurrences' kinds in one text (the text is scanned once, on the first question). */
export function residueKinds(text: string, languageId: string): (offset: number) => ResidueKind | 'module' {
  const js = JS_FAMILY.includes(languageId);
  const python = languageId === 'python';
  if (!js && !python) return () => 'other';
  let regions: Region[] | undefined;
  const regionAt = (all: readonly Region[], offset: number): Region | undefined => {
    let lo = 0;
    let hi = all.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = all[mid];
      if (r.end <= offset) lo = mid + 1;
      else if (r.start > offset) hi = mid - 1;
      else return r;
    }
    return undefined;
  };
  return (offset) => {
    const all = (regions ??= js ? jsRegions(text) : pythonRegions(text));
    const inside = regionAt(all, offset);
    if (inside) return inside.kind;
    // The code character before it, over white space and comments (a comment may end with a full stop).
    let j = offset - 1;
    for (;;) {
      while (j >= 0 && /\s/.test(text[j])) j--;
      const r = j >= 0 ? regionAt(all, j) : undefined;
      if (!r || r.kind === 'string' || r.kind === 'module') break;
      j = r.start - 1;
    }
    // `...name` spreads it; `x.name` and `x?.name` access it.
    return text[j] === '.' && !(js && text[j - 1] === '.') ? 'access' : 'other';
  };
}

/** The trimmed line around an occurrence, cut to TEXT_MAX characters around it ("…" marking each cut). */
function lineAround(lines: LineIndex, offset: number): { line: number; column: number; text: string } {
  const pos = lines.positionAt(offset);
  const full = lines.lineText(pos.line);
  const trimmed = full.trim();
  const at = pos.character - (full.length - full.trimStart().length);
  return { line: pos.line + 1, column: pos.character + 1, text: cutAround(trimmed, at, TEXT_MAX, TEXT_BEFORE).text };
}

// ---------------------------------------------------------------- the scan

export interface ResidueFile {
  path: string;
  text: string;
  languageId: string;
  /** Start offsets in text of the occurrences the language service accounted for. */
  known?: ReadonlySet<number>;
  /** The name's whole-word starts in text, when a scan ahead found them already. */
  starts?: readonly number[];
  /** Scanned off the host's thread: its text ('' here) is read on the host only where there are starts, while its stamp holds. */
  textless?: true;
  stamp?: string;
}

interface Found {
  path: string;
  offset: number;
  kind: ResidueKind;
  lines: LineIndex;
}

/** The residue of name in the files, pure: see the module comment. */
export function residueOf(name: string, files: readonly ResidueFile[], limit = RESIDUE_LIMIT, inside?: string): Omit<Residue, 'scanned' | 'columns'> {
  const found: Found[] = [];
  let modulePaths = 0;
  // Where name is a word of `inside` (a new name holding the old one), those occurrences are not residue.
  const shifts = inside === undefined ? [] : wholeWords(inside, name, 'plaintext');
  const partOf = (text: string, o: number) => shifts.some((k) => o >= k && text.startsWith(inside as string, o - k));
  for (const f of files) {
    const starts = (f.starts ?? wholeWords(f.text, name, f.languageId)).filter((o) => !f.known?.has(o) && !partOf(f.text, o));
    if (starts.length === 0) continue;
    const kindAt = residueKinds(f.text, f.languageId);
    const lines = LineIndex.of(f.text);
    for (const offset of starts) {
      const kind = kindAt(offset);
      if (kind === 'module') modulePaths++;
      else found.push({ path: f.path, offset, kind, lines });
    }
  }
  const kinds: Partial<Record<ResidueKind, number>> = {};
  for (const f of found) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
  const rank = (k: ResidueKind) => RESIDUE_KINDS.indexOf(k);
  found.sort((a, b) => rank(a.kind) - rank(b.kind) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.offset - b.offset));
  const items = found.slice(0, limit).map((f): ResidueRow => {
    const { line, column, text } = lineAround(f.lines, f.offset);
    return [f.path, line, column, f.kind, text];
  });
  return { items, hasMore: found.length > items.length, totalCount: found.length, kinds, ...(modulePaths > 0 ? { modulePaths } : {}) };
}

export interface ResidueQuestion {
  name: string;
  /** The language of the symbol's document: its family's files are scanned. */
  languageId: string;
  workspace: Workspace;
  editor: EditorPort;
  /** The text to scan at a path when it is not the editor's (a staged text); null: the path is not scanned. */
  textOf?: (relativePath: string) => string | null | undefined;
  /** Paths the file list lacks (files a transaction creates or moves). */
  extraPaths?: readonly string[];
  /** Per workspace-relative path, the start offsets in its scanned text that the language service accounted for. */
  known?: ReadonlyMap<string, ReadonlySet<number>>;
  /** A text (a rename's new name) whose own occurrences of name are not residue. */
  inside?: string;
  limit?: number;
  /** What scanAhead read and found for the same name: a file whose text is still that is not read or scanned again. */
  ahead?: ReadonlyMap<string, ResidueFile>;
  /**
   * Per path, edits whose result is exactly the text textOf now gives, and the text they apply to
   * (a rename's files that were not staged before it): where scanAhead read that text, the starts
   * are moved across the edits rather than searched for in the whole file again.
   */
  edited?: ReadonlyMap<string, { before: string; edits: readonly HostTextEdit[] }>;
}

type Scan = Pick<ResidueQuestion, 'name' | 'languageId' | 'workspace' | 'editor' | 'textOf' | 'extraPaths' | 'ahead' | 'edited'>;

/** The folder's files (and extraPaths) of the symbol's language family, with their languages. */
async function familyFiles(q: Pick<ResidueQuestion, 'languageId' | 'workspace' | 'editor' | 'extraPaths'>): Promise<{ path: string; languageId: string }[]> {
  const family = languageFamily(q.languageId);
  const index = new LanguageIndex(q.editor.languages());
  const { paths } = await q.workspace.files();
  return [...new Set([...paths, ...(q.extraPaths ?? [])])]
    .map((p) => ({ path: p, languageId: index.languageOf(p) }))
    .filter((f): f is { path: string; languageId: string } => f.languageId !== undefined && family.includes(f.languageId));
}

/**
 * Has the host read the family's files ahead of any residue scan (editor.readWordsAhead), so
 * that a window's first rename finds them read. Never rejects.
 */
export async function readResidueAhead(q: Pick<ResidueQuestion, 'languageId' | 'workspace' | 'editor'>): Promise<void> {
  if (!q.editor.readWordsAhead) return;
  try {
    const files = await familyFiles(q);
    await q.editor.readWordsAhead(files.map((f) => ({ absPath: path.join(q.workspace.fsPath, f.path), languageId: f.languageId })));
  } catch {
    // Read at the scan instead.
  }
}

/**
 * The folder's files of the symbol's language family, each as textOf or the editor gives it
 * (undefined: not scanned), with the name's starts: off the host's thread where the host can
 * (editor.scanWords), else here. With `yieldMs`, the scan here lets the thread's other work run
 * after each stretch of about that long: files the editor read before come back
 * without I/O, so a scan of 625 files was one 25 ms run of promise callbacks that every other
 * extension on the host waited behind (growing with the folder).
 */
async function scanFiles(q: Scan, yieldMs?: number): Promise<{ files: ResidueFile[]; languages: string[] }> {
  const candidates = await familyFiles(q);
  const absPath = (c: { path: string }) => path.join(q.workspace.fsPath, c.path);
  // The files nobody staged and no scan ahead read are scanned off the host's thread where the host can (the rest below).
  const toHost = q.editor.scanWords ? candidates.filter((c) => q.textOf?.(c.path) === undefined && !q.ahead?.has(c.path)) : [];
  const offThread =
    toHost.length > 0
      ? await q.editor
          .scanWords?.(
            q.name,
            toHost.map((c) => ({ absPath: absPath(c), languageId: c.languageId })),
          )
          .catch(() => undefined)
      : undefined;
  // A file found off the thread holding the name: its text as the editor reads it, while that is still what was scanned.
  const withText = async (f: ResidueFile): Promise<ResidueFile | undefined> => {
    const doc = await q.editor.readDocument(absPath(f));
    return doc?.stamp !== undefined && doc.stamp === f.stamp ? { path: f.path, text: doc.text, languageId: f.languageId, starts: f.starts ?? [] } : undefined;
  };
  let ranSince = performance.now();
  const read = await mapConcurrently(candidates, FILES_AT_ONCE, async (c): Promise<ResidueFile | undefined> => {
    if (yieldMs !== undefined && performance.now() - ranSince > yieldMs) {
      await new Promise((resolve) => setImmediate(resolve));
      ranSince = performance.now();
    }
    const given = q.textOf?.(c.path);
    if (given === null) return undefined;
    const off = given === undefined ? offThread?.get(absPath(c)) : undefined;
    if (off === 'none') return { path: c.path, text: '', languageId: c.languageId, starts: [], textless: true };
    const found: ResidueFile | undefined = off && { path: c.path, text: '', languageId: c.languageId, starts: off.starts, textless: true, stamp: off.stamp };
    // A scan ahead leaves reading the text to the scan after the language service answered.
    if (found && yieldMs !== undefined) return found;
    let before = found ?? q.ahead?.get(c.path);
    if (before?.textless && before.starts && before.starts.length > 0) before = await withText(before);
    // Read ahead moments ago (or off the thread just now) and not staged since: as it was read then.
    if (before && (given === undefined || (!before.textless && given === before.text))) return before;
    const edited = q.edited?.get(c.path);
    if (before?.starts && !before.textless && given !== undefined && edited?.before === before.text) {
      return {
        path: c.path,
        text: given,
        languageId: c.languageId,
        starts: wholeWordsAfterEdits(before.text, before.starts, edited.edits, q.name, c.languageId),
      };
    }
    const text = given ?? (await q.editor.readDocument(absPath(c)))?.text;
    if (text === undefined) return undefined;
    return { path: c.path, text, languageId: c.languageId, starts: wholeWords(text, q.name, c.languageId) };
  });
  const languages = [...new Set(candidates.map((c) => c.languageId))].sort();
  return { files: read.filter((f): f is ResidueFile => f !== undefined), languages };
}

/**
 * Reads and scans the folder for a name ahead of time (while a language service computes a rename
 * in its own process, the extension host waits): findResidue given the result reads and scans
 * only what changed since. Never rejects (undefined: nothing read ahead).
 */
export function scanAhead(q: Scan): Promise<ReadonlyMap<string, ResidueFile> | undefined> {
  return scanFiles(q, AHEAD_YIELD_MS).then(
    ({ files }) => new Map(files.map((f) => [f.path, f])),
    () => undefined,
  );
}

/** The residue of a name in a workspace folder, each file read through the editor (an unsaved buffer counts) unless textOf gives its text. */
export async function findResidue(q: ResidueQuestion): Promise<Residue> {
  const scanned = await scanFiles(q);
  const files = scanned.files.map((f) => {
    const known = q.known?.get(f.path);
    return known ? { ...f, known } : f;
  });
  return { columns: RESIDUE_COLUMNS, ...residueOf(q.name, files, q.limit, q.inside), scanned: { languages: scanned.languages, files: files.length } };
}

/** The residue as answers describe it (said shortly: it is in two tools' schemas). */
export const residueSchema: JsonSchema = {
  type: 'object',
  description: "The name's whole-word uses the service left out, in the folder's files of its language family.",
  properties: {
    columns: { type: 'array' },
    items: {
      type: 'array',
      description: 'Rows by columns; kind: comment, doc, string, access (x.name not tied to the symbol: untyped, or another type), other.',
    },
    hasMore: { type: 'boolean' },
    totalCount: { type: 'integer' },
  },
  required: ['items', 'hasMore', 'totalCount'],
};
