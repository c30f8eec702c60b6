/** find-references: every reference to a symbol, grouped by document and line, with its access (declaration, write, import). */
import { beforeTimeout } from '../core/symbols/readiness';
import { defineTool } from '../core/chain/definition';
import type { ResolvedDocument, ToolContext } from '../core/documents/context';
import type { HostSymbol, HostTarget } from '../core/documents/editorPort';
import { cursorInput, limitParameter } from '../core/chain/schemas';
import { documentSymbolTree, symbolOutput, symbolOutputSchema, symbolSelectorInput, unsupportedFeature } from '../core/symbols/symbols';
import { resolveSymbol } from '../core/symbols/selectors';
import type { SymbolOutput } from '../core/symbols/symbols';
import * as path from 'node:path';
import { utf8Bytes } from '../core/chain/bounding';
import { listDigest } from '../core/chain/paging';
import { isInside, toPosix } from '../core/documents/paths';
import { mapConcurrently } from '../core/util/concurrency';
import { cutAround } from '../core/util/wording';
import { providerAnswered, requireLocationProvider } from '../core/symbols/providers';
import { accessReader, MEMBER_KINDS } from '../core/symbols/access';
import { collectionOf, dedupeTargets, inputSchema, QUERY, queryAnnotations, targetsByPath } from './shared/common';
import { findResidue, residueSchema } from '../core/symbols/residue';
import type { Residue } from '../core/symbols/residue';
import { encodeLine, lineReferences } from './shared/referenceRows';
import type { ReferenceAccess, ReferenceDocument, ReferenceLine, ReferencesData, ReferencesSymbol } from './shared/referenceRows';

export * from './shared/referenceRows';

const CATEGORY = 'Code discovery and navigation' as const;

// ---------------------------------------------------------------- find-references

