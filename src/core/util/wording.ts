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

/** Whether offset at falls inside a surrogate pair (its low half is there). */
export const splitsPair = (text: string, at: number): boolean => {
  const c = text.charCodeAt(at);
  return at > 0 && at < text.length && c >= 0xdc00 && c <= 0xdfff;
};

/**
 * A long line as an answer or the panel shows it: at most `max` characters of it, from `before`
 * characters ahead of offset `at` (shifted to fit the end), "…" marking each cut, never half a
 * surrogate pair at either end; `cut` counts the characters left out.
 */
export function cutAround(text: string, at: number, max: number, before: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  let start = Math.max(0, Math.min(at - before, text.length - max));
  if (splitsPair(text, start)) start++;
  let end = start + max;
  if (splitsPair(text, end)) end--;
  return { text: `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`, cut: text.length - (end - start) };
}
