import * as path from 'node:path';
import { diagnosticsDelta, type DocumentDiagnostics } from './delta';
import { checkTexts, folderReads, programInput, type FolderReads, type SourceRow } from './inputs';
import { exposedNames, mayUseExposed, type Exposed } from './names';
import type { CheckedDiagnostic, CheckRequest, CheckResult, IncompleteReason } from './protocol';
import { LocalSide, type Side } from './side';
import { DEFAULT_MAX_DEPENDENTS, GaveWay, SourceFiles, Stop, View } from './view';
import type { FileReader, TextSource, Ts } from './view';

export { systemReader } from './view';
export type { Declarations, FileReader } from './view';

/** Who imports whom in a project, in either view: the folder's own files (not node_modules, not the default library); canonical paths. */
interface ImportGraph {
  importers: Map<string, Set<string>>;
  imports: Map<string, Set<string>>;
  names: Map<string, string>;
}

/** A tsconfig/jsconfig (or the loose files' default options) with its current and staged views; the current one unused when that side runs in another thread. */
class Project {
  readonly files: SourceFiles;
  readonly base: View;
  readonly staged: View;
  constructor(ts: Ts, reads: FolderReads) {
    this.files = new SourceFiles(ts);
    this.base = new View(ts, reads.reader, this.files, reads.folder, reads.canon);
    this.staged = new View(ts, reads.reader, this.files, reads.folder, reads.canon);
  }
}

export interface CheckerOptions {
  /** Whether dependents that cannot see the change are covered without computing their diagnostics (default true; false computes every one, for tests). */
  unaffectedDependents?: boolean;
  /** A current view in another thread (side.ts RemoteSide), for the projects of at least `twoThreadsFrom` characters; asked once, when the first is checked. */
  base?: (reads: FolderReads) => Side;
  /** Default TWO_THREADS_FROM. */
  twoThreadsFrom?: number;
}

/**
 * A project whose files hold at least this many characters has its current view checked in a
 * thread of its own (when the checker has one). Below it, starting the thread, warming TypeScript
 * up in it and parsing every file twice cost more than the two views checked at once save: on the
 * 2-core machine, rxjs (0.8 MB) took 3.3 s against 2.2 s in one thread; effect's (26 MB) first
 * check in VS Code 1.4 to 1.6 times tsc's time against 2.0 to 2.1 (docs/benchmarks.md).
 */
export const TWO_THREADS_FROM = 4_000_000;

/**
 * The warm checker of one workspace folder. Synchronous: the worker runs it, polling the host's
 * cancel through `cancelled` while TypeScript checks. Its current view may run in another thread
 * (options.base): each step then runs in both views at once.
 */
export class Checker {
  private readonly projects = new Map<string, Project>();
  private readonly reads: FolderReads;
  private readonly staged: LocalSide;
  private readonly localBase: LocalSide;
  private remoteBase: Side | undefined;
  /** Each project's current view: here, or in the other thread; chosen when the project is first checked. */
  private readonly bases = new Map<string, Side>();
  readonly folder: string;

  constructor(
    private readonly ts: Ts,
    reader: FileReader,
    folder: string,
    private readonly options: CheckerOptions = {},
  ) {
    this.reads = folderReads(ts, reader, folder);
    this.folder = this.reads.folder;
    this.staged = new LocalSide(this.reads, 'staged', (config) => this.project(config).staged);
    this.localBase = new LocalSide(this.reads, 'base', (config) => this.project(config).base);
  }

  /** The project's current view: in the other thread for a project of TWO_THREADS_FROM characters or more (its staged root files counted). */
  private chooseBase(config: string, rootNames: readonly string[], texts: TextSource): Side {
    let side = this.bases.get(config);
    if (side) return side;
    side = this.localBase;
    if (this.options.base && config !== '') {
      let size = 0;
      for (const f of rootNames) size += texts.read(f)?.length ?? 0;
      if (size >= (this.options.twoThreadsFrom ?? TWO_THREADS_FROM)) side = this.remoteBase ??= this.options.base(this.reads);
    }
    this.bases.set(config, side);
    return side;
  }