const LINE_TEXT_MAX = 100;
/** Characters kept before a long line's first reference when it is cut. */
const LINE_TEXT_BEFORE = 30;
/** A single-line import or re-export statement (JavaScript/TypeScript, Python). */
const IMPORT_LINE = /^(?:import\b(?!\s*\()|export\s+(?:type\s+)?(?:\*|\{)[^;]*\bfrom\b|from\s+\S+\s+import\b)/;

/** A trimmed line's text, cut around a column when longer than LINE_TEXT_MAX. */
export const lineWindow = (trimmed: string, column: number): string => cutAround(trimmed, column, LINE_TEXT_MAX, LINE_TEXT_BEFORE).text;
/**
 * Documents whose symbols and highlights are asked for at once. The round trips overlap: on 41
 * documents never asked before, 8 at once took 148 ms, 32 took 112 ms, all 41 took 100 ms
 * (test/perf/coldRefs.ts has the raw commands). Bounded, so an answer cut by the output limit
 * starts at most this many documents it then drops.
 */
export const REFERENCE_DOCUMENTS_AT_ONCE = 32;

/**
 * References, never a partial answer from a language service still loading its project
 * (TypeScript answers from the open files first). A reference in a file nobody has open shows
 * the whole project answered; otherwise the shared readiness check decides (src/core/symbols/readiness.ts).
 * complete: false when the service was still loading after waiting, or when nothing can show
 * that it covers files nobody has open (no workspace symbol search for the language).
 */
async function referencesWhenReady(ctx: ToolContext, doc: ResolvedDocument, symbol: HostSymbol): Promise<{ found: HostTarget[]; complete: boolean }> {
  const ask = async () => {
    const found = await ctx.editor.locationsAt('references', doc.absolutePath, symbol.selectionRange.start);
    if (found === undefined) throw unsupportedFeature(doc, 'references');
    return found;
  };
  const askedAt = Date.now();
  const found = await beforeTimeout(ctx, doc.host.languageId, 'references', ask());
  const open = new Set(ctx.editor.openDocuments().map((d) => d.absPath));
  if (found.some((t) => !open.has(t.absPath))) {
    ctx.services.readiness.noteLoaded(ctx, doc);
    return { found, complete: true };
  }
  const coverage = await ctx.services.readiness.coverage(ctx, doc);
  if (coverage.state === 'loading') return { found, complete: false };
  if (coverage.state === 'unverifiable') return { found, complete: coverage.why === 'all-open' };
  // An answer asked before the proof (by this call or a concurrent one) may predate the moment the project finished loading.
  return { found: coverage.provedAt >= askedAt ? await beforeTimeout(ctx, doc.host.languageId, 'references', ask()) : found, complete: true };
}

export const findReferences = defineTool({
  name: 'find-references',
  title: 'Find References',
  category: CATEGORY,
  ...QUERY,
  description:
    'Exact references by document, a row a line: [line, offsets, text, container, {decl|write}]; text "": an import line (offsets: imports); null text/container: the row before\'s. residue: also the name in comments, strings, untyped uses. complete:false: retry.',
  inputSchema: inputSchema(
    {
      symbol: symbolSelectorInput,
      includeDeclaration: { type: 'boolean', default: true },
      referencesLimit: { ...limitParameter('references'), description: 'Across documents.' },
      residue: { type: 'boolean' },
      cursor: cursorInput,
    },
    ['symbol'],
    { workspace: false, view: true },
  ),
  dataSchema: {
    type: 'object',
    properties: {
      symbol: symbolOutputSchema,
      folderId: {
        type: 'string',
        description: 'documentId = "<folderId>:<path>" (a document may name its own folderId); with an offset it makes a span selector.',
      },
      documents: collectionOf({
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Workspace-relative path.' },
          folderId: { type: 'string', description: "Given when not the answer's folderId." },
          staged: {
            enum: ['deleted', 'unmapped'],
            description: "Staged view: the transaction deletes the document, or its buffer changed after staging (lines are the buffer's).",
          },
          lines: {
            type: 'array',
            description:
              'A row per line and container, positions fixed: [line, offsets, text, container, more], trailing nulls cut. line: one-based. offsets: UTF-16 document offsets of reads (or unclassified), on an import line of imports. ' +
              'text: the trimmed line (over 100 characters a window, "…" at each cut); null: as the row before, "": an import line. ' +
              'container: the enclosing named symbol (dotted), not one declared on the line; null: as the row before, "": none. ' +
              'more: {write, decl: offsets; len: lengths, if one differs from the name; edited: offsets staged edits changed}. ' +
              'A reference is listed once: in decl, else write, else offsets.',
            items: { type: 'array', items: { type: ['integer', 'array', 'string', 'null', 'object'] } },
          },
        },
        required: ['path', 'lines'],
      }),
      totalReferences: {
        type: 'integer',
        minimum: 0,
        description: 'References found, before referencesLimit and output bounding; documents.hasMore says some were left out.',
      },
      complete: { type: 'boolean', description: 'False when the language service may still have been loading the project; ask again in a few seconds.' },
      outsideWorkspace: { type: 'integer', minimum: 1, description: 'References outside the open folders (library files), left out.' },
      residue: residueSchema,
      note: { type: 'string' },
    },
    required: ['symbol', 'folderId', 'documents', 'totalReferences', 'complete'],
  },
  annotations: queryAnnotations('Find References'),
  examples: [
    {
      workflowId: 'navigate',
      workflowTitle: 'Navigate code',
      step: 3,
      id: 'references',
      title: 'Every use of a class',
      purpose: 'Find every place a class is used before changing it.',
      expectedOutcome: 'References grouped by document with line text, container and access.',
      request: {
        symbol: { location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'Greeter', contextBefore: 'class ' } } },
        referencesLimit: 100,
      },
    },
  ],
  async run(input, ctx): Promise<ReferencesData> {
    const r = await resolveSymbol(ctx, input.symbol);
    const { found, complete } = await referencesWhenReady(ctx, r.document, r.symbol);
    // A reference provider lists the declaration it is asked at: nothing at all may mean there is none for the language.
    if (found.length > 0) providerAnswered(ctx, r.document, 'references');
    else await requireLocationProvider(ctx, r.document, 'references', 'references', r.symbol.selectionRange.start);
    const decl = (t: HostTarget) => t.absPath === r.document.absolutePath && t.range.start === r.symbol.selectionRange.start;
    const all = dedupeTargets(found.filter((t) => input.includeDeclaration !== false || !decl(t)));
    const grouped = targetsByPath(all);
    const documentCount = grouped.size;
    // The page's references: the list continues after the last reference of the last document the agent received.
    const folder = r.document.workspace;
    const start = ctx.pageStart('documents', all, {
      digest: listDigest([...grouped].map(([absPath, targets]) => [absPath, ...targets.flatMap((t) => [t.range.start, t.range.end])])),
      paths: [...grouped.keys()].filter((p) => isInside(folder.fsPath, p)).map((p) => toPosix(path.relative(folder.fsPath, p))),
      consumed: (received) => covered(received.length),
    });
    const n = input.referencesLimit ?? 50;
    // In the staged view the name's length is the staged one (a staged rename changes it).
    const declared =
      r.document.staged?.state === 'mapped'
        ? r.document.staged.map.toStaged(r.symbol.selectionRange.start, r.symbol.selectionRange.end)
        : r.symbol.selectionRange;
    const nameLength = declared.end - declared.start;
    const member = MEMBER_KINDS.has(r.symbol.kind);
    const folderId = r.document.workspace.shortId;
    const byFile = targetsByPath(all.slice(start));
    // The first n references, document by document.
    const plan: { absPath: string; targets: HostTarget[] }[] = [];
    let left = n;
    for (const [absPath, targets] of byFile) {
      if (left <= 0) break;
      plan.push({ absPath, targets: targets.slice(0, left) });
      left -= Math.min(left, targets.length);
    }
    const referenceDocument = async ({ absPath, targets }: (typeof plan)[number]): Promise<BuiltDocument> => {
      let doc: ResolvedDocument;
      try {
        doc = await ctx.document({ path: absPath }, undefined, 'reference');
      } catch {
        return { outside: targets.length };
      }
      const [roots, writes] = await Promise.all([documentSymbolTree(ctx, doc).catch(() => [] as HostSymbol[]), writesAt(ctx, doc, targets[0].range.start)]);
      // The highlights' word, read against the syntax (a destructuring shorthand reads the member it names): core/symbols/access.ts.
      const readingsKey = `${doc.host.languageId}\0${doc.absolutePath}`;
      const readings = ctx.services.caches.syntaxReadings.get(readingsKey, doc.host.text) ?? new Map();
      const accessAt = accessReader(doc.host.text, doc.host.languageId, { readings });
      const isWrite = (t: HostTarget) => accessAt(t.range.start, t.range.end - t.range.start, writes.has(t.range.start) ? 'write' : 'read', member) === 'write';
      const lines: ReferenceLine[] = [];
      let current: ReferenceLine | undefined;
      let listed = 0; // references on the current line so far
      let imports = false; // the current line is an import statement
      let said: string | undefined; // the container the lines so far say (an entry without in keeps it)
      let lastText: string | undefined; // the text the entry before says (an entry without text has the same)
      // In the staged view the buffer's offsets, lines and text are mapped into the staged text.
      const view = doc.staged?.state === 'mapped' ? doc.staged : undefined;
      const text = view?.lines ?? doc.lines;
      for (const t of targets) {
        const mapped = view ? view.map.toStaged(t.range.start, t.range.end) : { start: t.range.start, end: t.range.end, edited: false };
        const line = text.positionAt(mapped.start).line + 1;
        const enclosing = enclosingPath(
          roots,
          t.range.start,
          t.range.end,
          doc.lines.offsetAt({ line: doc.lines.positionAt(t.range.start).line, character: 0 }),
        );
        // One entry per line and container: the text and container are said once for all their references.
        if (!current || current.line !== line || current.in !== enclosing) {
          const full = text.lineText(line - 1);
          const trimmed = full.trim();
          imports = IMPORT_LINE.test(trimmed);
          const shown = imports
            ? undefined
            : lineWindow(trimmed, mapped.start - text.offsetAt({ line: line - 1, character: 0 }) - (full.length - full.trimStart().length));
          current = imports ? { line, text: '' } : shown === lastText ? { line } : { line, text: shown };
          lastText = shown;
          if ((enclosing ?? '') !== (said ?? '')) current.in = enclosing ?? '';
          said = enclosing;
          lines.push(current);
          listed = 0;
        }
        const length = mapped.end - mapped.start;
        if (length !== nameLength && !current.len) current.len = Array<number>(listed).fill(nameLength);
        current.len?.push(length);
        const access: ReferenceAccess = decl(t) ? 'decl' : imports ? 'import' : isWrite(t) ? 'write' : 'at';
        (current[access] ??= []).push(mapped.start);
        listed++;
        if (mapped.edited) (current.edited ??= []).push(mapped.start);
      }
      // What the syntax said is a matter of the text alone: kept for the next question on it.
      if (readings.size > 0) ctx.services.caches.syntaxReadings.set(readingsKey, doc.host.text, readings);
      const document: ReferenceDocument = { path: view?.ref.path ?? doc.relativePath, lines: lines.map(encodeLine) };
      if (doc.workspace.shortId !== folderId) document.folderId = doc.workspace.shortId;
      if (doc.staged && !view) document.staged = doc.staged.state as 'deleted' | 'unmapped';
      return { document, lines, bytes: utf8Bytes(JSON.stringify(document)) };
    };
    // Documents REFERENCE_DOCUMENTS_AT_ONCE at a time, so the round trips overlap; none started once the answer
    // exceeds the output limit (output bounding would drop those documents anyway, and each costs provider calls).
    const items: ReferenceDocument[] = [];
    let outside = 0;
    let bytes = 0;
    const done = await mapConcurrently(plan, REFERENCE_DOCUMENTS_AT_ONCE, async (p) => {
      if (bytes > ctx.maxOutputBytes) return undefined;
      const r = await referenceDocument(p);
      bytes += r.bytes ?? 0;
      return r;
    });
    // Where each listed document's references end in the page, counting the documents outside the folders before it.
    // The page ends where the output limit does, inside a document if it must: bounding drops whole documents, so one
    // with more lines than the limit holds would leave the page empty, and without a cursor.
    const ends: number[] = [];
    let through = 0;
    let room = ctx.maxOutputBytes - REFERENCES_RESERVE_BYTES;
    for (const [i, r] of done.entries()) {
      if (!r) break;
      if (!r.document || !r.lines || r.bytes === undefined) {
        through += plan[i].targets.length;
        outside += r.outside ?? 0;
        continue;
      }
      // A document's bytes and the comma after it; only one that does not fit whole is measured line by line.
      const whole = r.bytes + 1 <= room;
      const part = whole ? { document: r.document, bytes: r.bytes + 1, references: plan[i].targets.length } : linesWithin(r.document, r.lines, room);
      if (!part) break;
      items.push(part.document);
      ends.push((through += part.references));
      if (part.document.lines.length < r.document.lines.length) break;
      room -= part.bytes;
    }
    // Bounding keeps a prefix of the documents: the references they cover, and those after them only when none was dropped.
    const covered = (received: number) => (received >= items.length ? through : received > 0 ? ends[received - 1] : 0);
    const data: ReferencesData = {
      symbol: referencesSymbol(symbolOutput(ctx, r.document, r.symbol, r.containers)),
      folderId,
      documents: { items, hasMore: start + through < all.length, totalCount: documentCount },
      totalReferences: all.length,
      complete,
    };
    if (outside > 0) data.outsideWorkspace = outside;
    if (input.residue) {
      const name = r.document.host.text.slice(r.symbol.selectionRange.start, r.symbol.selectionRange.end);
      data.residue = await referenceResidue(ctx, r.document, name, found);
    }
    if (!complete) {
      data.note = `The ${r.document.host.languageId} language service answered only from open files; it may still be loading the project (or it only knows open files). Ask again in a few seconds.`;
    }
    return data;
  },
});

