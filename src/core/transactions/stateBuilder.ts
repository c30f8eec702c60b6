/** Applies one revision's changes to a copy of the staged state, checking each against what is staged. */
import { callTool, resolveExternally, retry, revise, ToolError } from '../chain/envelope';
import type { Workspace } from '../documents/workspaces';
import type { DocumentBase, OffsetEdit } from './plan';
import { applyOffsetEdits, changedRegions, overlaps, replaceSegments, stagedOffset } from './segments';
import type { Segment } from './segments';
import { isEffective } from './transaction';
import type { StageOptions, StagedChange, StagedDocument, StagedState } from './types';

/** Applies changes to a copy of a staged state, validating each against what is staged at that point. */
export class StateBuilder {
  readonly state: Map<string, StagedDocument>;
  readonly notes: string[] = [];
  private readonly changedKeys = new Set<string>();
  private createdCount = 0;
  /** Keys by staged path and by base path, so a revision over thousands of files finds each in O(1). */
  private readonly byPath = new Map<string, Set<string>>();
  private readonly byOrigin = new Map<string, Set<string>>();

  constructor(
    private readonly before: StagedState,
    private readonly bases: Map<string, DocumentBase | undefined>,
    private readonly workspace: Workspace,
  ) {
    this.state = new Map(before);
    for (const d of before.values()) this.index(d, 1);
  }

  private index(d: StagedDocument, add: 1 | -1): void {
    const at = (map: Map<string, Set<string>>, p: string): void => {
      let keys = map.get(p);
      if (add === 1) {
        if (!keys) map.set(p, (keys = new Set()));
        keys.add(d.key);
      } else if (keys) {
        keys.delete(d.key);
        if (keys.size === 0) map.delete(p);
      }
    };
    if (d.path !== null) at(this.byPath, d.path);
    if (d.origin) at(this.byOrigin, d.origin.path);
  }

  private put(d: StagedDocument): void {
    const old = this.state.get(d.key);
    if (old) this.index(old, -1);
    this.state.set(d.key, d);
    this.index(d, 1);
  }

  private remove(key: string): void {
    const old = this.state.get(key);
    if (old) this.index(old, -1);
    this.state.delete(key);
  }

  /** The first document (in state order) whose staged or base path is p. */
  private find(by: 'path' | 'origin', p: string): StagedDocument | undefined {
    const keys = (by === 'path' ? this.byPath : this.byOrigin).get(p);
    if (!keys) return undefined;
    if (keys.size === 1) return this.state.get(keys.values().next().value as string);
    for (const d of this.state.values()) if ((by === 'path' ? d.path : d.origin?.path) === p) return d;
    return undefined;
  }

  /** Documents this revision changed; a created file it removed again appears with path null. */
  touched(): StagedDocument[] {
    const out: StagedDocument[] = [];
    for (const key of this.changedKeys) {
      const now = this.state.get(key);
      const was = this.before.get(key);
      if (now && was && now.path === was.path && now.text === was.text) continue;
      if (!now && !was) continue;
      if (now && !was && !isEffective(now) && now.origin) continue;
      out.push(now ?? { ...(was as StagedDocument), path: null, removedPath: was?.path ?? null });
    }
    return out;
  }

  /** Documents only read into the state (never changed) stay unstaged, so they keep following the editor. */
  dropUntouched(): void {
    for (const key of [...this.state.keys()]) if (!this.before.has(key) && !this.changedKeys.has(key)) this.remove(key);
  }

  private set(d: StagedDocument): void {
    this.put(d);
    this.changedKeys.add(d.key);
  }

  /** The live staged document at a path, taking it from disk into the state when first touched. */
  private live(p: string): StagedDocument | undefined {
    const at = this.find('path', p);
    if (at) return at;
    if (this.find('origin', p)) return undefined;
    const base = this.bases.get(p);
    if (!base) return undefined;
    const d: StagedDocument = { key: p, origin: base, path: p, text: base.text, segments: base.text === '' ? [] : [{ start: 0, end: base.text.length }] };
    this.put(d);
    return d;
  }

  /** The document a language service saw at a buffer path (its base path), wherever it is staged now. */
  private byBasePath(p: string): StagedDocument | undefined {
    return this.find('origin', p) ?? this.live(p);
  }

