/**
 * A symbol selector resolved to one symbol of a document's symbol tree. A selector names the
 * symbol in exactly one way: by a name path ("Subscription.add"), through the language service's
 * symbols; by a symbolId from an earlier answer; or by a location inside its name or declaration.
 */
import type { LocationSelector, ResolvedDocument, ResolvedLocation, ToolContext } from '../documents/context';
import { callTool, revise, ToolError } from '../chain/envelope';
import type { HostSymbol, HostWorkspaceSymbol } from '../documents/editorPort';
import { truncate } from '../documents/paths';
import type { Workspace, WorkspaceSelector } from '../documents/workspaces';
import type { Coverage } from './coverage';
import { beforeTimeout, inTime, starting } from './readiness';
import { documentSymbolTree, isLocal, lastSegmentOf, parseSymbolId, symbolIdOf, symbolOutput, symbolsAt, walkSymbols } from './symbols';
import type { ResolvedSymbol, Segment, SymbolOutput, SymbolSelector } from './symbols';

const FORMS = ['name', 'symbolId', 'location'] as const;
const NARROWING = ['path', 'kind', 'overload'] as const;

/**
 * Exactly one of name, symbolId or location, and path, kind and overload only beside a name. The
 * input schema leaves this to here: a oneOf would cost every tool's definition its branches.
 */
export function checkSymbolSelector(selector: SymbolSelector, field = 'symbol'): void {
  const given = FORMS.filter((f) => selector[f] !== undefined);
  if (given.length !== 1) {
    throw new ToolError(
      'InvalidRequest',
      given.length === 0
        ? `${field}: give one of name, symbolId or location.`
        : `${field}: give exactly one of name, symbolId or location, not ${given.map((g) => `${field}.${g}`).join(' and ')}.`,
      revise(
        `Give ${field}.name (a name path such as "Class.method"), ${field}.symbolId from an earlier answer, or ${field}.location (a span or a selection inside the symbol's name).`,
      ),
    );
  }
  const narrowing = NARROWING.filter((f) => selector[f] !== undefined);
  if (narrowing.length > 0 && selector.name === undefined) {
    throw new ToolError(
      'InvalidRequest',
      `${narrowing.map((n) => `${field}.${n}`).join(', ')} narrow${narrowing.length === 1 ? 's' : ''} a name: only with ${field}.name, not with ${field}.${given[0]}.`,
      revise(`Leave out ${narrowing.join(', ')}, or select the symbol by ${field}.name instead.`),
    );
  }
  if (selector.name !== undefined && selector.name.trim() === '') {
    throw new ToolError('InvalidRequest', `${field}.name is empty.`, revise(`Give the symbol's name path, such as "Class.method", as ${field}.name.`));
  }
}

/** "Kind name" of a returned symbol, for messages. */
function describeOutput(c: SymbolOutput): string {
  const last = lastSegmentOf(c.symbolId);
  return `${last?.kind ?? 'Symbol'} ${c.name ?? last?.name ?? c.symbolId}`;
}

/** ctx.location for the location of a symbol selector: its errors name the field as the request has it (`symbol.location...`). */
export async function symbolLocation(
  ctx: ToolContext,
  location: LocationSelector,
  workspace?: WorkspaceSelector | null,
  field = 'symbol',
): Promise<ResolvedLocation> {
  try {
    return await ctx.location(location, workspace);
  } catch (e) {
    throw e instanceof ToolError && e.message.startsWith('location.') ? new ToolError(e.code, `${field}.${e.message}`, e.continuation, e.details) : e;
  }
}

