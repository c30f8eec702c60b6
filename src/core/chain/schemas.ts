/**
 * JSON Schema fragments shared by every tool. Input fragments close their objects
 * (additionalProperties: false) and bound every string, so a malformed request is
 * refused by validation, naming the field, before any tool code runs.
 * Output fragments follow the shapes of roslyn-workbench-mcp's tool reference pages.
 *
 * Input fragments keep their literal types (`as const`, no JsonSchema annotation): tools' input
 * types are computed from them (SchemaType, src/core/chain/schemaTypes.ts).
 */
export type JsonSchema = { [key: string]: unknown };

export const MAX_PATH_LENGTH = 4096;
export const MAX_NAME_LENGTH = 512;
export const MAX_TEXT_LENGTH = 200_000;
export const INT32_MAX = 2147483647;

export const boundedString = <const E extends object = Record<never, never>>(description: string, maxLength = MAX_NAME_LENGTH, extra?: E) =>
  ({
    type: 'string',
    description,
    maxLength,
    ...extra,
  }) as const;

/** A named limit: the field name says what it limits, so no description is spent on it. */
export const limitParameter = (_what: string, defaultValue = 50, maximum = 1000) =>
  ({
    type: ['integer', 'null'],
    minimum: 0,
    maximum,
    default: defaultValue,
  }) as const;

export const snapshotSchema = {
  type: 'object',
  properties: {
    workspaceId: { type: 'string', format: 'uuid' },
    workspaceEpoch: { type: 'integer' },
    snapshotId: { type: 'string', format: 'uuid' },
    transactionRevision: { type: ['integer', 'null'] },
  },
  required: ['workspaceId', 'workspaceEpoch', 'snapshotId', 'transactionRevision'],
  additionalProperties: false,
} as const;

/*
 * Input fragments below are written compactly: every request an agent makes carries every
 * tool's input schema (the budget test/unit/tools/definitionBudget.unit.test.ts enforces).
 * One short description per fragment; the reference pages carry the long explanations.
 */

/**
 * The snapshot an answer carried, echoed back. Its fields are typed but not required: a partial
 * snapshot is simply stale (SnapshotMismatch names the difference), and the list costs bytes.
 */
export const expectedSnapshotInput = {
  description: "An answer's snapshot: refused if touched files changed.",
  type: ['object', 'null'],
  properties: snapshotSchema.properties,
  additionalProperties: false,
} as const;

/**
 * Inputs a model copies whole from an answer rather than composes: the doors show only their
 * description and type (modelInputSchema), the chain still validates every field. The snapshot's
 * four fields cost about 190 B in every tool's definition and told a model nothing it needs.
 */
export const COPIED_INPUTS: ReadonlySet<object> = new Set([expectedSnapshotInput]);

/** A cut list's cursor, echoed back to continue it: explained once, by collectionOutput's hasMore. */
export const cursorInput = { type: 'string', maxLength: 1024 } as const;

export const workspaceSelectorInput = {
  description: 'Folder; optional if one is open.',
  type: ['object', 'null'],
  properties: {
    workspaceId: { type: 'string', format: 'uuid' },
    alias: { type: 'string', maxLength: MAX_NAME_LENGTH },
    path: { type: 'string', maxLength: MAX_PATH_LENGTH },
  },
  additionalProperties: false,
} as const;

export const projectSelectorInput = {
  type: ['object', 'null'],
  description: 'projectId (from get-solution-structure), name or workspace-relative path.',
  properties: {
    projectId: { type: 'string', maxLength: MAX_PATH_LENGTH },
    name: { type: 'string', maxLength: MAX_NAME_LENGTH },
    path: { type: 'string', maxLength: MAX_PATH_LENGTH },
    targetFramework: { type: 'string', maxLength: MAX_NAME_LENGTH },
  },
  additionalProperties: false,
} as const;

const pathString = { type: 'string', maxLength: MAX_PATH_LENGTH } as const;

/**
 * "Exactly one of" the fields of a closed object, in few bytes: maxProperties refuses two, and
 * ToolContext refuses none (the validator words the first as "provide exactly one of a or b").
 */
const atMostOne = { maxProperties: 1 } as const;

/**
 * Exactly one of path (workspace-relative) or documentId, checked by ToolContext (saves bytes
 * in every location). No project disambiguator: a path is unique within a folder, and a
 * documentId names its folder.
 */
