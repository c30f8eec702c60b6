import * as path from 'node:path';
import type * as TS from 'typescript';
import { diagnosticsDelta, type DocumentDiagnostics } from './delta';
import { exposedNames, seenNames, typesSorted, type Exposed } from './names';
import { touchedStatements, type Touched } from './statements';
import type { CheckedDiagnostic, CheckRequest, CheckResult, IncompleteReason, Severity, WarmRequest, WarmResult } from './protocol';
import { DEFAULT_MAX_DEPENDENTS, GaveWay, JSCONFIG_DEFAULTS, SourceFiles, Stop, View, looseOptions, reachesPastImporters, slashes } from './view';
import type { FileReader, TextSource, Ts } from './view';

export { systemReader } from './view';
export type { Declarations, FileReader } from './view';

/** Who imports whom in a project, in either view: the folder's own files (not node_modules, not the default library); canonical paths. */
interface ImportGraph {
  importers: Map<string, Set<string>>;
  imports: Map<string, Set<string>>;
  names: Map<string, string>;
}

/** A tsconfig/jsconfig (or the loose files' default options) with its current and staged views. */
class Project {
  readonly files: SourceFiles;
  readonly base: View;
  readonly staged: View;
  constructor(
    readonly ts: Ts,
    reader: FileReader,
    folder: string,
    canon: (p: string) => string,
    readonly configFile: string | undefined,
  ) {
    this.files = new SourceFiles(ts);
    this.base = new View(ts, reader, this.files, folder, canon);
    this.staged = new View(ts, reader, this.files, folder, canon);
  }
}

export interface CheckerOptions {
  /** Whether dependents that cannot see the change are covered without computing their diagnostics (default true; false computes every one, for tests). */
  unaffectedDependents?: boolean;
}

/**
 * The warm checker of one workspace folder. Synchronous: the worker runs it, polling the host's
 * cancel through `cancelled` while TypeScript checks.
 */
export class Checker {
  private readonly projects = new Map<string, Project>();
  private readonly canon: (p: string) => string;
  private readonly libDir: string;
  /** TypeScript's own lib files never change while this module is loaded. */
  private readonly libTexts = new Map<string, string | undefined>();
  readonly folder: string;

  constructor(
    private readonly ts: Ts,
    private readonly reader: FileReader,
    folder: string,
    private readonly options: CheckerOptions = {},
  ) {
    this.folder = slashes(path.resolve(folder));
    this.canon = reader.useCaseSensitiveFileNames ? (p) => p : (p) => p.toLowerCase();
    this.libDir = this.canon(slashes(path.dirname(ts.getDefaultLibFilePath({}))));
  }

