import type { ToolAnnotations } from '../../core/chain/toolInfo';
import type { ToolDefinition } from '../../core/chain/definition';
import { expectedSnapshotInput, snapshotSchema, workspaceSelectorInput } from '../../core/chain/schemas';
import type { JsonSchema } from '../../core/chain/schemas';
import type { TypedSchema } from '../../core/chain/schemaTypes';
import type { HostTarget } from '../../core/documents/editorPort';
import type { ToolContext } from '../../core/documents/context';
import { listDigest } from '../../core/chain/paging';

/**
 * Input fragment of the tools that can answer in the staged view: selectors resolve against the
 * transaction's staged text and locations, lines and text are given in it (ToolContext.setView).
 */
export const viewInput = { enum: ['buffer', 'staged'], description: "staged: the transaction's text" } as const;

export interface InputOptions {
  workspace?: boolean;
  view?: boolean;
}

/** The fields inputSchema adds to a tool's own properties, as the options ask. */
type CommonProperties<O extends InputOptions> = (O extends { view: true } ? { view: typeof viewInput } : unknown) & {
  expectedSnapshot: typeof expectedSnapshotInput;
} & (O extends { workspace: false } ? unknown : { workspace: typeof workspaceSelectorInput });

/**
 * Refuses a property typed as plain JsonSchema (a fragment that lost its literal type): the
 * input type would be unknown there, and nothing would check the code reading it.
 */
type LiteralFragments<P> = { [K in keyof P]: string extends keyof P[K] ? never : unknown };

/** What inputSchema returns: its type is computed from the arguments, so SchemaType reads the real properties and required list. */
export type ToolInputSchema<P, R extends readonly string[], O extends InputOptions> = {
  type: 'object';
  properties: { [K in keyof (P & CommonProperties<O>)]: (P & CommonProperties<O>)[K] };
  required: R;
  additionalProperties: false;
};

/**
 * A closed input schema with the common expectedSnapshot and workspace fields. Tools whose
 * target is a document, location or symbol may leave `workspace` out (`{ workspace: false }`):
 * a documentId or symbolId names its folder, and a path that exists in several folders is
 * answered with DocumentAmbiguous listing the documentIds to use. It keeps them within the
 * definition budget (test/unit/tools/definitionBudget.unit.test.ts).
 */
export function inputSchema<
  const P extends Record<string, TypedSchema>,
  const R extends readonly (keyof P & string)[] = [],
  const O extends InputOptions = Record<never, never>,
>(properties: P & LiteralFragments<P>, required?: R, options?: O): ToolInputSchema<P, R, O> {
  const schema = {
    type: 'object',
    properties: {
      ...properties,
      ...(options?.view ? { view: viewInput } : {}),
      expectedSnapshot: expectedSnapshotInput,
      ...(options?.workspace === false ? {} : { workspace: workspaceSelectorInput }),
    },
    required: required ?? [],
    additionalProperties: false,
  } as const;
  // The options' conditional fields are beyond what TypeScript follows through a spread; the declared type says the same.
  return schema as ToolInputSchema<P, R, O>;
}

export const queryAnnotations = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/** The marks every query tool shares. */
export const QUERY: Pick<
  ToolDefinition,
  'operationKind' | 'effect' | 'requiresApproval' | 'requiredPermission' | 'safeToRepeat' | 'timeoutSeconds' | 'maxOutputBytes'
> = {
  operationKind: 'Query',
  effect: 'Read',
  requiresApproval: false,
  requiredPermission: 'workspace.read',
  safeToRepeat: true,
  timeoutSeconds: 0,
  maxOutputBytes: 0,
};

export const workspaceInfoSchema: JsonSchema = {
  type: 'object',
  properties: {
    workspaceId: { type: 'string', format: 'uuid', description: 'Stable across restarts for the same folder.' },
    alias: { type: 'string', description: 'Short name to select the folder with.' },
    name: { type: 'string' },
    path: { type: 'string', description: 'Absolute folder path.' },
    uri: { type: 'string' },
    index: { type: 'integer', minimum: 0 },
    snapshot: snapshotSchema,
  },
  required: ['workspaceId', 'alias', 'name', 'path', 'uri', 'index', 'snapshot'],
};

export const projectInfoSchema: JsonSchema = {
  type: 'object',
  properties: {
    projectId: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', enum: ['typescript', 'javascript', 'node', 'python', 'rust', 'go', 'dotnet', 'java', 'folder'] },
    path: { type: 'string', description: "Workspace-relative path of the file the project was found from ('' for a folder without project files)." },
    directory: { type: 'string', description: "Workspace-relative directory the project covers ('' for the folder root)." },
  },
  required: ['projectId', 'name', 'kind', 'path', 'directory'],
};

/** A bounded list as answers give it. */
export interface Collection<T> {
  items: T[];
  hasMore: boolean;
  totalCount: number;
}

/** The first `limit` items (default 50), saying how many there are. */
export function limited<T>(all: readonly T[], limit: number | null | undefined): Collection<T> {
  const n = limit ?? 50;
  return { items: all.slice(0, n), hasMore: all.length > n, totalCount: all.length };
}

/**
 * The page of the answer's list `field` (ToolContext.pageStart): at most `limit` items (default
 * 50) from where the call's cursor says, or from the first. `paths`: the workspace-relative
 * documents the list comes from; `key`: what identifies an item, when the item holds more (a symbol tree).
 */
export function paged<T>(
  ctx: ToolContext,
  field: string,
  all: readonly T[],
  limit: number | null | undefined,
  options: { paths?: readonly string[]; key?: (item: T) => unknown } = {},
): Collection<T> {
  const { key, paths } = options;
  const start = ctx.pageStart(field, all, { paths, digest: key ? listDigest(all.map(key)) : undefined });
  const end = start + (limit ?? 50);
  return { items: all.slice(start, end), hasMore: all.length > end, totalCount: all.length };
}

/** The schema of a Collection of the given items. */
export const collectionOf = (items: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { items: { type: 'array', items }, hasMore: { type: 'boolean' }, totalCount: { type: 'integer' } },
  required: ['items', 'hasMore', 'totalCount'],
});

/** Targets by path, in the order of the first of each. */
export function targetsByPath(targets: readonly HostTarget[]): Map<string, HostTarget[]> {
  const out = new Map<string, HostTarget[]>();
  for (const t of targets) {
    const listed = out.get(t.absPath);
    if (listed) listed.push(t);
    else out.set(t.absPath, [t]);
  }
  return out;
}

/** Locations a provider answered, in path and position order, each once. */
export function dedupeTargets(targets: readonly HostTarget[]): HostTarget[] {
  // Grouped by path first: a reference list holds thousands of targets in a hundred paths, and comparing long paths is most of a sort.
  const byPath = targetsByPath(targets);
  const out: HostTarget[] = [];
  for (const absPath of [...byPath.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    let last: HostTarget | undefined;
    for (const t of (byPath.get(absPath) ?? []).sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end)) {
      if (last && last.range.start === t.range.start && last.range.end === t.range.end) continue;
      out.push((last = t));
    }
  }
  return out;
}