  apply(c: StagedChange, options: StageOptions): void {
    switch (c.kind) {
      case 'edit':
        return options.basis === 'buffer'
          ? this.editBuffer(c.path, c.edits, options.computedOn?.[c.path])
          : this.editStaged(c.path, c.edits, options.computedOn?.[c.path]);
      case 'create':
        return this.create(c);
      case 'delete':
        return this.delete(c);
      case 'rename':
        return this.rename(c);
      case 'restore':
        return this.restore(c.path);
    }
  }

  private restore(p: string): void {
    const d = [...this.state.values()].find((x) => x.path === p) ?? [...this.state.values()].find((x) => x.origin?.path === p);
    if (!d) throw new ToolError('DocumentNotFound', `${p} has no staged change to discard.`, revise('Name a document listed by transaction-preview.'));
    if (!d.origin) {
      this.remove(d.key);
      this.changedKeys.add(d.key);
      return;
    }
    const occupant = [...this.state.values()].find((x) => x !== d && x.path === d.origin?.path);
    if (occupant) {
      throw new ToolError(
        'TransactionConflicted',
        `${d.origin.path} is taken by another staged file; discard that one first.`,
        revise(`Discard ${d.origin.path} first.`),
      );
    }
    this.set({ ...d, path: d.origin.path, text: d.origin.text, segments: d.origin.text === '' ? [] : [{ start: 0, end: d.origin.text.length }] });
  }

