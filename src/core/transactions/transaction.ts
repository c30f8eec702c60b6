/** One transaction: its revisions, each a whole staged state, and which one is current. */
import { randomUUID } from 'node:crypto';
import { segmentReader } from './textReader';
import type { Reader } from './textReader';
import type { ChangeKind, RenameNames, Revision, StagedDocument, StagedState } from './types';

export class Transaction {
  readonly revisions: Revision[] = [];
  current = 0;

  constructor(
    readonly workspaceId: string,
    readonly id: string = randomUUID(),
    readonly startedAt: string = new Date().toISOString(),
  ) {}

  state(): StagedState {
    return this.current === 0 ? new Map() : this.revisions[this.current - 1].state;
  }

  /** Documents whose staged state differs from their base. */
  effectiveDocuments(): StagedDocument[] {
    return [...this.state().values()].filter(isEffective);
  }

  /** The renames up to the current revision (undone ones not), each pair once. */
  renames(): RenameNames[] {
    const pairs = new Map<string, RenameNames>();
    for (const r of this.revisions.slice(0, this.current)) if (r.rename) pairs.set(JSON.stringify([r.rename.from, r.rename.to]), r.rename);
    return [...pairs.values()];
  }
}

export function isEffective(d: StagedDocument): boolean {
  if (!d.origin) return d.path !== null;
  if (d.path === null) return true;
  return d.path !== d.origin.path || d.text !== d.origin.text;
}

/** Where a changed document is named: its staged path, else its base path, else the path it was removed from. */
export const stagedPath = (d: StagedDocument): string => d.path ?? d.origin?.path ?? d.removedPath ?? '';

export function changeKindOf(d: StagedDocument): ChangeKind {
  if (!d.origin) return d.path === null ? 'Deleted' : 'Added';
  if (d.path === null) return 'Deleted';
  if (d.path !== d.origin.path) return 'Renamed';
  return 'Modified';
}

/** A changed document's text before the transaction and its staged text, read through its segments (joining them copies it). */
export function stagedComparison(d: StagedDocument): { original: string; updated: string | Reader } {
  const original = d.origin && !d.origin.binary ? d.origin.text : '';
  return { original, updated: d.path === null ? '' : d.origin?.binary ? d.text : segmentReader(original, d.segments) };
}
