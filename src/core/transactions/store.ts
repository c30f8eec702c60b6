/**
 * Keeps each workspace's open transaction across a window reload: its changes are written to the
 * extension's storage (never the workspace) once they pause, and at activation the transaction is
 * read back and each base it was computed on is checked against the file. A file that changed meanwhile keeps
 * the transaction, and transaction-commit refuses with TransactionConflicted naming it (its
 * usual drift check); server-status says so.
 */
import type { EditorPort } from '../documents/editorPort';
import { joinFolder } from '../documents/paths';
import { sha256 } from './segments';
import { Transaction } from './transaction';
import type { DocumentBase } from './plan';
import type { Revision, StagedDocument, TransactionEvent } from './types';
import type { Segment } from './segments';
import type { TransactionManager } from './manager';
import type { Workspace } from '../documents/workspaces';
import { countOf } from '../util/wording';

/** Where kept transactions live: one text per workspace id (a file in the extension's global storage). */
export interface KeptTransactionFiles {
  read(workspaceId: string): Promise<string | undefined>;
  write(workspaceId: string, text: string): Promise<void>;
  remove(workspaceId: string): Promise<void>;
}

/** Larger transactions live only in memory; server-status says so. */
export const MAX_KEPT_BYTES = 16 * 1024 * 1024;
/**
 * A staging (or undo, redo) is written once the workspace's changes pause this long: writing
 * serializes every staged text (a rename of 160 files of a large code base: tens of ms on the
 * extension host's thread), which must not hold up the agent's next call. A transaction's end is
 * written at once, and deactivation writes what is pending.
 */
export const KEEP_AFTER_MS = 1_000;
const FORMAT = 1;

type KeptSegment = [number, number] | string;

interface KeptDocument {
  key: string;
  /** Index into bases; null for a file the transaction creates. */
  origin: number | null;
  path: string | null;
  segments: KeptSegment[];
}

interface KeptRevision {
  number: number;
  provenance: Revision['provenance'];
  time: string;
  paths: string[];
  /** Indexes into documents. */
  state: number[];
  coverage?: Revision['coverage'];
  rename?: Revision['rename'];
}

export interface KeptTransaction {
  format: number;
  workspaceId: string;
  folder: string;
  id: string;
  startedAt: string;
  current: number;
  /** Each with the sha256 of its text, checked when the transaction is read back. */
  bases: (DocumentBase & { hash: string })[];
  documents: KeptDocument[];
  revisions: KeptRevision[];
}

/** A base's text hash, computed when a transaction is first kept rather than while a call stages (a rename of 160 files: 20 ms). */
const textHashes = new WeakMap<DocumentBase, string>();
function textHash(b: DocumentBase): string {
  let h = textHashes.get(b);
  if (h === undefined) textHashes.set(b, (h = sha256(b.text)));
  return h;
}

