import type { ToolInfo } from '../chain/toolInfo';
import { callTool, retry, revise, ToolError } from '../chain/envelope';
import type { Snapshot } from '../chain/envelope';
import type { CancellationSignal } from '../chain/cancellation';
import type { ErrorStore } from '../chain/errorStore';
import { listDigest, Paging } from '../chain/paging';
import type { CursorState, PagedList } from '../chain/paging';
import type { HostDocument, EditorPort } from './editorPort';
import type { EffectiveSettings } from '../chain/modes';
import { confinePath, isAbsoluteLike, toRelativePath, truncate } from './paths';
import { findNearMisses, findSelection, LineIndex, splitsSurrogatePair } from './text';
import type { Coverage } from '../symbols/coverage';
import type { LanguageServiceCaches } from './caches';
import type { StagedChecks } from '../transactions/check';
import { StagedOverlay } from './stagedOverlay';
import type { StagedDocument } from '../transactions/types';
import type { TransactionManager } from '../transactions/manager';
import type { Workspace, WorkspaceRegistry, WorkspaceSelector } from './workspaces';
import { DocumentRef } from './workspaces';
import { describeCandidate, projectMatches, relativeIfInside } from './resolved';
import type { DocumentSelector, LocationOutput, LocationSelector, ResolvedDocument, ResolvedLocation, StagedDocumentView, TextView } from './resolved';

export type {
  DocumentSelector,
  LocationOutput,
  LocationSelector,
  Place,
  ProjectSelector,
  ResolvedDocument,
  ResolvedLocation,
  StagedDocumentView,
  TextView,
} from './resolved';
export { selectorOf } from './resolved';

/** Long-lived services every call shares. */
export interface Services {
  editor: EditorPort;
  registry: WorkspaceRegistry;
  errors: ErrorStore;
  tools: () => readonly ToolInfo[];
  settings: () => EffectiveSettings;
  startedAt: number;
  transactions: TransactionManager;
  /** Whether each language service answers for the whole project yet (src/core/symbols/readiness.ts). */
  readiness: Readiness;
  /** Language-service answers kept across calls (caches.ts): one object, one clear(). */
  caches: LanguageServiceCaches;
  /** The staged text checked as a program before a commit, one check per revision (transactions/check.ts). */
  checks: StagedChecks;
  /**
   * Activation's storage work (the commit journal checked, folders numbered, kept transactions
   * restored), which activate() does not wait for: every entry point (tool calls, the panel, the
   * staged-text editor) waits for it instead. Never rejects. Absent: nothing to wait for.
   */
  startup?: Promise<void>;
}

/** Whether language services cover the project yet (ProjectReadiness, symbols/readiness.ts). */
export interface Readiness {
  coverage(ctx: ToolContext, doc: ResolvedDocument, maxWaitMs?: number): Promise<Coverage>;
  folderCoverage(ctx: ToolContext, w: Workspace): Promise<Coverage[]>;
  require(ctx: ToolContext, doc: ResolvedDocument, what: string): Promise<Coverage>;
  /** A call reads a document of the language: until its service proved it loaded, running out of time means it is still loading. */
  noteDocument(ctx: ToolContext, languageId: string): void;
  /** A call's answer showed the document's service covers the project (a reference in a file nobody has open). */
  noteLoaded(ctx: ToolContext, doc: ResolvedDocument): void;
  clear(): void;
}

/**
 * Per-call view of the workspace. Resolving a document through it records that the request
 * touches the document, checks expectedSnapshot against that document only, and refuses paths
 * that leave the workspace.
 */
export class ToolContext {
  private used: Workspace | undefined;
  private signal: CancellationSignal | undefined;
  private committed = false;
  private deadlineAt = Number.POSITIVE_INFINITY;
  private textView: TextView = 'buffer';
  /** Real paths asked during this call (the folder's is asked once per document resolved). */
  private readonly realPaths = new Map<string, Promise<string | undefined>>();
  private readonly realPath = (absolute: string): Promise<string | undefined> => {
    let real = this.realPaths.get(absolute);
    if (!real) this.realPaths.set(absolute, (real = this.editor.realPath(absolute)));
    return real;
  };
  private stagedByBase: Map<string, StagedDocument> | undefined;
  private pages = new Paging();
  private lateAnswer: (() => ToolError) | undefined;

