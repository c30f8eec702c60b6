import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Snapshot } from './envelope';
import { revise, ToolError } from './envelope';

/**
 * Lists that continue. A cut list carries a cursor: the request it answered (a fingerprint of the
 * tool and its input without cursor, limits and expectedSnapshot), the list (its field and a
 * digest of the whole list it was cut from), the snapshot, and how many of the list's units the
 * agent received. Signed with a key of this process, so an altered cursor, or one from before a
 * reload, is refused rather than read. A continued list starts exactly after the last unit the
 * agent received, whether the limit or the output bound cut it; it is stale (SnapshotMismatch)
 * once the folder was reloaded, the transaction moved, a document the list names changed, or the
 * list itself differs.
 */
export interface CursorState {
  request: string;
  field: string;
  offset: number;
  list: string;
  snapshot: Snapshot;
}

const FORMAT = 1;
const PROCESS_KEY = randomBytes(32);
const MAC_BYTES = 12;

const mac = (payload: string, key: Buffer): Buffer => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

export function encodeCursor(state: CursorState, key: Buffer = PROCESS_KEY): string {
  const s = state.snapshot;
  const payload = Buffer.from(
    JSON.stringify([FORMAT, state.request, state.field, state.offset, state.list, s.workspaceId, s.workspaceEpoch, s.snapshotId, s.transactionRevision]),
  ).toString('base64url');
  return `${payload}.${mac(payload, key).toString('base64url')}`;
}

/** The state a cursor carries, or undefined when it is not one this process signed. */
export function decodeCursor(cursor: string, key: Buffer = PROCESS_KEY): CursorState | undefined {
  const [payload, tag, extra] = cursor.split('.');
  if (!payload || !tag || extra !== undefined) return undefined;
  const given = Buffer.from(tag, 'base64url');
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(payload, key))) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 9 || fields[0] !== FORMAT) return undefined;
  const [, request, field, offset, list, workspaceId, workspaceEpoch, snapshotId, transactionRevision] = fields as unknown[];
  if (
    typeof request !== 'string' ||
    typeof field !== 'string' ||
    !Number.isSafeInteger(offset) ||
    (offset as number) < 0 ||
    typeof list !== 'string' ||
    typeof workspaceId !== 'string' ||
    typeof workspaceEpoch !== 'number' ||
    typeof snapshotId !== 'string' ||
    !(transactionRevision === null || typeof transactionRevision === 'number')
  ) {
    return undefined;
  }
  return { request, field, offset: offset as number, list, snapshot: { workspaceId, workspaceEpoch, snapshotId, transactionRevision } };
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 16);

/** JSON with sorted keys, leaving out the keys `skip` names (at any depth). */
function canonical(value: unknown, skip: (key: string, depth: number) => boolean, depth = 0): string {
  if (Array.isArray(value)) {
    // A list of plain values (a reference list's rows) is its JSON: nothing in it is sorted or skipped.
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value);
    return `[${value.map((v) => canonical(v, skip, depth + 1)).join(',')}]`;
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const entries = Object.entries(value)
    .filter(([k, v]) => v !== undefined && !skip(k, depth))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, skip, depth + 1)}`).join(',')}}`;
}

/** The request a cursor continues: the tool and its input, less what may differ between pages (cursor, limits, expectedSnapshot). */
export function requestFingerprint(tool: string, input: unknown): string {
  const varies = (key: string, depth: number) => depth === 0 && (key === 'cursor' || key === 'expectedSnapshot' || key.endsWith('Limit'));
  return digest(`${tool}\n${canonical(input, varies)}`);
}

/** What a list is, for telling whether it changed: its items without their snapshots (which change with any document of the folder). */
export function listDigest(items: readonly unknown[]): string {
  return digest(canonical(items, (key) => key === 'snapshot'));
}

/** A list the tool paged: where its page starts, how long the whole list is, and how many units a page's items cover. */
export interface PagedList {
  field: string;
  start: number;
  total: number;
  digest: string;
  /** Units of the list the given items (the page as the agent received it) cover; default one per item. */
  consumed?: (items: readonly unknown[]) => number;
}