/** Room find-references leaves beside its documents: the queried symbol, counts, a note, the envelope and a cursor (the residue gives way first). */
const REFERENCES_RESERVE_BYTES = 1024;

/** A listed document as built (its lines before encoding too), or how many references lie outside the folders. */
type BuiltDocument = { document?: ReferenceDocument; lines?: ReferenceLine[]; bytes?: number; outside?: number };

/** The first lines of a document that fit `room` bytes, their bytes and how many references they hold; undefined when not one does. */
function linesWithin(document: ReferenceDocument, lines: readonly ReferenceLine[], room: number) {
  let bytes = utf8Bytes(JSON.stringify({ ...document, lines: [] }));
  let references = 0;
  let kept = 0;
  for (let row = 0; kept < lines.length && bytes + (row = utf8Bytes(JSON.stringify(document.lines[kept]))) + 1 <= room; kept++) {
    bytes += row + 1;
    references += lineReferences(lines[kept]).length;
  }
  return kept === 0 ? undefined : { document: { ...document, lines: document.lines.slice(0, kept) }, bytes, references };
}

/**
 * The residue of the symbol's name in its folder: every reference found (the declaration too) is
 * known. In the staged view a document the transaction changed is scanned in its staged text, the
 * references mapped into it; one whose buffer changed since staging, or that is deleted, is not scanned.
 */
