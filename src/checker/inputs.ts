/** What a check reads: the two views' texts of a request, and a project's root names and options in one view. */
import * as path from 'node:path';
import type * as TS from 'typescript';
import type { CheckedDiagnostic, CheckRequest, Severity } from './protocol';
import { JSCONFIG_DEFAULTS, looseOptions, slashes } from './view';
import type { FileReader, TextSource, Ts } from './view';

/** What stays the same across a folder's checks: how paths compare, and TypeScript's own lib texts (they never change while the module is loaded). */
export interface FolderReads {
  readonly ts: Ts;
  readonly reader: FileReader;
  readonly folder: string;
  readonly canon: (p: string) => string;
  readonly libDir: string;
  readonly libTexts: Map<string, string | undefined>;
}

export function folderReads(ts: Ts, reader: FileReader, folder: string): FolderReads {
  const canon = reader.useCaseSensitiveFileNames ? (p: string) => p : (p: string) => p.toLowerCase();
  return {
    ts,
    reader,
    folder: slashes(path.resolve(folder)),
    canon,
    libDir: canon(slashes(path.dirname(ts.getDefaultLibFilePath({})))),
    libTexts: new Map(),
  };
}

export interface CheckTexts {
  baseTexts: TextSource;
  stagedTexts: TextSource;
  /** canonical path → path of each staged document */
  stagedNames: Map<string, string>;
  created: string[];
  deleted: string[];
}

/** The current view (unsaved buffers over the disk) and the staged view (the staged documents over the current view) of one request. */
export function checkTexts(reads: FolderReads, request: CheckRequest): CheckTexts {
  const { canon, folder, reader, libDir, libTexts } = reads;
  const abs = (rel: string) => slashes(path.posix.resolve(folder, slashes(rel)));
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
    const cache = key.startsWith(`${libDir}/`) ? libTexts : disk;
    if (!cache.has(key)) cache.set(key, reader.readFile(file));
    return cache.get(key);
  };
  const diskExists = (file: string) => (disk.has(canon(file)) ? disk.get(canon(file)) !== undefined : reader.fileExists(file));
  const created = [...staged].filter(([k, t]) => t !== null && !buffers.has(k) && !diskExists(stagedNames.get(k)!)).map(([k]) => k);
  const deleted = [...staged].filter(([, t]) => t === null).map(([k]) => k);

  const baseTexts: TextSource = {
    read: (f) => buffers.get(canon(f)) ?? readDisk(f),
    exists: (f) => buffers.has(canon(f)) || diskExists(f),
    directoryExists: (d) => reader.directoryExists(d),
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
    directoryExists: (d) => reader.directoryExists(d) || created.some((c) => c.startsWith(`${canon(d).replace(/\/$/, '')}/`)),
    existenceKey: JSON.stringify([created, deleted]),
  };
  return { baseTexts, stagedTexts, stagedNames, created, deleted };
}

export interface ProgramInput {
  rootNames: string[];
  options: TS.CompilerOptions;
  references: readonly TS.ProjectReference[] | undefined;
  configDiagnostics: readonly TS.Diagnostic[];
}

/**
 * A project's root names and options in one view: its config read from that view's texts ('' is
 * the loose files, checked with inferred-project options); in the staged view without the
 * deleted documents and with the created ones its config holds.
 */
export function programInput(
  reads: FolderReads,
  config: string,
  texts: TextSource,
  files: readonly string[],
  created: readonly string[],
  deleted: readonly string[],
  which: 'base' | 'staged',
): ProgramInput {
  const { ts, reader, canon } = reads;
  if (config === '') return { rootNames: files.filter((f) => texts.exists(f)), options: looseOptions(ts), references: undefined, configDiagnostics: [] };
  const json = ts.parseJsonText(config, texts.read(config) ?? '{}');
  const parsed = ts.parseJsonSourceFileConfigFileContent(
    json,
    {
      useCaseSensitiveFileNames: reader.useCaseSensitiveFileNames,
      readDirectory: (root, extensions, excludes, includes, depth) => reader.readDirectory(root, extensions, excludes, includes, depth),
      fileExists: (f) => texts.exists(f),
      readFile: (f) => texts.read(f),
    },
    path.posix.dirname(config),
    config.endsWith('/jsconfig.json') ? JSCONFIG_DEFAULTS : undefined,
    config,
  );
  const removed = new Set(which === 'staged' ? deleted : []);
  const rootNames = parsed.fileNames.map(slashes).filter((f) => !removed.has(canon(f)));
  // A created file is not on disk for the include patterns to find: it joins the project of its nearest config.
  if (which === 'staged') {
    const present = new Set(rootNames.map(canon));
    for (const f of files) if (created.includes(canon(f)) && !present.has(canon(f))) rootNames.push(f);
  }
  // Never emitted; with outFile, declarations would be one file for the whole program.
  return {
    rootNames,
    options: { ...parsed.options, outFile: undefined, noEmit: true },
    references: parsed.projectReferences,
    configDiagnostics: parsed.errors,
  };
}

/** A file's diagnostics as the answer gives them: its own only, folder-relative, 1-based. */
export function diagnosticRows(reads: FolderReads): (diagnostics: readonly TS.Diagnostic[], sf: TS.SourceFile) => CheckedDiagnostic[] {
  const { ts, canon, folder } = reads;
  return (diagnostics, sf) =>
    diagnostics.flatMap((d) => {
      if (!d.file || d.start === undefined || canon(d.file.fileName) !== canon(sf.fileName)) return [];
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return [
        {
          path: path.posix.relative(folder, sf.fileName),
          line: line + 1,
          column: character + 1,
          code: d.code,
          message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
          severity: severityOf(ts, d.category),
        },
      ];
    });
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

/** One of a program's folder files (not node_modules, not the default library) and the folder files it imports: [canonical path, path, imports]. */
export type SourceRow = [key: string, fileName: string, imports: string[]];