export interface ListCheck {
  /** The folder the list belongs to, to check the cursor's snapshot against. */
  stale(snapshot: Snapshot): { stale: false } | { stale: true; reason: string };
}

/**
 * One call's paging: the cursor it was given (already checked to be for this request) and the
 * lists the tool paged. A list the cursor is not for starts past its end, so only the cursor's
 * list continues and the answer's other lists come back empty.
 */
export class Paging {
  private readonly lists = new Map<string, PagedList>();

  constructor(readonly cursor?: CursorState) {}

  /**
   * Where the page of `field` starts. Throws SnapshotMismatch when the cursor's list is stale:
   * `check` says whether its snapshot is (folder, transaction, the documents the list names), and
   * the digest whether the list itself changed.
   */
  start(list: Omit<PagedList, 'start'>, check: ListCheck): number {
    let start = 0;
    if (this.cursor) {
      if (this.cursor.field !== list.field) start = list.total;
      else {
        const snapshot = check.stale(this.cursor.snapshot);
        const reason = snapshot.stale ? snapshot.reason : this.cursor.list !== list.digest ? `the ${list.field} list changed` : undefined;
        if (reason !== undefined) {
          throw new ToolError(
            'SnapshotMismatch',
            `The cursor is stale: ${reason} since the answer it came from, so its position no longer names the next item.`,
            revise('Repeat the request without cursor: the list starts over on the current code.'),
            { cursor: this.cursor.snapshot },
          );
        }
        start = Math.min(this.cursor.offset, list.total);
      }
    }
    this.lists.set(list.field, { ...list, start });
    return start;
  }

  paged(): PagedList[] {
    return [...this.lists.values()];
  }
}

/** Refuses a cursor not made for this request. */
export function readCursor(tool: string, input: unknown, cursor: string): CursorState {
  const state = decodeCursor(cursor);
  if (!state || state.request !== requestFingerprint(tool, input)) {
    throw new ToolError(
      'InvalidRequest',
      `cursor is not one ${tool} gave for this request: it was altered, comes from another request or tool, or predates a reload of the window.`,
      revise('Pass the cursor of the last answer with the request unchanged (only a limit may differ), or leave cursor out to start from the first item.'),
    );
  }
  return state;
}

type Cursors = (list: PagedList, offset: number) => string;

const collectionAt = (data: unknown, field: string): Record<string, unknown> | undefined => {
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[field] : undefined;
  return typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items) ? (value as Record<string, unknown>) : undefined;
};

/** Units of the list the page's items cover. */
const covered = (list: PagedList, items: readonly unknown[]): number => (list.consumed ? list.consumed(items) : items.length);

/**
 * The answer before bounding: each paged list with items after its page start holds a cursor as
 * long as any it can end up with (offset at the list's end), so what bounding keeps still fits
 * once `settleCursors` writes the real one. When the answer fits as it is (`fits`), only the lists
 * the tool itself cut: a cursor must not make bounding drop what needs none. `data` is not modified.
 */
export function offerCursors(data: unknown, lists: readonly PagedList[], cursor: Cursors, fits: boolean): unknown {
  const offered = lists.filter((l) => {
    const collection = collectionAt(data, l.field);
    if (!collection || l.start >= l.total) return false;
    return !fits || l.start + covered(l, collection.items as unknown[]) < l.total;
  });
  if (offered.length === 0) return data;
  const copy = { ...(data as Record<string, unknown>) };
  for (const l of offered) copy[l.field] = { ...collectionAt(data, l.field), cursor: cursor(l, l.total) };
  return copy;
}

/**
 * The answer after bounding (modified): a cursor continues after the last unit the agent
 * received, and is left out when nothing follows or nothing was received (it would repeat this page).
 */
export function settleCursors(data: unknown, lists: readonly PagedList[], cursor: Cursors): void {
  for (const l of lists) {
    const collection = collectionAt(data, l.field);
    if (!collection || collection.cursor === undefined) continue;
    const items = collection.items as unknown[];
    const next = l.start + covered(l, items);
    if (next > l.start && next < l.total) {
      collection.cursor = cursor(l, next);
      collection.hasMore = true;
    } else delete collection.cursor;
  }
}
