import * as assert from 'node:assert/strict';
import { utf8Bytes } from '../../../src/core/chain/bounding';
import { DoorNaming } from '../../../src/core/chain/doors';
import { languageModelToolContribution } from '../../../src/core/chain/manifest';
import { ALL_TOOLS } from '../../../src/tools';

const LM_NAMING = new DoorNaming(
  'vscode.lm',
  ALL_TOOLS.map((t) => t.name),
);

/**
 * What every agent request carries for a tool: its registered name, model description and input schema (package.json's, as VS Code sends it:
 * tools named as vscode.lm registers them, the longer of the two doors' names), minified.
 */
export function definitionBytes(tool: (typeof ALL_TOOLS)[number]): number {
  const entry = languageModelToolContribution(tool, LM_NAMING);
  return utf8Bytes(JSON.stringify({ name: entry.name, description: entry.modelDescription, parameters: entry.inputSchema }));
}

export const MAX_TOOL_DEFINITION_BYTES = 2000;
export const MAX_ALL_DEFINITIONS_BYTES = 60_000;

describe('tool definition budget: what the model reads on every turn', () => {
  it(`keeps each tool's minified definition within ${MAX_TOOL_DEFINITION_BYTES} bytes`, () => {
    const over = ALL_TOOLS.map((t) => ({ name: t.name, bytes: definitionBytes(t) })).filter((t) => t.bytes > MAX_TOOL_DEFINITION_BYTES);
    assert.deepEqual(over, [], `over budget: ${over.map((t) => `${t.name} ${t.bytes} B`).join(', ')}`);
  });

  it(`keeps all definitions together within ${MAX_ALL_DEFINITIONS_BYTES} bytes`, () => {
    const sizes = ALL_TOOLS.map((t) => definitionBytes(t));
    const total = sizes.reduce((a, b) => a + b, 0);
    console.log(
      `      ${ALL_TOOLS.length} tools, ${total} bytes of definitions (largest ${Math.max(...sizes)} B, mean ${Math.round(total / ALL_TOOLS.length)} B)`,
    );
    assert.ok(total <= MAX_ALL_DEFINITIONS_BYTES, `${total} bytes`);
  });
});
