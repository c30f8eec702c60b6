import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Discovery files: each VS Code window serving MCP writes one (its URL, token, folders, pid) in a
 * per-user directory (0700), the file 0600 and created exclusively; the stdio bridge reads them
 * to find the window whose folder holds its working directory.
 */

export const DISCOVERY_DIR_ENV = 'AGENT_WORKBENCH_MCP_DIR';
export const DISCOVERY_FORMAT = 'agent-workbench-mcp-window/v1';

export interface DiscoveryEntry {
  format: typeof DISCOVERY_FORMAT;
  url: string;
  token: string;
  /** Absolute paths of the window's workspace folders. */
  folders: string[];
  pid: number;
  startedAt: string;
  version: string;
}

/** The per-user directory: $AGENT_WORKBENCH_MCP_DIR, else $XDG_RUNTIME_DIR/agent-workbench-mcp, else ~/.agent-workbench/mcp. */
export function discoveryDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[DISCOVERY_DIR_ENV]) return path.resolve(env[DISCOVERY_DIR_ENV]!);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'agent-workbench-mcp');
  return path.join(os.homedir(), '.agent-workbench', 'mcp');
}

/** `window-<pid>-<16 hex>.json`: the pid says whose it is, the random part keeps two servers of one process apart. */
export function discoveryFileName(pid: number, nonce = randomBytes(8).toString('hex')): string {
  return `window-${pid}-${nonce}.json`;
}

const FILE_PATTERN = /^window-(\d+)-[0-9a-f]{16}\.json$/;

export function pidOfFileName(name: string): number | undefined {
  const m = FILE_PATTERN.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Creates the directory 0700, or checks an existing one: a real directory (no symlink), ours, then tightened to 0700. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (process.platform !== 'win32') {
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
    if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
  }
}

/** Writes the entry to a new file (0600, exclusive create: never follows or replaces an existing file); returns its path. */
export function writeDiscoveryFile(dir: string, entry: DiscoveryEntry): string {
  ensurePrivateDir(dir);
  const file = path.join(dir, discoveryFileName(entry.pid));
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(entry, null, 2));
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

export function removeDiscoveryFile(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Already gone, or the directory was removed: nothing to clean.
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseEntry(text: string): DiscoveryEntry | undefined {
  try {
    const e = JSON.parse(text) as Partial<DiscoveryEntry>;
    if (e.format !== DISCOVERY_FORMAT || typeof e.url !== 'string' || typeof e.token !== 'string' || !Array.isArray(e.folders) || typeof e.pid !== 'number') {
      return undefined;
    }
    return {
      ...e,
      folders: e.folders.filter((f): f is string => typeof f === 'string'),
      startedAt: String(e.startedAt ?? ''),
      version: String(e.version ?? ''),
    } as DiscoveryEntry;
  } catch {
    return undefined;
  }
}

/**
 * The entries of live windows; files of dead processes are removed on the way (stale: a window
 * that crashed or was killed never removed its own). `alive` is injectable for tests.
 */
export function readDiscoveryFiles(dir: string, alive: (pid: number) => boolean = processAlive): { file: string; entry: DiscoveryEntry }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const found: { file: string; entry: DiscoveryEntry }[] = [];
  for (const name of names) {
    const pid = pidOfFileName(name);
    if (pid === undefined) continue;
    const file = path.join(dir, name);
    if (!alive(pid)) {
      removeDiscoveryFile(file);
      continue;
    }
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const entry = parseEntry(text);
    if (entry && entry.pid === pid) found.push({ file, entry });
  }
  return found;
}

/** Whether `inner` is `outer` or inside it (path-wise, no file system access). */
export function containsPath(outer: string, inner: string): boolean {
  const rel = path.relative(path.resolve(outer), path.resolve(inner));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The window whose workspace folder holds `cwd`; of several, the one with the deepest such folder
 * (a window on a package wins over a window on its monorepo), then the most recently started.
 * undefined when no window's folder holds it: the bridge never guesses.
 */
export function chooseWindow(entries: readonly DiscoveryEntry[], cwd: string): DiscoveryEntry | undefined {
  let best: { entry: DiscoveryEntry; depth: number } | undefined;
  for (const entry of entries) {
    for (const folder of entry.folders) {
      if (!containsPath(folder, cwd)) continue;
      const depth = path.resolve(folder).length;
      if (!best || depth > best.depth || (depth === best.depth && entry.startedAt > best.entry.startedAt)) best = { entry, depth };
    }
  }
  return best?.entry;
}
