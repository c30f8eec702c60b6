/** The part of vscode.CancellationToken the core needs, so tools stay testable without VS Code. */
export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** A cancellation source that also follows an outer signal (the caller's token). */
export class LinkedCancellation implements CancellationSignal {
  private cancelled = false;
  private readonly listeners = new Set<() => void>();
  private readonly outerSubscription: { dispose(): void } | undefined;

  constructor(outer?: CancellationSignal) {
    if (outer?.isCancellationRequested) this.cancelled = true;
    this.outerSubscription = outer?.onCancellationRequested(() => this.cancel());
  }

  get isCancellationRequested(): boolean {
    return this.cancelled;
  }

  onCancellationRequested(listener: () => void): { dispose(): void } {
    if (this.cancelled) {
      listener();
      return { dispose: () => undefined };
    }
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  dispose(): void {
    this.outerSubscription?.dispose();
    this.listeners.clear();
  }
}

export const NEVER_CANCELLED: CancellationSignal = {
  isCancellationRequested: false,
  onCancellationRequested: () => ({ dispose: () => undefined }),
};