  constructor(
    readonly services: Services,
    readonly correlationId: string,
    readonly maxOutputBytes: number,
    private readonly expected: Snapshot | null | undefined,
  ) {}

  /** The chain hands the call's cancellation here, for commitPoint, and when its timeout falls. */
  bindCancellation(signal: CancellationSignal, deadlineAt = Number.POSITIVE_INFINITY): void {
    this.signal = signal;
    this.deadlineAt = deadlineAt;
  }

  /** Whether the call was cancelled or timed out: work that only waits (for a loading service) stops. */
  get cancelled(): boolean {
    return this.signal?.isCancellationRequested === true;
  }

  /**
   * What the call answers if it runs out of time: a language service seen still loading (or just
   * loaded, still slow) sets it, so the answer says to ask again rather than to narrow the question.
   * The first one set stays.
   */
  setLateAnswer(answer: () => ToolError): void {
    this.lateAnswer ??= answer;
  }

  /** The answer set by setLateAnswer, undefined when no service was seen loading. */
  lateError(): ToolError | undefined {
    return this.lateAnswer?.();
  }

  /** Milliseconds left before the call times out (Infinity outside the chain). */
  remainingMs(): number {
    return this.deadlineAt - Date.now();
  }

  /**
   * The call's single point of no return. Throws Cancelled (nothing done) if the call was
   * cancelled or timed out; after it, the chain waits for the tool's true outcome instead of
   * answering Timeout or Cancelled while the change goes on.
   */
  commitPoint(): void {
    if (this.signal?.isCancellationRequested) {
      throw new ToolError(
        'Cancelled',
        'The call was cancelled or timed out before its change was made; nothing was staged or written.',
        retry('Call again if the change is still wanted.'),
      );
    }
    this.committed = true;
  }

  /**
   * The call's view ('view' input): in the staged view, buffer documents carry their staged
   * text and map, selectors resolve against staged text, and locations are given in it.
   */
  setView(view: TextView | undefined): void {
    this.textView = view ?? 'buffer';
  }

  get view(): TextView {
    return this.textView;
  }

  get passedCommitPoint(): boolean {
    return this.committed;
  }

  get editor(): EditorPort {
    return this.services.editor;
  }

  get registry(): WorkspaceRegistry {
    return this.services.registry;
  }

  /** The chain hands the call's cursor here, checked to be for this request. */
  setCursor(cursor: CursorState | undefined): void {
    this.pages = new Paging(cursor);
  }

  get paging(): Paging {
    return this.pages;
  }

  /**
   * Where the page of the answer's list `field` starts: past the items the cursor's answer gave, 0
   * without a cursor. `all` is the whole list in its order (its digest tells whether it changed;
   * `digest` replaces it when the items are not what identifies the list); `paths`, the
   * workspace-relative documents it names (a change to one makes the cursor stale); `consumed`,
   * how many of `all` a page's items cover when an item is not one unit.
   */
  pageStart(field: string, all: readonly unknown[], options: { digest?: string; paths?: readonly string[]; consumed?: PagedList['consumed'] } = {}): number {
    const list = { field, total: all.length, digest: options.digest ?? listDigest(all), consumed: options.consumed };
    return this.pages.start(list, {
      stale: (snapshot) => {
        const w = this.used ?? this.registry.all()[0];
        const check = w ? w.tracker.check(snapshot, options.paths ?? []) : { stale: false as const };
        return check.stale ? { stale: true, reason: check.reason } : { stale: false };
      },
    });
  }

  /** The snapshot of the folder this call worked on (the first folder when it named none). */
  snapshot(): Snapshot | undefined {
    return (this.used ?? this.registry.all()[0])?.snapshot();
  }

  workspace(selector?: WorkspaceSelector | null): Workspace {
    const w = this.registry.resolve(selector);
    this.use(w, []);
    return w;
  }

  private use(w: Workspace, paths: string[]): void {
    this.used ??= w;
    if (!this.expected) return;
    const check = w.tracker.check(this.expected, paths);
    if (check.stale) {
      throw new ToolError(
        'SnapshotMismatch',
        `The expectedSnapshot is stale: ${check.reason}. Spans computed on the old text are not reinterpreted.`,
        revise('Resolve the target again (drop expectedSnapshot or use the snapshot of a fresh answer), then repeat the request.'),
        { expected: this.expected, current: w.snapshot(), changedPaths: check.changedPaths },
      );
    }
  }

