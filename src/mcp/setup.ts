/**
 * The setup text "Connect an Agent over MCP…" shows for each client: the stdio bridge (survives
 * restarts: no port or token to copy) and the direct HTTP address of this window.
 */

export const SERVER_NAME = 'agent-workbench';

export interface SetupFacts {
  url: string;
  token: string;
  /** Absolute path of dist/mcp-stdio.js inside the installed extension. */
  bridgePath: string;
}

export interface ClientSetup {
  id: 'claude' | 'codex' | 'gemini' | 'cursor' | 'other';
  label: string;
  /** Where the text goes. */
  where: string;
  text: string;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);
const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const tomlString = (s: string): string => JSON.stringify(s);

export function clientSetups(f: SetupFacts): ClientSetup[] {
  const stdio = { command: 'node', args: [f.bridgePath] };
  const auth = `Bearer ${f.token}`;
  return [
    {
      id: 'claude',
      label: 'Claude Code',
      where: 'Run in a terminal, in the folder this window has open',
      text: [
        '# Through the stdio bridge (finds this window from the current folder; survives restarts):',
        `claude mcp add ${SERVER_NAME} -- node ${shellQuote(f.bridgePath)}`,
        '',
        '# Or directly over HTTP (this window only; the port and token change when it restarts):',
        `claude mcp add --transport http ${SERVER_NAME} ${f.url} --header ${shellQuote(`Authorization: ${auth}`)}`,
      ].join('\n'),
    },
    {
      id: 'codex',
      label: 'Codex CLI',
      where: 'Add to ~/.codex/config.toml',
      text: [`[mcp_servers.${SERVER_NAME}]`, `command = "node"`, `args = [${tomlString(f.bridgePath)}]`].join('\n'),
    },
    {
      id: 'gemini',
      label: 'Gemini CLI',
      where: "Add to ~/.gemini/settings.json (or the project's .gemini/settings.json)",
      text:
        json({ mcpServers: { [SERVER_NAME]: stdio } }) +
        `\n\n// Or directly over HTTP (this window only):\n${json({ mcpServers: { [SERVER_NAME]: { httpUrl: f.url, headers: { Authorization: auth } } } })}`,
    },
    {
      id: 'cursor',
      label: 'Cursor',
      where: "Add to ~/.cursor/mcp.json (or the project's .cursor/mcp.json)",
      text:
        json({ mcpServers: { [SERVER_NAME]: stdio } }) +
        `\n\n// Or directly over HTTP (this window only):\n${json({ mcpServers: { [SERVER_NAME]: { url: f.url, headers: { Authorization: auth } } } })}`,
    },
    {
      id: 'other',
      label: 'Any other MCP client',
      where: 'Streamable HTTP, or stdio through the bridge',
      text: [`URL:    ${f.url}`, `Header: Authorization: ${auth}`, '', `stdio:  node ${shellQuote(f.bridgePath)}`].join('\n'),
    },
  ];
}
