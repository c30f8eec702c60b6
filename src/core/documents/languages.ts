import * as path from 'node:path';
import type { LanguageContribution } from './editorPort';

/** Maps file paths to language ids the way the installed extensions declare them (file names first, then extensions). */
export class LanguageIndex {
  private readonly byFilename = new Map<string, string>();
  private readonly byExtension = new Map<string, string>();

  constructor(readonly contributions: readonly LanguageContribution[]) {
    for (const c of contributions) {
      for (const f of c.filenames) if (!this.byFilename.has(f.toLowerCase())) this.byFilename.set(f.toLowerCase(), c.id);
      for (const e of c.extensions) if (!this.byExtension.has(e.toLowerCase())) this.byExtension.set(e.toLowerCase(), c.id);
    }
  }

  languageOf(relativePath: string): string | undefined {
    const base = path.posix.basename(relativePath).toLowerCase();
    const named = this.byFilename.get(base);
    if (named) return named;
    // Longest declared extension wins: ".d.ts" before ".ts".
    for (let dot = base.indexOf('.'); dot >= 0; dot = base.indexOf('.', dot + 1)) {
      const id = this.byExtension.get(base.slice(dot));
      if (id) return id;
    }
    return undefined;
  }

  contribution(languageId: string): LanguageContribution | undefined {
    return this.contributions.find((c) => c.id === languageId);
  }
}

export interface LanguageCount {
  languageId: string;
  fileCount: number;
  /** The first file of the language, in path order. */
  sample: string;
}

/** Counts files per language, most files first, ties by id. */
export function countLanguages(paths: readonly string[], index: LanguageIndex): LanguageCount[] {
  const counts = new Map<string, LanguageCount>();
  for (const p of paths) {
    const id = index.languageOf(p);
    if (!id) continue;
    const entry = counts.get(id);
    if (entry) entry.fileCount++;
    else counts.set(id, { languageId: id, fileCount: 1, sample: p });
  }
  return [...counts.values()].sort((a, b) => b.fileCount - a.fileCount || a.languageId.localeCompare(b.languageId));
}