  /**
   * giveWay: for a check run ahead of time (the host runs one when a transaction is staged, so
   * that transaction-check finds the work done): asked between files; when it says so the check
   * answers cancelled and keeps what it computed, which the next check reuses.
   */
  check(request: CheckRequest, cancelled: () => boolean = () => false, giveWay?: () => boolean): CheckResult {
    const ts = this.ts;
    const started = performance.now();
    const stop = new Stop(ts, cancelled, request.deadline, giveWay);
    const rel = (file: string) => path.posix.relative(this.folder, file);
    const canon = this.canon;
    const { baseTexts, stagedTexts, stagedNames, created, deleted, groups } = this.views(request);

    const reasons = new Set<IncompleteReason>();
    let budget = request.maxDependents ?? DEFAULT_MAX_DEPENDENTS;
    const checkedOrder: string[] = [];
    const base = new Map<string, CheckedDiagnostic[]>();
    const stagedDiagnostics = new Map<string, CheckedDiagnostic[]>();
    const projectsUsed: string[] = [];
    let recomputedBase = 0;
    let recomputedStaged = 0;
    let inPart = 0;
    /** Dependents covered without computing their diagnostics: nothing they import shows them a change. */
    const unaffected = new Set<string>();
    const interrupted: Project[] = [];

    const toResult = (diagnostics: readonly TS.Diagnostic[], sf: TS.SourceFile): CheckedDiagnostic[] =>
      diagnostics.flatMap((d) => {
        if (!d.file || d.start === undefined || canon(d.file.fileName) !== canon(sf.fileName)) return [];
        const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
        return [
          {
            path: rel(sf.fileName),
            line: line + 1,
            column: character + 1,
            code: d.code,
            message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
            severity: severityOf(ts, d.category),
          },
        ];
      });

    const work: { project: Project; files: string[] }[] = [];
    const loose: string[] = groups.get('') ?? [];
    try {
      for (const [config, files] of groups) {
        if (config === '') continue;
        const project = this.project(config);
        this.update(project, baseTexts, stagedTexts, files, created, deleted, 'base', stop);
        this.update(project, baseTexts, stagedTexts, files, created, deleted, 'staged', stop);
        const inProject = files.filter((f) => project.staged.program!.getSourceFile(f) || project.base.program!.getSourceFile(f));
        loose.push(...files.filter((f) => !inProject.includes(f)));
        if (inProject.length > 0) work.push({ project, files: inProject });
      }
      if (loose.length > 0) {
        const project = this.project('');
        this.update(project, baseTexts, stagedTexts, loose, created, deleted, 'base', stop);
        this.update(project, baseTexts, stagedTexts, loose, created, deleted, 'staged', stop);
        work.push({ project, files: loose });
      }
      const seen = new Set<string>();
      const plan: { project: Project; fresh: string[]; dependents: string[]; graph: ImportGraph }[] = [];
      for (const { project, files } of work) {
        projectsUsed.push(project.configFile === undefined ? '' : rel(project.configFile));
        const fresh = files.filter((f) => !seen.has(canon(f)));
        fresh.forEach((f) => seen.add(canon(f)));
        const graph = this.importGraph(project);
        const { dependents, capped } = this.dependents(graph, fresh, budget, seen);
        if (capped) reasons.add('dependent-cap');
        budget -= dependents.length;
        plan.push({ project, fresh, dependents, graph });
        checkedOrder.push(...fresh, ...dependents);
      }
      // The files whose text the two views do not share.
      const changed = new Set([...stagedNames].filter(([, f]) => baseTexts.read(f) !== stagedTexts.read(f)).map(([k]) => k));
      for (const { project, fresh, dependents, graph } of plan) {
        interrupted.push(project);
        recomputedBase += project.base.diagnostics(fresh, stop, base, toResult);
        recomputedStaged += project.staged.diagnostics(fresh, stop, stagedDiagnostics, toResult);
        const { skip, parts } =
          dependents.length > 0 && this.options.unaffectedDependents !== false
            ? this.unaffected(project, graph, changed, dependents, stop)
            : { skip: new Set<string>(), parts: new Map<string, Touched>() };
        skip.forEach((k) => unaffected.add(k));
        inPart += parts.size;
        const rest = dependents.filter((f) => !skip.has(canon(f)));
        recomputedBase += project.base.diagnostics(rest, stop, base, toResult, parts);
        recomputedStaged += project.staged.diagnostics(rest, stop, stagedDiagnostics, toResult, parts);
        interrupted.pop();
      }
    } catch (error) {
      if (error instanceof GaveWay) return { outcome: 'cancelled' };
      if (!(error instanceof ts.OperationCanceledException)) throw error;
      // An interrupted type checker may hold half-checked files: start that project's views over next time.
      for (const project of interrupted) {
        project.base.drop();
        project.staged.drop();
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
      const b = inBase ? base.get(key) : [];
      const s = inStaged ? stagedDiagnostics.get(key) : [];
      // A document checked in one view only (the time limit came first) is not compared.
      if (b === undefined || s === undefined) continue;
      checked.push(rel(file));
      documents.push({ path: rel(file), base: b, staged: s, baseText: baseTexts.read(file), stagedText: stagedTexts.read(file) });
    }
    if (checked.length < checkedOrder.length) reasons.add('time-limit');
    const { introduced, resolved } = diagnosticsDelta(documents, (a, b) => typesSorted(ts, a) === typesSorted(ts, b));
    return {
      outcome: 'checked',
      introduced,
      resolved,
      checked,
      complete: reasons.size === 0,
      reasons: [...reasons],
      projects: projectsUsed,
      typescriptVersion: ts.version,
      stats: { recomputedBase, recomputedStaged, unaffected: unaffected.size, inPart, durationMs: Math.round(performance.now() - started) },
    };
  }

  /**
   * Computes the current view of the projects of `request.files` ahead of any check: every own
   * file's diagnostics, then its declarations. A check's time is mostly the types all a project's
   * files share, paid once per view; computed here, the first check after a staging pays it for
   * the staged view alone. Gives way between files (keeping what it computed) like a check run
   * ahead. Loose files (no tsconfig or jsconfig) are left to the check: they are few and cheap.
   */
  warm(request: WarmRequest, cancelled: () => boolean = () => false, giveWay?: () => boolean): WarmResult {
    const started = performance.now();
    const stop = new Stop(this.ts, cancelled, undefined, giveWay);
    const { baseTexts } = this.views({ folder: request.folder, staged: {}, buffers: request.buffers });
    const configs = new Set<string>();
    for (const rel of request.files) {
      const config = this.nearestConfig(slashes(path.posix.resolve(this.folder, slashes(rel))), baseTexts);
      if (config !== undefined) configs.add(config);
    }
    const projects: string[] = [];
    let files = 0;
    let computed = 0;
    let current: Project | undefined;
    try {
      for (const config of [...configs].sort()) {
        const project = (current = this.project(config));
        this.update(project, baseTexts, baseTexts, [], [], [], 'base', stop);
        const program = project.base.program!;
        const own = program
          .getSourceFiles()
          .filter((sf) => this.isOwn(program, sf))
          .map((sf) => sf.fileName);
        computed += project.base.diagnostics(own, stop, new Map(), () => []);
        for (const file of own) {
          stop.between();
          project.base.declarations(file, stop);
        }
        files += own.length;
        projects.push(path.posix.relative(this.folder, config));
      }
    } catch (error) {
      if (error instanceof GaveWay) return { outcome: 'cancelled' };
      if (!(error instanceof this.ts.OperationCanceledException)) throw error;
      // An interrupted type checker may hold half-checked files.
      current?.base.drop();
      return { outcome: 'cancelled' };
    }
    return { outcome: 'warmed', projects, files, computed, durationMs: Math.round(performance.now() - started) };
  }

  /** The folder's own files of a program: not node_modules, not TypeScript's lib. */
  private isOwn(program: TS.Program, sf: TS.SourceFile): boolean {
    const key = this.canon(sf.fileName);
    return key.startsWith(`${this.canon(this.folder)}/`) && !key.includes('/node_modules/') && !program.isSourceFileDefaultLibrary(sf);
  }

  /** The two views' texts of a request, and its staged documents grouped by the project (config) each belongs to. */
  private views(request: CheckRequest) {
    const canon = this.canon;
    const abs = (rel: string) => slashes(path.posix.resolve(this.folder, slashes(rel)));
    const staged = new Map<string, string | null>();
    const stagedNames = new Map<string, string>();
    for (const [p, text] of Object.entries(request.staged)) {
      const file = abs(p);
      staged.set(canon(file), text);
      stagedNames.set(canon(file), file);
    }
    const buffers = new Map<string, string>(Object.entries(request.buffers).map(([p, t]) => [canon(abs(p)), t]));

    const disk = new Map<string, string | undefined>();
    const readDisk = (file: string): string | undefined => {
      const key = canon(file);
      const cache = key.startsWith(`${this.libDir}/`) ? this.libTexts : disk;
      if (!cache.has(key)) cache.set(key, this.reader.readFile(file));
      return cache.get(key);
    };
    const diskExists = (file: string) => (disk.has(canon(file)) ? disk.get(canon(file)) !== undefined : this.reader.fileExists(file));
    const created = [...staged].filter(([k, t]) => t !== null && !buffers.has(k) && !diskExists(stagedNames.get(k)!)).map(([k]) => k);
    const deleted = [...staged].filter(([, t]) => t === null).map(([k]) => k);

    const baseTexts: TextSource = {
      read: (f) => buffers.get(canon(f)) ?? readDisk(f),
      exists: (f) => buffers.has(canon(f)) || diskExists(f),
      directoryExists: (d) => this.reader.directoryExists(d),
      existenceKey: '',
    };
    const stagedTexts: TextSource = {
      read: (f) => {
        const key = canon(f);
        return staged.has(key) ? (staged.get(key) ?? undefined) : baseTexts.read(f);
      },
      exists: (f) => {
        const key = canon(f);
        return staged.has(key) ? staged.get(key) !== null : baseTexts.exists(f);
      },
      directoryExists: (d) => this.reader.directoryExists(d) || created.some((c) => c.startsWith(`${canon(d).replace(/\/$/, '')}/`)),
      existenceKey: JSON.stringify([created, deleted]),
    };

    // Each staged document goes to the project of the nearest config above it inside the folder.
    const groups = new Map<string, string[]>();
    for (const file of [...stagedNames.values()].sort()) {
      const config = this.nearestConfig(file, stagedTexts) ?? '';
      groups.set(config, [...(groups.get(config) ?? []), file]);
    }
    return { baseTexts, stagedTexts, stagedNames, created, deleted, groups };
  }

  private project(config: string): Project {
    let project = this.projects.get(config);
    if (!project) this.projects.set(config, (project = new Project(this.ts, this.reader, this.folder, this.canon, config === '' ? undefined : config)));
    return project;
  }

  private nearestConfig(file: string, texts: TextSource): string | undefined {
    let dir = path.posix.dirname(file);
    for (;;) {
      for (const name of ['tsconfig.json', 'jsconfig.json']) {
        const candidate = `${dir}/${name}`;
        if (texts.exists(candidate)) return candidate;
      }
      if (this.canon(dir) === this.canon(this.folder)) return undefined;
      const parent = path.posix.dirname(dir);
      // Never above the folder: a config there is not this workspace's.
      if (parent === dir || !this.canon(parent).startsWith(this.canon(this.folder))) return undefined;
      dir = parent;
    }
  }

  private update(
    project: Project,
    baseTexts: TextSource,
    stagedTexts: TextSource,
    files: string[],
    created: string[],
    deleted: string[],
    which: 'base' | 'staged',
    stop: Stop,
  ): void {
    const ts = this.ts;
    const texts = which === 'base' ? baseTexts : stagedTexts;
    const view = which === 'base' ? project.base : project.staged;
    let rootNames: string[];
    let options: TS.CompilerOptions;
    let references: readonly TS.ProjectReference[] | undefined;
    if (project.configFile === undefined) {
      rootNames = files.filter((f) => texts.exists(f));
      options = looseOptions(ts);
      view.configDiagnostics = [];
    } else {
      const configFile = project.configFile;
      const json = ts.parseJsonText(configFile, texts.read(configFile) ?? '{}');
      const parsed = ts.parseJsonSourceFileConfigFileContent(
        json,
        {
          useCaseSensitiveFileNames: this.reader.useCaseSensitiveFileNames,
          readDirectory: (root, extensions, excludes, includes, depth) => this.reader.readDirectory(root, extensions, excludes, includes, depth),
          fileExists: (f) => texts.exists(f),
          readFile: (f) => texts.read(f),
        },
        path.posix.dirname(configFile),
        configFile.endsWith('/jsconfig.json') ? JSCONFIG_DEFAULTS : undefined,
        configFile,
      );
      view.configDiagnostics = parsed.errors;
      const removed = new Set(which === 'staged' ? deleted : []);
      rootNames = parsed.fileNames.map(slashes).filter((f) => !removed.has(this.canon(f)));
      // A created file is not on disk for the include patterns to find: it joins the project of its nearest config.
      if (which === 'staged') {
        const present = new Set(rootNames.map(this.canon));
        for (const f of files) if (created.includes(this.canon(f)) && !present.has(this.canon(f))) rootNames.push(f);
      }
      // Never emitted; with outFile, declarations would be one file for the whole program.
      options = { ...parsed.options, outFile: undefined, noEmit: true };
      references = parsed.projectReferences;
    }
    view.update(texts, rootNames, options, references, stop);
  }

  /**
   * The dependents whose diagnostics are the same in both views without computing them, and of the
   * others, those that can be checked in part. A file sees another only through its declarations
   * (what a .d.ts of it says), so a dependent whose text is unchanged can see the change only by
   * importing a file that "exposes" it: one whose declarations differ between the views (or
   * cannot be told), or refer to a file that exposes it. Declarations are emitted for the changed
   * files and then only for the unchanged files that import an exposing one; they are read by name
   * (names.ts): a dependent that mentions none of the names its imports expose, and uses no such
   * import whole, cannot see the change either. One that does is checked in its statements that
   * mention those names (statements.ts: `parts`), and when none of them is exported, its own
   * declarations are the same in both views and are not emitted. Nothing is left out (empty
   * sets) when a changed file can reach past its importers: a script or declaration file (global
   * scope), a module augmentation or ambient module, JavaScript (inferred from use) or another
   * language; or when the views' options differ.
   */
  private unaffected(
    project: Project,
    graph: ImportGraph,
    changed: Set<string>,
    dependents: string[],
    stop: Stop,
  ): { skip: Set<string>; parts: Map<string, Touched> } {
    const none = { skip: new Set<string>(), parts: new Map<string, Touched>() };
    const { base, staged } = project;
    if (JSON.stringify(base.program!.getCompilerOptions()) !== JSON.stringify(staged.program!.getCompilerOptions())) return none;
    for (const key of changed) {
      for (const view of [base, staged]) {
        const sf = view.program!.getSourceFile(key);
        if (sf && reachesPastImporters(this.ts, sf)) return none;
      }
    }
    const fileOf = (key: string) => staged.program!.getSourceFile(graph.names.get(key) ?? key);
    /** What a dependent's imports show it, each specifier resolved in both views. */
    const seen = (key: string, exposed: ReadonlyMap<string, Exposed>) => {
      const sf = fileOf(key);
      if (!sf || ![...(graph.imports.get(key) ?? [])].some((imported) => exposed.has(imported))) return undefined;
      return seenNames(this.ts, sf, (specifier) =>
        [...new Set([base.resolve(specifier, sf.fileName), staged.resolve(specifier, sf.fileName)])].flatMap((k) => (k && exposed.get(k)) || []),
      );
    };
    const maySee = (key: string, exposed: ReadonlyMap<string, Exposed>) => seen(key, exposed) !== undefined;
    const partOf = (key: string, exposed: ReadonlyMap<string, Exposed>): Touched | undefined => {
      const names = changed.has(key) ? undefined : seen(key, exposed);
      const sf = fileOf(key);
      return names && names !== 'all' && sf ? touchedStatements(this.ts, sf, names) : undefined;
    };
    const exposed = exposedNames(
      this.ts,
      changed,
      (key) => {
        const name = graph.names.get(key) ?? key;
        return [base.declarations(name, stop), staged.declarations(name, stop)];
      },
      (key) => [...(graph.importers.get(key) ?? [])].filter((k) => !changed.has(k)),
      (key, now) => maySee(key, now) && partOf(key, now)?.exported !== false,
    );
    const skip = new Set<string>();
    const parts = new Map<string, Touched>();
    for (const dependent of dependents) {
      const key = this.canon(dependent);
      if (changed.has(key)) continue;
      if (!maySee(key, exposed)) skip.add(key);
      else {
        const part = partOf(key, exposed);
        if (part) parts.set(key, part);
      }
    }
    return { skip, parts };
  }

  /** Who imports whom among the folder's files, in either view. */
  private importGraph(project: Project): ImportGraph {
    const importers = new Map<string, Set<string>>();
    const imports = new Map<string, Set<string>>();
    const names = new Map<string, string>();
    const add = (map: Map<string, Set<string>>, key: string, value: string) => {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(value);
    };
    for (const view of [project.base, project.staged]) {
      const program = view.program!;
      for (const sf of program.getSourceFiles()) {
        if (!this.isOwn(program, sf)) continue;
        const key = this.canon(sf.fileName);
        names.set(key, sf.fileName);
        for (const target of view.importsOf(sf)) {
          add(importers, target, key);
          add(imports, key, target);
        }
      }
    }
    return { importers, imports, names };
  }

  /** Files importing the changed ones, transitively, nearest first, in either view; at most `budget`. */
  private dependents(graph: ImportGraph, changed: string[], budget: number, seen: Set<string>): { dependents: string[]; capped: boolean } {
    const { importers, names } = graph;
    const dependents: string[] = [];
    let capped = false;
    let frontier = changed.map(this.canon);
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

function severityOf(ts: Ts, category: TS.DiagnosticCategory): Severity {
  switch (category) {
    case ts.DiagnosticCategory.Error:
      return 'error';
    case ts.DiagnosticCategory.Warning:
      return 'warning';
    case ts.DiagnosticCategory.Suggestion:
      return 'suggestion';
    default:
      return 'message';
  }
}
