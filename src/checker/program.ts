import * as path from 'node:path';
import type * as TS from 'typescript';
import { diagnosticsDelta, type DocumentDiagnostics } from './delta';
import type { CheckedDiagnostic, CheckRequest, CheckResult, IncompleteReason, Severity } from './protocol';

type Ts = typeof TS;

/** Every read the checker makes goes through this: the worker passes one over the disk, tests may record or confine it. Nothing is ever written. */
export interface FileReader {
  readonly useCaseSensitiveFileNames: boolean;
  readFile(file: string): string | undefined;
  fileExists(file: string): boolean;
  directoryExists(dir: string): boolean;
  getDirectories(dir: string): string[];
  /** ts.sys.readDirectory's contract: the files under root matching the config's include/exclude patterns. */
  readDirectory(root: string, extensions: readonly string[], excludes: readonly string[] | undefined, includes: readonly string[], depth?: number): string[];
  realpath?(file: string): string;
}

/** The disk, read through TypeScript's own system (it matches include/exclude patterns the way tsc does). */
export function systemReader(ts: Ts): FileReader {
  const sys = ts.sys;
  return {
    useCaseSensitiveFileNames: sys.useCaseSensitiveFileNames,
    readFile: (f) => sys.readFile(f),
    fileExists: (f) => sys.fileExists(f),
    directoryExists: (d) => sys.directoryExists(d),
    getDirectories: (d) => sys.getDirectories(d),
    readDirectory: (root, extensions, excludes, includes, depth) => sys.readDirectory(root, extensions, excludes, includes, depth),
    realpath: sys.realpath ? (f) => sys.realpath!(f) : undefined,
  };
}

export const DEFAULT_MAX_DEPENDENTS = 200;

/** What VS Code's TypeScript gives files outside any tsconfig/jsconfig (an inferred project), reduced to what affects diagnostics. */
function looseOptions(ts: Ts): TS.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.Preserve,
    allowJs: true,
    allowSyntheticDefaultImports: true,
    allowNonTsExtensions: true,
    resolveJsonModule: true,
    strictNullChecks: true,
    strictFunctionTypes: true,
    noEmit: true,
  };
}

/** What VS Code adds to a jsconfig.json's options. */
const JSCONFIG_DEFAULTS: TS.CompilerOptions = { allowJs: true, maxNodeModuleJsDepth: 2, allowSyntheticDefaultImports: true, skipLibCheck: true, noEmit: true };

const slashes = (p: string) => p.replace(/\\/g, '/');

/** A check's stop: the host's cancel or the deadline, polled by TypeScript while it checks. */
class Stop implements TS.CancellationToken {
  reason: 'cancelled' | 'time-limit' | undefined;
  constructor(
    private readonly ts: Ts,
    private readonly cancelled: () => boolean,
    private readonly deadline: number | undefined,
  ) {}
  isCancellationRequested(): boolean {
    if (this.reason === undefined) {
      if (this.cancelled()) this.reason = 'cancelled';
      else if (this.deadline !== undefined && Date.now() > this.deadline) this.reason = 'time-limit';
    }
    return this.reason !== undefined;
  }
  throwIfCancellationRequested(): void {
    if (this.isCancellationRequested()) throw new this.ts.OperationCanceledException();
  }
}

/** A file's text as one view sees it; undefined when it does not exist there. */
interface TextSource {
  read(file: string): string | undefined;
  exists(file: string): boolean;
  directoryExists(dir: string): boolean;
  /** Files this view adds or removes relative to the disk: a change means module resolutions may differ. */
  existenceKey: string;
}

/**
 * Parsed files shared by a project's two views and kept across checks, so an unchanged file is
 * parsed once and keeps its version (the builder compares versions to know what changed).
 */
class SourceFiles {
  private readonly byPath = new Map<string, { text: string; key: string; file: TS.SourceFile }[]>();
  private counter = 0;
  constructor(private readonly ts: Ts) {}

  get(fileName: string, text: string, options: TS.ScriptTarget | TS.CreateSourceFileOptions): TS.SourceFile {
    const key = typeof options === 'object' ? `${options.languageVersion}|${options.impliedNodeFormat}|${options.jsDocParsingMode}` : String(options);
    const list = this.byPath.get(fileName) ?? [];
    const index = list.findIndex((e) => e.key === key && e.text === text);
    if (index >= 0) {
      const [hit] = list.splice(index, 1);
      list.unshift(hit);
      return hit.file;
    }
    const file = this.ts.createSourceFile(fileName, text, options, false);
    // The builder requires versions on source files; only watch hosts set them, through this same (untyped) property.
    (file as TS.SourceFile & { version?: string }).version = String(++this.counter);
    list.unshift({ text, key, file });
    // The current text, the staged one and the previous staged one.
    if (list.length > 3) list.pop();
    this.byPath.set(fileName, list);
    return file;
  }
}

