import type { Services } from '../documents/context';
import { ToolError } from '../chain/envelope';
import { buildPanelModel, chooseSelection } from './model';
import type { Outcome, PanelModel } from './model';
import { joinFolder } from '../documents/paths';
import { discardHunkEdit, minimalEdits } from './edits';
import { checkSeen, parseWebviewMessage } from './protocol';
import type { Seen, TransactionAction } from './protocol';
import { CHECK_TIME_LIMIT_MS, dirtyBuffers, PREPARE_AFTER_MS } from '../transactions/check';
import type { RevisionCheck } from '../transactions/check';
import type { StagedChange, StagedDocument } from '../transactions/types';
import type { Transaction } from '../transactions/transaction';
import type { Workspace } from '../documents/workspaces';
import { countOf } from '../util/wording';

/** Provenance of the revisions a person makes in the panel and in the staged-text editor. */
export const PANEL_TOOL = 'review-panel';
export const EDITOR_TOOL = 'staged-text-editor';

/** What the panel needs from the editor side (vscode): opening editors. */
export interface PanelHostActions {
  openDiff(workspace: Workspace, path: string): Promise<void>;
  openAllChanges(workspace: Workspace): Promise<void>;
  /** A check the panel started has settled: render again (absent: nothing to tell). */
  checkSettled?(): void;
}

const pathOf = (d: StagedDocument): string => d.path ?? d.origin?.path ?? '';

/**
 * The review panel's logic without VS Code: which transaction it shows, the model it renders,
 * and the person's actions (each a guarded call into the TransactionManager). Every message from
 * the webview goes through `handle`, which validates it and checks it acts on what is active.
 */