  /**
   * giveWay: for a check run ahead of time (the host runs one when a transaction is staged, so
   * that transaction-check finds the work done): asked between files; when it says so the check
   * answers cancelled and keeps what it computed, which the next check reuses. id: what the host's
   * cancel names this check by (a current view in another thread reads the same flags).
   */
  check(request: CheckRequest, cancelled: () => boolean = () => false, giveWay?: () => boolean, id = 0): CheckResult {
    const started = performance.now();
    const stop = new Stop(this.ts, cancelled, request.deadline, giveWay);
    const rel = (file: string) => path.posix.relative(this.folder, file);
    const canon = this.reads.canon;
    const { baseTexts, stagedTexts, stagedNames, created, deleted } = checkTexts(this.reads, request);
    const groups = this.groups(stagedNames, stagedTexts);
    const staged = this.staged;
    const begun = new Set<Side>();
    const baseOf = (config: string) => this.bases.get(config)!;

    const reasons = new Set<IncompleteReason>();
    let budget = request.maxDependents ?? DEFAULT_MAX_DEPENDENTS;
    const checkedOrder: string[] = [];
    const baseDiagnostics = new Map<string, CheckedDiagnostic[]>();
    const stagedDiagnostics = new Map<string, CheckedDiagnostic[]>();
    const projectsUsed: string[] = [];
    let recomputedBase = 0;
    let recomputedStaged = 0;
    /** Dependents covered without computing their diagnostics: nothing they import shows them a change. */
    const unaffected = new Set<string>();
    const interrupted: string[] = [];
    /** Both views' diagnostics of these files: the current view's asked first, so a thread of its own computes them while this one computes the staged ones. */
    const diagnose = (config: string, files: string[]) => {
      if (files.length === 0) return;
      const b = baseOf(config).diagnostics(config, files);
      const s = staged.diagnostics(config, files).wait();
      const c = b.wait();
      recomputedBase += c.recomputed;
      recomputedStaged += s.recomputed;
      for (const [key, rows] of c.entries) baseDiagnostics.set(key, rows);
      for (const [key, rows] of s.entries) stagedDiagnostics.set(key, rows);
    };
    const update = (config: string, files: string[]) => {
      const base = this.chooseBase(config, programInput(this.reads, config, stagedTexts, files, created, deleted, 'staged').rootNames, stagedTexts);
      if (!begun.has(base)) {
        base.begin(request, baseTexts, stop, { id, prepare: giveWay !== undefined });
        begun.add(base);
      }
      const b = base.update(config, files, created, deleted);
      staged.update(config, files, created, deleted).wait();
      b.wait();
    };

    const work: { config: string; files: string[] }[] = [];
    const loose: string[] = groups.get('') ?? [];
    try {
      staged.begin(request, stagedTexts, stop);
      for (const [config, files] of groups) {
        if (config === '') continue;
        update(config, files);
        const present = new Set([...staged.present(config, files), ...baseOf(config).present(config, files)]);
        const inProject = files.filter((f) => present.has(f));
        loose.push(...files.filter((f) => !present.has(f)));
        if (inProject.length > 0) work.push({ config, files: inProject });
      }
      if (loose.length > 0) {
        update('', loose);
        work.push({ config: '', files: loose });
      }
      const seen = new Set<string>();
      const plan: { config: string; fresh: string[]; dependents: string[]; graph: ImportGraph }[] = [];
      for (const { config, files } of work) {
        projectsUsed.push(config === '' ? '' : rel(config));
        const fresh = files.filter((f) => !seen.has(canon(f)));
        fresh.forEach((f) => seen.add(canon(f)));
        const graph = this.importGraph(config);
        const { dependents, capped } = this.dependents(graph, fresh, budget, seen);
        if (capped) reasons.add('dependent-cap');
        budget -= dependents.length;
        plan.push({ config, fresh, dependents, graph });
        checkedOrder.push(...fresh, ...dependents);
      }
      // The files whose text the two views do not share.
      const changed = new Set([...stagedNames].filter(([, f]) => baseTexts.read(f) !== stagedTexts.read(f)).map(([k]) => k));
      for (const { config, fresh, dependents, graph } of plan) {
        interrupted.push(config);
        diagnose(config, fresh);
        const skip =
          dependents.length > 0 && this.options.unaffectedDependents !== false ? this.unaffected(config, graph, changed, dependents) : new Set<string>();
        skip.forEach((k) => unaffected.add(k));
        diagnose(
          config,
          dependents.filter((f) => !skip.has(canon(f))),
        );
        interrupted.pop();
      }
    } catch (error) {
      if (error instanceof GaveWay) return { outcome: 'cancelled' };
      if (!(error instanceof this.ts.OperationCanceledException)) throw error;
      // An interrupted type checker may hold half-checked files: start that project's views over next time.
      for (const config of interrupted) {
        baseOf(config).drop(config);
        staged.drop(config);
      }
      if (stop.reason === 'cancelled') return { outcome: 'cancelled' };
      reasons.add('time-limit');
    }

    const documents: DocumentDiagnostics[] = [];
    const checked: string[] = [];
    for (const file of checkedOrder) {
      const key = canon(file);
      if (unaffected.has(key)) {
        checked.push(rel(file));
        continue;
      }
      const inBase = baseTexts.exists(file);
      const inStaged = stagedTexts.exists(file);
      const b = inBase ? baseDiagnostics.get(key) : [];
      const s = inStaged ? stagedDiagnostics.get(key) : [];
      // A document checked in one view only (the time limit came first) is not compared.
      if (b === undefined || s === undefined) continue;
      checked.push(rel(file));
      documents.push({ path: rel(file), base: b, staged: s, baseText: baseTexts.read(file), stagedText: stagedTexts.read(file) });
    }
    if (checked.length < checkedOrder.length) reasons.add('time-limit');
    const { introduced, resolved } = diagnosticsDelta(documents);
    return {
      outcome: 'checked',
      introduced,
      resolved,
      checked,
      complete: reasons.size === 0,
      reasons: [...reasons],
      projects: projectsUsed,
      typescriptVersion: this.ts.version,
      stats: { recomputedBase, recomputedStaged, unaffected: unaffected.size, durationMs: Math.round(performance.now() - started) },
    };
  }

