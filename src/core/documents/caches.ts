import { randomBytes } from 'node:crypto';
import type { StagedCoverage } from '../transactions/types';
import type { HostCodeAction, HostSymbol } from './editorPort';
import type { SyntaxReadings } from '../symbols/access';

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

/** How long an actionRef stays valid, and how many are kept. */
export const ACTION_REF_TTL_MS = 10 * 60_000;
export const ACTION_REF_CAPACITY = 500;

export interface CachedAction {
  workspaceId: string;
  workspaceEpoch: number;
  action: HostCodeAction;
  createdAt: number;
  /** Why it cannot be staged, when it cannot. */
  unstageable?: string;
  /** How far the language service saw the project when it computed the action's edit. */
  coverage: StagedCoverage;
}

/** Code actions listed recently, by actionRef; bounded, oldest dropped first. */
export class ActionCache {
  private readonly entries = new Map<string, CachedAction>();

  constructor(
    private readonly now: () => number = Date.now,
    readonly capacity = ACTION_REF_CAPACITY,
    readonly ttlMs = ACTION_REF_TTL_MS,
  ) {}

  add(entry: Omit<CachedAction, 'createdAt'>): string {
    const ref = `ca-${randomBytes(6).toString('hex')}`;
    this.entries.set(ref, { ...entry, createdAt: this.now() });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return ref;
  }

  get(ref: string): CachedAction | undefined {
    const entry = this.entries.get(ref);
    if (entry && this.now() - entry.createdAt > this.ttlMs) {
      this.entries.delete(ref);
      return undefined;
    }
    return entry;
  }

  delete(ref: string): void {
    this.entries.delete(ref);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Symbol trees kept across calls, and highlights' read/write kinds. */
export const SYMBOL_TREES_KEPT = 2000;
export const HIGHLIGHTS_KEPT = 4000;

/**
 * Every language-service answer kept across calls, in one place (Services.caches): what a
 * benchmark clears to measure a first call, and what a reader looks at to know what is remembered.
 */
export class LanguageServiceCaches {
  /** Document symbol trees by language and path, while the text is unchanged. */
  readonly symbolTrees = new TextKeyedCache<HostSymbol[]>(SYMBOL_TREES_KEPT);
  /** Write accesses among a symbol's highlights, by language, path and offset, while the text is unchanged. */
  readonly writeAccesses = new TextKeyedCache<ReadonlySet<number>>(HIGHLIGHTS_KEPT);
  /** What the syntax around references says of their access (core/symbols/access.ts), by language and path, while the text is unchanged. */
  readonly syntaxReadings = new TextKeyedCache<SyntaxReadings>(SYMBOL_TREES_KEPT);
  /** Code actions listed recently, by actionRef. */
  readonly codeActions = new ActionCache();
  /** Languages whose document symbol provider has answered in this session: from then on, nothing means no symbols. */
  readonly symbolsAnswered = new Set<string>();
  /** Languages whose running extensions gave no symbols for a whole wait: not waited for again. */
  readonly symbolsSilent = new Set<string>();
  /** "languageId\0feature" pairs whose provider has answered something in this session: it exists (core/symbols/providers.ts). */
  readonly featuresAnswered = new Set<string>();
  /** Languages whose declarations the workspace symbol search did not find, their extensions active: not searched (search-symbols). */
  readonly workspaceSymbolsAbsent = new Set<string>();

  /** Forgets everything: the next calls ask the language services again. */
  clear(): void {
    this.symbolTrees.clear();
    this.writeAccesses.clear();
    this.syntaxReadings.clear();
    this.codeActions.clear();
    this.symbolsAnswered.clear();
    this.symbolsSilent.clear();
    this.featuresAnswered.clear();
    this.workspaceSymbolsAbsent.clear();
  }
}
