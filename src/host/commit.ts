import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findOpen } from './openDocuments';
import type { CommitOutcome, CommittedFile } from '../core/documents/editorPort';
import { sha256 } from '../core/transactions/segments';
import type { CommitFile, CommitPlan } from '../core/transactions/plan';
import { drift } from '../core/transactions/drift';
import type { FileNow } from '../core/transactions/drift';

/** Test hook: makes the next commit fail at one file (absolute path), after applying or while saving. */
export interface CommitFault {
  absPath: string;
  phase: 'apply' | 'save';
}

let nextFault: CommitFault | undefined;

export function injectCommitFault(fault: CommitFault | undefined): void {
  nextFault = fault;
}

async function readBytes(absPath: string): Promise<Uint8Array | undefined> {
  try {
    return await fs.readFile(absPath);
  } catch {
    return undefined;
  }
}

const view = (a: Uint8Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const sameBytes = (a: Uint8Array | undefined, b: Uint8Array | undefined): boolean => (a === undefined || b === undefined ? a === b : view(a).equals(view(b)));

interface Original {
  absPath: string;
  bytes: Uint8Array | undefined;
  buffer: { text: string; dirty: boolean } | undefined;
}

class CommitError extends Error {
  constructor(
    readonly code: 'TransactionConflicted' | 'CommitFailed',
    readonly path: string,
    message: string,
    /** What the person can do, when the failure has a reason they can deal with. */
    readonly resolution?: string,
  ) {
    super(message);
  }
}

/**
 * From this many modified files nobody has open, those are written straight to disk instead of
 * through the WorkspaceEdit: applyEdit opens every document (about 50 ms each here, 50 s for a
 * rename across 1,000 files). Smaller commits keep going through the editor, so its undo covers
 * every file; open documents always do.
 */
export const DIRECT_WRITE_MIN_FILES = 50;

/**
 * A modified UTF-8 file (no byte order mark, utf8 encoding) nobody has open, whose bytes are exactly its base text: its staged text can be written as bytes.
 * `encodings` keeps files.encoding per directory for one commit (settings apply per folder, so alike for a directory's files).
 */
function directWritable(f: CommitFile, original: Original, encodings: Map<string, string>): boolean {
  if (f.kind !== 'modify' || !f.base || f.base.binary || original.buffer || original.bytes === undefined || !f.edits?.length) return false;
  const dir = path.dirname(f.absPath);
  let encoding = encodings.get(dir);
  if (encoding === undefined) {
    encoding = vscode.workspace.getConfiguration('files', vscode.Uri.file(f.absPath)).get<string>('encoding', 'utf8');
    encodings.set(dir, encoding);
  }
  return encoding === 'utf8' && Buffer.from(f.base.text, 'utf8').equals(view(original.bytes));
}

/**
 * How long the commit waits, after a refused save, for a save of the same document someone else
 * (VS Code's auto-save) has under way; seen here landing 0-42 ms after the refusal. A save VS Code
 * refuses for good (a file it cannot write) costs SAVE_ATTEMPTS times this before the commit says so.
 */
const CONCURRENT_SAVE_WAIT_MS = 5_000;
const SAVE_ATTEMPTS = 3;

/** Resolves when the document is saved (or no longer dirty), or after `ms`; subscribe before asking for the save. */
function savedOrTimeout(doc: vscode.TextDocument, ms: number): { done: Promise<void>; dispose(): void } {
  let finish = (): void => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const timer = setTimeout(finish, ms);
  const onSave = vscode.workspace.onDidSaveTextDocument((d) => d === doc && finish());
  const onChange = vscode.workspace.onDidChangeTextDocument((e) => e.document === doc && !doc.isDirty && finish());
  const dispose = (): void => {
    clearTimeout(timer);
    onSave.dispose();
    onChange.dispose();
  };
  void done.then(dispose);
  return { done, dispose };
}

/**
 * Saves a document the commit changed. TextDocument.save() answers false, saving nothing, while another
 * save of the same document is running its save participants: VS Code refuses the second one as a
 * recursive save. With files.autoSave "afterDelay" (the default of VS Code for the web) the auto-save
 * of every document the WorkspaceEdit dirtied starts a second after it, so in a commit of many files
 * some are being auto-saved when their turn comes. That save writes the same buffer: wait for it,
 * and save again only while the document stays dirty.
 */
async function saveDocument(doc: vscode.TextDocument): Promise<boolean> {
  for (let attempt = 0; attempt < SAVE_ATTEMPTS && doc.isDirty; attempt++) {
    const saved = savedOrTimeout(doc, CONCURRENT_SAVE_WAIT_MS);
    if (await doc.save()) {
      saved.dispose();
      return true;
    }
    await saved.done;
  }
  return !doc.isDirty;
}

/** Why VS Code kept a document unsaved, as far as the file tells, and what the person can do about it. */
async function unsavedReason(doc: vscode.TextDocument, label: string, original: Original | undefined): Promise<{ message: string; resolution?: string }> {
  const absPath = doc.uri.fsPath;
  try {
    await fs.access(absPath, fsConstants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      message: `VS Code could not save ${label}: the file is not writable (${code})`,
      resolution: `Tell the person ${label} is not writable (${code}); once they make it writable, retry transaction-commit.`,
    };
  }
  const bytes = await readBytes(absPath);
  if (original && !sameBytes(bytes, original.bytes) && bytes !== undefined && Buffer.from(bytes).toString('utf8') !== doc.getText()) {
    return {
      message: `VS Code did not save ${label}: the file changed on disk during the commit, and VS Code does not overwrite a file that changed under its editor (a save conflict)`,
      resolution: `Tell the person ${label} was changed on disk by something else while committing; once they have checked it, stage the change again (transaction-preview shows it).`,
    };
  }
  return {
    message: `VS Code did not save ${label}: TextDocument.save() answered false ${SAVE_ATTEMPTS} times and no other save of it finished within ${CONCURRENT_SAVE_WAIT_MS / 1000} s; the editor shows its reason, if it has one, in a notification`,
    resolution: `Tell the person VS Code did not save ${label} (its notification says why); once they have dealt with it, retry transaction-commit.`,
  };
}

/** How long a buffer the editor kept of a file gone from disk may take to show the file moved there. */
const STALE_BUFFER_WAIT_MS = 5_000;

/**
 * The document of a file just moved into place, once it shows the file's text. The editor keeps the
 * buffer of a file that was deleted (a closed tab's document lives on); opening the path again
 * answers that buffer with the old text until the editor reloads it from disk, which its file
 * watcher does some time after the move (seen: 70 ms; the commit failed when it did not wait).
 */
async function documentHolding(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.getText() === text || doc.isDirty) return doc;
  let finish = (): void => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const timer = setTimeout(finish, STALE_BUFFER_WAIT_MS);
  const onChange = vscode.workspace.onDidChangeTextDocument((e) => e.document === doc && doc.getText() === text && finish());
  try {
    if (doc.getText() !== text) await done;
  } finally {
    clearTimeout(timer);
    onChange.dispose();
  }
  return doc;
}

