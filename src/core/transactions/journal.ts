import type { CommittedFile } from '../documents/editorPort';
import type { CommitPlan } from './plan';
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

  constructor(private readonly store: JournalStore) {}

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
    this.entries.push({
      transactionId: plan.transactionId,
      folder: plan.folder,
      time: new Date().toISOString(),
      state: 'applying',
      files: plan.files.map((f) => ({
        path: f.newPath ?? f.path,
        absPath: f.newAbsPath ?? f.absPath,
        beforeHash: f.base?.diskHash ?? null,
        afterHash: f.kind === 'delete' ? null : sha256(f.text ?? ''),
      })),
    });
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
    await this.save();
  }

  async end(transactionId: string, state: 'committed' | 'restored' | 'failed', files?: CommittedFile[], detail?: string): Promise<void> {
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

  private async save(): Promise<void> {
    try {
      await this.store.write(JSON.stringify(this.entries));
    } catch {
      // The journal is a safety net; a full disk must not fail the commit itself.
    }
  }
}
