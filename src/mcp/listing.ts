import type { CallResult } from '../core/chain/chain';
import type { AnyToolDefinition } from '../core/chain/definition';
import { DoorNaming } from '../core/chain/doors';
import { modelInputSchema } from '../core/chain/manifest';
import { snapshotSchema } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';

/** One tool as MCP's tools/list gives it. */
export interface McpToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const cache = new WeakMap<AnyToolDefinition, McpToolListing>();

/**
 * The envelope as MCP's outputSchema, said shortly: the tool's data schema whole, the envelope
 * around it without descriptions, and the failure branch as its required shape only (the error's
 * code and message; the continuation an object). Clients fetch and compile all of them on every
 * tools/list: the whole envelope schema (envelopeOutputSchema, in the reference pages) repeated 42
 * times was 233 of the listing's 300 KB. Every envelope the chain answers still conforms.
 */
export function mcpOutputSchema(dataSchema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    oneOf: [
      {
        type: 'object',
        required: ['ok', 'data', 'snapshot'],
        additionalProperties: false,
        properties: { ok: { const: true }, data: dataSchema, snapshot: { ...snapshotSchema, properties: SNAPSHOT_PROPERTIES } },
      },
      FAILURE,
    ],
  };
}

const SNAPSHOT_PROPERTIES = Object.fromEntries(Object.keys(snapshotSchema.properties as JsonSchema).map((k) => [k, {}]));

const FAILURE: JsonSchema = {
  type: 'object',
  required: ['ok', 'error'],
  additionalProperties: false,
  properties: {
    ok: { const: false },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    continuation: { type: 'object' },
  },
};

/** The MCP door's names are the canonical ones, which descriptions are written in: its naming changes nothing. */
const MCP_NAMING = new DoorNaming('mcp', []);

/**
 * A definition as MCP expects it: the canonical name (MCP has no prefix rule, so not the
 * vscode.lm name), the input schema Copilot sees (package.json's, its descriptions in this door's
 * names), the envelope as output schema (short), and the annotations of the tool's metadata.
 */
export function mcpToolListing(tool: AnyToolDefinition): McpToolListing {
  let listing = cache.get(tool);
  if (!listing) {
    const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
    listing = {
      name: MCP_NAMING.name(tool.name),
      title: tool.title,
      description: MCP_NAMING.forDoor(tool.description),
      inputSchema: MCP_NAMING.schema(modelInputSchema(tool.inputSchema)),
      outputSchema: mcpOutputSchema(tool.dataSchema),
      annotations: { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
    };
    cache.set(tool, listing);
  }
  return listing;
}

/** MCP's tools/call result: the envelope as structuredContent, the same JSON text as content, isError on failure. */
export function mcpCallResult(result: CallResult): { content: { type: 'text'; text: string }[]; structuredContent: Record<string, unknown>; isError: boolean } {
  return {
    content: [{ type: 'text', text: result.text }],
    structuredContent: result.envelope as unknown as Record<string, unknown>,
    isError: !result.envelope.ok,
  };
}