/**
 * Commits a plan: checks every touched file still holds its base (buffer and disk), applies ONE
 * WorkspaceEdit (so the editor's undo covers it), saves, and verifies the bytes on disk. In a big
 * commit, files nobody has open are written directly (DIRECT_WRITE_MIN_FILES). On any failure
 * every file is put back byte for byte and the outcome names the file.
 */
export async function commitPlan(plan: CommitPlan, options: { directWriteMinFiles?: number } = {}): Promise<CommitOutcome> {
  const fault = nextFault;
  nextFault = undefined;
  const originals = new Map<string, Original>();
  // Read together: one file at a time, a commit of hundreds of files waited on each read in turn.
  const touched = [...new Set(plan.files.flatMap((f) => [f.absPath, ...(f.newAbsPath ? [f.newAbsPath] : [])]))];
  const bytesBefore = await Promise.all(touched.map((absPath) => readBytes(absPath)));
  for (const [i, absPath] of touched.entries()) {
    const open = findOpen(absPath);
    originals.set(absPath, { absPath, bytes: bytesBefore[i], buffer: open ? { text: open.getText(), dirty: open.isDirty } : undefined });
  }

  const encodings = new Map<string, string>();
  const candidates = plan.files.filter((f) => directWritable(f, originals.get(f.absPath) as Original, encodings));
  const direct = new Set(candidates.length >= (options.directWriteMinFiles ?? DIRECT_WRITE_MIN_FILES) ? candidates : []);

  // Check, with nothing changed yet.
  const documents = new Map<string, vscode.TextDocument>();
  for (const f of plan.files) {
    const original = originals.get(f.absPath) as Original;
    const target = f.newAbsPath ? (originals.get(f.newAbsPath) as Original) : undefined;
    const now: FileNow = { bytes: original.bytes, targetExists: target ? target.bytes !== undefined : false, targetUnsaved: target?.buffer?.dirty === true };
    // A direct file's bytes are its base text (directWritable): checking the bytes checks it.
    if (f.base && !f.base.binary && f.kind !== 'create' && !direct.has(f)) {
      if (f.kind !== 'delete' && now.bytes !== undefined) {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(f.absPath));
        documents.set(f.absPath, doc);
        now.editorText = doc.getText();
      } else now.editorText = original.buffer?.text;
    }
    const problem = drift(f, now);
    if (problem) return conflict(f.kind === 'rename' && (now.targetExists || now.targetUnsaved) ? (f.newPath ?? f.path) : f.path, `${problem}.`);
  }

  try {
    // Moves go through the file system API: applyEdit would run rename participants (TypeScript's
    // "update imports"), which can write changes nobody staged or reviewed.
    for (const f of plan.files) {
      if (f.kind !== 'rename' || !f.newAbsPath) continue;
      const doc = documents.get(f.absPath);
      if (doc?.isDirty && !(await saveDocument(doc))) {
        const why = await unsavedReason(doc, f.path, originals.get(f.absPath));
        throw new CommitError('CommitFailed', f.path, `${why.message} (before moving it)`, why.resolution);
      }
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(f.newAbsPath)));
      await vscode.workspace.fs.rename(vscode.Uri.file(f.absPath), vscode.Uri.file(f.newAbsPath), { overwrite: false });
      if (f.edits?.length) {
        const moved = await documentHolding(vscode.Uri.file(f.newAbsPath), f.base?.text ?? '');
        if (moved.getText() !== f.base?.text) {
          throw new CommitError('CommitFailed', f.newPath ?? f.path, `${f.newPath} does not hold the text of ${f.path} after the move`);
        }
        documents.set(f.newAbsPath, moved);
      }
    }
    const edit = new vscode.WorkspaceEdit();
    for (const f of plan.files) {
      const uri = vscode.Uri.file(f.absPath);
      if (f.kind === 'delete') edit.deleteFile(uri, { ignoreIfNotExists: false });
      else if (f.kind === 'create') edit.createFile(uri, { overwrite: false, contents: Buffer.from(f.text ?? '', 'utf8') });
      else if (!direct.has(f)) {
        const target = f.newAbsPath ?? f.absPath;
        const doc = documents.get(target);
        for (const e of f.edits ?? []) {
          if (!doc) throw new CommitError('CommitFailed', f.path, `no document for ${f.path}`);
          edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
        }
      }
    }
    const applied = edit.size === 0 || (await vscode.workspace.applyEdit(edit));
    if (!applied) throw new CommitError('CommitFailed', plan.files[0]?.path ?? '', 'VS Code refused to apply the workspace edit.');
    if (fault?.phase === 'apply') {
      throw new CommitError('CommitFailed', relativeOf(plan, fault.absPath), `injected failure after applying the edit (${fault.absPath})`);
    }
    for (const f of direct) {
      if (fault?.phase === 'save' && fault.absPath === f.absPath) throw new CommitError('CommitFailed', f.path, `injected failure while saving ${f.path}`);
      // node's fs, not workspace.fs: 1,000 writes took 0.9 s against 14 s (a round trip each); the editor's file watcher reports them.
      await fs.writeFile(f.absPath, Buffer.from(f.text ?? '', 'utf8'));
    }
    // Saved together: each save is a round trip to the editor and its save participants (about
    // 300 ms under load here), so one at a time a commit through the editor of 30 documents took 10 s.
    const saves: { f: CommitFile; target: string; doc: vscode.TextDocument }[] = [];
    let faulted: CommitFile | undefined;
    for (const f of plan.files) {
      if ((f.kind !== 'modify' && f.kind !== 'rename') || direct.has(f)) continue;
      const target = f.newAbsPath ?? f.absPath;
      if (fault?.phase === 'save' && fault.absPath === target) {
        faulted = f;
        break;
      }
      saves.push({ f, target, doc: findOpen(target) ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(target))) });
    }
    const saved = await Promise.all(saves.map(({ doc }) => (doc.isDirty ? saveDocument(doc) : Promise.resolve(true))));
    const unsaved = saves.find((_, i) => !saved[i]);
    if (unsaved) {
      const why = await unsavedReason(unsaved.doc, unsaved.f.newPath ?? unsaved.f.path, originals.get(unsaved.target));
      throw new CommitError('CommitFailed', unsaved.f.newPath ?? unsaved.f.path, why.message, why.resolution);
    }
    if (faulted) throw new CommitError('CommitFailed', faulted.newPath ?? faulted.path, `injected failure while saving ${faulted.newPath ?? faulted.path}`);
    const files: CommittedFile[] = [];
    const written = await Promise.all(plan.files.map((f) => readBytes(f.newAbsPath ?? f.absPath)));
    for (const [i, f] of plan.files.entries()) {
      const before = (originals.get(f.absPath) as Original).bytes;
      const target = f.newAbsPath ?? f.absPath;
      const after = written[i];
      if (f.kind === 'delete') {
        if (after !== undefined) throw new CommitError('CommitFailed', f.path, `${f.path} still exists after the commit deleted it`);
      } else {
        const expected = await expectedBytes(f.text ?? '', target, before);
        if (!sameBytes(after, expected)) {
          throw new CommitError('CommitFailed', f.newPath ?? f.path, `${f.newPath ?? f.path} does not hold the staged text byte for byte after saving`);
        }
      }
      if (f.kind === 'rename' && (await readBytes(f.absPath)) !== undefined) {
        throw new CommitError('CommitFailed', f.path, `${f.path} still exists after the move`);
      }
      files.push({ path: f.newPath ?? f.path, beforeHash: before ? sha256(before) : null, afterHash: after && f.kind !== 'delete' ? sha256(after) : null });
    }
    return { ok: true, files };
  } catch (error) {
    const problems = await restore(plan, originals);
    const code = error instanceof CommitError ? error.code : 'CommitFailed';
    const failedPath = error instanceof CommitError ? error.path : (plan.files[0]?.path ?? '');
    const resolution = error instanceof CommitError ? error.resolution : undefined;
    return {
      ok: false,
      code,
      path: failedPath,
      message: error instanceof Error ? error.message : String(error),
      restored: problems.length === 0,
      restoreProblems: problems,
      ...(resolution ? { resolution } : {}),
    };
  }
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const hasBom = (bytes: Uint8Array | undefined): boolean =>
  bytes !== undefined && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** The bytes a file must hold for a text: in its document's encoding, with the byte order mark it had. */
