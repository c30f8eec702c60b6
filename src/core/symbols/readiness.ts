/**
 * Whether a language service answers for the whole project or only for the open files. The
 * TypeScript extension, for one, routes references, rename, implementations and workspace symbol
 * search to a syntax-only server while the project loads: its answers then cover the open files
 * and look complete. Every tool whose answer or edit spans files asks here first.
 *
 * The test is one a loaded service passes and a loading one cannot: a workspace symbol search
 * finds a declaration that sits in a file no editor has open. Once passed, the proof holds until
 * a document of the language opens (that is when a service may start loading another project);
 * then the same probe is asked once more.
 */
import type { Readiness, ResolvedDocument, ToolContext } from '../documents/context';
import { retry, ToolError } from '../chain/envelope';
import type { HostSymbol } from '../documents/editorPort';
import type { JsonSchema } from '../chain/schemas';
import { documentSymbolTree } from './symbols';
import type { Workspace } from '../documents/workspaces';
import type { Coverage } from './coverage';
import { dirtyBuffers } from '../transactions/check';
import { languageFamily, readResidueAhead } from './residue';

export type { Coverage } from './coverage';

export const READINESS = {
  /** Longest wait for a loading service within one call (the call's own timeout bounds it too). */
  maxWaitMs: 20_000,
  stepMs: 250,
  /** Time kept back from the call's timeout for the answer itself. */
  marginMs: 3_000,
  /** What one probe of the first round may take even when no wait is left (a loaded service answers in milliseconds). */
  firstProbeMs: 2_000,
  retryAfterSeconds: 5,
  /**
   * After a service proves it loaded, how long its answers may still be slow (it is building the
   * program the proof only searched): an answer that misses the call's timeout then is
   * LanguageServiceStarting, to ask again, not a Timeout, which says to narrow the question.
   */
  settleMs: 30_000,
  /**
   * A loaded service's folder is read for the residue's word scan this long after a call saw it
   * loaded (after that call, most likely), and again at most this often: what the scan keeps is
   * checked, not read again.
   */
  wordsAheadDelayMs: 1_000,
  wordsAheadEveryMs: 60_000,
};

interface Probe {
  absPath: string;
  name: string;
}

interface Proof {
  probe: Probe;
  /** Open documents of the language when the proof was made. */
  open: ReadonlySet<string>;
  /** When it was made (Date.now()). */
  at: number;
}

/** A language the check cannot test, remembered like a proof: until a document of the language opens. */
interface Untestable {
  verdict: Extract<Coverage, { state: 'unverifiable' }>;
  open: ReadonlySet<string>;
}

/** A declaration at the start of a line (so not in a comment), in most languages' syntax. */
const DECLARATION =
  /^[ \t]*(?:(?:export|pub|declare|default|async|abstract|public|static)\s+)*(?:class|interface|function|enum|type|const|let|var|def|struct|trait|fn|func|module|namespace)\s+([A-Za-z_$][\w$]{2,})/gm;
const NAMES_PER_FILE = 3;
const MAX_PROBES = 8;
const MAX_FILES_READ = 24;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Per editor session: which languages have shown they answer for the whole project. */
export class ProjectReadiness implements Readiness {
  private readonly proofs = new Map<string, Proof>();
  private readonly untestable = new Map<string, Untestable>();
  /** Per language: when a call first saw its service covering the project (a proof, or an answer that showed it). */
  private readonly loadedSeen = new Map<string, number>();
  /** Per folder and language family: when its files were last read ahead for the residue's scan. */
  private readonly wordsReadAt = new Map<string, number>();
  /** Per call: the languages noteDocument already noted. */
  private readonly noted = new WeakMap<ToolContext, Set<string>>();

  /** Forgets every proof (benchmarks measure first calls this way). */
  clear(): void {
    this.proofs.clear();
    this.untestable.clear();
    this.loadedSeen.clear();
    this.wordsReadAt.clear();
  }

  /**
   * Waits, at most maxWaitMs (default: what the call's timeout leaves, up to READINESS.maxWaitMs),
   * until the document's language service answers for the project, and says whether it did.
   */
  async coverage(ctx: ToolContext, doc: ResolvedDocument, maxWaitMs?: number): Promise<Coverage> {
    const c = await this.verdict(ctx, doc, maxWaitMs);
    if (c.state === 'loading' || (c.state === 'loaded' && c.settling)) lateMeansStarting(ctx, c.languageId);
    if (c.state === 'loaded') {
      this.computeCheckAhead(ctx, doc, c.provedAt);
      this.readWordsAhead(ctx, doc);
    } else if (c.state === 'unverifiable') this.computeCheckAhead(ctx, doc, undefined);
    return c;
  }