export const documentSelectorInput = {
  type: 'object',
  properties: { path: pathString, documentId: pathString },
  additionalProperties: false,
} as const;

const offset = { type: 'integer', minimum: 0 } as const;

export const rangeInput = {
  type: 'object',
  properties: { start: offset, length: offset },
  required: ['start', 'length'],
  additionalProperties: false,
} as const;

const contextText = { type: ['string', 'null'], maxLength: 20_000 } as const;

/**
 * Describes the location selector once, where a tool's schema uses it. The contexts are what
 * findSelection (src/core/documents/text.ts) checks: text that must end right before / start right after
 * selectedText; only matches with both count, and they are not part of the span.
 */
export const LOCATION_HELP =
  'span: range {start, length} in UTF-16. selection: selectedText, unique or made so by adjacent contextBefore/contextAfter (not selected). document: {path} or {documentId}.';

/** No description key at all when none is given (the emitted JSON has none). */
const describedAs = (description?: string): { description?: string } => (description === undefined ? {} : { description });

const locationSchema = (description?: string) =>
  ({
    ...describedAs(description),
    type: 'object',
    properties: {
      span: {
        type: 'object',
        properties: { document: documentSelectorInput, range: rangeInput },
        required: ['document', 'range'],
        additionalProperties: false,
      },
      selection: {
        type: 'object',
        properties: {
          document: documentSelectorInput,
          selectedText: { type: 'string', minLength: 1, maxLength: 20_000 },
          contextBefore: contextText,
          contextAfter: contextText,
        },
        required: ['document', 'selectedText'],
        additionalProperties: false,
      },
    },
    ...atMostOne,
    additionalProperties: false,
  }) as const;

export const locationSelectorInput = locationSchema(LOCATION_HELP);

/** Longest symbolId accepted: a documentId plus a container path. */
export const MAX_SYMBOL_ID_LENGTH = 8192;

/**
 * A symbol: by its name path (resolveSymbol asks the language service's symbols), a symbolId from
 * an earlier answer, or a location inside its name or declaration. Exactly one of name, symbolId
 * or location, and path, kind and overload only with name: checked by resolveSymbol, which names
 * the fields (a oneOf would cost every tool's definition its branches).
 */
export const symbolSelectorInput = {
  description: `name ("Class.method" or "f"; path (its file), kind, overload (0-based, source order) narrow it), symbolId or location on its name. ${LOCATION_HELP}`,
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: MAX_NAME_LENGTH },
    path: pathString,
    kind: { type: 'string', maxLength: 64 },
    overload: { type: 'integer', minimum: 0 },
    symbolId: { type: 'string', maxLength: MAX_SYMBOL_ID_LENGTH },
    location: locationSchema(),
  },
  additionalProperties: false,
} as const;

// ---- outputs ----

export const documentRefOutput: JsonSchema = {
  description: 'The resolved document.',
  type: 'object',
  properties: {
    documentId: { type: 'string', description: 'The document identifier.' },
    path: { type: 'string', description: 'The normalized workspace-relative document path.' },
    projectId: { type: 'string', description: 'The owning project identifier.' },
  },
  required: ['documentId', 'path', 'projectId'],
};

export const spanOutput: JsonSchema = {
  description: 'The resolved text span.',
  type: 'object',
  properties: {
    start: { type: 'integer', minimum: 0, maximum: INT32_MAX, description: 'Zero-based UTF-16 offset.' },
    length: { type: 'integer', minimum: 0, maximum: INT32_MAX, description: 'UTF-16 code-unit length.' },
  },
  required: ['start', 'length'],
};

export const selectorOutput: JsonSchema = {
  description: 'The canonical selector that resolves this location again.',
  type: 'object',
  properties: {
    span: {
      type: 'object',
      properties: {
        document: {
          type: 'object',
          properties: { documentId: { type: 'string' }, path: { type: 'string' } },
        },
        range: spanOutput,
      },
      required: ['document', 'range'],
    },
  },
  required: ['span'],
};

const stagedOutput: JsonSchema = {
  enum: ['edited', 'deleted', 'unmapped'],
  description:
    "Only with view 'staged': staged edits changed this span's text (the span covers what replaced it), the transaction deletes the document, or the editor buffer changed after staging (the location is the buffer's).",
};