async function referenceResidue(ctx: ToolContext, doc: ResolvedDocument, name: string, found: readonly HostTarget[]): Promise<Residue> {
  const workspace = doc.workspace;
  const rel = (absPath: string) => toPosix(path.relative(workspace.fsPath, absPath));
  const byPath = new Map<string, HostTarget[]>();
  for (const t of found) if (isInside(workspace.fsPath, t.absPath)) byPath.set(rel(t.absPath), [...(byPath.get(rel(t.absPath)) ?? []), t]);
  const known = new Map<string, Set<number>>();
  const staged = ctx.view === 'staged';
  const tm = ctx.services.transactions;
  const skipped = new Set<string>();
  for (const [p, targets] of byPath) {
    if (!staged || tm.stagedView(workspace, p) === undefined) {
      known.set(p, new Set(targets.map((t) => t.range.start)));
      continue;
    }
    const resolved = await ctx.document({ path: targets[0].absPath }, undefined, 'reference').catch(() => undefined);
    const view = resolved?.staged;
    if (view?.state !== 'mapped') skipped.add(p);
    else known.set(view.ref.path, new Set(targets.map((t) => view.map.toStaged(t.range.start, t.range.end).start)));
  }
  return findResidue({
    name,
    languageId: doc.host.languageId,
    workspace,
    editor: ctx.editor,
    known,
    ...(staged
      ? {
          textOf: (p: string) => {
            if (skipped.has(p)) return null;
            const v = tm.stagedView(workspace, p);
            return v === 'gone' ? null : v?.text;
          },
          extraPaths: tm.changedDocuments(workspace).flatMap((d) => (d.path !== null && d.path !== d.origin?.path ? [d.path] : [])),
        }
      : {}),
  });
}