  noteLoaded(ctx: ToolContext, doc: ResolvedDocument): void {
    this.computeCheckAhead(ctx, doc, Date.now());
  }

  /**
   * An agent at work in a loaded project is likely to stage and check soon: the check's current
   * side is computed meanwhile, from READINESS.settleMs after the service was first seen loaded
   * (never beside its loading). seenAt: undefined when the service cannot be tested.
   */
  private computeCheckAhead(ctx: ToolContext, doc: ResolvedDocument, seenAt: number | undefined): void {
    // Nothing can be staged, so nothing will be checked.
    if (ctx.services.settings().effectiveMode === 'inspection-only') return;
    const language = doc.host.languageId;
    if (seenAt !== undefined && !this.loadedSeen.has(language)) this.loadedSeen.set(language, seenAt);
    const first = this.loadedSeen.get(language);
    const notBefore = seenAt === undefined || first === undefined ? undefined : first + READINESS.settleMs;
    ctx.services.checks.warm(doc.workspace, doc.absolutePath, () => dirtyBuffers(ctx.editor, doc.workspace), { notBefore });
  }

  /** A rename's residue scans every file of the folder's language family: the first one finds them read. */
  private readWordsAhead(ctx: ToolContext, doc: ResolvedDocument): void {
    const languageId = doc.host.languageId;
    const key = `${doc.workspace.id}\0${languageFamily(languageId).join(',')}`;
    const at = this.wordsReadAt.get(key);
    if (at !== undefined && Date.now() - at < READINESS.wordsAheadEveryMs) return;
    this.wordsReadAt.set(key, Date.now());
    const editor = ctx.editor;
    setTimeout(() => void readResidueAhead({ languageId, workspace: doc.workspace, editor }), READINESS.wordsAheadDelayMs).unref?.();
  }

  private async verdict(ctx: ToolContext, doc: ResolvedDocument, maxWaitMs?: number): Promise<Coverage> {
    const language = doc.host.languageId;
    const openOfLanguage = () => openOf(ctx.editor.openDocuments(), language);
    const proof = this.proofs.get(language);
    if (proof) {
      const open = openOfLanguage();
      const unchanged = open === proof.open || [...open].every((p) => proof.open.has(p));
      if (unchanged) return { state: 'loaded', languageId: language, provedAt: proof.at, settling: settling(proof) };
      if (!open.has(proof.probe.absPath) && (await found(ctx, proof.probe))) {
        const again = { probe: proof.probe, open, at: Date.now() };
        this.proofs.set(language, again);
        return { state: 'loaded', languageId: language, provedAt: again.at, settling: true };
      }
      this.proofs.delete(language);
    }
    const known = this.untestable.get(language);
    if (known) {
      const open = openOfLanguage();
      if (open === known.open || [...open].every((p) => known.open.has(p))) return known.verdict;
      this.untestable.delete(language);
    }
    const untestable = (verdict: Extract<Coverage, { state: 'unverifiable' }>): Coverage => {
      // Reading the folder's files again on every call would find the same: kept until a document of the language opens.
      this.untestable.set(language, { verdict, open: openOfLanguage() });
      return verdict;
    };
    const { closed, probes } = await closedFileProbes(ctx, doc);
    if (closed === 0) return untestable({ state: 'unverifiable', why: 'all-open', reason: `every ${language} file of the folder is open` });
    if (probes.length === 0) {
      return untestable({ state: 'unverifiable', why: 'no-probe', reason: `no declaration found in the closed ${language} files to test the service with` });
    }
    const budget = maxWaitMs ?? Math.min(READINESS.maxWaitMs, Math.max(0, ctx.remainingMs() - READINESS.marginMs));
    const started = Date.now();
    // A busy service can take seconds per search: each one is cut at what is left of the wait.
    const left = () => Math.max(0, budget - (Date.now() - started));
    const loading = (): Coverage => ({ state: 'loading', languageId: language, waitedMs: Date.now() - started });
    let searches: boolean | 'starting' | undefined;
    for (let round = 0; ; round++) {
      const open = openOfLanguage();
      for (const p of probes) {
        // A cancelled call has already answered: its wait (probing a busy service for seconds) ends here.
        if (ctx.cancelled) return loading();
        if (open.has(p.absPath)) continue;
        if (await within(found(ctx, p), round === 0 ? Math.max(left(), READINESS.firstProbeMs) : left())) {
          const proof = { probe: p, open, at: Date.now() };
          this.proofs.set(language, proof);
          return { state: 'loaded', languageId: language, provedAt: proof.at, settling: true };
        }
        if (round > 0 && left() === 0) return loading();
      }
      // Nothing found: a service that searches no workspace symbols at all can never pass the test.
      // Not remembered: a service still starting may not search yet either. Asked again while its extension activates.
      if (round === 0 || searches === 'starting') {
        searches = await within(searchesSymbols(ctx, doc), round === 0 ? Math.max(left(), READINESS.firstProbeMs) : left());
        const reason = `the ${language} service has no workspace symbol search to test it with`;
        if (searches === false) return { state: 'unverifiable', why: 'no-search', reason };
      }
      // No proof in the first round: a call that runs out of time while the probes go on says so.
      if (round === 0) lateMeansStarting(ctx, language);
      if (left() === 0 || ctx.cancelled) return loading();
      await sleep(Math.min(READINESS.stepMs, left()));
    }
  }

