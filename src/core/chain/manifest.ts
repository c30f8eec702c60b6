import type { AnyToolDefinition } from './definition';
import { registeredToolName } from './definition';
import { DoorNaming } from './doors';
import { modeAllows, whenClause } from './modes';
import { profileHiddenContextKey } from './profile';
import { COPIED_INPUTS, envelopeOutputSchema } from './schemas';
import type { JsonSchema } from './schemas';

/**
 * One entry of package.json's contributes.languageModelTools, generated from a definition: what the
 * model reads (modelDescription, the input schema's descriptions) names tools as vscode.lm registers
 * them (`naming`: the vscode.lm door's names of every listed tool); userDescription, for the person,
 * keeps the canonical names they reference tools by (toolReferenceName).
 */
export function languageModelToolContribution(tool: AnyToolDefinition, naming: DoorNaming): JsonSchema {
  const entry: JsonSchema = {
    name: registeredToolName(tool.name),
    displayName: tool.title,
    toolReferenceName: tool.name,
    canBeReferencedInPrompt: true,
    icon: tool.operationKind === 'Query' ? '$(search)' : '$(edit)',
    userDescription: firstSentence(tool.description),
    modelDescription: naming.forDoor(tool.description),
    tags: ['agent-workbench', tool.category.toLowerCase().replace(/\s+/g, '-'), tool.operationKind.toLowerCase()],
    inputSchema: naming.schema(modelInputSchema(tool.inputSchema)),
  };
  // The tool profile (agentWorkbench.toolProfile) hides a tool through a context key the host sets.
  entry.when = [whenClause(tool), `!${profileHiddenContextKey(registeredToolName(tool.name))}`].filter(Boolean).join(' && ');
  return entry;
}

/**
 * The input schema as the model reads it (package.json's contributes, which VS Code sends with
 * every request): the validated schema without additionalProperties: false, maxLength, minLength 1
 * and minimum 0 (no offset, count or name is negative or empty), as the
 * roslyn-workbench-mcp's reference pages publish theirs. A model writes only the listed fields anyway, and the chain still refuses
 * an unknown field or an oversized string by name; the 229 closures and 207 bounds cost about
 * 10 KB of the 60 KB definitions budget, which pays for descriptions a model does need. An input
 * the model copies from an answer (COPIED_INPUTS: expectedSnapshot) is given as its description and type.
 */
export function modelInputSchema(schema: JsonSchema): JsonSchema {
  // `names`: the keys of a properties map are field names, never keywords.
  const strip = (node: unknown, names = false): unknown => {
    if (Array.isArray(node)) return node.map((n) => strip(n));
    if (typeof node !== 'object' || node === null) return node;
    // An empty properties map, not none: some model providers refuse an object schema without one.
    if (COPIED_INPUTS.has(node)) return { description: (node as JsonSchema).description, type: (node as JsonSchema).type, properties: {} };
    return Object.fromEntries(
      Object.entries(node)
        .filter(
          ([k, v]) =>
            names || !(k === 'maxLength' || (k === 'additionalProperties' && v === false) || (k === 'minLength' && v === 1) || (k === 'minimum' && v === 0)),
        )
        .map(([k, v]) => [
          k,
          names
            ? strip(v)
            : k === 'enum' || k === 'const' || k === 'default' || k === 'examples'
              ? v
              : strip(v, k === 'properties' || k === '$defs' || k === 'patternProperties'),
        ]),
    );
  };
  return strip(schema) as JsonSchema;
}

export function languageModelToolsContribution(tools: readonly AnyToolDefinition[]): JsonSchema[] {
  const naming = new DoorNaming(
    'vscode.lm',
    tools.map((t) => t.name),
  );
  return tools.map((t) => languageModelToolContribution(t, naming));
}

function firstSentence(text: string): string {
  const m = /^(.+?\.)(\s|$)/.exec(text);
  return m ? m[1] : text;
}

export const REFERENCE_FORMAT = 'agent-workbench-tool-reference/v1';

function availability(tool: AnyToolDefinition): string {
  if (modeAllows('inspection-only', tool)) return 'Built in and published in every operational mode, trusted or not.';
  return 'Published in the transactional, approval-required and autonomous-trusted modes of a trusted workspace; hidden and refused in inspection-only mode and in untrusted workspaces.';
}

/**
 * The tool reference page in roslyn-workbench-mcp's format (the roslyn-workbench-tool-reference/v1 fields,
 * in their order), plus registeredName and the tool's marks (effect, approval, permission, timeout, output limit).
 */