/** Start offsets of the write accesses among the highlights of the symbol at an offset of a document. */
async function writesAt(ctx: ToolContext, doc: ResolvedDocument, offset: number): Promise<ReadonlySet<number>> {
  const kept = ctx.services.caches.writeAccesses;
  const key = `${doc.host.languageId}\0${doc.absolutePath}\0${offset}`;
  const hit = kept.get(key, doc.host.text);
  if (hit) return hit;
  const highlights = await ctx.editor.documentHighlights(doc.absolutePath, offset);
  const writes = new Set((highlights ?? []).filter((h) => h.kind === 'write').map((h) => h.range.start));
  // Whether a reference writes is a matter of its own text: kept while the document's text is unchanged.
  if (highlights !== undefined && (await ctx.editor.readDocument(doc.absolutePath))?.text === doc.host.text) kept.set(key, doc.host.text, writes);
  return writes;
}

function referencesSymbol(symbol: SymbolOutput): ReferencesSymbol {
  const { snapshot: _own, ...rest } = symbol;
  return rest;
}

/**
 * Dotted names of the symbols whose range contains [start, end], excluding a symbol whose name is
 * exactly that span, and leaving out the innermost ones declared on the line from `lineStart`
 * on (the line text shows their names).
 */
function enclosingPath(roots: readonly HostSymbol[], start: number, end: number, lineStart: number): string | undefined {
  const path: HostSymbol[] = [];
  let level = roots;
  for (;;) {
    const next = level.find((s) => s.range.start <= start && end <= s.range.end && !(s.selectionRange.start === start && s.selectionRange.end === end));
    if (!next) break;
    path.push(next);
    level = next.children;
  }
  while (path.length > 0 && path[path.length - 1].selectionRange.start >= lineStart) path.pop();
  const names: string[] = [];
  let inBody = false;
  for (const s of path) {
    // A function's locals are no place an agent goes to: the function is the container.
    if (!isAnonymous(s.name) && !(inBody && LOCAL_KINDS.has(s.kind))) names.push(s.name);
    inBody ||= CALLABLE_KINDS.has(s.kind);
  }
  return names.length > 0 ? containerLabel(names) : undefined;
}

const CALLABLE_KINDS = new Set(['Function', 'Method', 'Constructor']);
const LOCAL_KINDS = new Set(['Variable', 'Constant', 'Property', 'Field']);

/**
 * TypeScript lists anonymous functions as symbols named by their call ("it('emits …') callback") or
 * "<function>". They name nothing an agent can select, and on test files they were 41% of an
 * answer's bytes (tiptap's Editor): containers are the named symbols around them.
 */
export const isAnonymous = (name: string): boolean => / callback$/.test(name) || name === '<function>';

const CONTAINER_MAX = 40;

/** The dotted container path, innermost names kept when it is too long, "…" marking what was cut. */
export function containerLabel(names: readonly string[]): string {
  const whole = names.join('.');
  if (whole.length <= CONTAINER_MAX) return whole;
  let kept = names[names.length - 1];
  // "…." goes before what is kept.
  if (kept.length > CONTAINER_MAX - 2) return `${kept.slice(0, CONTAINER_MAX - 2)}…`;
  for (let i = names.length - 2; i >= 0 && 2 + names[i].length + 1 + kept.length <= CONTAINER_MAX; i--) kept = `${names[i]}.${kept}`;
  return `….${kept}`;
}
