/**
 * Keeps a result within its output limit by dropping items from the end of its collections
 * ({ items, hasMore }) and setting hasMore, instead of cutting JSON. Later collections give
 * way first, so the head of the answer survives. A plain array `x` next to a boolean
 * `xTruncated` is shortened the same way (for roslyn-workbench-mcp shapes that cannot carry hasMore).
 */

export type Fits = (serialized: string) => Promise<boolean> | boolean;

interface Collection {
  items: unknown[];
  hasMore: boolean;
}

/** Something the bounding may shorten: its items, how to replace them, how to say some were left out. */
interface Shortenable {
  all: unknown[];
  set(items: unknown[]): void;
  more(): void;
}

function isCollection(value: unknown): value is Collection {
  return typeof value === 'object' && value !== null && Array.isArray((value as Collection).items) && typeof (value as Collection).hasMore === 'boolean';
}

function collections(value: unknown, found: Shortenable[] = []): Shortenable[] {
  if (Array.isArray(value)) {
    for (const v of value) collections(v, found);
  } else if (typeof value === 'object' && value !== null) {
    if (isCollection(value)) found.push({ all: value.items, set: (items) => (value.items = items), more: () => (value.hasMore = true) });
    const record = value as Record<string, unknown>;
    for (const [key, v] of Object.entries(record)) {
      const flag = `${key}Truncated`;
      if (Array.isArray(v) && typeof record[flag] === 'boolean') {
        found.push({ all: v, set: (items) => (record[key] = items), more: () => (record[flag] = true) });
      }
    }
    for (const v of Object.values(value)) collections(v, found);
  }
  return found;
}

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export const fitsBytes =
  (maxBytes: number): Fits =>
  (text) =>
    utf8Bytes(text) <= maxBytes;

/**
 * Returns the serialized value, shortened to fit, or undefined when even empty collections do
 * not fit. `value` is cloned, never modified.
 */
export async function boundToFit(value: unknown, fits: Fits): Promise<{ text: string; truncated: boolean } | undefined> {
  let text = JSON.stringify(value);
  if (await fits(text)) return { text, truncated: false };
  const copy: unknown = JSON.parse(text);
  const found = collections(copy);
  for (let i = found.length - 1; i >= 0; i--) {
    const collection = found[i];
    const all = collection.all;
    // Largest prefix that fits, by binary search over the item count.
    let low = 0;
    let high = all.length;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      collection.set(all.slice(0, mid));
      if (await fits(JSON.stringify(copy))) low = mid;
      else high = mid - 1;
    }
    collection.set(all.slice(0, low));
    if (low < all.length) collection.more();
    text = JSON.stringify(copy);
    if (await fits(text)) return { text, truncated: true };
  }
  return undefined;
}

/** Applies a limit parameter to an already ordered list. */
/** Files listed in a mutation's or commit's answer; the rest are counted (totalCount) and shown by transaction-preview. */
export const ANSWER_LIST_DEFAULT = 50;

export function limitItems<T>(all: readonly T[], limit: number | null | undefined, defaultLimit = 50): { items: T[]; hasMore: boolean; totalCount: number } {
  const n = limit ?? defaultLimit;
  return { items: all.slice(0, n), hasMore: all.length > n, totalCount: all.length };
}

/** Said by an answer that had to be cut down to its essentials after its change was made. */
export const SHORTENED_NOTE =
  'The answer was shortened to fit its output limit (lists emptied; totalCount says how many there are). The change itself was made.';

const ESSENTIAL_STRING_LENGTH = 200;
const ESSENTIAL_DEPTH = 3;

/**
 * What is left of an answer when even its emptied lists do not fit: numbers, booleans, short
 * strings and small objects of the first levels, every collection empty but with its
 * totalCount and hasMore; other arrays are left out. Used only when the answer must not turn
 * into an error (the change was already made).
 */
export function essentials(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > ESSENTIAL_STRING_LENGTH ? `${value.slice(0, ESSENTIAL_STRING_LENGTH)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return undefined;
  if (isCollection(value)) {
    const total = (value as { totalCount?: unknown }).totalCount;
    return { items: [], hasMore: value.hasMore || value.items.length > 0, ...(typeof total === 'number' ? { totalCount: total } : {}) };
  }
  if (depth >= ESSENTIAL_DEPTH) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const kept = essentials(v, depth + 1);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}
