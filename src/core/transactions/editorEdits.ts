/**
 * A language service's edit, as the editor port hands it over (offsets into the buffer texts it
 * was computed on), converted into the staged changes of one workspace.
 */
import { resolveExternally, ToolError } from '../chain/envelope';
import type { HostDocumentEdits, HostTextEdit, HostWorkspaceEdit } from '../documents/editorPort';
import { isInside, toRelativePath, truncate } from '../documents/paths';
import type { Workspace } from '../documents/workspaces';
import type { OffsetEdit } from './plan';
import type { StagedChange } from './types';

/** The edits of a language-service answer as staged changes of one workspace, plus the buffer texts they were computed on. */
export interface ConvertedEdit {
  changes: StagedChange[];
  computedOn: Record<string, string>;
  /** Per document: workspace-relative path, edit count, the text before and the effective edits (applyEdits gives the text after, for previews). */
  documents: { path: string; edits: number; before: string; textEdits: HostTextEdit[] }[];
  fileOperations: number;
  /** Said in the answer: what could not be converted. */
  notes: string[];
}

/** Applies non-overlapping edits (offsets into `text`). */
export function applyEdits(text: string, edits: readonly HostTextEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, e.start) + e.newText;
    at = e.start + e.length;
  }
  return out + text.slice(at);
}

/** Edits that replace text with itself (formatters answer many) are dropped: they change nothing and would only cause conflicts. */
export function effectiveEdits(doc: HostDocumentEdits): HostTextEdit[] {
  return doc.edits.filter((e) => doc.baseText.slice(e.start, e.start + e.length) !== e.newText);
}

function relative(workspace: Workspace, absPath: string, what: string): string {
  if (!isInside(workspace.fsPath, absPath)) {
    throw new ToolError(
      'WorkspacePathNotAllowed',
      `The ${what} also changes ${truncate(absPath)}, which is outside the workspace folder ${workspace.alias}; nothing was staged.`,
      resolveExternally('Apply this change in the editor yourself, or narrow it to files of the workspace.'),
    );
  }
  return toRelativePath(workspace.fsPath, absPath);
}

export function toChanges(workspace: Workspace, edit: HostWorkspaceEdit, what: string): ConvertedEdit {
  const created = new Set(edit.fileOperations.filter((o) => o.kind === 'create').map((o) => o.absPath));
  const changes: StagedChange[] = [];
  const computedOn: Record<string, string> = {};
  const documents: ConvertedEdit['documents'] = [];
  const createdText = new Map<string, string>();
  for (const doc of edit.documents) {
    const path = relative(workspace, doc.absPath, what);
    const edits = effectiveEdits(doc);
    if (edits.length === 0) continue;
    documents.push({ path, edits: edits.length, before: doc.baseText, textEdits: edits });
    if (created.has(doc.absPath)) {
      createdText.set(doc.absPath, applyEdits(doc.baseText, edits));
      continue;
    }
    computedOn[path] = doc.baseText;
    changes.push({ kind: 'edit', path, edits: edits.map((e): OffsetEdit => ({ start: e.start, end: e.start + e.length, newText: e.newText })) });
  }
  for (const op of edit.fileOperations) {
    if (op.kind === 'create') {
      changes.push({
        kind: 'create',
        path: relative(workspace, op.absPath, what),
        text: createdText.get(op.absPath) ?? '',
        overwrite: op.overwrite,
        ignoreIfExists: op.ignoreIfExists,
      });
    } else if (op.kind === 'delete') {
      changes.push({ kind: 'delete', path: relative(workspace, op.absPath, what), ignoreIfNotExists: op.ignoreIfNotExists });
    } else {
      changes.push({ kind: 'rename', from: relative(workspace, op.absPath, what), to: relative(workspace, op.newAbsPath, what), overwrite: op.overwrite });
    }
  }
  const notes = edit.fileOperationsUnread
    ? [
        `This VS Code does not let extensions read the file operations (create, move, delete) of the ${what}'s edit, so only its text edits were staged: check the preview before committing.`,
      ]
    : [];
  return { changes, computedOn, documents, fileOperations: edit.fileOperations.length, notes };
}