  /** The staged documents grouped by the project each belongs to: the nearest config above it inside the folder ('' for none). */
  private groups(stagedNames: Map<string, string>, stagedTexts: TextSource): Map<string, string[]> {
    const groups = new Map<string, string[]>();
    for (const file of [...stagedNames.values()].sort()) {
      const config = this.nearestConfig(file, stagedTexts) ?? '';
      groups.set(config, [...(groups.get(config) ?? []), file]);
    }
    return groups;
  }

  private project(config: string): Project {
    let project = this.projects.get(config);
    if (!project) this.projects.set(config, (project = new Project(this.ts, this.reads)));
    return project;
  }

  private nearestConfig(file: string, texts: TextSource): string | undefined {
    const canon = this.reads.canon;
    let dir = path.posix.dirname(file);
    for (;;) {
      for (const name of ['tsconfig.json', 'jsconfig.json']) {
        const candidate = `${dir}/${name}`;
        if (texts.exists(candidate)) return candidate;
      }
      if (canon(dir) === canon(this.folder)) return undefined;
      const parent = path.posix.dirname(dir);
      // Never above the folder: a config there is not this workspace's.
      if (parent === dir || !canon(parent).startsWith(canon(this.folder))) return undefined;
      dir = parent;
    }
  }

  /**
   * The dependents whose diagnostics are the same in both views without computing them. A file
   * sees another only through its declarations (what a .d.ts of it says), so a dependent whose
   * text is unchanged can see the change only by importing a file that "exposes" it: one whose
   * declarations differ between the views (or cannot be told), or refer to a file that exposes it.
   * Declarations are emitted for the changed files and then only for the unchanged files that
   * import an exposing one; they are read by name (names.ts): a dependent that mentions none of
   * the names its imports expose, and uses no such import whole, cannot see the change either. Nothing is left out (empty set) when a changed file can reach past
   * its importers: a script or declaration file (global scope), a module augmentation or ambient
   * module, JavaScript (inferred from use) or another language; or when the views' options differ.
   */
  private unaffected(config: string, graph: ImportGraph, changed: Set<string>, dependents: string[]): Set<string> {
    const none = new Set<string>();
    const base = this.bases.get(config)!;
    const staged = this.staged;
    if (base.optionsKey(config) !== staged.optionsKey(config)) return none;
    const keys = [...changed];
    if (staged.reachesPastImporters(config, keys) || base.reachesPastImporters(config, keys)) return none;
    const stagedProgram = staged.viewOf(config).program!;
    const maySee = (key: string, exposed: ReadonlyMap<string, Exposed>) => {
      const seen = [...(graph.imports.get(key) ?? [])].flatMap((imported) => exposed.get(imported) ?? []);
      return seen.length > 0 && mayUseExposed(stagedProgram.getSourceFile(graph.names.get(key) ?? key), seen);
    };
    const exposed = exposedNames(
      this.ts,
      changed,
      (key) => {
        const name = graph.names.get(key) ?? key;
        const b = base.declarations(config, name);
        const s = staged.declarations(config, name).wait();
        return [b.wait(), s];
      },
      (key) => [...(graph.importers.get(key) ?? [])].filter((k) => !changed.has(k)),
      (key, now) => maySee(key, now),
    );
    const skip = new Set<string>();
    for (const dependent of dependents) {
      const key = this.reads.canon(dependent);
      if (!changed.has(key) && !maySee(key, exposed)) skip.add(key);
    }
    return skip;
  }

  /** Who imports whom among the folder's files, in either view. */
  private importGraph(config: string): ImportGraph {
    const importers = new Map<string, Set<string>>();
    const imports = new Map<string, Set<string>>();
    const names = new Map<string, string>();
    const add = (map: Map<string, Set<string>>, key: string, value: string) => {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(value);
    };
    const pending = this.bases.get(config)!.sources(config);
    const staged = this.staged.sources(config).wait();
    const rows: SourceRow[][] = [pending.wait(), staged];
    for (const [key, fileName, targets] of rows.flat()) {
      names.set(key, fileName);
      for (const target of targets) {
        add(importers, target, key);
        add(imports, key, target);
      }
    }
    return { importers, imports, names };
  }

  /** Files importing the changed ones, transitively, nearest first, in either view; at most `budget`. */
  private dependents(graph: ImportGraph, changed: string[], budget: number, seen: Set<string>): { dependents: string[]; capped: boolean } {
    const { importers, names } = graph;
    const dependents: string[] = [];
    let capped = false;
    let frontier = changed.map(this.reads.canon);
    while (frontier.length > 0 && !capped) {
      const next: string[] = [];
      for (const target of frontier) {
        for (const importer of [...(importers.get(target) ?? [])].sort()) {
          if (seen.has(importer)) continue;
          if (dependents.length >= budget) {
            capped = true;
            break;
          }
          seen.add(importer);
          dependents.push(names.get(importer)!);
          next.push(importer);
        }
        if (capped) break;
      }
      frontier = next;
    }
    return { dependents, capped };
  }
}
