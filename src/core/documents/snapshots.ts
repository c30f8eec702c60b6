import { createHash, randomUUID } from 'node:crypto';
import type { Snapshot } from '../chain/envelope';

/** A uuid-shaped id derived from a string, so a folder keeps its workspaceId across restarts. */
export function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export type StaleCheck = { stale: false } | { stale: true; reason: string; changedPaths: string[] };

interface ChangeEntry {
  seq: number;
  path: string;
}

/**
 * Tracks one workspace folder's snapshots. Every document change gets a new snapshotId and is
 * kept in a bounded log, so an expected snapshot is judged stale only when a document the
 * request touches changed after it; a person typing elsewhere does not break an agent's chain.
 */
export class SnapshotTracker {
  private seq = 0;
  private snapshotId: string;
  private readonly snapshotSeq = new Map<string, number>();
  private readonly log: ChangeEntry[] = [];

  constructor(
    readonly workspaceId: string,
    private epoch: number,
    private readonly transactionRevision: () => number | null = () => null,
    private readonly capacity = 2000,
    private readonly newId: () => string = randomUUID,
  ) {
    this.snapshotId = this.newId();
    this.snapshotSeq.set(this.snapshotId, 0);
  }

  get workspaceEpoch(): number {
    return this.epoch;
  }

  current(): Snapshot {
    return {
      workspaceId: this.workspaceId,
      workspaceEpoch: this.epoch,
      snapshotId: this.snapshotId,
      transactionRevision: this.transactionRevision(),
    };
  }

  /** A document of the folder changed (buffer or disk); `path` is workspace-relative. */
  recordChange(path: string): void {
    this.seq++;
    this.log.push({ seq: this.seq, path });
    this.snapshotId = this.newId();
    this.snapshotSeq.set(this.snapshotId, this.seq);
    if (this.log.length > this.capacity) this.log.splice(0, this.log.length - this.capacity);
    if (this.snapshotSeq.size > this.capacity) {
      const oldest = this.snapshotSeq.keys().next().value;
      if (oldest !== undefined) this.snapshotSeq.delete(oldest);
    }
  }

  /** The folder was reloaded: earlier snapshots no longer describe it. */
  reload(epoch: number): void {
    this.epoch = epoch;
    this.snapshotSeq.clear();
    this.log.length = 0;
    this.seq++;
    this.snapshotId = this.newId();
    this.snapshotSeq.set(this.snapshotId, this.seq);
  }

  /**
   * Whether `expected` is stale for a request that touches `paths`. The folder-level fields
   * (id, epoch) must always match; documents only matter if the request touches them.
   */
  check(expected: Snapshot, paths: readonly string[]): StaleCheck {
    if (expected.workspaceId !== this.workspaceId) {
      return { stale: true, reason: `the snapshot belongs to workspace ${expected.workspaceId}, not ${this.workspaceId}`, changedPaths: [] };
    }
    if (expected.workspaceEpoch !== this.epoch) {
      return { stale: true, reason: `the workspace was reloaded (epoch ${expected.workspaceEpoch} is now ${this.epoch})`, changedPaths: [] };
    }
    if ((expected.transactionRevision ?? null) !== this.transactionRevision()) {
      return {
        stale: true,
        reason: `the staged transaction moved from revision ${expected.transactionRevision ?? 'none'} to ${this.transactionRevision() ?? 'none'}`,
        changedPaths: [],
      };
    }
    if (paths.length === 0 || expected.snapshotId === this.snapshotId) return { stale: false };
    const since = this.snapshotSeq.get(expected.snapshotId);
    if (since === undefined) {
      return { stale: true, reason: 'the snapshot is unknown or too old to compare', changedPaths: [] };
    }
    const oldestLogged = this.log.length > 0 ? this.log[0].seq : this.seq + 1;
    if (since + 1 < oldestLogged) {
      return { stale: true, reason: 'too many changes happened since the snapshot to compare', changedPaths: [] };
    }
    const wanted = new Set(paths);
    const changed = new Set<string>();
    for (const entry of this.log) {
      if (entry.seq > since && wanted.has(entry.path)) changed.add(entry.path);
    }
    if (changed.size === 0) return { stale: false };
    const list = [...changed].sort();
    return { stale: true, reason: `${list.join(', ')} changed since the snapshot`, changedPaths: list };
  }
}
