import * as path from 'node:path';
import { revise, ToolError } from '../chain/envelope';

/** Forward-slash, normalized, workspace-relative path; '' is the folder itself. */
export type RelativePath = string;

const refuse = (input: string, why: string, field: string): ToolError =>
  new ToolError(
    'WorkspacePathNotAllowed',
    `${field}: the path "${truncate(input)}" is not allowed: ${why}. Use a path relative to the workspace folder, without "..", that stays inside it.`,
    revise('Give a workspace-relative path inside the folder (see workspace-list for the folders).'),
  );

export function truncate(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

export function isAbsoluteLike(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[a-zA-Z]:[\\/]/.test(p) || /^file:\/\//i.test(p);
}

/** True when `child` is `parent` or inside it (both absolute, normalized). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Turns a requested path into a workspace-relative one, lexically. Absolute paths must lie in
 * the folder; relative paths may not climb out of it. Symlinks are checked by confinePath.
 */
export function toRelativePath(folderFsPath: string, input: string, field = 'path'): RelativePath {
  if (input.includes('\0')) throw refuse(input, 'it contains a NUL character', field);
  let candidate = input.trim();
  if (/^file:\/\//i.test(candidate)) {
    try {
      candidate = decodeURIComponent(new URL(candidate).pathname);
    } catch {
      throw refuse(input, 'it is not a valid file URI', field);
    }
  }
  candidate = candidate.replace(/\\/g, '/');
  if (isAbsoluteLike(candidate)) {
    const absolute = path.resolve(candidate);
    if (!isInside(folderFsPath, absolute)) throw refuse(input, `it is outside the workspace folder ${folderFsPath}`, field);
    return toPosix(path.relative(folderFsPath, absolute));
  }
  const normalized = path.posix.normalize(candidate);
  if (normalized === '..' || normalized.startsWith('../')) throw refuse(input, 'it leaves the workspace folder', field);
  return normalized === '.' ? '' : normalized.replace(/\/$/, '');
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

export function joinFolder(folderFsPath: string, relativePath: RelativePath): string {
  return relativePath === '' ? folderFsPath : path.join(folderFsPath, ...relativePath.split('/'));
}

/**
 * Refuses a path whose real location (symlinks resolved) is outside the real folder. For a
 * path that does not exist yet, its nearest existing ancestor is checked instead.
 */
export async function confinePath(
  folderFsPath: string,
  relativePath: RelativePath,
  realPath: (absolute: string) => Promise<string | undefined>,
  field = 'path',
): Promise<string> {
  const absolute = joinFolder(folderFsPath, relativePath);
  const realFolder = (await realPath(folderFsPath)) ?? folderFsPath;
  let probe = absolute;
  for (;;) {
    const real = await realPath(probe);
    if (real !== undefined) {
      if (!isInside(realFolder, real)) throw refuse(relativePath, `it resolves through a symbolic link to ${real}, outside the workspace`, field);
      return absolute;
    }
    const parent = path.dirname(probe);
    if (parent === probe || !isInside(folderFsPath, parent)) return absolute;
    probe = parent;
  }
}

/**
 * Keeps the listed files (workspace-relative) whose real location is inside the real folder:
 * a listing that followed a symbolic link out of the workspace must not show what lies there.
 */
export async function keepInsideRealFolder(
  folderFsPath: string,
  relativePaths: readonly string[],
  realPath: (absolute: string) => Promise<string | undefined>,
  concurrency = 64,
): Promise<string[]> {
  const realFolder = (await realPath(folderFsPath)) ?? folderFsPath;
  const keep = new Array<boolean>(relativePaths.length).fill(false);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < relativePaths.length) {
      const i = next++;
      const real = await realPath(joinFolder(folderFsPath, relativePaths[i]));
      keep[i] = real !== undefined && isInside(realFolder, real);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, relativePaths.length) }, worker));
  return relativePaths.filter((_, i) => keep[i]);
}