/** One view (current or staged) of one project: a builder program kept warm between checks. */
class View {
  private builder: TS.SemanticDiagnosticsBuilderProgram | undefined;
  /** Files whose semantic diagnostics the builder holds. */
  private readonly warm = new Set<string>();
  private existenceKey = '';
  private optionsKey = '';
  private imports = new WeakMap<TS.SourceFile, string[]>();
  private resolutionCache: TS.ModuleResolutionCache | undefined;
  program: TS.Program | undefined;
  configDiagnostics: readonly TS.Diagnostic[] = [];

  constructor(
    private readonly ts: Ts,
    private readonly reader: FileReader,
    private readonly files: SourceFiles,
    private readonly folder: string,
    private readonly canon: (p: string) => string,
  ) {}

  update(texts: TextSource, rootNames: readonly string[], options: TS.CompilerOptions, references: readonly TS.ProjectReference[] | undefined): void {
    const ts = this.ts;
    const optionsKey = JSON.stringify(options);
    const invalidated = texts.existenceKey !== this.existenceKey;
    if (optionsKey !== this.optionsKey) this.drop();
    if (invalidated) {
      this.imports = new WeakMap();
      this.resolutionCache = undefined;
    }
    this.optionsKey = optionsKey;
    this.existenceKey = texts.existenceKey;
    const host: TS.CompilerHost = {
      getSourceFile: (fileName, languageVersion) => {
        const text = texts.read(fileName);
        return text === undefined ? undefined : this.files.get(fileName, text, languageVersion);
      },
      getDefaultLibFileName: (o) => slashes(ts.getDefaultLibFilePath(o)),
      writeFile: () => undefined,
      getCurrentDirectory: () => this.folder,
      getCanonicalFileName: this.canon,
      useCaseSensitiveFileNames: () => this.reader.useCaseSensitiveFileNames,
      getNewLine: () => '\n',
      fileExists: (f) => texts.exists(f),
      readFile: (f) => texts.read(f),
      directoryExists: (d) => texts.directoryExists(d),
      getDirectories: (d) => this.reader.getDirectories(d),
      realpath: this.reader.realpath ? (f) => this.reader.realpath!(f) : undefined,
      // A created or deleted file may change what an unchanged file's import resolves to.
      hasInvalidatedResolutions: () => invalidated,
    };
    this.builder = ts.createSemanticDiagnosticsBuilderProgram(rootNames, options, host, this.builder, this.configDiagnostics, references);
    this.program = this.builder.getProgram();
    this.moduleHost = host;
  }

  private moduleHost: TS.ModuleResolutionHost | undefined;

  /** Forgets the builder (after an interrupted check, or when options change): the next update starts over, its parsed files kept. */
  drop(): void {
    this.builder = undefined;
    this.program = undefined;
    this.warm.clear();
  }

  /** The project's own files a file imports (resolved), read from its text; kept per parsed file. */
  importsOf(file: TS.SourceFile): string[] {
    const known = this.imports.get(file);
    if (known) return known;
    const options = this.program!.getCompilerOptions();
    this.resolutionCache ??= this.ts.createModuleResolutionCache(this.folder, this.canon, options);
    const info = this.ts.preProcessFile(file.text, true, true);
    const found: string[] = [];
    for (const imported of info.importedFiles) {
      const resolved = this.ts.resolveModuleName(imported.fileName, file.fileName, options, this.moduleHost!, this.resolutionCache).resolvedModule;
      if (resolved) found.push(this.canon(slashes(resolved.resolvedFileName)));
    }
    for (const ref of info.referencedFiles) found.push(this.canon(path.posix.resolve(path.posix.dirname(file.fileName), slashes(ref.fileName))));
    this.imports.set(file, found);
    return found;
  }

