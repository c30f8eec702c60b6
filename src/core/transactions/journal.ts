import type { CommittedFile } from '../documents/editorPort';
import type { CommitFile, CommitPlan } from './plan';
import { sha256 } from './segments';

/** Where the journal lives: a file in the extension's global storage (never in the workspace). */
export interface JournalStore {
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

export interface JournalEntry {
  transactionId: string;
  folder: string;
  time: string;
  state: 'applying' | 'committed' | 'restored' | 'failed';
  files: { path: string; absPath: string; beforeHash: string | null; afterHash: string | null }[];
  detail?: string;
}

/** A file of the last commit as a revert needs it: where it is now, what it held before, and the bytes it must still have. */
export interface RevertibleFile {
  kind: CommitFile['kind'];
  /** Workspace-relative path before the commit (for create: the created file). */
  path: string;
  /** Where a rename put it. */
  newPath?: string;
  /** The buffer text before the commit; null for a file the commit created. */
  before: string | null;
  /** sha256 of the bytes the commit wrote; null for a file it deleted. */
  afterHash: string | null;
}

/** The last commit of a workspace folder, kept so it can be reverted exactly (transaction-revert). */
export interface LastCommit {
  transactionId: string;
  folder: string;
  time: string;
  files: RevertibleFile[];
  /** Why it cannot be reverted, when it cannot (too large to keep, a binary file deleted). */
  notRevertible?: string;
}

/** Where the last commit of each folder is kept (the extension's global storage, a file per folder). */
export interface LastCommitStore {
  read(folder: string): Promise<string | undefined>;
  write(folder: string, text: string): Promise<void>;
}

/** The most text a kept last commit holds; a larger commit is recorded as not revertible. */
const MAX_KEPT_TEXT = 16 * 1024 * 1024;

export interface RecoveryReport {
  state: 'clean' | 'recovered' | 'failed';
  detail: string;
}

const KEEP = 20;

/**
 * A small record of commits: written before a commit applies its edit and updated after, so a
 * crash between applying and saving is visible at the next start (server-status).
 */
export class CommitJournal {
  private entries: JournalEntry[] = [];
  private report: RecoveryReport = { state: 'clean', detail: 'No interrupted commit was found at start.' };

  private readonly pending = new Map<string, LastCommit>();
  private readonly last = new Map<string, LastCommit | null>();
  private lastWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: JournalStore,
    private readonly lastStore?: LastCommitStore,
  ) {}

  /** The last commit of a folder written by this extension (in any window), if it is kept. */
  async lastCommit(folder: string): Promise<LastCommit | undefined> {
    if (!this.last.has(folder)) {
      let kept: LastCommit | null = null;
      try {
        const text = await this.lastStore?.read(folder);
        if (text) kept = JSON.parse(text) as LastCommit;
      } catch {
        kept = null;
      }
      this.last.set(folder, kept);
    }
    return this.last.get(folder) ?? undefined;
  }

  /** Reads the journal at start; an entry still 'applying' is a commit the editor did not finish. */
  async inspect(readBytes: (absPath: string) => Promise<Uint8Array | undefined>): Promise<RecoveryReport> {
    try {
      const text = await this.store.read();
      this.entries = text ? (JSON.parse(text) as JournalEntry[]) : [];
    } catch {
      this.entries = [];
    }
    const interrupted = this.entries.filter((e) => e.state === 'applying');
    if (interrupted.length === 0) return this.report;
    const lines: string[] = [];
    for (const e of interrupted) {
      const files: string[] = [];
      for (const f of e.files) {
        const bytes = await readBytes(f.absPath);
        const now = bytes ? sha256(bytes) : null;
        files.push(
          `${f.path}: ${now === f.beforeHash ? 'as before the commit' : now === f.afterHash ? 'holds the staged text' : now === null ? 'missing' : 'holds other content'}`,
        );
      }
      lines.push(`Commit of transaction ${e.transactionId} (${e.time}) in ${e.folder} was interrupted: ${files.join('; ')}.`);
      e.state = 'failed';
      e.detail = 'interrupted (found at start)';
    }
    this.report = { state: 'failed', detail: `${lines.join(' ')} Check these files (git diff) before continuing.` };
    await this.save();
    return this.report;
  }

