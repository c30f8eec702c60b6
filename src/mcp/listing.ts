import type { CallResult } from '../core/chain/chain';
import type { AnyToolDefinition } from '../core/chain/definition';
import { modelInputSchema } from '../core/chain/manifest';
import { envelopeOutputSchema } from '../core/chain/schemas';
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
 * A definition as MCP expects it: the canonical name (MCP has no prefix rule, so not the
 * vscode.lm name), the input schema Copilot sees (package.json's), the envelope as output schema,
 * and the annotations of the tool's metadata.
 */
export function mcpToolListing(tool: AnyToolDefinition): McpToolListing {
  let listing = cache.get(tool);
  if (!listing) {
    const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
    listing = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: modelInputSchema(tool.inputSchema),
      outputSchema: envelopeOutputSchema(tool.dataSchema),
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