  /**
   * Before any verdict of this call: a service never proved loaded, or proved moments ago, may be
   * what makes the call slow (resolving a selector already asks it); a language with no service
   * or none to test is left out.
   */
  noteDocument(ctx: ToolContext, languageId: string): void {
    // Once per call and language: a reference list resolves a hundred documents of one language.
    const noted = this.noted.get(ctx) ?? new Set<string>();
    if (noted.has(languageId)) return;
    this.noted.set(ctx, noted.add(languageId));
    if (this.untestable.has(languageId)) return;
    const proof = this.proofs.get(languageId);
    if (proof && !settling(proof)) return;
    if (ctx.editor.languages().some((l) => l.id === languageId && l.providedBy.length > 0)) lateMeansStarting(ctx, languageId);
  }

  /**
   * Coverage of every language service a folder-wide question reaches: the languages of the
   * folder's open documents, or, with none open, the language of its most common source files
   * (asking for that document's symbols starts its service).
   */
  async folderCoverage(ctx: ToolContext, w: Workspace): Promise<Coverage[]> {
    const inFolder = (p: string) => p.startsWith(w.fsPath.replace(/[\\/]+$/, '') + (w.fsPath.includes('\\') && !w.fsPath.includes('/') ? '\\' : '/'));
    const samples = new Map<string, string>();
    for (const d of ctx.editor.openDocuments()) if (inFolder(d.absPath) && !samples.has(d.languageId)) samples.set(d.languageId, d.absPath);
    if (samples.size === 0) {
      const served = ctx.editor.languages().filter((l) => l.providedBy.length > 0);
      const { paths } = await w.files();
      const byLanguage = new Map<string, string[]>();
      for (const p of paths) {
        const ext = /\.[^./]+$/.exec(p)?.[0]?.toLowerCase();
        const language = ext ? served.find((l) => l.extensions.some((e) => e.toLowerCase() === ext)) : undefined;
        if (language) byLanguage.set(language.id, [...(byLanguage.get(language.id) ?? []), p]);
      }
      const most = [...byLanguage.entries()].sort((a, b) => b[1].length - a[1].length)[0];
      if (most) samples.set(most[0], joinPath(w.fsPath, most[1][0]));
    }
    const out: Coverage[] = [];
    for (const absPath of samples.values()) {
      const doc = await ctx.document({ path: absPath }, { workspaceId: w.id }, 'workspace').catch(() => undefined);
      if (doc) out.push(await this.coverage(ctx, doc));
    }
    return out;
  }

  /** For mutations: waits like coverage, then refuses with LanguageServiceStarting while the service is still loading. */
  async require(ctx: ToolContext, doc: ResolvedDocument, what: string): Promise<Coverage> {
    const c = await this.coverage(ctx, doc);
    if (c.state === 'loading') throw starting(c, `${what} would be computed from the open files only, so nothing was staged`);
    return c;
  }
}