/** Resolves a symbol selector (a name path, a symbolId or a location) to one document symbol. */
export async function resolveSymbol(
  ctx: ToolContext,
  selector: SymbolSelector,
  workspace?: WorkspaceSelector | null,
  field = 'symbol',
): Promise<ResolvedSymbol> {
  checkSymbolSelector(selector, field);
  if (selector.symbolId !== undefined) return resolveSymbolId(ctx, selector.symbolId, workspace, field);
  if (selector.name !== undefined) return resolveName(ctx, { ...selector, name: selector.name }, workspace, field);
  const target = await symbolLocation(ctx, selector.location as LocationSelector, workspace, field);
  const doc = target.document;
  const roots = await documentSymbolTree(ctx, doc);
  const { match } = symbolsAt(roots, target.start, target.start + target.length);
  if (match.length === 1) {
    const { symbol, containers } = match[0];
    return { document: doc, symbol, containers, symbolId: symbolIdOf(doc.ref.documentId, roots, [...containers, symbol]) };
  }
  if (match.length > 1) {
    const candidates = match.map((m) => symbolOutput(ctx, doc, m.symbol, m.containers, roots));
    throw new ToolError(
      'SymbolAmbiguous',
      `The location in ${doc.relativePath} is inside ${match.length} symbols: ${candidates.map((c) => `${describeOutput(c)} (line ${c.line}, symbolId "${c.symbolId}")`).join('; ')}.`,
      revise(`Use one of the candidate symbolIds as ${field}.symbolId.`),
      { candidates },
    );
  }
  const line = doc.lines.positionAt(target.start).line;
  const near = walkSymbols(roots)
    .map((h) => ({ h, distance: Math.abs(doc.lines.positionAt(h.symbol.selectionRange.start).line - line) }))
    .sort((a, b) => a.distance - b.distance || a.h.symbol.selectionRange.start - b.h.symbol.selectionRange.start)
    .slice(0, 5)
    .map(({ h }) => symbolOutput(ctx, doc, h.symbol, h.containers, roots));
  throw new ToolError(
    'SymbolNotFound',
    `No symbol of ${doc.relativePath} contains line ${line + 1}${roots.length === 0 ? ' (the language service reports no symbols in this document)' : ''}.` +
      (near.length > 0 ? ` Nearest: ${near.map((c) => `${describeOutput(c)} (line ${c.line})`).join(', ')}.` : ''),
    near.length > 0
      ? revise(`Select the symbol's name, or use one of the nearest symbolIds as ${field}.symbolId.`)
      : callTool('get-document-outline', 'List the symbols of the document, then pick one.'),
    { nearest: near },
  );
}

async function resolveSymbolId(ctx: ToolContext, symbolId: string, workspace: WorkspaceSelector | null | undefined, field: string): Promise<ResolvedSymbol> {
  // A list's ref written relative to the row before it ("#/Method:b", "9f57a192:#Function:f", an outline's "/Property:x").
  if (/^(?:[0-9a-f]{8}:)?#|#\/|^\//.test(symbolId)) {
    throw new ToolError(
      'InvalidRequest',
      `${field}.symbolId "${truncate(symbolId)}" is written relative to the row before it in a list: "#" stands for that row's path and each "/" after it for one of its segments ("#/Method:b" after "src/a.ts#Class:A/Method:a" is "src/a.ts#Class:A/Method:b").`,
      revise('Write the whole symbolId, or give the symbol by name: {"name": "A.b", "path": "src/a.ts"}.'),
    );
  }
  const parsed = parseSymbolId(symbolId);
  if (!parsed) {
    throw new ToolError(
      'InvalidRequest',
      `${field}.symbolId "${truncate(symbolId)}" is not a symbolId. symbolIds look like "1a2b3c4d:src/shapes.ts#Class:Circle/Method:area" and come from earlier answers (an outline row's id after its documentId and "#", a search row's ref after its folderId and ":").`,
      revise('Pass a symbolId exactly as an earlier answer gave it, or use a location instead.'),
    );
  }
  // Without its folderId ("src/shapes.ts#Class:Circle", a search row's ref as it is): its document is found by path.
  const byPath = !/^[0-9a-f]{8}:/.test(parsed.documentId);
  const doc = await ctx.document(byPath ? { path: parsed.documentId } : { documentId: parsed.documentId }, workspace, `${field}.symbolId`);
  const roots = await documentSymbolTree(ctx, doc);
  const path: HostSymbol[] = [];
  let level: readonly HostSymbol[] = roots;
  for (const segment of parsed.segments) {
    const same = level.filter((s) => s.kind === segment.kind && s.name === segment.name);
    const next = same[segment.ordinal];
    if (!next) throw symbolIdNotFound(ctx, doc, roots, path, level, segment, field);
    path.push(next);
    level = next.children;
  }
  const symbol = path[path.length - 1];
  return { document: doc, symbol, containers: path.slice(0, -1), symbolId: symbolIdOf(doc.ref.documentId, roots, path) };
}