/** A transaction as plain JSON: documents and bases shared between revisions are written once. */
export function serializeTransaction(tx: Transaction, folder: string): KeptTransaction {
  const bases = new Map<DocumentBase, number>();
  const documents = new Map<StagedDocument, number>();
  const keptDocuments: KeptDocument[] = [];
  const baseIndex = (b: DocumentBase): number => {
    let i = bases.get(b);
    if (i === undefined) bases.set(b, (i = bases.size));
    return i;
  };
  const docIndex = (d: StagedDocument): number => {
    let i = documents.get(d);
    if (i === undefined) {
      documents.set(d, (i = documents.size));
      keptDocuments.push({
        key: d.key,
        origin: d.origin ? baseIndex(d.origin) : null,
        path: d.path,
        segments: d.segments.map((s) => ('text' in s ? s.text : [s.start, s.end])),
      });
    }
    return i;
  };
  const revisions = tx.revisions.map((r) => ({
    number: r.number,
    provenance: r.provenance,
    time: r.time,
    paths: r.paths,
    state: [...r.state.values()].map(docIndex),
    ...(r.coverage ? { coverage: r.coverage } : {}),
    ...(r.rename ? { rename: r.rename } : {}),
  }));
  return {
    format: FORMAT,
    workspaceId: tx.workspaceId,
    folder,
    id: tx.id,
    startedAt: tx.startedAt,
    current: tx.current,
    bases: [...bases.keys()].map((b) => ({ ...b, hash: textHash(b) })),
    documents: keptDocuments,
    revisions,
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => Number.isInteger(v);

/** Rebuilds a transaction, checking every field; throws on anything malformed (the file is then dropped). */
export function deserializeTransaction(kept: KeptTransaction): Transaction {
  if (kept.format !== FORMAT || !isString(kept.workspaceId) || !isString(kept.id) || !isString(kept.startedAt) || !isInt(kept.current)) {
    throw new Error('not a kept transaction');
  }
  if (!Array.isArray(kept.bases) || !Array.isArray(kept.documents) || !Array.isArray(kept.revisions)) throw new Error('missing lists');
  const bases = kept.bases.map(({ hash, ...b }): DocumentBase => {
    if (!isString(b.path) || !isString(b.text) || sha256(b.text) !== hash) throw new Error(`base ${String(b.path)} does not match its hash`);
    textHashes.set(b, hash);
    return b;
  });
  const documents = kept.documents.map((d): StagedDocument => {
    const origin = d.origin === null ? null : bases[d.origin];
    if (origin === undefined || !isString(d.key) || !(d.path === null || isString(d.path)) || !Array.isArray(d.segments)) throw new Error('malformed document');
    let text = '';
    const segments: Segment[] = d.segments.map((s) => {
      if (isString(s)) {
        text += s;
        return { text: s };
      }
      const [start, end] = s;
      if (!origin || !isInt(start) || !isInt(end) || start < 0 || start > end || end > origin.text.length) throw new Error(`segment out of range in ${d.key}`);
      text += origin.text.slice(start, end);
      return { start, end };
    });
    return { key: d.key, origin, path: d.path, text, segments };
  });
  const tx = new Transaction(kept.workspaceId, kept.id, kept.startedAt);
  for (const r of kept.revisions) {
    if (!isInt(r.number) || !Array.isArray(r.state) || !Array.isArray(r.paths) || !isString(r.provenance?.tool) || !isString(r.provenance?.summary)) {
      throw new Error('malformed revision');
    }
    const state = new Map<string, StagedDocument>();
    for (const i of r.state) {
      const d = documents[i];
      if (!d) throw new Error('revision names a missing document');
      state.set(d.key, d);
    }
    const rename = r.rename && isString(r.rename.from) && isString(r.rename.to) ? { rename: { from: r.rename.from, to: r.rename.to } } : {};
    tx.revisions.push({
      number: r.number,
      provenance: r.provenance,
      time: r.time,
      paths: r.paths,
      state,
      ...(r.coverage ? { coverage: r.coverage } : {}),
      ...rename,
    });
  }
  if (kept.current < 0 || kept.current > tx.revisions.length) throw new Error('current revision out of range');
  tx.current = kept.current;
  return tx;
}

/** What a restored transaction found: the paths whose file no longer holds the base it was staged on. */
export async function changedBases(host: EditorPort, folder: string, tx: Transaction): Promise<string[]> {
  const bases = new Set<DocumentBase>();
  for (const r of tx.revisions) for (const d of r.state.values()) if (d.origin) bases.add(d.origin);
  const changed: string[] = [];
  for (const base of bases) {
    const abs = joinFolder(folder, base.path);
    const bytes = await host.readFileBytes(abs);
    const diskHash = bytes ? sha256(bytes) : null;
    let same = diskHash === base.diskHash;
    if (same && !base.binary) same = ((await host.readDocument(abs))?.text ?? '') === base.text;
    if (!same) changed.push(base.path);
  }
  return changed.sort();
}

/**
 * Writes every change of a workspace's transaction to its file (one write at a time per
 * workspace, always the latest state), removes it when the transaction ends, and reads it back
 * at start.
 */
export class TransactionStore {
  private readonly writing = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscription: { dispose(): void };
  private readonly maxBytes: number;
  private readonly delayMs: number;

  constructor(
    private readonly manager: TransactionManager,
    private readonly host: EditorPort,
    private readonly files: KeptTransactionFiles,
    private readonly folderOf: (workspaceId: string) => Workspace | undefined,
    options: { maxBytes?: number; delayMs?: number } = {},
  ) {
    this.maxBytes = options.maxBytes ?? MAX_KEPT_BYTES;
    this.delayMs = options.delayMs ?? KEEP_AFTER_MS;
    this.subscription = manager.onDidChange((e) => this.changed(e));
  }

  dispose(): void {
    this.subscription.dispose();
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
  }

  private changed(e: TransactionEvent): void {
    if (e.reason === 'restored') return;
    this.dirty.add(e.workspaceId);
    clearTimeout(this.timers.get(e.workspaceId));
    this.timers.delete(e.workspaceId);
    if (e.reason === 'committed' || e.reason === 'rolledBack' || this.delayMs <= 0) return this.write(e.workspaceId);
    const timer = setTimeout(() => {
      this.timers.delete(e.workspaceId);
      this.write(e.workspaceId);
    }, this.delayMs);
    timer.unref?.();
    this.timers.set(e.workspaceId, timer);
  }

  private write(workspaceId: string): void {
    if (!this.writing.has(workspaceId)) this.writing.set(workspaceId, this.drain(workspaceId));
  }

  /** Writes until the workspace has no unwritten change, then forgets the writer. */
  private async drain(workspaceId: string): Promise<void> {
    try {
      while (this.dirty.delete(workspaceId)) await this.writeNow(workspaceId);
    } finally {
      this.writing.delete(workspaceId);
    }
  }

  private async writeNow(workspaceId: string): Promise<void> {
    const tx = this.manager.active(workspaceId);
    const ws = this.folderOf(workspaceId);
    try {
      if (!tx || !ws) {
        await this.files.remove(workspaceId);
        this.manager.notePersistence(workspaceId, undefined);
        return;
      }
      const text = JSON.stringify(serializeTransaction(tx, ws.fsPath));
      if (text.length > this.maxBytes) {
        await this.files.remove(workspaceId);
        this.manager.notePersistence(
          workspaceId,
          `The staged transaction of ${ws.alias} (${Math.round(text.length / 1024)} KB) is above the ${Math.round(this.maxBytes / 1024)} KB kept across a window reload: it lives only in memory and a reload loses it.`,
        );
        return;
      }
      await this.files.write(workspaceId, text);
      this.manager.notePersistence(workspaceId, undefined);
    } catch (error) {
      this.manager.notePersistence(
        workspaceId,
        `The staged transaction of ${ws?.alias ?? workspaceId} could not be kept for a window reload (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }

  /** Writes every change so far now, and waits until it is written (tests, deactivation). */
  async flush(): Promise<void> {
    for (const [workspaceId, timer] of [...this.timers]) {
      clearTimeout(timer);
      this.timers.delete(workspaceId);
      this.write(workspaceId);
    }
    while (this.writing.size > 0) await Promise.all([...this.writing.values()]);
  }

  /** Reads back the kept transaction of each workspace (at activation). */
  async restore(workspaces: readonly Workspace[]): Promise<void> {
    for (const ws of workspaces) {
      let text: string | undefined;
      try {
        text = await this.files.read(ws.id);
      } catch {
        text = undefined;
      }
      if (text === undefined) continue;
      let tx: Transaction;
      try {
        const kept = JSON.parse(text) as KeptTransaction;
        if (kept.workspaceId !== ws.id || kept.folder !== ws.fsPath) throw new Error('it belongs to another folder');
        tx = deserializeTransaction(kept);
      } catch (error) {
        await this.files.remove(ws.id).catch(() => undefined);
        this.manager.notePersistence(
          ws.id,
          `The staged transaction kept for ${ws.alias} could not be read back (${error instanceof Error ? error.message : String(error)}); it was dropped.`,
        );
        continue;
      }
      if (!this.manager.adopt(tx)) continue;
      const changed = await changedBases(this.host, ws.fsPath, tx);
      const where = `${countOf(tx.revisions.length, 'revision')}, at revision ${tx.current}`;
      this.manager.notePersistence(
        ws.id,
        changed.length === 0
          ? `Restored the staged transaction of ${ws.alias} after a restart (${where}).`
          : `Restored the staged transaction of ${ws.alias} after a restart (${where}), but ${changed.join(', ')} changed since it was staged: transaction-commit refuses (TransactionConflicted) until they hold that text again; or roll back.`,
        true,
      );
    }
  }
}