  recovery(): RecoveryReport {
    return this.report;
  }

  list(): readonly JournalEntry[] {
    return this.entries;
  }

  async begin(plan: CommitPlan): Promise<void> {
    // Each staged text hashed once, for the entry and the revert both (a large commit holds megabytes of text).
    const afterHashes = plan.files.map((f) => (f.kind === 'delete' ? null : sha256(f.text ?? '')));
    this.entries.push({
      transactionId: plan.transactionId,
      folder: plan.folder,
      time: new Date().toISOString(),
      state: 'applying',
      files: plan.files.map((f, i) => ({
        path: f.newPath ?? f.path,
        absPath: f.newAbsPath ?? f.absPath,
        beforeHash: f.base?.diskHash ?? null,
        afterHash: afterHashes[i],
      })),
    });
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
    this.pending.set(plan.transactionId, revertible(plan, afterHashes));
    await this.save();
  }

  async end(transactionId: string, state: 'committed' | 'restored' | 'failed', files?: CommittedFile[], detail?: string): Promise<void> {
    const kept = this.pending.get(transactionId);
    this.pending.delete(transactionId);
    if (kept && state === 'committed') await this.keep(kept, files ?? []);
    const e = [...this.entries].reverse().find((x) => x.transactionId === transactionId && x.state === 'applying');
    if (!e) return;
    e.state = state;
    if (detail) e.detail = detail;
    if (files) {
      for (const f of files) {
        const entry = e.files.find((x) => x.path === f.path);
        if (entry) {
          entry.beforeHash = f.beforeHash;
          entry.afterHash = f.afterHash;
        }
      }
    }
    await this.save();
  }

  private async keep(commit: LastCommit, files: CommittedFile[]): Promise<void> {
    for (const f of commit.files) {
      const written = files.find((w) => w.path === (f.newPath ?? f.path));
      if (written) f.afterHash = written.afterHash;
    }
    this.last.set(commit.folder, commit);
    // Written after the commit answers, in order: it holds every file's text before (15 MB for a rename
    // across 160 files of a large code base, seconds to serialize and write under load). A revert in
    // this window reads it from memory; if the write fails, only a reload loses it.
    const store = this.lastStore;
    if (store) this.lastWrites = this.lastWrites.then(() => store.write(commit.folder, JSON.stringify(commit))).catch(() => undefined);
  }

  /** Resolves when the last commits kept so far are written (a window about to close, tests). */
  flush(): Promise<void> {
    return this.lastWrites;
  }

  private async save(): Promise<void> {
    try {
      await this.store.write(JSON.stringify(this.entries));
    } catch {
      // The journal is a safety net; a full disk must not fail the commit itself.
    }
  }
}

/** What a revert of the plan would need, taken before it is written. */
function revertible(plan: CommitPlan, afterHashes: (string | null)[]): LastCommit {
  const commit: LastCommit = { transactionId: plan.transactionId, folder: plan.folder, time: new Date().toISOString(), files: [] };
  let size = 0;
  for (const [i, f] of plan.files.entries()) {
    if (f.base?.binary && f.kind === 'delete') commit.notRevertible = `it deleted ${f.path}, which is not a text file, and its bytes were not kept`;
    const before = f.kind === 'create' ? null : (f.base?.text ?? '');
    size += before?.length ?? 0;
    commit.files.push({
      kind: f.kind,
      path: f.path,
      ...(f.newPath ? { newPath: f.newPath } : {}),
      before: f.base?.binary ? null : before,
      afterHash: afterHashes[i],
    });
  }
  if (size > MAX_KEPT_TEXT) {
    commit.notRevertible = `its files held ${Math.round(size / 1024 / 1024)} MB of text, more than is kept for a revert`;
    for (const f of commit.files) f.before = null;
  }
  return commit;
}