  private checkedEdits(p: string, edits: readonly OffsetEdit[], length: number): OffsetEdit[] {
    const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 0; i < sorted.length; i++) {
      const e = sorted[i];
      if (!(Number.isInteger(e.start) && Number.isInteger(e.end) && 0 <= e.start && e.start <= e.end && e.end <= length)) {
        throw new ToolError(
          'InvalidRequest',
          `An edit of ${p} spans ${e.start}..${e.end}, outside its ${length} UTF-16 code units.`,
          revise('Resolve the location again against the staged text.'),
        );
      }
      if (i > 0 && sorted[i - 1].end > e.start) {
        throw new ToolError(
          'InvalidRequest',
          `Two edits of ${p} overlap (${sorted[i - 1].start}..${sorted[i - 1].end} and ${e.start}..${e.end}).`,
          revise('Give non-overlapping replacements, or merge them into one.'),
        );
      }
    }
    return sorted;
  }

  private editStaged(p: string, edits: readonly OffsetEdit[], computedOn?: string): void {
    const d = this.live(p);
    if (!d) throw this.missing(p);
    if (computedOn !== undefined && computedOn !== d.text) {
      throw new ToolError(
        'TransactionConflicted',
        `The staged text of ${p} changed (another call staged a revision) after this edit was resolved against it; nothing was staged.`,
        retry('Resolve the location again and repeat the request.'),
      );
    }
    if (d.origin?.binary) throw new ToolError('InvalidRequest', `${p} is not a text document; it cannot be edited.`, revise('Edit text files only.'));
    const sorted = this.checkedEdits(p, edits, d.text.length);
    let segments: readonly Segment[] = d.segments;
    for (let i = sorted.length - 1; i >= 0; i--) segments = replaceSegments(segments, sorted[i].start, sorted[i].end, sorted[i].newText);
    this.set({ ...d, text: applyOffsetEdits(d.text, sorted), segments });
  }

  private editBuffer(p: string, edits: readonly OffsetEdit[], computedOn: string | undefined): void {
    const d = this.byBasePath(p);
    if (!d || !d.origin) {
      throw new ToolError(
        'TransactionConflicted',
        `The language service edited ${p}, which exists only in the staged transaction; its edits cannot be placed.`,
        revise('Make this change with edit-text on the staged text instead.'),
      );
    }
    if (d.path === null) {
      throw new ToolError(
        'TransactionConflicted',
        `The language service edited ${p}, which the transaction deletes.`,
        callTool('transaction-history', 'Undo the revision that deletes it (transaction-history action "undo"), or leave this file out.'),
      );
    }
    if (computedOn !== undefined && computedOn !== d.origin.text) {
      throw new ToolError(
        'TransactionConflicted',
        `${p} changed in the editor after the transaction first staged it, so the language service's edits were computed on different text than the staged edits.`,
        resolveExternally(
          'Ask the person whether to keep the editor change (then roll back the transaction with transaction-rollback and stage again) or undo it in the editor, then retry.',
        ),
      );
    }
    const sorted = this.checkedEdits(p, edits, d.origin.text.length);
    const regions = changedRegions(d, d.origin.text.length);
    const mapped: OffsetEdit[] = [];
    for (const e of sorted) {
      const hit = regions.find((r) => overlaps(e, r));
      if (hit) {
        const pos = new LineCounter(d.origin.text);
        throw new ToolError(
          'TransactionConflicted',
          `The language service's edit of ${p} at line ${pos.line(e.start)} overlaps a change already staged at line ${pos.line(hit.start)}${hit.end > hit.start ? `-${pos.line(hit.end)}` : ''}. Nothing was staged (never a silent merge).`,
          callTool(
            'transaction-history',
            'Either undo the staged revision that touches those lines (transaction-history action "undo") and repeat this request, or make the change by hand with edit-text on the staged text.',
          ),
          { path: p, edit: e, stagedRegion: { start: hit.start, end: hit.end } },
        );
      }
      // Beside a staged change it only meets: after one ending where it starts, before one starting where it ends.
      const start = stagedOffset(regions, e.start, 'start');
      const end = e.start === e.end ? start : stagedOffset(regions, e.end, 'end');
      if (start === undefined || end === undefined) throw new Error(`base offset ${e.start}..${e.end} of ${p} did not map onto the staged text`);
      mapped.push({ start, end, newText: e.newText });
    }
    this.editStaged(d.path, mapped);
  }

  private missing(p: string): ToolError {
    const moved = [...this.state.values()].find((d) => d.origin?.path === p);
    if (moved) {
      return new ToolError(
        'DocumentNotFound',
        moved.path === null ? `${p} is deleted in the staged transaction.` : `${p} is moved to ${moved.path} in the staged transaction.`,
        revise(moved.path === null ? 'Leave it out, or undo the deletion with transaction-history.' : `Use the staged path ${moved.path}.`),
      );
    }
    return new ToolError('DocumentNotFound', `No document at ${p} in folder ${this.workspace.alias} (staged or on disk).`, revise('Check the path.'));
  }

  private create(c: Extract<StagedChange, { kind: 'create' }>): void {
    const existing = this.live(c.path);
    if (existing) {
      if (c.ignoreIfExists) {
        this.notes.push(`${c.path} already exists; left as it is (ignoreIfExists).`);
        return;
      }
      if (!c.overwrite) {
        throw new ToolError(
          'InvalidRequest',
          `${c.path} already exists${existing.origin ? '' : ' in the staged transaction'}.`,
          revise('Choose another path, or set overwrite to replace it.'),
        );
      }
      this.set({ ...existing, text: c.text, segments: c.text === '' ? [] : [{ text: c.text }] });
      return;
    }
    const key = `+${c.path}#${this.before.size + this.createdCount++}`;
    this.set({ key, origin: null, path: c.path, text: c.text, segments: c.text === '' ? [] : [{ text: c.text }] });
  }

  private delete(c: Extract<StagedChange, { kind: 'delete' }>): void {
    const d = this.live(c.path);
    if (!d) {
      if (c.ignoreIfNotExists) return;
      throw this.missing(c.path);
    }
    if (!d.origin) {
      this.remove(d.key);
      this.changedKeys.add(d.key);
      return;
    }
    this.set({ ...d, path: null });
  }

  private rename(c: Extract<StagedChange, { kind: 'rename' }>): void {
    if (c.from === c.to) throw new ToolError('InvalidRequest', `Moving ${c.from} onto itself changes nothing.`, revise('Give a different target path.'));
    const d = this.live(c.from);
    if (!d) throw this.missing(c.from);
    const target = this.live(c.to);
    if (target) {
      if (c.ignoreIfExists) {
        this.notes.push(`${c.to} already exists; ${c.from} was not moved (ignoreIfExists).`);
        return;
      }
      if (!c.overwrite) throw new ToolError('InvalidRequest', `${c.to} already exists.`, revise('Choose another target path, or set overwrite to replace it.'));
      this.delete({ kind: 'delete', path: c.to });
    }
    this.set({ ...d, path: c.to });
  }
}

/** One-based line numbers of offsets, for messages. */
class LineCounter {
  constructor(private readonly text: string) {}
  line(offset: number): number {
    let n = 1;
    for (let i = 0; i < offset && i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) n++;
    return n;
  }
}