/** A returned location, compact: a span selector is {span: {document: {documentId}, range: span}}, so none is repeated. */
export const locationOutput: JsonSchema = {
  description: 'A source location. documentId is "<folderId>:<path>"; as a selector: {span:{document:{documentId},range:span}}.',
  type: 'object',
  properties: {
    documentId: { type: 'string' },
    span: spanOutput,
    line: { type: 'integer', minimum: 1, description: 'The one-based line number.' },
    column: { type: 'integer', minimum: 1, description: 'The one-based column number, in UTF-16 code units.' },
    snapshot: { ...snapshotSchema, description: "Given when it is not the answer's own snapshot (a location in another folder)." },
    staged: stagedOutput,
  },
  required: ['documentId', 'span', 'line', 'column'],
};

/** get-symbol-attributes' location, in roslyn-workbench-mcp's shape: the document's documentId, path and projectId, and the snapshot. */
export const roslynLocationOutput: JsonSchema = {
  description: 'A source location.',
  type: 'object',
  properties: {
    document: documentRefOutput,
    span: spanOutput,
    line: { type: 'integer', minimum: 1, description: 'The one-based line number.' },
    column: { type: 'integer', minimum: 1, description: 'The one-based column number, in UTF-16 code units.' },
    snapshot: snapshotSchema,
    staged: stagedOutput,
  },
  required: ['document', 'span', 'line', 'column', 'snapshot'],
};

export const collectionOutput = (description: string, items: JsonSchema): JsonSchema => ({
  description,
  type: 'object',
  properties: {
    items: { type: 'array', items },
    // Said shortly, totalCount not at all: the MCP listing repeats them for every list. The cursor is not declared, for the same reason.
    hasMore: { type: 'boolean', description: 'Items were left out: the same request with cursor lists the rest (until the list changes).' },
    totalCount: { type: ['integer', 'null'] },
  },
  required: ['items', 'hasMore'],
});

const continuationKinds: JsonSchema[] = [
  ['CallTool', { tool: { type: 'string', minLength: 1, description: 'Tool to call before continuing the original request.' } }],
  [
    'ChooseTool',
    {
      tools: {
        type: 'array',
        description: 'Allowed tool choices from which the agent must select one.',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', minLength: 1, description: 'Name of a tool the agent may choose.' },
      },
    },
  ],
  ['RetryRequest', {}],
  ['ReviseRequest', {}],
  ['ResolveExternally', {}],
].map(([kind, extra]) => ({
  type: 'object',
  additionalProperties: false,
  required: ['kind', ...Object.keys(extra as JsonSchema), 'instruction'],
  properties: {
    kind: { const: kind, description: 'Action required before the original request can continue.' },
    instruction: { type: 'string', minLength: 1, description: 'Agent-facing instruction explaining how to continue.' },
    ...(extra as JsonSchema),
  },
}));

/**
 * The envelope around one tool's data schema. Its shape (ok, data, snapshot; error with code and
 * correlationId; continuation) follows roslyn-workbench-mcp's tool reference pages.
 */
export function envelopeOutputSchema(dataSchema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    oneOf: [
      {
        type: 'object',
        required: ['ok', 'data', 'snapshot'],
        additionalProperties: false,
        properties: {
          ok: { const: true, description: 'Whether the tool invocation succeeded.' },
          data: { ...dataSchema, description: 'Tool-specific result payload.' },
          snapshot: { ...snapshotSchema, description: 'Exact immutable workspace snapshot associated with the result.' },
        },
      },
      {
        type: 'object',
        required: ['ok', 'error'],
        additionalProperties: false,
        properties: {
          ok: { const: false, description: 'Whether the tool invocation succeeded.' },
          error: {
            type: 'object',
            description: 'Structured error details when the invocation failed.',
            properties: {
              code: { type: 'string', pattern: '^[A-Z][A-Za-z]+$', description: 'Stable machine-readable error code.' },
              message: { type: 'string', minLength: 1, description: 'What failed and what to do next.' },
              correlationId: { type: ['string', 'null'], description: 'Pass to get-error-details for the stored details.' },
            },
            required: ['code', 'message'],
          },
          continuation: { oneOf: continuationKinds, description: 'Action the agent should take before retrying or continuing.' },
        },
      },
    ],
  };
}