  /** Which folder and relative path a document selector names. */
  private async locate(
    selector: DocumentSelector,
    workspaceSelector: WorkspaceSelector | null | undefined,
    field: string,
  ): Promise<{ workspace: Workspace; relativePath: string }> {
    const named = workspaceSelector && Object.values(workspaceSelector).some((v) => v !== undefined);
    // The compact input schema leaves "exactly one" to this check (fewer bytes per tool definition).
    if ((selector.documentId === undefined) === (selector.path === undefined)) {
      throw new ToolError(
        'InvalidRequest',
        `${field}: provide exactly one of path or documentId.`,
        revise(`Give ${field}.path (workspace-relative) or ${field}.documentId.`),
      );
    }
    if (selector.documentId !== undefined) {
      const match = /^([0-9a-f]{8}):(.*)$/.exec(selector.documentId);
      const w = match ? this.registry.byShortId(match[1]) : undefined;
      if (!match || !w) {
        throw new ToolError(
          'DocumentNotFound',
          `documentId "${truncate(selector.documentId)}" does not name a document of an open folder. documentIds look like "1a2b3c4d:src/file.ts".`,
          revise('Use a documentId from a recent answer, or give the workspace-relative path instead.'),
        );
      }
      if (named && this.registry.resolve(workspaceSelector).id !== w.id) {
        throw new ToolError(
          'InvalidRequest',
          `documentId "${selector.documentId}" belongs to folder ${w.alias}, not to the selected workspace.`,
          revise('Drop the workspace selector or use a documentId of that folder.'),
        );
      }
      return { workspace: w, relativePath: toRelativePath(w.fsPath, match[2], `${field}.documentId`) };
    }
    const requested = selector.path ?? '';
    const pathField = `${field}.path`;
    if (named || this.registry.all().length <= 1) {
      const w = this.registry.resolve(workspaceSelector);
      return { workspace: w, relativePath: toRelativePath(w.fsPath, requested, pathField) };
    }
    if (isAbsoluteLike(requested)) {
      // An absolute path names its folder (the deepest, for nested folders); outside them all, the first folder refuses it.
      const deepestFirst = [...this.registry.all()].sort((a, b) => b.fsPath.length - a.fsPath.length);
      for (const w of deepestFirst) {
        const relativePath = relativeIfInside(w.fsPath, requested);
        if (relativePath !== undefined) return { workspace: w, relativePath };
      }
      const first = this.registry.all()[0];
      return { workspace: first, relativePath: toRelativePath(first.fsPath, requested, pathField) };
    }
    // Several folders and none named: the path decides, if it exists in exactly one of them.
    const hits: { workspace: Workspace; relativePath: string }[] = [];
    for (const w of this.registry.all()) {
      const relativePath = toRelativePath(w.fsPath, requested, pathField);
      const absolute = await confinePath(w.fsPath, relativePath, this.realPath, pathField);
      if ((await this.realPath(absolute)) !== undefined) hits.push({ workspace: w, relativePath });
    }
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) {
      throw new ToolError(
        'DocumentAmbiguous',
        `"${requested}" exists in ${hits.length} folders: ${hits.map((h) => `documentId "${h.workspace.documentId(h.relativePath)}" (folder ${h.workspace.alias})`).join(', ')}.`,
        revise('Use one of those documentIds, or add a workspace selector.'),
        { candidates: hits.map((h) => h.workspace.documentId(h.relativePath)) },
      );
    }
    throw new ToolError(
      'DocumentNotFound',
      `"${truncate(requested)}" exists in none of the open folders (${this.registry
        .all()
        .map((w) => w.alias)
        .join(', ')}).`,
      revise('Check the path, or add a workspace selector.'),
    );
  }

  async document(
    selector: DocumentSelector,
    workspaceSelector?: WorkspaceSelector | null,
    field = 'document',
    view: TextView = 'buffer',
  ): Promise<ResolvedDocument> {
    const { workspace, relativePath } = await this.locate(selector, workspaceSelector, field);
    if (relativePath === '') {
      throw new ToolError(
        'InvalidRequest',
        `${field}.path names the workspace folder itself, not a document.`,
        revise('Give the path of a file inside the folder.'),
      );
    }
    const absolutePath = await confinePath(workspace.fsPath, relativePath, this.realPath, `${field}.path`);
    const staged = view === 'staged' ? this.services.transactions.stagedView(workspace, relativePath) : undefined;
    if (staged === 'gone') {
      const now = this.services.transactions.whereIs(workspace, relativePath);
      throw new ToolError(
        'DocumentNotFound',
        now ? `${relativePath} is moved to ${now} in the staged transaction.` : `${relativePath} is deleted in the staged transaction.`,
        revise(now ? `Use the staged path ${now}.` : 'Leave it out, or undo the deletion with transaction-history.'),
      );
    }
    const movedHere = view === 'buffer' ? await this.movedHere(workspace, relativePath, absolutePath) : undefined;
    if (movedHere) {
      // The language services see a document the transaction moves (or creates) only where it is now.
      if (!movedHere.origin) throw onlyStaged(relativePath);
      return this.document({ documentId: workspace.documentId(movedHere.origin.path) }, workspaceSelector, field, 'buffer');
    }
    let host: HostDocument | undefined;
    if (staged) {
      const onDisk = staged.origin ? await this.editor.readDocument(absolutePath) : undefined;
      host = {
        text: staged.text,
        languageId: staged.origin?.languageId ?? onDisk?.languageId ?? 'plaintext',
        version: 0,
        isDirty: true,
        source: onDisk?.source ?? 'buffer',
        eol: staged.origin?.eol ?? (/\r\n/.test(staged.text) ? 'CRLF' : 'LF'),
      };
    } else {
      host = await this.editor.readDocument(absolutePath);
    }
    if (!host) throw await this.notFound(workspace, relativePath);
    this.use(workspace, [relativePath]);
    const project = await workspace.projectFor(relativePath);
    if (selector.project && !projectMatches(project, selector.project)) {
      throw new ToolError(
        'DocumentNotFound',
        `${relativePath} belongs to project ${project.projectId} (${project.name}), not to ${JSON.stringify(selector.project)}.`,
        revise('Drop document.project or name the owning project.'),
      );
    }
    const resolved: ResolvedDocument = {
      workspace,
      relativePath,
      absolutePath,
      host,
      lines: LineIndex.of(host.text),
      project,
      ref: { documentId: workspace.documentId(relativePath), path: relativePath, projectId: project.projectId },
      view: staged ? 'staged' : 'buffer',
    };
    if (this.textView === 'staged' && view === 'buffer') {
      const stagedView = await this.stagedViewOf(workspace, relativePath, host.text);
      if (stagedView) resolved.staged = stagedView;
    }
    this.services.readiness.noteDocument(this, host.languageId);
    return resolved;
  }

  /**
   * The staged document now at `relativePath` when the transaction moved it there from another path
   * or created it, and no file is on disk there: a language service's answer naming a file that a
   * move will overwrite means the file it sees. (The disk, not the editor: VS Code keeps the buffer
   * of a file deleted from disk, such as one a reverted move put there.)
   */
  private async movedHere(workspace: Workspace, relativePath: string, absolutePath: string): Promise<StagedDocument | undefined> {
    const d = this.services.transactions.stagedView(workspace, relativePath);
    if (!d || d === 'gone' || d.origin?.path === relativePath) return undefined;
    return (await this.realPath(absolutePath)) === undefined ? d : undefined;
  }

  /** The staged view of a buffer document the transaction changed; undefined when it is unchanged. */
  private async stagedViewOf(workspace: Workspace, relativePath: string, bufferText: string): Promise<StagedDocumentView | undefined> {
    if (!this.stagedByBase) {
      this.stagedByBase = new Map();
      for (const w of this.registry.all()) {
        for (const d of this.services.transactions.active(w.id)?.state().values() ?? []) if (d.origin) this.stagedByBase.set(`${w.id}\0${d.origin.path}`, d);
      }
    }
    const d = this.stagedByBase.get(`${workspace.id}\0${relativePath}`);
    if (!d || !d.origin || (d.path === d.origin.path && d.text === d.origin.text)) return undefined;
    if (d.path === null) return { state: 'deleted' };
    // The language service's offsets are the buffer's; they map only while the buffer is still the text the transaction staged on.
    if (d.origin.text !== bufferText) return { state: 'unmapped' };
    // At its staged path: a document the transaction moves is answered where it will be.
    const ref = { documentId: workspace.documentId(d.path), path: d.path, projectId: (await workspace.projectFor(d.path)).projectId };
    return { state: 'mapped', ref, text: d.text, lines: LineIndex.of(d.text), map: new StagedOverlay(d.segments, d.origin.text.length) };
  }

  private async notFound(workspace: Workspace, relativePath: string): Promise<ToolError> {
    const base = relativePath.split('/').pop() ?? relativePath;
    const { paths } = await workspace.files();
    const similar = paths.filter((p) => p.split('/').pop() === base).slice(0, 5);
    const hint = similar.length > 0 ? ` Files with that name: ${similar.join(', ')}.` : '';
    return new ToolError(
      'DocumentNotFound',
      `No text document at "${relativePath}" in folder ${workspace.alias}.${hint}`,
      revise('Use a path listed by get-project-details or returned by another tool.'),
    );
  }

  async location(selector: LocationSelector, workspaceSelector?: WorkspaceSelector | null, view: TextView = 'buffer'): Promise<ResolvedLocation> {
    if (this.textView === 'staged' && view === 'buffer') return this.stagedLocation(selector, workspaceSelector);
    const named = selector.span?.document ?? selector.selection?.document;
    if (view === 'buffer' && named && this.registry.all().some((w) => this.services.transactions.active(w.id))) {
      // A location at a document's staged path (where move-file put it) is given in its staged text.
      const { workspace, relativePath } = await this.locate(named, workspaceSelector, 'location.document');
      const absolutePath = await confinePath(workspace.fsPath, relativePath, this.realPath, 'location.document.path');
      if (await this.movedHere(workspace, relativePath, absolutePath)) return this.stagedLocation(selector, workspaceSelector);
    }
    if (selector.span) {
      const doc = await this.document(selector.span.document, workspaceSelector, 'location.span.document', view);
      const { start, length } = selector.span.range;
      const size = doc.host.text.length;
      if (start > size || start + length > size) {
        throw new ToolError(
          'LocationNotFound',
          `The span ${start}+${length} lies outside ${doc.relativePath}, which has ${size} UTF-16 code units.`,
          revise('Resolve the location again from fresh text (a selection is safer than offsets).'),
        );
      }
      if (splitsSurrogatePair(doc.host.text, start) || splitsSurrogatePair(doc.host.text, start + length)) {
        throw new ToolError(
          'InvalidRequest',
          `The span ${start}+${length} splits a surrogate pair (a character such as an emoji) in ${doc.relativePath}. Offsets count UTF-16 code units.`,
          revise('Move the span boundary to a character boundary.'),
        );
      }
      return { document: doc, start, length };
    }
    if (selector.selection) {
      const { document, selectedText, contextBefore, contextAfter } = selector.selection;
      const doc = await this.document(document, workspaceSelector, 'location.selection.document', view);
      const matches = findSelection(doc.host.text, selectedText, contextBefore, contextAfter);
      if (matches.length === 1) return { document: doc, ...matches[0] };
      if (matches.length > 1) {
        const shown = matches.slice(0, 20).map((m) => this.toLocation(doc, m.start, m.length));
        throw new ToolError(
          'LocationAmbiguous',
          `selectedText occurs ${matches.length} times in ${doc.relativePath}. Candidates: ${shown.map(describeCandidate).join('; ')}${matches.length > shown.length ? '; …' : ''}.`,
          revise('Add contextBefore/contextAfter that makes the selection unique, or use one candidate selector as location.'),
          { candidates: shown },
        );
      }
      const misses = findNearMisses(doc.host.text, selectedText, contextBefore, contextAfter);
      const found = (m: { start: number; length: number }): string => truncate(doc.host.text.slice(m.start, m.start + m.length), NEAR_MISS_TEXT_MAX);
      const described = misses.map((m) => `${describeCandidate(this.toLocation(doc, m.start, m.length))}: ${m.difference}: ${JSON.stringify(found(m))}`);
      throw new ToolError(
        'LocationNotFound',
        `selectedText does not occur in ${doc.relativePath}${contextBefore || contextAfter ? ' with the given context' : ''}.` +
          (described.length > 0 ? ` Nearest: ${described.join('; ')}.` : ' Nothing similar was found.') +
          (doc.view === 'staged'
            ? ' The text is the staged text of the active transaction.'
            : ` The text is read from the editor buffer (${doc.host.isDirty ? 'unsaved changes included' : 'same as disk'}).`),
        misses.length > 0
          ? revise('Copy the text exactly from the document (or use a near-miss selector) and retry.')
          : callTool('get-code-context', 'Read the current text around the place you mean, then select from it.'),
        { nearMisses: misses.map((m) => ({ ...this.toLocation(doc, m.start, m.length), difference: m.difference, text: found(m) })) },
      );
    }
    throw new ToolError('InvalidRequest', 'location: provide exactly one of span or selection.', revise('Add location.span or location.selection.'));
  }

  /**
   * A selector of the staged view resolves against the staged text; the language services see
   * the buffer, so the location is the buffer's, mapped back through the staged edits.
   */
  private async stagedLocation(selector: LocationSelector, workspaceSelector?: WorkspaceSelector | null): Promise<ResolvedLocation> {
    const inStaged = await this.location(selector, workspaceSelector, 'staged');
    const stagedDoc = inStaged.document;
    const { start, length } = inStaged;
    const d = this.services.transactions.stagedView(stagedDoc.workspace, stagedDoc.relativePath);
    if (!d || d === 'gone') {
      const doc = await this.document({ path: stagedDoc.relativePath }, workspaceSelector);
      return { document: doc, start, length };
    }
    if (!d.origin) throw onlyStaged(stagedDoc.relativePath);
    const doc = await this.document({ documentId: stagedDoc.workspace.documentId(d.origin.path) }, workspaceSelector);
    // Also in the buffer view, where a location at a moved document's staged path is resolved here.
    const view = doc.staged ?? (await this.stagedViewOf(doc.workspace, doc.relativePath, doc.host.text));
    if (view?.state === 'unmapped') {
      throw new ToolError(
        'TransactionConflicted',
        `${d.origin.path} changed in the editor after the transaction staged it, so staged offsets no longer match what the language service sees.`,
        revise(`${this.textView === 'staged' ? 'Ask with view "buffer", or roll' : 'Roll'} back (or undo) the staged change of that file and stage it again.`),
      );
    }
    const base = view?.state === 'mapped' ? view.map.toBase(start, start + length) : { start, end: start + length };
    if (!base) {
      throw new ToolError(
        'LocationNotFound',
        `The location (line ${stagedDoc.lines.positionAt(start).line + 1} of staged ${stagedDoc.relativePath}) is in text the transaction staged; language services see the editor's text and know nothing of it until commit.`,
        revise('Select text that the editor buffer has too (it may be near the staged change), or commit first.'),
      );
    }
    return { document: doc, start: base.start, length: base.end - base.start };
  }

  /**
   * A returned location. Its snapshot is left out when it is the answer's own (the envelope
   * says it once, not once per location): given for a location in another folder, or always
   * with `withSnapshot` (get-symbol-attributes keeps roslyn-workbench-mcp's shape).
   */
  toLocation(doc: ResolvedDocument, start: number, length: number, withSnapshot = false): LocationOutput {
    const view = doc.staged;
    if (view?.state === 'mapped') {
      const r = view.map.toStaged(start, start + length);
      const out = this.locationIn(view.ref, view.lines, doc.workspace, r.start, r.end - r.start, withSnapshot);
      if (r.edited) out.staged = 'edited';
      return out;
    }
    const out = this.locationIn(doc.ref, doc.lines, doc.workspace, start, length, withSnapshot);
    if (view) out.staged = view.state;
    return out;
  }

  private locationIn(ref: DocumentRef, lines: LineIndex, workspace: Workspace, start: number, length: number, withSnapshot: boolean): LocationOutput {
    const pos = lines.positionAt(start);
    const own = !withSnapshot && workspace === (this.used ?? this.registry.all()[0]);
    return {
      documentId: ref.documentId,
      span: { start, length },
      line: pos.line + 1,
      column: pos.character + 1,
      ...(own ? {} : { snapshot: workspace.snapshot() }),
    };
  }
}

function onlyStaged(relativePath: string): ToolError {
  return new ToolError(
    'DocumentNotFound',
    `${relativePath} exists only in the staged transaction; language services analyse it once it is committed.`,
    revise('Edit it with edit-text (its selectors resolve against the staged text), or commit the transaction first.'),
  );
}

/** Longest near-miss text quoted in a LocationNotFound message. */
const NEAR_MISS_TEXT_MAX = 300;
