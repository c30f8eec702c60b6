/**
 * JSON Schema fragments shared by every tool. Input fragments close their objects
 * (additionalProperties: false) and bound every string, so a malformed request is
 * refused by validation, naming the field, before any tool code runs.
 * Output fragments follow the shapes of the roslyn-workbench-mcp seeds.
 */
export type JsonSchema = { [key: string]: unknown };

export const MAX_PATH_LENGTH = 4096;
export const MAX_NAME_LENGTH = 512;
export const MAX_TEXT_LENGTH = 200_000;
export const INT32_MAX = 2147483647;

export const boundedString = (description: string, maxLength = MAX_NAME_LENGTH, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  description,
  maxLength,
  ...extra,
});

export const limitParameter = (what: string, defaultValue = 50, maximum = 1000): JsonSchema => ({
  description: `Maximum number of ${what} to return (default ${defaultValue}).`,
  type: ['integer', 'null'],
  minimum: 0,
  maximum,
  default: defaultValue,
});

export const snapshotSchema: JsonSchema = {
  type: 'object',
  properties: {
    workspaceId: { type: 'string', format: 'uuid' },
    workspaceEpoch: { type: 'integer' },
    snapshotId: { type: 'string', format: 'uuid' },
    transactionRevision: { type: ['integer', 'null'] },
  },
  required: ['workspaceId', 'workspaceEpoch', 'snapshotId', 'transactionRevision'],
  additionalProperties: false,
};

export const expectedSnapshotInput: JsonSchema = {
  ...snapshotSchema,
  type: ['object', 'null'],
  description:
    'Echo the snapshot returned with the data used to construct this request. The request fails with SnapshotMismatch only if a document it reads has changed since.',
};

export const workspaceSelectorInput: JsonSchema = {
  description:
    'Provide workspaceId, alias, path, or any combination (all given must name the same folder). Optional when one folder is open.',
  type: ['object', 'null'],
  properties: {
    workspaceId: { type: 'string', format: 'uuid', maxLength: 36 },
    alias: boundedString('The folder alias shown by workspace-list.'),
    path: boundedString('Absolute workspace folder path.', MAX_PATH_LENGTH),
  },
  additionalProperties: false,
};

export const projectSelectorInput: JsonSchema = {
  type: ['object', 'null'],
  description: 'Disambiguates documents or symbols with matching paths or IDs.',
  properties: {
    projectId: boundedString('A projectId returned by get-solution-structure.', MAX_PATH_LENGTH),
    name: boundedString('Project name.'),
    path: boundedString('Workspace-relative path of the project file or folder.', MAX_PATH_LENGTH),
    targetFramework: boundedString('Accepted for compatibility with the seed; ignored.'),
  },
  additionalProperties: false,
};

export const documentSelectorInput: JsonSchema = {
  type: 'object',
  description: 'Provide exactly one of path or documentId.',
  properties: {
    project: projectSelectorInput,
    path: boundedString('Workspace-relative path (forward slashes). Paths that leave the workspace are refused.', MAX_PATH_LENGTH, { minLength: 1 }),
    documentId: boundedString('A documentId returned by an earlier call.', MAX_PATH_LENGTH, { minLength: 1 }),
  },
  oneOf: [{ required: ['path'] }, { required: ['documentId'] }],
  additionalProperties: false,
};

const offset = (description: string): JsonSchema => ({ description, type: 'integer', minimum: 0, maximum: INT32_MAX });

export const rangeInput: JsonSchema = {
  description: 'Zero-based UTF-16 range.',
  type: 'object',
  properties: {
    start: offset('Zero-based UTF-16 offset.'),
    length: offset('UTF-16 code-unit length.'),
  },
  required: ['start', 'length'],
  additionalProperties: false,
};

export const locationSelectorInput: JsonSchema = {
  description: 'Provide exactly one of span or selection.',
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
        selectedText: boundedString('Exact text to find; it must occur once (with the context given).', 20_000, { minLength: 1 }),
        contextBefore: { type: ['string', 'null'], maxLength: 20_000, description: 'Text that must immediately precede selectedText.' },
        contextAfter: { type: ['string', 'null'], maxLength: 20_000, description: 'Text that must immediately follow selectedText.' },
      },
      required: ['document', 'selectedText'],
      additionalProperties: false,
    },
  },
  oneOf: [{ required: ['span'] }, { required: ['selection'] }],
  additionalProperties: false,
};

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

export const locationOutput: JsonSchema = {
  description: 'A source location.',
  type: 'object',
  properties: {
    document: documentRefOutput,
    span: spanOutput,
    line: { type: 'integer', minimum: 1, description: 'The one-based line number.' },
    column: { type: 'integer', minimum: 1, description: 'The one-based column number, in UTF-16 code units.' },
    snapshot: snapshotSchema,
    selector: selectorOutput,
  },
  required: ['document', 'span', 'line', 'column', 'snapshot', 'selector'],
};

export const collectionOutput = (description: string, items: JsonSchema): JsonSchema => ({
  description,
  type: 'object',
  properties: {
    items: { type: 'array', items },
    hasMore: { type: 'boolean', description: 'True when items were left out; raise the limit or narrow the request.' },
    totalCount: { type: ['integer', 'null'], description: 'The number of items before the limit, when known.' },
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

/** The envelope of DESIGN.md section 2 around one tool's data schema, as in the seeds. */
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