/** The open documents of a language, kept while the host returns the same list (every query's verdict asks). */
const openByList = new WeakMap<readonly object[], Map<string, ReadonlySet<string>>>();
function openOf(list: readonly { readonly absPath: string; readonly languageId: string }[], language: string): ReadonlySet<string> {
  let byLanguage = openByList.get(list);
  if (!byLanguage) openByList.set(list, (byLanguage = new Map()));
  let open = byLanguage.get(language);
  if (!open) byLanguage.set(language, (open = new Set(list.filter((d) => d.languageId === language).map((d) => d.absPath))));
  return open;
}

const settling = (proof: Proof): boolean => Date.now() - proof.at < READINESS.settleMs;

/**
 * A call that saw the language's service loading (or proved loaded moments ago, still building
 * what it loaded) and then runs out of time answers LanguageServiceStarting, to ask again:
 * on a busy machine a cold service can take longer than any margin kept for it.
 */
function lateMeansStarting(ctx: ToolContext, languageId: string): void {
  const since = Date.now();
  ctx.setLateAnswer(() =>
    starting(
      { state: 'loading', languageId, waitedMs: Date.now() - since },
      'the call ran out of time before its answer was complete, so it answers nothing (and stages nothing)',
    ),
  );
}

/** LanguageServiceStarting for a service that was still loading its project after waiting. */
export function starting(c: Extract<Coverage, { state: 'loading' }>, consequence: string): ToolError {
  return new ToolError(
    'LanguageServiceStarting',
    `The ${c.languageId} language service is still loading the project (waited ${(c.waitedMs / 1000).toFixed(1)} s): ${consequence}. This is not an empty result.`,
    retry(`Ask again in ${READINESS.retryAfterSeconds} seconds.`),
    { languageId: c.languageId, retryAfterSeconds: READINESS.retryAfterSeconds },
  );
}

export interface PartialAnswer {
  complete: false;
  note: string;
}

/** The optional fields of an answer that may be partial (present only when it is). */
export const partialProperties: Record<string, JsonSchema> = {
  complete: {
    const: false,
    description: 'Only when partial: a language service was still loading the project, or the call ran short of time (note says which).',
  },
  note: { type: 'string' },
};

/** What a query adds to an answer given while its service was still loading. */
export function partialNote(c: Extract<Coverage, { state: 'loading' }>): PartialAnswer {
  return {
    complete: false,
    note: `Partial: the ${c.languageId} language service was still loading the project after ${(c.waitedMs / 1000).toFixed(1)} s, so this covers the open files only. Ask again in ${READINESS.retryAfterSeconds} seconds.`,
  };
}

/**
 * A project-wide query, asked once the document's service covers the project (waiting for it).
 * Still loading: a non-empty answer comes back marked partial; an empty one is refused
 * (LanguageServiceStarting), since "none" is exactly what a loading service says wrongly.
 */
export async function whenCovered<T>(
  ctx: ToolContext,
  doc: ResolvedDocument,
  what: string,
  ask: () => Promise<T>,
  isEmpty: (answer: T) => boolean,
): Promise<{ answer: T; partial?: PartialAnswer }> {
  const c = await ctx.services.readiness.coverage(ctx, doc);
  if (c.state === 'loaded' && c.settling) return { answer: await beforeTimeout(ctx, c.languageId, what, ask()) };
  if (c.state !== 'loading') return { answer: await ask() };
  const answer = await inTime(ctx, c, what, ask);
  if (isEmpty(answer)) throw starting(c, `no ${what} found in the open files, and the files nobody has open are not searched yet`);
  return { answer, partial: partialNote(c) };
}

/**
 * A loading service can be slow to answer even from the open files (a busy machine, a project
 * being read): the call refuses with LanguageServiceStarting in time rather than run into its timeout.
 */
export async function inTime<T>(ctx: ToolContext, c: Extract<Coverage, { state: 'loading' }>, what: string, ask: () => Promise<T>): Promise<T> {
  const late = Symbol('late');
  const answer = await within(ask(), Math.max(0, ctx.remainingMs() - READINESS.marginMs / 3), late);
  if (answer === late) throw starting(c, `the ${what} did not come back before the call's timeout`);
  return answer as T;
}

