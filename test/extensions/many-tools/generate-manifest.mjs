// Writes this folder's package.json: a test-only extension contributing 100 language model tools
// (many_tool_001 … many_tool_100) in ten domains, each hidden until the context key
// manyToolsTest.enabled is set (the command "Many Tools (tests): Enable the 100 Tools").
// Run `node test/extensions/many-tools/generate-manifest.mjs` after changing the lists below.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Ten domains, ten actions each: distinct names and descriptions for the 100 tools. */
const DOMAINS = [
  [
    'dataset',
    'the analytics warehouse',
    [
      'Reads',
      'Lists the columns of',
      'Counts the rows of',
      'Samples ten rows of',
      'Summarizes the nulls in',
      'Exports to CSV the rows of',
      'Validates the schema of',
      'Shows the owners of',
      'Shows the refresh time of',
      'Diffs with yesterday the rows of',
    ],
  ],
  [
    'ticket',
    'the support desk',
    [
      'Opens',
      'Closes',
      'Assigns',
      'Escalates',
      'Comments on',
      'Tags',
      'Merges duplicates of',
      'Shows the history of',
      'Changes the priority of',
      'Links an incident to',
    ],
  ],
  [
    'invoice',
    'the billing system',
    [
      'Creates',
      'Voids',
      'Sends',
      'Marks as paid',
      'Refunds',
      'Lists the line items of',
      'Applies a discount to',
      'Computes the tax of',
      'Shows the payer of',
      'Reconciles',
    ],
  ],
  [
    'weather station',
    'the weather network',
    [
      'Reads the temperature of',
      'Reads the humidity of',
      'Reads the wind of',
      'Reads the pressure of',
      'Lists the alerts of',
      'Calibrates',
      'Shows the battery of',
      'Shows the forecast for',
      'Restarts',
      'Shows the uptime of',
    ],
  ],
  [
    'build pipeline',
    'the CI service',
    [
      'Starts',
      'Cancels',
      'Retries',
      'Shows the logs of',
      'Lists the artifacts of',
      'Shows the duration trend of',
      'Pins the runner of',
      'Shows the failing steps of',
      'Shows the cache hits of',
      'Approves the deployment gate of',
    ],
  ],
  [
    'calendar',
    'the team calendar',
    [
      'Lists the events of',
      'Creates an event in',
      'Moves an event in',
      'Cancels an event in',
      'Finds a free slot in',
      'Shares',
      'Shows the attendees of an event in',
      'Sets a reminder in',
      'Exports',
      'Shows the time zone of',
    ],
  ],
  [
    'inventory item',
    'the warehouse stock',
    [
      'Counts',
      'Reserves',
      'Releases',
      'Moves',
      'Reorders',
      'Shows the supplier of',
      'Shows the location of',
      'Writes off',
      'Shows the price history of',
      'Audits',
    ],
  ],
  [
    'sensor',
    'the factory floor',
    [
      'Reads',
      'Resets',
      'Shows the thresholds of',
      'Sets a threshold of',
      'Lists the anomalies of',
      'Shows the maintenance log of',
      'Pairs',
      'Unpairs',
      'Shows the firmware of',
      'Updates the firmware of',
    ],
  ],
  [
    'customer',
    'the CRM',
    [
      'Looks up',
      'Updates the address of',
      'Lists the orders of',
      'Shows the lifetime value of',
      'Merges',
      'Sends a survey to',
      'Shows the consent of',
      'Assigns an account manager to',
      'Shows the churn risk of',
      'Archives',
    ],
  ],
  [
    'deployment',
    'the cloud cluster',
    [
      'Rolls out',
      'Rolls back',
      'Scales',
      'Pauses',
      'Resumes',
      'Shows the pods of',
      'Shows the events of',
      'Shows the resource usage of',
      'Shows the config of',
      'Restarts',
    ],
  ],
];

const tools = [];
for (const [domain, where, actions] of DOMAINS) {
  for (const action of actions) {
    const n = String(tools.length + 1).padStart(3, '0');
    const name = `many_tool_${n}`;
    tools.push({
      name,
      displayName: `Many Tools ${n}`,
      // Agent mode sends only the tools a person can reference (its tool picker lists them).
      toolReferenceName: `many-tool-${n}`,
      canBeReferencedInPrompt: true,
      modelDescription: `${action} ${domain} ${n} in ${where} and answers a one-line summary. Test-only tool ${n} of 100.`,
      userDescription: `${action} ${domain} ${n} (test only).`,
      when: 'manyToolsTest.enabled',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: `Which ${domain} (defaults to ${n}).` } },
      },
    });
  }
}

const manifest = {
  name: 'many-tools',
  displayName: 'Many tools for the Agent Workbench tests',
  description:
    'Test only, never shipped: 100 language model tools (many_tool_001 … many_tool_100, each answering one line of text), hidden until the command manyToolsTest.enable sets the context key manyToolsTest.enabled. With them and ours (44) and Copilot’s, an agent request has more than 128 tools enabled, so Copilot Chat groups tools into virtual tools; scripts/copilot-test.mjs checks that each of ours stays reachable. Generated by generate-manifest.mjs.',
  version: '0.0.1',
  publisher: 'agent-workbench-tests',
  private: true,
  license: 'MIT',
  engines: { vscode: '^1.100.0' },
  activationEvents: ['onCommand:manyToolsTest.enable'],
  main: './extension.js',
  contributes: {
    commands: [{ command: 'manyToolsTest.enable', title: 'Enable the 100 Tools', category: 'Many Tools (tests)' }],
    languageModelTools: tools,
  },
};

const target = path.join(path.dirname(fileURLToPath(import.meta.url)), 'package.json');
fs.writeFileSync(target, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`wrote ${tools.length} tools to ${target}`);