  /**
   * Diagnostics of the files asked: first the builder's pass over what changed since the last
   * check (files it says are affected, skipping those not asked), then each file, warm or not.
   */
  diagnostics(
    wanted: readonly string[],
    stop: Stop,
    into: Map<string, CheckedDiagnostic[]>,
    toResult: (d: readonly TS.Diagnostic[], file: TS.SourceFile) => CheckedDiagnostic[],
  ): number {
    const builder = this.builder!;
    const program = builder.getProgram();
    const asked = new Set(wanted.map(this.canon));
    let recomputed = 0;
    for (;;) {
      const next = builder.getSemanticDiagnosticsOfNextAffectedFile(stop, (sf) => {
        const key = this.canon(sf.fileName);
        if (asked.has(key)) return false;
        this.warm.delete(key);
        return true;
      });
      if (!next) break;
      if (next.affected === program) {
        this.warm.clear();
        continue;
      }
      recomputed++;
      this.warm.add(this.canon((next.affected as TS.SourceFile).fileName));
    }
    for (const file of wanted) {
      const sf = program.getSourceFile(file);
      if (!sf) continue;
      const key = this.canon(file);
      const diagnostics = [...builder.getSyntacticDiagnostics(sf, stop), ...builder.getSemanticDiagnostics(sf, stop)];
      if (!this.warm.has(key)) {
        recomputed++;
        this.warm.add(key);
      }
      into.set(key, toResult(diagnostics, sf));
    }
    return recomputed;
  }
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
  maxDependents?: number;
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
  ) {
    this.folder = slashes(path.resolve(folder));
    this.canon = reader.useCaseSensitiveFileNames ? (p) => p : (p) => p.toLowerCase();
    this.libDir = this.canon(slashes(path.dirname(ts.getDefaultLibFilePath({}))));
  }

  check(request: CheckRequest, cancelled: () => boolean = () => false): CheckResult {
    const ts = this.ts;
    const started = performance.now();
    const stop = new Stop(ts, cancelled, request.deadline);
    const abs = (rel: string) => slashes(path.posix.resolve(this.folder, slashes(rel)));
    const rel = (file: string) => path.posix.relative(this.folder, file);
    const canon = this.canon;

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

    const reasons = new Set<IncompleteReason>();
    let budget = request.maxDependents ?? DEFAULT_MAX_DEPENDENTS;
    const checkedOrder: string[] = [];
    const base = new Map<string, CheckedDiagnostic[]>();
    const stagedDiagnostics = new Map<string, CheckedDiagnostic[]>();
    const projectsUsed: string[] = [];
    let recomputedBase = 0;
    let recomputedStaged = 0;
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
        this.update(project, baseTexts, stagedTexts, files, created, deleted, 'base');
        this.update(project, baseTexts, stagedTexts, files, created, deleted, 'staged');
        const inProject = files.filter((f) => project.staged.program!.getSourceFile(f) || project.base.program!.getSourceFile(f));
        loose.push(...files.filter((f) => !inProject.includes(f)));
        if (inProject.length > 0) work.push({ project, files: inProject });
      }
      if (loose.length > 0) {
        const project = this.project('');
        this.update(project, baseTexts, stagedTexts, loose, created, deleted, 'base');
        this.update(project, baseTexts, stagedTexts, loose, created, deleted, 'staged');
        work.push({ project, files: loose });
      }
      const seen = new Set<string>();
      const plan: { project: Project; wanted: string[] }[] = [];
      for (const { project, files } of work) {
        projectsUsed.push(project.configFile === undefined ? '' : rel(project.configFile));
        const fresh = files.filter((f) => !seen.has(canon(f)));
        fresh.forEach((f) => seen.add(canon(f)));
        const { dependents, capped } = this.dependents(project, fresh, budget, seen);
        if (capped) reasons.add('dependent-cap');
        budget -= dependents.length;
        plan.push({ project, wanted: [...fresh, ...dependents] });
        checkedOrder.push(...fresh, ...dependents);
      }
      for (const { project, wanted } of plan) {
        interrupted.push(project);
        recomputedBase += project.base.diagnostics(wanted, stop, base, toResult);
        recomputedStaged += project.staged.diagnostics(wanted, stop, stagedDiagnostics, toResult);
        interrupted.pop();
      }
    } catch (error) {
      if (!(error instanceof ts.OperationCanceledException)) throw error;
      // An interrupted builder pass may leave its state half-updated: start that project over next time.
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
    const { introduced, resolved } = diagnosticsDelta(documents);
    return {
      outcome: 'checked',
      introduced,
      resolved,
      checked,
      complete: reasons.size === 0,
      reasons: [...reasons],
      projects: projectsUsed,
      typescriptVersion: ts.version,
      stats: { recomputedBase, recomputedStaged, durationMs: Math.round(performance.now() - started) },
    };
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
      // Never emitted; outFile would make the builder check the whole program at once.
      options = { ...parsed.options, outFile: undefined, noEmit: true };
      references = parsed.projectReferences;
    }
    view.update(texts, rootNames, options, references);
  }

  /** Files importing the changed ones, transitively, nearest first, in either view; at most `budget`. */
  private dependents(project: Project, changed: string[], budget: number, seen: Set<string>): { dependents: string[]; capped: boolean } {
    const importers = new Map<string, Set<string>>();
    const names = new Map<string, string>();
    for (const view of [project.base, project.staged]) {
      const program = view.program!;
      for (const sf of program.getSourceFiles()) {
        const key = this.canon(sf.fileName);
        if (!key.startsWith(`${this.canon(this.folder)}/`) || key.includes('/node_modules/') || program.isSourceFileDefaultLibrary(sf)) continue;
        names.set(key, sf.fileName);
        for (const target of view.importsOf(sf)) {
          let set = importers.get(target);
          if (!set) importers.set(target, (set = new Set()));
          set.add(key);
        }
      }
    }
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