/**
 * A language-service request that must come back before the call's timeout: a service still
 * loading a big project (or a busy machine) can take longer than the whole call; the answer is
 * then LanguageServiceStarting, which says to ask again, not a Timeout that says to narrow it.
 */
export async function beforeTimeout<T>(ctx: ToolContext, languageId: string, what: string, ask: Promise<T>): Promise<T> {
  const late = Symbol('late');
  const started = Date.now();
  const answer = await within(ask, Math.max(0, ctx.remainingMs() - READINESS.marginMs / 3), late);
  if (answer === late) {
    throw starting({ state: 'loading', languageId, waitedMs: Date.now() - started }, `the ${what} did not come back before the call's timeout`);
  }
  return answer as T;
}

/** The request's answer, or undefined when it would come back too late for the call to answer in time. */
export function inTimeOrNot<T>(ctx: ToolContext, ask: Promise<T>): Promise<T | undefined> {
  return within(ask, Math.max(0, ctx.remainingMs() - READINESS.marginMs / 3));
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** The promise's value, or `fallback` (default undefined) when it takes longer than ms. */
async function within<T, F = undefined>(p: Promise<T>, ms: number, fallback?: F): Promise<T | F> {
  // A call without a deadline (Infinity) waits: setTimeout would take Infinity for 1 ms.
  if (!(ms <= MAX_TIMER_MS)) return p;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback as F), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function found(ctx: ToolContext, p: Probe): Promise<boolean> {
  return ((await ctx.editor.workspaceSymbols(p.name)) ?? []).some((s) => s.absPath === p.absPath);
}

/**
 * Whether workspace symbol search covers the document's language: it finds the document's own
 * first declaration. 'starting' while the language's extension is still activating: its providers
 * are not registered yet, so every search finds nothing, and that says nothing about the service.
 */
async function searchesSymbols(ctx: ToolContext, doc: ResolvedDocument): Promise<boolean | 'starting'> {
  let first: HostSymbol | undefined;
  try {
    first = (await documentSymbolTree(ctx, doc, 0))[0];
  } catch (e) {
    return e instanceof ToolError && e.code === 'LanguageServiceStarting' ? 'starting' : false;
  }
  return first !== undefined && ((await ctx.editor.workspaceSymbols(first.name)) ?? []).some((s) => s.absPath === doc.absolutePath);
}

/**
 * Declarations in files of the document's language (same extension) that no editor has open,
 * closest to the document first. `closed` is 0 when every such file is open.
 */
async function closedFileProbes(ctx: ToolContext, doc: ResolvedDocument): Promise<{ closed: number; probes: Probe[] }> {
  const ext = /\.[^./]+$/.exec(doc.relativePath)?.[0];
  if (!ext) return { closed: 0, probes: [] };
  const open = new Set(ctx.editor.openDocuments().map((d) => d.absPath));
  // The folder's file list as the workspace keeps it (listed again when files are created or deleted).
  const { paths } = await doc.workspace.files();
  const dir = doc.relativePath.split('/').slice(0, -1);
  const shared = (p: string) => {
    const parts = p.split('/');
    let n = 0;
    while (n < dir.length && parts[n] === dir[n]) n++;
    return n;
  };
  const candidates = paths
    .filter((p) => p.endsWith(ext))
    .map((p) => ({ rel: p, absPath: joinPath(doc.workspace.fsPath, p) }))
    .filter((c) => !open.has(c.absPath))
    .sort((a, b) => shared(b.rel) - shared(a.rel) || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const probes: Probe[] = [];
  // Bounded: in a language whose declarations the pattern does not know (Markdown, JSON) nothing is found.
  for (const c of candidates.slice(0, MAX_FILES_READ)) {
    if (probes.length >= MAX_PROBES) break;
    const text = await ctx.editor.readFileText(c.absPath, 64 * 1024);
    // Not Python's special methods (__init__, __repr__...): declared in most classes, a search for one lists the whole project.
    const names = [...(text ?? '').matchAll(DECLARATION)].map((m) => m[1]).filter((n) => !/^__\w+__$/.test(n));
    for (const name of names.slice(0, NAMES_PER_FILE)) probes.push({ absPath: c.absPath, name });
  }
  return { closed: candidates.length, probes };
}

function joinPath(folder: string, relative: string): string {
  const sep = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  return `${folder.replace(/[\\/]+$/, '')}${sep}${relative.split('/').join(sep)}`;
}
