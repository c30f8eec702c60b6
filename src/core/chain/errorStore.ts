import type { ErrorCode } from './errors';

export interface ErrorRecord {
  correlationId: string;
  tool: string;
  code: ErrorCode;
  message: string;
  time: string;
  /** The request as received, shortened. */
  input: string;
  /** The stack of an unexpected exception. */
  stack?: string;
  details?: unknown;
}

/** Keeps the latest failures by correlation id so get-error-details can explain them locally. */
export class ErrorStore {
  private readonly records = new Map<string, ErrorRecord>();

  constructor(private readonly capacity = 500) {}

  add(record: ErrorRecord): void {
    this.records.delete(record.correlationId);
    this.records.set(record.correlationId, record);
    while (this.records.size > this.capacity) {
      const oldest = this.records.keys().next().value;
      if (oldest === undefined) break;
      this.records.delete(oldest);
    }
  }

  get(correlationId: string): ErrorRecord | undefined {
    return this.records.get(correlationId);
  }

  get size(): number {
    return this.records.size;
  }

  recent(limit: number): ErrorRecord[] {
    return [...this.records.values()].reverse().slice(0, limit);
  }
}