export class PanelController {
  private shown: string | undefined;
  private readonly selected = new Map<string, string>();
  private outcome: Outcome | null = null;
  /** Per workspace: the last check the panel saw settle, and the revision ("id:revision") it last started one for. */
  private readonly checks = new Map<string, RevisionCheck>();
  private readonly checking = new Map<string, string>();
  private readonly checkTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly services: Services,
    private readonly actions: PanelHostActions,
    private readonly checkDelayMs = PREPARE_AFTER_MS,
  ) {}

  /** The workspace the panel shows: the one last changed, else one with a transaction, else the first. */
  workspace(): Workspace | undefined {
    const all = this.services.registry.all();
    const shown = this.shown ? all.find((w) => w.id === this.shown) : undefined;
    return shown ?? all.find((w) => this.services.transactions.active(w.id)) ?? all[0];
  }

  show(workspaceId: string): void {
    this.shown = workspaceId;
  }

  setOutcome(outcome: Outcome | null): void {
    this.outcome = outcome;
  }

  private tx(ws: Workspace | undefined): Transaction | undefined {
    return ws ? this.services.transactions.active(ws.id) : undefined;
  }

  /**
   * What the panel renders. `startCheck`: the panel is open, so the check of the current revision
   * is started (or joined, Services.checks keeps one per revision) without waiting for it; the
   * model says "checking" until it settles, when `checkSettled` asks for the model again.
   */
  async model(options: { startCheck?: boolean } = {}): Promise<PanelModel> {
    await this.services.startup;
    const t = this.services.transactions;
    const ws = this.workspace();
    const tx = this.tx(ws);
    const state = t.state(tx);
    let transaction: Parameters<typeof buildPanelModel>[0]['transaction'] = null;
    let selected: Parameters<typeof buildPanelModel>[0]['selected'] = null;
    if (ws && tx && state) {
      const documents = await t.preview(ws);
      transaction = { id: tx.id, state, history: t.history(ws), documents };
      const path = chooseSelection(documents, this.selected.get(ws.id));
      const doc = path === undefined ? undefined : tx.effectiveDocuments().find((d) => pathOf(d) === path);
      if (path !== undefined && doc) {
        const binary = doc.origin?.binary ?? false;
        selected = { path, binary, original: doc.origin && !binary ? doc.origin.text : '', updated: doc.path === null ? '' : doc.text };
      }
    }
    if (ws && tx && options.startCheck) this.startCheck(ws, tx);
    const check = ws && tx ? (this.services.checks.peek(ws, tx) ?? this.checks.get(ws.id)) : undefined;
    return buildPanelModel({
      workspaces: this.services.registry.all().map((w) => ({ id: w.id, alias: w.alias })),
      workspace: ws ? { id: ws.id, alias: ws.alias } : null,
      mode: this.services.settings().effectiveMode,
      transaction,
      selected,
      outcome: this.outcome,
      ...(check ? { check } : {}),
    });
  }

  /**
   * Starts (or joins) the check of the transaction's current revision, once per revision; its
   * answer arrives through `checkSettled`. One already asked for (transaction-check) is joined at
   * once; otherwise it starts when the stagings pause (checkDelayMs), so an agent's run of changes
   * is not checked revision by revision while it works.
   */
  private startCheck(ws: Workspace, tx: Transaction): void {
    const key = `${tx.id}:${tx.current}`;
    if (this.checking.get(ws.id) === key) return;
    this.checking.set(ws.id, key);
    clearTimeout(this.checkTimers.get(ws.id));
    this.checkTimers.delete(ws.id);
    const revision = tx.current;
    const begin = (): void =>
      void (async () => {
        const buffers = await dirtyBuffers(this.services.editor, ws);
        // Moved on while the buffers were read: the model of the newer revision starts its own.
        if (this.services.transactions.active(ws.id) !== tx || tx.current !== revision) return;
        const check = await this.services.checks.of(ws, tx, buffers, CHECK_TIME_LIMIT_MS);
        const stillCurrent = this.services.transactions.active(ws.id) === tx && tx.current === check.revision;
        if (check.state === 'unavailable' && check.cancelled) {
          // Replaced by a check of the same revision with other buffers: join that one on the next model.
          if (stillCurrent && this.checking.get(ws.id) === key) this.checking.delete(ws.id);
          else return;
        } else {
          this.checks.set(ws.id, check);
        }
        if (stillCurrent) this.actions.checkSettled?.();
      })().catch(() => {
        // dirtyBuffers read an editor that went away: the next model starts again.
        if (this.checking.get(ws.id) === key) this.checking.delete(ws.id);
      });
    if (this.checkDelayMs <= 0 || this.services.checks.asked(ws, tx)) return begin();
    const timer = setTimeout(() => {
      this.checkTimers.delete(ws.id);
      const current = this.services.transactions.active(ws.id) === tx && tx.current === revision;
      if (current && this.checking.get(ws.id) === key) begin();
      else if (this.checking.get(ws.id) === key) this.checking.delete(ws.id);
    }, this.checkDelayMs);
    timer.unref?.();
    this.checkTimers.set(ws.id, timer);
  }

  /** Stops the checks waiting for the stagings to pause. */
  dispose(): void {
    this.checkTimers.forEach((t) => clearTimeout(t));
    this.checkTimers.clear();
  }

  /** Handles one message from the webview. Returns the outcome to show, or undefined when there is nothing to say. */
  async handle(data: unknown): Promise<Outcome | undefined> {
    await this.services.startup;
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) {
      return this.done({
        ok: false,
        code: 'InvalidRequest',
        message: `The review panel sent a message that was refused: ${parsed.problem}. Nothing was changed.`,
      });
    }
    const m = parsed.message;
    switch (m.type) {
      case 'ready':
        return undefined;
      case 'select': {
        const ws = this.services.registry.byId(m.workspaceId);
        if (!ws) return this.done({ ok: false, code: 'InvalidRequest', message: 'That folder is not open any more.' });
        this.shown = ws.id;
        this.selected.set(ws.id, m.path);
        return undefined;
      }
      case 'showWorkspace': {
        const ws = this.services.registry.byId(m.workspaceId);
        if (!ws) return this.done({ ok: false, code: 'WorkspaceNotFound', message: 'That folder is not open any more.' });
        this.shown = ws.id;
        this.outcome = null;
        return undefined;
      }
      case 'openDiff':
      case 'openAllChanges': {
        const ws = this.services.registry.byId(m.workspaceId);
        if (!ws || !this.tx(ws)) return this.done({ ok: false, code: 'NoActiveTransaction', message: 'Nothing is staged in that folder.' });
        if (m.type === 'openDiff') await this.actions.openDiff(ws, m.path);
        else await this.actions.openAllChanges(ws);
        return undefined;
      }
      default: {
        const ws = this.services.registry.byId(m.workspaceId);
        const tx = this.tx(ws);
        const stale = checkSeen(m, tx ? { transactionId: tx.id, revision: tx.current } : undefined);
        if (stale || !ws) return this.done({ ok: false, code: 'TransactionConflicted', message: stale ?? 'That folder is not open any more.' });
        if (m.type === 'action') return this.act(ws, m.action, m);
        if (m.type === 'discardFile') return this.discardFile(ws, m.path, m);
        return this.discardHunk(ws, m.path, m.hunk, m);
      }
    }
  }

  private done(outcome: Outcome): Outcome {
    this.outcome = outcome;
    return outcome;
  }

  private async guarded(run: () => Promise<string>): Promise<Outcome> {
    await this.services.startup;
    try {
      return this.done({ ok: true, message: await run() });
    } catch (error) {
      if (error instanceof ToolError) return this.done({ ok: false, code: error.code, message: error.message });
      return this.done({ ok: false, code: 'UnhandledException', message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Runs `fn` in the workspace's queue, after checking (again, inside it) that the person saw this state. */
  private inQueue(ws: Workspace, seen: Omit<Seen, 'workspaceId'> | undefined, fn: (tx: Transaction) => Promise<string>): Promise<Outcome> {
    return this.guarded(() =>
      this.services.transactions.exclusive(ws.id, async () => {
        const tx = this.services.transactions.require(ws);
        this.refuseUnseen(ws, seen, tx);
        return fn(tx);
      }),
    );
  }

  /** A person's action on a revision the panel had not shown them yet is refused. */
  private refuseUnseen(ws: Workspace, seen: Omit<Seen, 'workspaceId'> | undefined, tx: Transaction): void {
    const stale = seen && checkSeen({ ...seen, workspaceId: ws.id }, { transactionId: tx.id, revision: tx.current });
    if (stale) throw new ToolError('TransactionConflicted', stale);
  }

  /** Commit, Roll back, Undo, Redo as the person; `seen` is absent for command-palette calls. */
  act(ws: Workspace, action: TransactionAction, seen?: Omit<Seen, 'workspaceId'>): Promise<Outcome> {
    const t = this.services.transactions;
    switch (action) {
      case 'undo':
      case 'redo':
        return this.inQueue(ws, seen, async () => {
          const tx = t.move(ws, action);
          return `${action === 'undo' ? 'Undid' : 'Redid'}: the transaction is at revision ${tx.current} of ${tx.revisions.length}.`;
        });
      case 'rollback':
        return this.guarded(async () => {
          const tx = await t.rollback(undefined, ws, (tx) => this.refuseUnseen(ws, seen, tx));
          return `Rolled back: the transaction (${countOf(tx.revisions.length, 'revision')}) is discarded; nothing was written.`;
        });
      case 'commit':
        return this.guarded(async () => {
          if (this.services.settings().effectiveMode === 'inspection-only') {
            throw new ToolError(
              'SourceMutationDisabled',
              'The workspace is inspection-only (untrusted, or the operational mode says so); nothing was written.',
            );
          }
          const tx = t.require(ws);
          const stale = seen && checkSeen({ ...seen, workspaceId: ws.id }, { transactionId: tx.id, revision: tx.current });
          if (stale) throw new ToolError('TransactionConflicted', stale);
          // The same checks as transaction-commit (editor and disk drift, write, verify), serialized with agents' calls.
          const { transaction, files } = await t.commit(undefined, ws, 'person');
          const n = files.length;
          return `Committed ${countOf(n, 'file')} at revision ${transaction.current}: ${files.map((f) => f.path).join(', ')}.`;
        });
    }
  }

  /**
   * Stages a revision by the person in ONE turn of the workspace's queue: `build` reads the staged
   * text and computes offsets with no agent call staging in between (the same race edit-text had).
   * `build` returns the summary and changes, or a message when there is nothing to stage.
   */
  private stageAsPerson(
    ws: Workspace,
    tool: string,
    build: () => Promise<{ summary: string; changes: StagedChange[]; computedOn?: Record<string, string> } | string>,
  ): Promise<Outcome> {
    return this.guarded(async () => {
      let said: string | undefined;
      let summary = '';
      try {
        await this.services.transactions.mutate(undefined, ws, async () => {
          const built = await build();
          if (typeof built === 'string') throw new NothingToStage(built);
          summary = built.summary;
          return {
            provenance: { tool, summary, by: 'person' },
            changes: built.changes,
            options: { basis: 'staged', ...(built.computedOn ? { computedOn: built.computedOn } : {}) },
          };
        });
      } catch (error) {
        if (!(error instanceof NothingToStage)) throw error;
        said = error.message;
      }
      return said ?? `${summary}.`;
    });
  }

  /** The active transaction, checked against what the person saw; call inside the queue. */
  private current(ws: Workspace, seen: Omit<Seen, 'workspaceId'> | undefined): Transaction {
    const tx = this.services.transactions.require(ws);
    const stale = seen && checkSeen({ ...seen, workspaceId: ws.id }, { transactionId: tx.id, revision: tx.current });
    if (stale) throw new ToolError('TransactionConflicted', stale);
    return tx;
  }

  /** Takes one file out of the transaction, as a new revision by the person (Undo brings it back). */
  discardFile(ws: Workspace, path: string, seen?: Omit<Seen, 'workspaceId'>): Promise<Outcome> {
    return this.stageAsPerson(ws, PANEL_TOOL, async () => {
      const doc = this.current(ws, seen)
        .effectiveDocuments()
        .find((d) => pathOf(d) === path);
      if (!doc) throw new ToolError('DocumentNotFound', `${path} has no staged change; nothing was changed.`);
      return { summary: `Discarded the staged change of ${path}`, changes: [{ kind: 'restore', path }] };
    });
  }

  /** Puts one hunk of a file's diff back as it was, as a new revision by the person. */
  discardHunk(
    ws: Workspace,
    path: string,
    hunk: number,
    seen?: Omit<Seen, 'workspaceId'> & { originalStartLine: number; updatedStartLine: number },
  ): Promise<Outcome> {
    return this.stageAsPerson(ws, PANEL_TOOL, async () => {
      const doc = this.current(ws, seen)
        .effectiveDocuments()
        .find((d) => pathOf(d) === path);
      if (!doc || doc.path === null || doc.origin?.binary) throw new ToolError('DocumentNotFound', `${path} has no staged text change; nothing was changed.`);
      const edit = discardHunkEdit(doc.origin ? doc.origin.text : '', doc.text, hunk, seen);
      if (!edit) throw new ToolError('TransactionConflicted', `Hunk ${hunk + 1} of ${path} is not the one the panel showed; nothing was changed.`);
      return {
        summary: `Discarded hunk ${hunk + 1} of ${path}`,
        changes: [{ kind: 'edit', path: doc.path, edits: [edit] }],
        computedOn: { [doc.path]: doc.text },
      };
    });
  }

  /**
   * The person saved their own staged text of a file (the staged-text editor): a new revision by
   * the person. `basedOn` is the text their editor was showing before they typed; when the staged
   * text is no longer that (an agent staged meanwhile), nothing is staged (TransactionConflicted).
   */
  personText(ws: Workspace, path: string, text: string, basedOn?: string): Promise<Outcome> {
    return this.stageAsPerson(ws, EDITOR_TOOL, async () => {
      const view = this.services.transactions.stagedView(ws, path);
      const current = view === 'gone' ? undefined : view ? view.text : (await this.services.editor.readDocument(joinFolder(ws.fsPath, path)))?.text;
      if (current === undefined) {
        throw new ToolError(
          'DocumentNotFound',
          `${path} is not in the staged transaction or the workspace (it may be deleted or moved there); the edit was not staged.`,
        );
      }
      if (basedOn !== undefined && basedOn !== current) {
        throw new ToolError(
          'TransactionConflicted',
          `The staged text of ${path} changed (a revision was staged) after this editor read it; your edit was not staged. Reopen the staged text and make the edit again.`,
        );
      }
      const edits = minimalEdits(current, text);
      if (edits.length === 0) return `${path}: no change to stage.`;
      return { summary: `Edited the staged text of ${path} by hand`, changes: [{ kind: 'edit', path, edits }], computedOn: { [path]: current } };
    });
  }
}

/** A person's action that turned out to change nothing: said, not staged. */
class NothingToStage extends Error {}
