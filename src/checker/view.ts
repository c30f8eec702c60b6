/** One view of a TypeScript project (the files as they are, or as staged): its program, the files it reads, and which declarations a change exposes. */
import * as path from 'node:path';
import type * as TS from 'typescript';
import type { CheckedDiagnostic } from './protocol';
import { inStatements, type Touched } from './statements';

export type Ts = typeof TS;

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

/**
 * The most dependents one check covers. A declaration most of a large project imports has hundreds
 * (effect's Predicate.ts: 534); the check's time limit, not this cap, is what bounds such a check.
 */
export const DEFAULT_MAX_DEPENDENTS = 1000;

/** What VS Code's TypeScript gives files outside any tsconfig/jsconfig (an inferred project), reduced to what affects diagnostics. */
export function looseOptions(ts: Ts): TS.CompilerOptions {
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
export const JSCONFIG_DEFAULTS: TS.CompilerOptions = {
  allowJs: true,
  maxNodeModuleJsDepth: 2,
  allowSyntheticDefaultImports: true,
  skipLibCheck: true,
  noEmit: true,
};

export const slashes = (p: string) => p.replace(/\\/g, '/');

const NAMESPACE_REEXPORT = /\bexport\s+(?:type\s+)?\*\s*as\s+[\w$]+\s+from\s*(['"])([^'"\n]+)\1/g;

/** Thrown between two files when a check run ahead gives way (Stop.between): nothing is half-computed, so what it computed is kept. */
export class GaveWay extends Error {
  constructor() {
    super('the check run ahead gave way to a check that waits');
  }
}

/**
 * A check's stop: the host's cancel or the deadline, polled by TypeScript while it checks; and,
 * for a check run ahead of time, whether to give way, asked between files only.
 */
export class Stop implements TS.CancellationToken {
  reason: 'cancelled' | 'time-limit' | undefined;
  constructor(
    private readonly ts: Ts,
    private readonly cancelled: () => boolean,
    private readonly deadline: number | undefined,
    private readonly giveWay: () => boolean = () => false,
  ) {}
  between(): void {
    if (this.giveWay()) throw new GaveWay();
  }
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
export interface TextSource {
  read(file: string): string | undefined;
  exists(file: string): boolean;
  directoryExists(dir: string): boolean;
  /** Files this view adds or removes relative to the disk: a change means module resolutions may differ. */
  existenceKey: string;
}

/**
 * Parsed files shared by a project's two views and kept across checks, so an unchanged file is
 * parsed once and keeps its identity (a program built on the previous one reuses it, and a view
 * keeps its diagnostics while it is the same file).
 */
export class SourceFiles {
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
    // A version, as watch hosts set it through this same (untyped) property: what TypeScript's incremental machinery reads.
    (file as TS.SourceFile & { version?: string }).version = String(++this.counter);
    list.unshift({ text, key, file });
    // The current text, the staged one and the previous staged one.
    if (list.length > 3) list.pop();
    this.byPath.set(fileName, list);
    return file;
  }
}

/**
 * Whether a change of this file can reach files that do not import it, so that comparing
 * declarations of importers cannot bound it: a script or declaration file (global scope), a
 * module augmentation or ambient module, JavaScript (its types inferred from use) or another language.
 */
export function reachesPastImporters(ts: Ts, sf: TS.SourceFile): boolean {
  // What the program collects from a file (TypeScript's internal fields; missing ones count as present).
  const collected = sf as TS.SourceFile & { moduleAugmentations?: readonly unknown[]; ambientModuleNames?: readonly string[] };
  return (
    sf.isDeclarationFile ||
    !ts.isExternalModule(sf) ||
    (collected.moduleAugmentations?.length ?? 1) > 0 ||
    (collected.ambientModuleNames?.length ?? 1) > 0 ||
    !/\.(ts|tsx|mts|cts)$/i.test(sf.fileName)
  );
}

/**
 * One view (current or staged) of one project, kept warm between checks: its program (each
 * built on the previous one, sharing parsed files) and the diagnostics computed per file. After
 * an update, a file's diagnostics are kept unless its text changed or it imports (at any depth)
 * a changed file whose declarations differ; a change reaching past importers, other options or other files
 * existing start the view over. (TypeScript's builder programs do the same with declaration
 * signatures, but take the first edit after a cold start as a change of every file's shape, so a
 * one-line edit re-checked all importers of the file edited.)
 */
export class View {
  /**
   * Syntactic and semantic diagnostics per file (canonical path), with the parsed file they belong
   * to; `part` names the statements checked when not the whole file was (their positions).
   */
  private readonly cache = new Map<string, { sf: TS.SourceFile; diagnostics: readonly TS.Diagnostic[]; part?: string }>();
  private existenceKey = '';
  private optionsKey = '';
  private imports = new WeakMap<TS.SourceFile, string[]>();
  /** Declarations emitted per file (its .d.ts) in the current program. */
  private shapes = new Map<string, Declarations | null>();
  private resolutionCache: TS.ModuleResolutionCache | undefined;
  private moduleHost: TS.ModuleResolutionHost | undefined;
  program: TS.Program | undefined;
  configDiagnostics: readonly TS.Diagnostic[] = [];

  constructor(
    private readonly ts: Ts,
    private readonly reader: FileReader,
    private readonly files: SourceFiles,
    private readonly folder: string,
    private readonly canon: (p: string) => string,
  ) {}

  update(
    texts: TextSource,
    rootNames: readonly string[],
    options: TS.CompilerOptions,
    references: readonly TS.ProjectReference[] | undefined,
    stop: Stop,
  ): void {
    const ts = this.ts;
    const optionsKey = JSON.stringify(options);
    const invalidated = texts.existenceKey !== this.existenceKey;
    if (optionsKey !== this.optionsKey || invalidated) this.drop();
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
    const previous = this.program;
    const previousShapes = this.shapes;
    this.program = ts.createProgram({
      rootNames,
      options,
      host,
      oldProgram: previous,
      configFileParsingDiagnostics: this.configDiagnostics,
      projectReferences: references,
    });
    this.moduleHost = host;
    this.shapes = new Map();
    if (!previous || this.cache.size === 0) return;
    try {
      this.keepWhatStillHolds(previous, previousShapes, stop);
    } catch (error) {
      // Stopped half-way: nothing kept can be trusted.
      this.drop();
      throw error;
    }
  }

  /** Drops the diagnostics (and declarations) the update may have changed; keeps the rest for the new program. */
  private keepWhatStillHolds(previous: TS.Program, previousShapes: Map<string, Declarations | null>, stop: Stop): void {
    const program = this.program!;
    const changed = new Set<string>();
    const importers = new Map<string, string[]>();
    for (const sf of program.getSourceFiles()) {
      const key = this.canon(sf.fileName);
      if (previous.getSourceFile(sf.fileName) !== sf) changed.add(key);
      if (sf.isDeclarationFile) continue;
      for (const target of this.importsOf(sf)) importers.set(target, [...(importers.get(target) ?? []), key]);
    }
    for (const sf of previous.getSourceFiles()) if (!program.getSourceFile(sf.fileName)) changed.add(this.canon(sf.fileName));
    if (changed.size === 0) {
      this.shapes = previousShapes;
      return;
    }
    for (const key of changed) {
      for (const p of [previous, program]) {
        const sf = p.getSourceFile(key);
        if (sf && reachesPastImporters(this.ts, sf)) return this.drop();
      }
    }
    // A changed file whose declarations differ drops what every file importing it (at any depth)
    // kept: telling which of them see the change would emit their declarations in both programs,
    // most of a large project for a change many files import, while a check asks only for the
    // files that may see the change from the current view (names.ts), which it computes anyway.
    const stale = new Set(changed);
    const queue = [...changed].filter((key) => {
      const before = this.declarationsIn(previous, key, previousShapes, stop);
      const after = this.declarations(key, stop);
      return (before !== undefined || after !== undefined) && (!before || !after || before.text !== after.text);
    });
    while (queue.length > 0) {
      for (const importer of importers.get(queue.pop()!) ?? []) {
        if (stale.has(importer)) continue;
        stale.add(importer);
        queue.push(importer);
      }
    }
    for (const key of stale) this.cache.delete(key);
    // Declarations of a file neither changed nor importing an exposing file are the same in the new program.
    for (const [key, shape] of previousShapes) if (!stale.has(key) && !this.shapes.has(key)) this.shapes.set(key, shape);
  }

  /** Forgets what was computed (after an interrupted check, or when options or the files that exist change): the next check starts over, its parsed files kept. */
  drop(): void {
    this.cache.clear();
    this.shapes.clear();
  }

  /** The project's own files a file imports (resolved), read from its text; kept per parsed file. */
  importsOf(file: TS.SourceFile): string[] {
    const known = this.imports.get(file);
    if (known) return known;
    const found = this.resolveImports(file.text, file.fileName);
    this.imports.set(file, found);
    return found;
  }

  /** The file (canonical path) a module specifier in `fileName` resolves to, as the program resolves it. */
  resolve(specifier: string, fileName: string): string | undefined {
    const options = this.program!.getCompilerOptions();
    this.resolutionCache ??= this.ts.createModuleResolutionCache(this.folder, this.canon, options);
    const resolved = this.ts.resolveModuleName(specifier, fileName, options, this.moduleHost!, this.resolutionCache).resolvedModule;
    return resolved ? this.canon(slashes(resolved.resolvedFileName)) : undefined;
  }

  /** The files a text at `fileName` imports or references, resolved as the program resolves them. */
  private resolveImports(text: string, fileName: string): string[] {
    const info = this.ts.preProcessFile(text, true, true);
    // TypeScript's pre-processor skips `export * as ns from '...'`: a namespace re-export imports its module too.
    const specifiers = [...info.importedFiles.map((f) => f.fileName), ...[...text.matchAll(NAMESPACE_REEXPORT)].map((m) => m[2])];
    const found: string[] = [];
    for (const specifier of new Set(specifiers)) {
      const resolved = this.resolve(specifier, fileName);
      if (resolved) found.push(resolved);
    }
    for (const ref of info.referencedFiles) found.push(this.canon(path.posix.resolve(path.posix.dirname(fileName), slashes(ref.fileName))));
    return found;
  }

  /**
   * What a file shows its importers in the current program: its declarations as tsc would emit
   * them (.d.ts text) and the files they refer to; null when that cannot be told exactly (the emit
   * reported a diagnostic, or wrote nothing), undefined when the file is not in the program.
   */
  declarations(file: string, stop: Stop): Declarations | null | undefined {
    return this.declarationsIn(this.program!, file, this.shapes, stop);
  }

  private declarationsIn(program: TS.Program, file: string, shapes: Map<string, Declarations | null>, stop: Stop): Declarations | null | undefined {
    const sf = program.getSourceFile(file);
    if (!sf) return undefined;
    const key = this.canon(sf.fileName);
    if (shapes.has(key)) return shapes.get(key)!;
    let text: string | undefined;
    // emit's internal sixth parameter, forceDtsEmit, is what TypeScript's own builder passes to read a file's declarations under noEmit.
    const emit = program.emit as (...args: unknown[]) => TS.EmitResult;
    const result = emit.call(program, sf, (name: string, written: string) => name.endsWith('.d.ts') && (text = written), stop, true, undefined, true);
    const shape = text === undefined || result.diagnostics.length > 0 ? null : { text, refs: this.resolveImports(text, sf.fileName) };
    shapes.set(key, shape);
    return shape;
  }

  /**
   * Diagnostics of the files asked, kept or computed; answers how many were computed. A file with
   * `parts` is checked in those statements alone (TypeScript's region check) and answers only the
   * diagnostics lying in them, whether its check was whole or in part.
   */
  diagnostics(
    wanted: readonly string[],
    stop: Stop,
    into: Map<string, CheckedDiagnostic[]>,
    toResult: (d: readonly TS.Diagnostic[], file: TS.SourceFile) => CheckedDiagnostic[],
    parts?: ReadonlyMap<string, Touched>,
  ): number {
    const program = this.program!;
    let recomputed = 0;
    for (const file of wanted) {
      stop.between();
      const sf = program.getSourceFile(file);
      if (!sf) continue;
      const key = this.canon(file);
      const touched = parts?.get(key);
      const part = touched?.statements.map((s) => s.pos).join(',');
      let entry = this.cache.get(key);
      if (!entry || entry.sf !== sf || (entry.part !== undefined && entry.part !== part)) {
        // The program's internal third parameter, nodesToCheck (TypeScript 5.6 and later; an earlier one checks the whole file).
        const semantic = program.getSemanticDiagnostics as (
          sf: TS.SourceFile,
          ct: TS.CancellationToken,
          nodes?: readonly TS.Node[],
        ) => readonly TS.Diagnostic[];
        entry = { sf, diagnostics: [...program.getSyntacticDiagnostics(sf, stop), ...semantic.call(program, sf, stop, touched?.statements)], part };
        this.cache.set(key, entry);
        recomputed++;
      }
      into.set(key, toResult(touched ? entry.diagnostics.filter((d) => inStatements(touched.statements, d)) : entry.diagnostics, sf));
    }
    return recomputed;
  }
}

/** A file's declarations (.d.ts text) and the files they refer to (canonical paths). */
export interface Declarations {
  text: string;
  refs: string[];
}
