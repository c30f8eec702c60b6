import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import type { BigIntStats } from 'node:fs';
import * as fsp from 'node:fs/promises';

// Plain file reads of the host (no vscode import, so they are unit-tested without VS Code).

/** What says a file is unchanged since it was read: its size, inode and nanosecond times (taken before reading). */
export type FileStamp = string;
export const stampOf = (s: BigIntStats): FileStamp => `${s.size}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}`;

/** Non-blocking open: a FIFO in the workspace must not hang the extension host (fstat then refuses it). */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * A regular file of at most maxBytes, read synchronously through one descriptor (open, fstat,
 * read, close), with the stamp of what was read. Synchronous on purpose: the files of a rename or
 * a reference list are small and many, and in the extension host 1,000 of them took about 10 ms
 * this way against about 90 ms through fs/promises, whose callbacks queue behind the thread pool.
 */
export function readSmallFile(absPath: string, maxBytes: number): { bytes: Buffer; stat: FileStamp } | 'larger' | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(absPath, OPEN_FLAGS);
    const s = fs.fstatSync(fd, { bigint: true });
    if (!s.isFile()) return undefined;
    if (s.size > BigInt(maxBytes)) return 'larger';
    const bytes = Buffer.allocUnsafe(Number(s.size));
    let filled = 0;
    while (filled < bytes.length) {
      const n = fs.readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    // A file that shrank while read: the stamp then no longer matches, and the bytes are what was there.
    return { bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled), stat: stampOf(s) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Whether VS Code shows these bytes as their plain UTF-8 decoding: no byte-order mark (the editor
 * reads that itself), valid UTF-8, and no NUL byte (VS Code treats the file as binary).
 */
export function isPlainUtf8(bytes: Uint8Array): boolean {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return !bom && isUtf8(bytes) && !bytes.includes(0);
}

/** The stamp of a file now (undefined when it is gone), to tell whether it changed since it was read. */
export function stampNow(absPath: string): FileStamp | undefined {
  try {
    return stampOf(fs.statSync(absPath, { bigint: true }));
  } catch {
    return undefined;
  }
}

/** Files up to this size are read synchronously; larger ones through fs/promises, so a big file never blocks the extension host. */
export const SYNC_READ_MAX_BYTES = 1024 * 1024;

/** A regular file of at most maxBytes with its stamp: small ones read synchronously (readSmallFile), larger ones asynchronously. */
export async function readFileStamped(absPath: string, maxBytes: number): Promise<{ bytes: Buffer; stat: FileStamp } | undefined> {
  const small = readSmallFile(absPath, Math.min(maxBytes, SYNC_READ_MAX_BYTES));
  if (small !== 'larger') return small;
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(absPath, OPEN_FLAGS);
    const s = await handle.stat({ bigint: true });
    if (!s.isFile() || s.size > BigInt(maxBytes)) return undefined;
    const bytes = Buffer.allocUnsafe(Number(s.size));
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled), stat: stampOf(s) };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