export function toolReference(tool: AnyToolDefinition, productVersion: string): JsonSchema {
  return {
    $schema: '../tool-detail.schema.json',
    formatVersion: REFERENCE_FORMAT,
    productVersion,
    sourceTag: productVersion,
    commit: 'development',
    name: tool.name,
    title: tool.title,
    area: 'Extension',
    category: tool.category,
    operationKind: tool.operationKind,
    summary: tool.description,
    availability: availability(tool),
    documentationUrl: `docs/reference/tools/${tool.name}.json`,
    registeredName: registeredToolName(tool.name),
    marking: {
      effect: tool.effect,
      requiresApproval: tool.requiresApproval,
      requiredPermission: tool.requiredPermission,
      safeToRepeat: tool.safeToRepeat,
      timeoutSeconds: tool.timeoutSeconds,
      maxOutputBytes: tool.maxOutputBytes,
    },
    tool: {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: envelopeOutputSchema(tool.dataSchema),
      annotations: tool.annotations,
    },
    examples: tool.examples.map((e) => ({ ...e, representativeResponse: null })),
    ...(tool.roslynWorkbenchDifferences ? { roslynWorkbenchDifferences: tool.roslynWorkbenchDifferences } : {}),
  };
}

const nonEmpty: JsonSchema = { type: 'string', minLength: 1 };

/** The JSON Schema every reference page validates against (written as docs/reference/tool-detail.schema.json). */
export const TOOL_DETAIL_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Agent Workbench tool reference page',
  type: 'object',
  required: [
    'formatVersion',
    'productVersion',
    'name',
    'title',
    'area',
    'category',
    'operationKind',
    'summary',
    'availability',
    'registeredName',
    'marking',
    'tool',
    'examples',
  ],
  properties: {
    $schema: { type: 'string' },
    formatVersion: { const: REFERENCE_FORMAT },
    productVersion: nonEmpty,
    sourceTag: nonEmpty,
    commit: nonEmpty,
    name: { type: 'string', pattern: '^[a-z][a-z0-9]*(-[a-z0-9]+)*$' },
    title: nonEmpty,
    area: nonEmpty,
    category: { enum: ['Workspaces', 'Code discovery and navigation', 'Mutations', 'Transactions'] },
    operationKind: { enum: ['Query', 'Mutation'] },
    summary: nonEmpty,
    availability: nonEmpty,
    documentationUrl: nonEmpty,
    registeredName: { type: 'string', pattern: '^[\\w-]{1,64}$' },
    marking: {
      type: 'object',
      required: ['effect', 'requiresApproval', 'requiredPermission', 'safeToRepeat', 'timeoutSeconds', 'maxOutputBytes'],
      properties: {
        effect: { enum: ['Read', 'Write', 'Destructive', 'External'] },
        requiresApproval: { type: 'boolean' },
        requiredPermission: { type: ['string', 'null'] },
        safeToRepeat: { type: 'boolean' },
        timeoutSeconds: { type: 'integer', minimum: 0 },
        maxOutputBytes: { type: 'integer', minimum: 0 },
      },
    },
    tool: {
      type: 'object',
      required: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'],
      properties: {
        name: nonEmpty,
        title: nonEmpty,
        description: nonEmpty,
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object' },
        annotations: {
          type: 'object',
          required: ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
        },
      },
    },
    roslynWorkbenchDifferences: nonEmpty,
    examples: {
      type: 'array',
      items: {
        type: 'object',
        required: ['workflowId', 'workflowTitle', 'step', 'id', 'title', 'purpose', 'expectedOutcome', 'request'],
        properties: { step: { type: 'integer', minimum: 1 }, request: { type: 'object' } },
      },
    },
  },
};

/** The index page of the reference: one line per tool, grouped by category. */
export function referenceIndex(tools: readonly AnyToolDefinition[], productVersion: string): string {
  const lines = [
    '# Agent Workbench tool reference',
    '',
    `Generated by \`npm run gen\` from the tool definitions in \`src/tools/\` (version ${productVersion}); do not edit by hand.`,
    'Each tool has a JSON page in the format of the roslyn-workbench-mcp reference (`' + REFERENCE_FORMAT + '`).',
    '',
  ];
  const categories = [...new Set(tools.map((t) => t.category))];
  for (const category of categories) {
    lines.push(`## ${category}`, '', '| tool | registered as | kind | effect | approval | summary |', '| --- | --- | --- | --- | --- | --- |');
    for (const t of tools.filter((x) => x.category === category)) {
      lines.push(
        `| [${t.name}](tools/${t.name}.json) | \`${registeredToolName(t.name)}\` | ${t.operationKind} | ${t.effect} | ${t.requiresApproval ? 'yes' : 'no'} | ${firstSentence(t.description).replace(/\|/g, '\\|')} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