function symbolIdNotFound(
  ctx: ToolContext,
  doc: ResolvedDocument,
  roots: readonly HostSymbol[],
  path: HostSymbol[],
  level: readonly HostSymbol[],
  segment: Segment,
  field: string,
): ToolError {
  const lower = segment.name.toLowerCase();
  const score = (s: HostSymbol) =>
    s.name === segment.name ? 0 : s.name.toLowerCase() === lower ? 1 : s.name.toLowerCase().includes(lower) || lower.includes(s.name.toLowerCase()) ? 2 : 3;
  const near = [...level]
    .sort((a, b) => score(a) - score(b) || a.selectionRange.start - b.selectionRange.start)
    .slice(0, 8)
    .map((s) => symbolOutput(ctx, doc, s, path, roots));
  const where = path.length > 0 ? `inside ${path.map((s) => s.name).join('.')}` : 'at the top level';
  const overloads = level.filter((s) => s.kind === segment.kind && s.name === segment.name).length;
  return new ToolError(
    'SymbolNotFound',
    `${doc.relativePath} has no ${segment.kind} "${segment.name}"${segment.ordinal > 0 ? ` number ${segment.ordinal + 1} (there are ${overloads})` : ''} ${where} any more.` +
      (near.length > 0 ? ` Symbols there: ${near.map(describeOutput).join(', ')}.` : ''),
    revise(
      `The symbol was renamed, moved or deleted: resolve it again (search-symbols or a location), or use one of the listed symbolIds as ${field}.symbolId.`,
    ),
    { nearest: near },
  );
}

// ---------------------------------------------------------------- by name

/** Folders whose declarations a name is not looked up in (dependencies, build output), as search-symbols leaves them out. */
export const NOT_SOURCES = /(^|\/)(node_modules|\.git|out|dist)\//;

/** Documents whose symbol trees one name lookup reads, at most: those whose declarations sit in the named container first. */
export const NAME_DOCUMENTS_MAX = 40;

/** Candidates a SymbolAmbiguous or SymbolNotFound message lists, at most. */
const LISTED_MAX = 10;

type NameSelector = SymbolSelector & { name: string };

interface Candidate {
  doc: ResolvedDocument;
  roots: readonly HostSymbol[];
  symbol: HostSymbol;
  containers: HostSymbol[];
  /** The name path spells the whole container path, or only its last segments. */
  whole: boolean;
  local: boolean;
}

/**
 * The names a symbol answers to: its own, and without what some services add to it (TypeScript's
 * "(get) " before an accessor, a parameter list after a method's name).
 */
