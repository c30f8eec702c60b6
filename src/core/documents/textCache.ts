/**
 * Answers of language-service calls that depend only on a document's text (its symbol tree, the
 * read/write kinds of its highlights), kept while the text is the same: asking again for an
 * unchanged document costs a string comparison instead of a round trip to the language server.
 * Least recently used entries go first.
 */
export class TextKeyedCache<V> {
  private readonly entries = new Map<string, { text: string; value: V }>();

  constructor(private readonly capacity: number) {}

  get(key: string, text: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.text !== text) return undefined;
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, text: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { text, value });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** One cache per host and purpose (hosts of tests are independent). */
export function cacheFor<V>(caches: WeakMap<object, TextKeyedCache<V>>, host: object, capacity: number): TextKeyedCache<V> {
  let cache = caches.get(host);
  if (!cache) caches.set(host, (cache = new TextKeyedCache<V>(capacity)));
  return cache;
}
