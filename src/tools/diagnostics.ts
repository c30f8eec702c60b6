import * as path from 'node:path';
import { defineTool } from '../core/chain/definition';
import type { ResolvedDocument, ToolContext } from '../core/documents/context';
import type { HostDiagnostic } from '../core/documents/editorPort';
import { isInside, toPosix } from '../core/documents/paths';
import { collectionOutput, cursorInput, documentSelectorInput, limitParameter, spanOutput } from '../core/chain/schemas';
import { listDigest } from '../core/chain/paging';
import { inputSchema, QUERY, queryAnnotations } from './shared/common';

export type Severity = HostDiagnostic['severity'];
const SEVERITIES = ['Error', 'Warning', 'Information', 'Hint'] as const satisfies readonly Severity[];

export interface DiagnosticItem {
  severity: Severity;
  message: string;
  code?: string;
  source?: string;
  line: number;
  column: number;
  span: { start: number; length: number };
}

export interface DocumentDiagnostics {
  path: string;
  diagnostics: { items: DiagnosticItem[]; hasMore: boolean; totalCount: number };
}

export interface DiagnosticsData {
  scope: 'documents' | 'workspace';
  minimumSeverity: Severity;
  documents: { items: DocumentDiagnostics[]; hasMore: boolean; totalCount: number };
  counts: Record<Severity, number>;
  checked: string[];
  notChecked: { path: string; reason: string }[];
}

const DEFAULT_WAIT_SECONDS = 8;