async function expectedBytes(text: string, absPath: string, before: Uint8Array | undefined): Promise<Uint8Array> {
  const encoding = findOpen(absPath)?.encoding ?? 'utf8';
  if (encoding === 'utf8' || encoding === 'utf8bom') {
    const body = Buffer.from(text, 'utf8');
    return encoding === 'utf8bom' || hasBom(before) ? Buffer.concat([BOM, body]) : body;
  }
  return vscode.workspace.encode(text, { encoding });
}

function relativeOf(plan: CommitPlan, absPath: string): string {
  const f = plan.files.find((x) => x.absPath === absPath || x.newAbsPath === absPath);
  return f ? (f.newAbsPath === absPath ? (f.newPath ?? f.path) : f.path) : absPath;
}

function conflict(path: string, message: string): CommitOutcome {
  return { ok: false, code: 'TransactionConflicted', path, message, restored: true, restoreProblems: [] };
}

/** Puts every touched file back: buffers through the editor first, then the exact bytes on disk. */
async function restore(plan: CommitPlan, originals: Map<string, Original>): Promise<string[]> {
  const problems: string[] = [];
  // Undo moves through the editor so open buffers follow their files.
  for (const f of [...plan.files].reverse()) {
    if (f.kind === 'rename' && f.newAbsPath && (await readBytes(f.newAbsPath)) !== undefined && (await readBytes(f.absPath)) === undefined) {
      await Promise.resolve(vscode.workspace.fs.rename(vscode.Uri.file(f.newAbsPath), vscode.Uri.file(f.absPath), { overwrite: false })).catch(() => undefined);
    }
  }
  for (const original of originals.values()) {
    const doc = findOpen(original.absPath);
    if (!doc) continue;
    // A buffer goes back to what it showed; one the commit opened goes back to the file's text.
    const text = original.buffer?.text ?? (original.bytes ? await vscode.workspace.decode(original.bytes, { uri: doc.uri }) : undefined);
    if (text === undefined || doc.getText() === text) continue;
    const back = new vscode.WorkspaceEdit();
    back.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    await Promise.resolve(vscode.workspace.applyEdit(back)).catch(() => false);
    if (!original.buffer?.dirty) await saveDocument(doc).catch(() => false);
  }
  for (const original of originals.values()) {
    try {
      if (original.bytes === undefined) {
        if ((await readBytes(original.absPath)) !== undefined) {
          const del = new vscode.WorkspaceEdit();
          del.deleteFile(vscode.Uri.file(original.absPath), { ignoreIfNotExists: true });
          await vscode.workspace.applyEdit(del).then(undefined, () => false);
          await fs.rm(original.absPath, { force: true });
        }
      } else if (!sameBytes(await readBytes(original.absPath), original.bytes)) {
        await fs.writeFile(original.absPath, original.bytes);
      }
      if (!sameBytes(await readBytes(original.absPath), original.bytes)) problems.push(`${original.absPath} could not be restored`);
    } catch (error) {
      problems.push(`${original.absPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

export type { CommitFile };
