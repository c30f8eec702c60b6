/** Words a person or an agent reads: counts with the right noun form, paths as name and folder. */

/** "1 location", "3 locations", "0 files"; pass the plural when it is not the singular + "s". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * A workspace-relative path as its file name and the folder it is in ("" at the top), the way
 * VS Code's Source Control view shows it: the name is what tells files of one folder apart.
 */
export function nameAndFolder(path: string): { name: string; folder: string } {
  const slash = path.lastIndexOf('/');
  return { name: path.slice(slash + 1), folder: slash < 0 ? '' : path.slice(0, slash) };
}

/** Up to three paths by name; more as a count with the first two (a summary is read in one line). */
export function pathsSaid(paths: readonly string[]): string {
  return paths.length <= 3 ? paths.join(', ') : `${countOf(paths.length, 'file')} (${paths.slice(0, 2).join(', ')}, …)`;
}
