import { randomUUID } from 'node:crypto';
import type { CallResult, ChainEnvironment, ToolRunner } from '../core/chain/chain';
import type { AnyToolDefinition } from '../core/chain/definition';
import { failure, resolveExternally } from '../core/chain/envelope';
import type { Offer } from './profile';
import { offeredTools, profileAllows } from './profile';
import type { McpDoor } from './server';

/**
 * The MCP door over the one runner: lists what the mode, trust and profile offer; calls go to
 * runner.invoke exactly as invokeTool's do (a write tool in inspection-only mode is refused there,
 * SourceMutationDisabled), with the door's own confirmation for a commit.
 */
export function runnerDoor(runner: ToolRunner, tools: readonly AnyToolDefinition[], offer: () => Offer, confirm: ChainEnvironment['confirm']): McpDoor {
  return {
    tools: () => offeredTools(tools, offer()),
    async call(name, args, token): Promise<CallResult> {
      const o = offer();
      const tool = tools.find((t) => t.name === name);
      if (tool && !o.trusted && o.untrusted === 'nothing') {
        return notOffered(`The workspace is not trusted and agentWorkbench.mcp.untrustedWorkspace is "nothing": no tool is served over MCP. Nothing was done.`);
      }
      if (tool && !profileAllows(o.profile, tool)) {
        return notOffered(`${name} is not in the tool profile (agentWorkbench.toolProfile is "${o.profile.name}"). Nothing was done.`);
      }
      return runner.invoke(name, args, { token, door: 'mcp', confirm });
    },
  };
}

function notOffered(message: string): CallResult {
  const envelope = failure('InvalidRequest', message, randomUUID(), resolveExternally('Use one of the listed tools, or ask the person to change the setting.'));
  return { envelope, text: JSON.stringify(envelope) };
}
