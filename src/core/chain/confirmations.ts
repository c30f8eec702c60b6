/**
 * Which calls the person confirmed. VS Code shows a tool's confirmation before invoke and never
 * invokes a call whose confirmation was cancelled, but it hands invoke no id of the confirmation:
 * calls are matched by tool and input. Each shown confirmation is consumed by exactly one
 * invocation, oldest first; one never consumed (cancelled) expires.
 */
export class ConfirmationLedger {
  private readonly shown = new Map<string, number[]>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A confirmation was shown for this call. */
  shownFor(tool: string, input: unknown): void {
    this.expire();
    const key = keyOf(tool, input);
    this.shown.set(key, [...(this.shown.get(key) ?? []), this.now()]);
  }

  /** Whether this invocation was confirmed; consumes the confirmation it matches. */
  consume(tool: string, input: unknown): boolean {
    this.expire();
    const key = keyOf(tool, input);
    const times = this.shown.get(key);
    if (!times || times.length === 0) return false;
    times.shift();
    if (times.length === 0) this.shown.delete(key);
    return true;
  }

  /** Confirmations shown and not yet consumed (for tests and diagnostics). */
  pending(): number {
    this.expire();
    let n = 0;
    for (const t of this.shown.values()) n += t.length;
    return n;
  }

  private expire(): void {
    const now = this.now();
    for (const [key, times] of this.shown) {
      const live = times.filter((t) => now - t <= this.ttlMs);
      if (live.length === 0) this.shown.delete(key);
      else if (live.length !== times.length) this.shown.set(key, live);
    }
  }
}

function keyOf(tool: string, input: unknown): string {
  return `${tool}\u0000${JSON.stringify(input) ?? ''}`;
}