function namesOf(name: string): string[] {
  const out = [name];
  const accessor = /^\((?:get|set)\) (.+)$/.exec(name);
  if (accessor) out.push(accessor[1]);
  const signature = /^([^\s(]+)\(.*\)$/.exec(name);
  if (signature) out.push(signature[1]);
  return out;
}

/** How a name path names the symbol at the end of `path` (outermost first): by the whole path, by its last segments, or not. */
function matchPath(wanted: string, path: readonly HostSymbol[]): { whole: boolean } | undefined {
  const step = (rest: string, i: number): { whole: boolean } | undefined => {
    let tail: { whole: boolean } | undefined;
    for (const n of namesOf(path[i].name)) {
      // A name may itself hold a dot ("x.y"), so the path is matched from its end, not split.
      const found = rest === n ? { whole: i === 0 } : i > 0 && rest.endsWith(`.${n}`) ? step(rest.slice(0, -(n.length + 1)), i - 1) : undefined;
      if (found?.whole) return found;
      tail ??= found;
    }
    return tail;
  };
  return step(wanted, path.length - 1);
}

function candidatesIn(doc: ResolvedDocument, roots: readonly HostSymbol[], wanted: string, kind: string | undefined): Candidate[] {
  const out: Candidate[] = [];
  for (const { symbol, containers } of walkSymbols(roots)) {
    if (kind !== undefined && symbol.kind.toLowerCase() !== kind.toLowerCase()) continue;
    const match = matchPath(wanted, [...containers, symbol]);
    if (match) out.push({ doc, roots, symbol, containers, whole: match.whole, local: isLocal(symbol, containers) });
  }
  return out;
}

/** The last segment of a name path: what a workspace symbol search is asked for. */
function lastName(wanted: string): string {
  const last = wanted.slice(wanted.lastIndexOf('.') + 1) || wanted;
  return namesOf(last).pop() ?? last;
}

const idOf = (c: Candidate): string => symbolIdOf(c.doc.ref.documentId, c.roots, [...c.containers, c.symbol]);
const outputOf = (ctx: ToolContext, c: Candidate): SymbolOutput => symbolOutput(ctx, c.doc, c.symbol, c.containers, c.roots);

function describeCandidate(ctx: ToolContext, c: Candidate): string {
  const out = outputOf(ctx, c);
  return `${c.symbol.kind} ${[...c.containers, c.symbol].map((s) => s.name).join('.')} (${c.doc.relativePath}:${out.line}, symbolId "${out.symbolId}")`;
}

/** A symbol by its name path: with path, among that document's symbols; without, where the workspace symbol search finds the name. */
async function resolveName(ctx: ToolContext, selector: NameSelector, workspace: WorkspaceSelector | null | undefined, field: string): Promise<ResolvedSymbol> {
  const wanted = selector.name.trim();
  const kind = selector.kind;
  let candidates: Candidate[];
  let where: string;
  if (selector.path !== undefined) {
    const doc = await ctx.document({ path: selector.path }, workspace, `${field}.path`);
    const roots = await documentSymbolTree(ctx, doc);
    candidates = candidatesIn(doc, roots, wanted, kind);
    where = doc.relativePath;
    if (candidates.length === 0) throw notInDocument(doc, roots, wanted, kind, field);
  } else {
    ({ candidates, where } = await searchName(ctx, selector, wanted, workspace, field));
  }
  // A name spelling the whole container path wins over one matching its end, and a declaration over a local.
  const tier = [candidates.filter((c) => c.whole), candidates.filter((c) => !c.whole && !c.local), candidates].find((t) => t.length > 0) ?? [];
  let chosen = tier;
  if (selector.overload !== undefined) {
    // Overloads: the declarations of one name, kind and container in one document, in source order.
    const groups = new Map<string, Candidate[]>();
    for (const c of tier) {
      const key = idOf(c).replace(/~\d+$/, '');
      groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    const overload = selector.overload;
    chosen = [...groups.values()].flatMap((g) => (g.length > overload ? [g[overload]] : []));
    if (chosen.length === 0) {
      const most = Math.max(...[...groups.values()].map((g) => g.length));
      throw new ToolError(
        'SymbolNotFound',
        `"${wanted}" in ${where} has ${most} declaration${most === 1 ? '' : 's'} of that name, kind and container, so no overload ${overload} (overloads count from 0 in source order).`,
        revise(`Give ${field}.overload below ${most}, or leave it out.`),
        { candidates: tier.slice(0, LISTED_MAX).map((c) => outputOf(ctx, c)) },
      );
    }
  }
  if (chosen.length === 1) {
    const c = chosen[0];
    return { document: c.doc, symbol: c.symbol, containers: c.containers, symbolId: idOf(c) };
  }
  const listed = chosen.slice(0, LISTED_MAX);
  const overloads = new Set(chosen.map((c) => idOf(c).replace(/~\d+$/, ''))).size === 1;
  throw new ToolError(
    'SymbolAmbiguous',
    `"${wanted}"${kind ? ` (${kind})` : ''} names ${chosen.length} symbols in ${where}${overloads ? `, overloads of one declaration (${field}.overload 0 to ${chosen.length - 1}, in source order)` : ''}: ` +
      `${listed.map((c) => describeCandidate(ctx, c)).join('; ')}${chosen.length > listed.length ? `; and ${chosen.length - listed.length} more` : ''}.`,
    revise(
      overloads
        ? `Give ${field}.overload, or use one candidate's symbolId as ${field}.symbolId.`
        : `Use one candidate's symbolId as ${field}.symbolId, or narrow ${field}.name with a container ("Class.method"), ${field}.path or ${field}.kind.`,
    ),
    { candidates: listed.map((c) => outputOf(ctx, c)) },
  );
}

/**
 * The candidates for a name without a document: the workspace symbol search finds the documents
 * declaring its last segment, their symbol trees say the containers. The search is asked once the
 * language services cover the project: a service still loading has searched only the open files,
 * so finding nothing then is LanguageServiceStarting, never SymbolNotFound.
 */
async function searchName(
  ctx: ToolContext,
  selector: NameSelector,
  wanted: string,
  workspace: WorkspaceSelector | null | undefined,
  field: string,
): Promise<{ candidates: Candidate[]; where: string }> {
  const named = workspace && Object.values(workspace).some((v) => v !== undefined);
  const folders: readonly Workspace[] = named ? [ctx.workspace(workspace)] : ctx.registry.all();
  const coverage: Coverage[] = [];
  for (const w of folders) coverage.push(...(await ctx.services.readiness.folderCoverage(ctx, w)));
  const loading = coverage.find((c): c is Extract<Coverage, { state: 'loading' }> => c.state === 'loading');
  const settling = coverage.find((c): c is Extract<Coverage, { state: 'loaded' }> => c.state === 'loaded' && c.settling);
  const query = lastName(wanted);
  const what = `declarations named "${query}"`;
  const search = () => ctx.editor.workspaceSymbols(query);
  const found = loading ? await inTime(ctx, loading, what, search) : settling ? await beforeTimeout(ctx, settling.languageId, what, search()) : await search();
  const inFolder = (s: HostWorkspaceSymbol): boolean =>
    folders.some((w) => {
      const root = w.fsPath.replace(/[\\/]+$/, '');
      const rest = s.absPath.startsWith(`${root}/`) || s.absPath.startsWith(`${root}\\`) ? s.absPath.slice(root.length + 1) : undefined;
      return rest !== undefined && !NOT_SOURCES.test(rest.replace(/\\/g, '/'));
    });
  const sources = (found ?? []).filter(inFolder);
  const named_ = sources.filter((s) => namesOf(s.name).includes(query));
  // Documents whose declaration sits in the named container first (the container the search reports), then by path.
  const container = wanted.includes('.') ? lastName(wanted.slice(0, wanted.lastIndexOf('.'))) : undefined;
  const paths = [
    ...new Set(
      named_
        .sort(
          (a, b) =>
            Number(b.containerName === container) - Number(a.containerName === container) || (a.absPath < b.absPath ? -1 : a.absPath > b.absPath ? 1 : 0),
        )
        .map((s) => s.absPath),
    ),
  ];
  const read = paths.slice(0, NAME_DOCUMENTS_MAX);
  const candidates: Candidate[] = [];
  for (const absPath of read) {
    const doc = await ctx.document({ path: absPath }, workspace, field);
    const roots = await documentSymbolTree(ctx, doc).catch((e: unknown) => {
      // The search found the name in a language without document symbols: nothing to place it in.
      if (e instanceof ToolError && e.code === 'UnsupportedLanguageFeature') return [] as HostSymbol[];
      throw e;
    });
    candidates.push(...candidatesIn(doc, roots, wanted, selector.kind));
  }
  candidates.sort(
    (a, b) => (a.doc.relativePath < b.doc.relativePath ? -1 : a.doc.relativePath > b.doc.relativePath ? 1 : 0) || a.symbol.range.start - b.symbol.range.start,
  );
  const where = `the workspace${read.length < paths.length ? ` (the first ${read.length} of ${paths.length} documents declaring "${query}")` : ''}`;
  if (candidates.length > 0) return { candidates, where };
  if (loading) throw starting(loading, `no declaration named "${wanted}" in the open files, and the files nobody has open are not searched yet`);
  const kindNote = selector.kind ? ` of kind ${selector.kind}` : '';
  if (found === undefined) {
    throw new ToolError(
      'SymbolNotFound',
      `No workspace symbol search answered for "${query}" (no installed language extension offers one), so "${wanted}" was not looked up.`,
      revise(`Add ${field}.path: the symbol is then looked up among that document's symbols.`),
    );
  }
  const others = (named_.length > 0 ? named_ : sources).slice(0, LISTED_MAX);
  const described = others.map(
    (s) => `${s.kind} ${s.containerName ? `${s.containerName}.` : ''}${s.name} (${relativeTo(folders, s.absPath)}:${s.start.line + 1})`,
  );
  throw new ToolError(
    'SymbolNotFound',
    `No symbol "${wanted}"${kindNote} in ${where}: the workspace symbol search for "${query}" found ${
      named_.length > 0
        ? `that name only as ${described.join(', ')}`
        : sources.length > 0
          ? `only other names: ${described.join(', ')}`
          : 'nothing in the open folders'
    }.`,
    others.length > 0
      ? revise(`Write ${field}.name as one of those ("Container.name"), or add ${field}.path.`)
      : callTool('search-symbols', 'Search for a part of the name, then use a symbolId from the answer.'),
  );
}

function relativeTo(folders: readonly Workspace[], absPath: string): string {
  for (const w of folders) {
    const root = w.fsPath.replace(/[\\/]+$/, '');
    if (absPath.startsWith(`${root}/`) || absPath.startsWith(`${root}\\`)) return absPath.slice(root.length + 1).replace(/\\/g, '/');
  }
  return absPath;
}

function notInDocument(doc: ResolvedDocument, roots: readonly HostSymbol[], wanted: string, kind: string | undefined, field: string): ToolError {
  const query = lastName(wanted).toLowerCase();
  const all = walkSymbols(roots).filter((h) => !isLocal(h.symbol, h.containers));
  const score = (name: string) => (name.toLowerCase() === query ? 0 : name.toLowerCase().includes(query) || query.includes(name.toLowerCase()) ? 1 : 2);
  const near = all
    .map((h) => ({ h, s: score(h.symbol.name) }))
    .filter((x) => x.s < 2)
    .sort((a, b) => a.s - b.s || a.h.symbol.range.start - b.h.symbol.range.start)
    .slice(0, LISTED_MAX)
    .map(({ h }) => `${h.symbol.kind} ${[...h.containers, h.symbol].map((s) => s.name).join('.')}`);
  return new ToolError(
    'SymbolNotFound',
    `${doc.relativePath} declares no "${wanted}"${kind ? ` of kind ${kind}` : ''}${roots.length === 0 ? ' (the language service reports no symbols in this document)' : ''}.` +
      (near.length > 0 ? ` Similar: ${near.join(', ')}.` : ''),
    near.length > 0
      ? revise(`Use one of those name paths as ${field}.name.`)
      : callTool('get-document-outline', 'List the symbols of the document, then pick one.'),
  );
}
