/**
 * Keeps a result within its output limit by dropping items from the end of its collections
 * ({ items, hasMore }) and setting hasMore, instead of cutting JSON. Later collections give
 * way first, so the head of the answer survives.
 */

export type Fits = (serialized: string) => Promise<boolean> | boolean;

interface Collection {
  items: unknown[];
  hasMore: boolean;
}

function isCollection(value: unknown): value is Collection {
  return typeof value === 'object' && value !== null && Array.isArray((value as Collection).items) && typeof (value as Collection).hasMore === 'boolean';
}

function collections(value: unknown, found: Collection[] = []): Collection[] {
  if (Array.isArray(value)) {
    for (const v of value) collections(v, found);
  } else if (typeof value === 'object' && value !== null) {
    if (isCollection(value)) found.push(value);
    for (const v of Object.values(value)) collections(v, found);
  }
  return found;
}

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export const fitsBytes = (maxBytes: number): Fits => (text) => utf8Bytes(text) <= maxBytes;

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
    const all = collection.items;
    // Largest prefix that fits, by binary search over the item count.
    let low = 0;
    let high = all.length;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      collection.items = all.slice(0, mid);
      if (await fits(JSON.stringify(copy))) low = mid;
      else high = mid - 1;
    }
    collection.items = all.slice(0, low);
    if (low < all.length) collection.hasMore = true;
    text = JSON.stringify(copy);
    if (await fits(text)) return { text, truncated: true };
  }
  return undefined;
}

/** Applies a limit parameter to an already ordered list. */
export function limitItems<T>(all: readonly T[], limit: number | null | undefined, defaultLimit = 50): { items: T[]; hasMore: boolean; totalCount: number } {
  const n = limit ?? defaultLimit;
  return { items: all.slice(0, n), hasMore: all.length > n, totalCount: all.length };
}
