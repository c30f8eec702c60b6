/**
 * What a tool gets back when ToolContext resolves its selectors: documents and locations, in the
 * buffer's or the staged text, and the compact location answers give.
 */
import type { documentSelectorInput, locationSelectorInput, projectSelectorInput } from '../chain/schemas';
import type { SchemaType } from '../chain/schemaTypes';
import type { Snapshot } from '../chain/envelope';
import type { HostDocument } from './editorPort';
import { toRelativePath } from './paths';
import type { LineIndex } from './text';
import type { StagedOverlay } from './stagedOverlay';
import type { DocumentRef, ProjectInfo, Workspace } from './workspaces';

/** The selectors are what their input fragments (src/core/chain/schemas.ts) accept, so the two cannot drift. */
export type ProjectSelector = NonNullable<SchemaType<typeof projectSelectorInput>>;

/** A document by path or documentId; transaction-preview's document may also name its project. */
export type DocumentSelector = SchemaType<typeof documentSelectorInput> & { project?: ProjectSelector | null };

export type LocationSelector = SchemaType<typeof locationSelectorInput>;

/** Where a symbol's name is, without its document: the symbolId beside it names the document. */
export interface Place {
  span: { start: number; length: number };
  line: number;
  column: number;
  /** Only when it is not the answer's own snapshot (a location in another folder). */
  snapshot?: Snapshot;
  /**
   * Only in a staged view: 'edited' when staged edits changed the text of this span (the span
   * covers what replaced it), 'deleted' when the transaction deletes the document, 'unmapped' when
   * the editor buffer changed after the document was staged (the location is the buffer's).
   */
  staged?: 'edited' | 'deleted' | 'unmapped';
}

/**
 * A returned location, compact because answers hold many: the documentId ("<folderId>:<path>")
 * names the folder and the path at once, and a span selector is derived from it
 * ({span: {document: {documentId}, range: span}}) instead of being repeated.
 */
export interface LocationOutput extends Place {
  documentId: string;
}

/**
 * How a document the language service analysed (its buffer) looks in the staged view: its staged
 * text and the offset map between the two, or why there is no map.
 */
export type StagedDocumentView = { state: 'mapped'; ref: DocumentRef; text: string; lines: LineIndex; map: StagedOverlay } | { state: 'deleted' | 'unmapped' };

export interface ResolvedDocument {
  workspace: Workspace;
  relativePath: string;
  absolutePath: string;
  host: HostDocument;
  lines: LineIndex;
  project: ProjectInfo;
  ref: DocumentRef;
  /** 'staged' when host.text is the active transaction's staged text of the document. */
  view: 'buffer' | 'staged';
  /** In a call with the staged view, a buffer document the transaction changed: how it is staged. */
  staged?: StagedDocumentView;
}

/** Which text a read resolves against: the editor's ('buffer', default) or the staged transaction's. */
export type TextView = 'buffer' | 'staged';

export interface ResolvedLocation {
  document: ResolvedDocument;
  start: number;
  length: number;
}

/** The span selector that resolves a returned location again. */
export function selectorOf(location: LocationOutput): { span: { document: { documentId: string }; range: { start: number; length: number } } } {
  return { span: { document: { documentId: location.documentId }, range: location.span } };
}

export function relativeIfInside(folderFsPath: string, input: string): string | undefined {
  try {
    return toRelativePath(folderFsPath, input);
  } catch {
    return undefined;
  }
}

export function describeCandidate(location: LocationOutput): string {
  return `line ${location.line} column ${location.column} ${JSON.stringify(selectorOf(location))}`;
}

export function projectMatches(project: ProjectInfo, selector: ProjectSelector): boolean {
  return (
    (selector.projectId === undefined || selector.projectId === project.projectId) &&
    (selector.name === undefined || selector.name === project.name) &&
    (selector.path === undefined || selector.path === project.path || selector.path === project.directory)
  );
}