export const getDiagnostics = defineTool({
  name: 'get-diagnostics',
  title: 'Get Diagnostics',
  category: 'Code discovery and navigation',
  ...QUERY,
  description:
    'Errors and warnings from the language services, by document: of the documents named (opened, waiting until they settle) or else of every document the editor has diagnostics for; checked/notChecked say which were really checked. Use it after edits instead of a build.',
  inputSchema: inputSchema({
    documents: { type: ['array', 'null'], items: documentSelectorInput, maxItems: 50, description: 'Documents to check; omit for the workspace.' },
    minimumSeverity: { enum: [...SEVERITIES, null], default: 'Information', description: 'Lowest severity listed; null: Information.' },
    diagnosticsLimit: limitParameter('diagnostics'),
    cursor: cursorInput,
    waitSeconds: {
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 60,
      default: DEFAULT_WAIT_SECONDS,
      description: 'Longest wait for named documents to be checked.',
    },
  }),
  dataSchema: {
    type: 'object',
    properties: {
      scope: { enum: ['documents', 'workspace'] },
      minimumSeverity: { enum: SEVERITIES },
      documents: collectionOutput('Documents with diagnostics at or above minimumSeverity (named documents always), by path.', {
        type: 'object',
        properties: {
          path: { type: 'string', description: "Workspace-relative, as in checked (the folder's documentId and project are derivable)." },
          diagnostics: collectionOutput('By position.', {
            type: 'object',
            properties: {
              severity: { enum: SEVERITIES },
              message: { type: 'string' },
              code: { type: 'string' },
              source: { type: 'string' },
              line: { type: 'integer', minimum: 1 },
              column: { type: 'integer', minimum: 1 },
              span: spanOutput,
            },
            required: ['severity', 'message', 'line', 'column', 'span'],
          }),
        },
        required: ['path', 'diagnostics'],
      }),
      counts: {
        type: 'object',
        description: 'Diagnostics per severity over every document in scope, before the limit.',
        properties: Object.fromEntries(SEVERITIES.map((s) => [s, { type: 'integer', minimum: 0 }])),
        required: SEVERITIES,
      },
      checked: { type: 'array', items: { type: 'string' }, description: 'Paths whose diagnostics are current: reported after opening, or open in the editor.' },
      notChecked: {
        type: 'array',
        description: 'Named documents no language service reported on within the wait.',
        items: { type: 'object', properties: { path: { type: 'string' }, reason: { type: 'string' } }, required: ['path', 'reason'] },
      },
    },
    required: ['scope', 'minimumSeverity', 'documents', 'counts', 'checked', 'notChecked'],
  },
  annotations: queryAnnotations('Get Diagnostics'),
  examples: [
    {
      workflowId: 'check-edits',
      workflowTitle: 'Check code after a change',
      step: 1,
      id: 'diagnostics-document',
      title: 'Errors of one file',
      purpose: 'See the type errors of a file after editing it.',
      expectedOutcome: 'The file is listed in checked, with its errors and warnings by position.',
      request: { documents: [{ path: 'src/greeter.ts' }], minimumSeverity: 'Warning' },
    },
  ],
  async run(input, ctx: ToolContext): Promise<DiagnosticsData> {
    const minimum = input.minimumSeverity ?? 'Information';
    const allowed = new Set(SEVERITIES.slice(0, SEVERITIES.indexOf(minimum) + 1));
    const named: ResolvedDocument[] = [];
    const seen = new Set<string>();
    for (const [i, selector] of (input.documents ?? []).entries()) {
      const doc = await ctx.document(selector, input.workspace, `documents[${i}]`);
      if (!seen.has(doc.absolutePath)) named.push(doc);
      seen.add(doc.absolutePath);
    }
    const scope = input.documents && input.documents.length > 0 ? 'documents' : 'workspace';
    const checked: string[] = [];
    const notChecked: { path: string; reason: string }[] = [];
    let docs: ResolvedDocument[];
    if (scope === 'documents') {
      const waitMs = (input.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
      const settled = await ctx.editor.settleDiagnostics(
        named.map((d) => d.absolutePath),
        waitMs,
      );
      for (const d of named) {
        if (settled.silent.includes(d.absolutePath)) {
          notChecked.push({
            path: d.relativePath,
            reason: `nothing was reported for this ${d.host.languageId} document within ${waitMs / 1000} s: no language service checks it, or (for some services) it is clean`,
          });
        } else {
          checked.push(d.relativePath);
        }
      }
      docs = named;
    } else {
      // Only what the editor has checked: language services report on open documents (and some on their projects).
      const workspace = ctx.workspace(input.workspace);
      const reported = await ctx.editor.diagnostics();
      const open = ctx.editor.openDocuments().map((d) => d.absPath);
      const paths = [...new Set([...reported.map((r) => r.absPath), ...open])].filter((p) => isInside(workspace.fsPath, p));
      docs = [];
      for (const p of paths) {
        const relative = toPosix(path.relative(workspace.fsPath, p));
        try {
          docs.push(await ctx.document({ path: relative }, input.workspace));
        } catch {
          // A document the editor knows but the workspace refuses (a symlink out) is not reported.
        }
      }
      checked.push(...docs.map((d) => d.relativePath));
    }
    docs.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
    checked.sort();
    const lists = await ctx.editor.diagnostics(docs.map((d) => d.absolutePath));
    const byPath = new Map(lists.map((l) => [path.resolve(l.absPath), l.diagnostics]));
    const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
    const perDocument = docs.map((doc) => {
      const all = (byPath.get(path.resolve(doc.absolutePath)) ?? []).filter((d) => allowed.has(d.severity));
      all.sort(
        (a, b) => a.range.start - b.range.start || SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || a.message.localeCompare(b.message),
      );
      for (const d of all) counts[d.severity]++;
      return { doc, all };
    });
    const shown = perDocument.filter((p) => p.all.length > 0 || scope === 'documents');
    // The list continues by diagnostic: a document without any (named ones are listed anyway) is one unit.
    const units = shown.flatMap(({ doc, all }) =>
      all.length === 0 ? [[doc.relativePath]] : all.map((d) => [doc.relativePath, d.range.start, d.range.end, d.severity, d.message]),
    );
    /** Units the page gives each document it lists, in order. */
    const planned: number[] = [];
    // Bounding empties inner lists from the last document back, then drops documents: what was received is a prefix of the units.
    const consumed = (received: readonly unknown[]) => {
      let n = 0;
      for (const [i, d] of (received as DocumentDiagnostics[]).entries()) {
        const got = d.diagnostics.totalCount === 0 ? 1 : d.diagnostics.items.length;
        n += got;
        if (got < planned[i]) break;
      }
      return n;
    };
    const start = ctx.pageStart('documents', units, { digest: listDigest(units), paths: shown.map((p) => p.doc.relativePath), consumed });
    let skip = start;
    let budget = input.diagnosticsLimit ?? 50;
    const items: DocumentDiagnostics[] = [];
    for (const { doc, all } of shown) {
      const size = Math.max(1, all.length);
      if (skip >= size) {
        skip -= size;
        continue;
      }
      if (budget === 0 && all.length > 0) break;
      const from = skip;
      const taken = all.slice(from, from + budget);
      skip = 0;
      budget -= taken.length;
      planned.push(all.length === 0 ? 1 : taken.length);
      items.push({
        path: doc.relativePath,
        diagnostics: {
          items: taken.map((d) => {
            const pos = doc.lines.positionAt(d.range.start);
            const item: DiagnosticItem = {
              severity: d.severity,
              message: d.message,
              line: pos.line + 1,
              column: pos.character + 1,
              span: { start: d.range.start, length: d.range.end - d.range.start },
            };
            if (d.code !== undefined) item.code = d.code;
            if (d.source !== undefined) item.source = d.source;
            return item;
          }),
          hasMore: from + taken.length < all.length,
          totalCount: all.length,
        },
      });
    }
    return {
      scope,
      minimumSeverity: minimum,
      documents: { items, hasMore: start + planned.reduce((a, b) => a + b, 0) < units.length, totalCount: shown.length },
      counts,
      checked,
      notChecked,
    };
  },
});
