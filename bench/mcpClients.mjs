/* global performance */
// The MCP side of the MCP bench (bench/mcp.mjs): started by the in-host part as its own Node
// process, as a real client is. Opens `concurrency` sessions with the official SDK's Client over
// Streamable HTTP and makes `calls` calls of one tool spread over them; prints one JSON line with
// every call's latency in milliseconds.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// The token comes through the environment: a command line is visible to every process (and printed when the child fails).
const { AW_MCP_URL: url, AW_MCP_TOKEN: token } = process.env;
const [tool, inputJson, concurrencyText, callsText, warmupText] = process.argv.slice(2);
const input = JSON.parse(inputJson);
const concurrency = Number(concurrencyText);
const calls = Number(callsText);
const warmup = Number(warmupText);

const clients = await Promise.all(
  Array.from({ length: concurrency }, async (_, i) => {
    const client = new Client({ name: `bench-${i}`, version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    await client.listTools(); // as clients do; also compiles the output schemas once, outside the timed calls
    return client;
  }),
);

async function round(n) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (next < n) {
        next++;
        const t = performance.now();
        const r = await client.callTool({ name: tool, arguments: input });
        latencies.push(performance.now() - t);
        if (r.isError) throw new Error(`${tool} failed: ${r.content?.[0]?.text}`);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

await round(warmup);
const measured = await round(calls);
process.stdout.write(`${JSON.stringify(measured)}\n`);
await Promise.all(clients.map((c) => c.close()));
