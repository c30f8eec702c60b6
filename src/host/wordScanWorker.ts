/**
 * The word scan's worker thread (bundled as dist/word-scan-worker.js): finds a name's whole-word
 * starts in files read as plain UTF-8, off the extension host's thread. A rename's residue is
 * scanned while the language service computes the rename; on the host's thread the scan delayed
 * the rename's own round trips through the host (wordScan.ts says by how much). It runs at a lower
 * priority: during a rename the language server needs a core, and the scan, on the other one,
 * delayed its answer too.
 */
import { TextDecoder } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { isPlainUtf8, readSmallFile, stampNow } from './files';
import { lowerThreadPriority } from '../checker/threadPriority';
import { wholeWords } from '../core/symbols/residue';
import { WORD_SCAN_NICE } from './wordScan';
import type { WordScanAnswer, WordScanRequest } from './wordScan';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Files kept while their stamps hold, at most this many bytes in all (oldest dropped first): their
 * bytes, and their text once it was needed. A name is searched in the bytes first (its UTF-8 is
 * in a file's bytes exactly where it is in the text), so a file without it is never decoded.
 */
const KEPT_BYTES = 64 * 1024 * 1024;
const kept = new Map<string, { stamp: string; bytes: Buffer; text?: string }>();
let keptBytes = 0;
/** Files read from disk (not found kept), for the answers' `read`. */
let filesRead = 0;

function drop(absPath: string): void {
  const k = kept.get(absPath);
  keptBytes -= k ? k.bytes.length + (k.text?.length ?? 0) * 2 : 0;
  kept.delete(absPath);
}

/** The file when VS Code would show it as its plain UTF-8 (no byte-order mark, valid UTF-8, no NUL); undefined otherwise. */
function fileOf(absPath: string, maxBytes: number): { stamp: string; bytes: Buffer; text?: string } | undefined {
  const known = kept.get(absPath);
  if (known && known.bytes.length <= maxBytes && stampNow(absPath) === known.stamp) return known;
  drop(absPath);
  filesRead++;
  const read = readSmallFile(absPath, maxBytes);
  if (read === undefined || read === 'larger') return undefined;
  const { bytes, stat } = read;
  if (!isPlainUtf8(bytes)) return undefined;
  const file = { stamp: stat, bytes };
  kept.set(absPath, file);
  keptBytes += bytes.length;
  while (keptBytes > KEPT_BYTES && kept.size > 1) drop(kept.keys().next().value as string);
  return file;
}

/**
 * Reads the files ahead of a scan (a read of the folder at a low priority before any rename asks):
 * up to what is kept, since reading more would only drop files read before.
 */
function readAhead(request: WordScanRequest): WordScanAnswer {
  const before = filesRead;
  for (const [absPath] of request.files) {
    if (keptBytes >= KEPT_BYTES && !kept.has(absPath)) break;
    fileOf(absPath, request.maxBytes);
  }
  return { id: request.id, files: [], read: filesRead - before };
}

export function scan(request: WordScanRequest): WordScanAnswer {
  if (request.ahead) return readAhead(request);
  const before = filesRead;
  const files: WordScanAnswer['files'] = [];
  const needle = Buffer.from(request.name, 'utf8');
  for (const [absPath, languageId] of request.files) {
    const file = fileOf(absPath, request.maxBytes);
    if (file === undefined) continue;
    if (needle.length === 0 || !file.bytes.includes(needle)) {
      files.push([absPath]);
      continue;
    }
    if (file.text === undefined) {
      file.text = utf8.decode(file.bytes);
      if (kept.get(absPath) === file) keptBytes += file.text.length * 2;
    }
    const starts = wholeWords(file.text, request.name, languageId);
    files.push(starts.length === 0 ? [absPath] : [absPath, starts, file.stamp]);
  }
  return { id: request.id, files, read: filesRead - before };
}

// In its own thread (tests load scan() in theirs): lowered, then listening.
if (parentPort) lowerThreadPriority(WORD_SCAN_NICE);
parentPort?.on('message', (request: WordScanRequest) => {
  try {
    parentPort?.postMessage(scan(request));
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
