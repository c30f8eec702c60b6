import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallResult } from '../core/chain/chain';
import type { CancellationSignal } from '../core/chain/cancellation';
import type { AnyToolDefinition } from '../core/chain/definition';
import { mcpCallResult, mcpToolListing } from './listing';
import { newToken, refuse } from './security';

/**
 * The MCP door: Streamable HTTP on 127.0.0.1, one SDK Server and transport per session (never
 * shared between clients: CVE-2026-25536). Plain Node: what it serves comes from an McpDoor.
 */

export interface McpDoor {
  /** The tools offered now (mode, trust and profile applied). */
  tools(): readonly AnyToolDefinition[];
  /** One call through the same runner as invokeTool. */
  call(name: string, args: unknown, token: CancellationSignal): Promise<CallResult>;
}

export interface McpServerOptions {
  door: McpDoor;
  name: string;
  version: string;
  /** 0: the system chooses. */
  port?: number;
  allowedOrigins?: () => readonly string[];
  /** Largest request body read, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Most sessions kept; the least recently used one is closed for a new one (default 32). */
  maxSessions?: number;
  /** A session with no request and no open stream for this long is closed (default 30 minutes): its client went away without saying so. */
  idleSessionMs?: number;
  /** Seconds between progress notifications of a long call, when the client asked for progress (default 2). */
  progressIntervalMs?: number;
  token?: string;
  onClientsChanged?(count: number): void;
  log?(message: string): void;
}

export const MCP_PATH = '/mcp';
export const DEFAULT_IDLE_SESSION_MS = 30 * 60_000;
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
  /** Requests in flight and open event streams: a session with one is in use, however long. */
  open: number;
}

class BodyTooLarge extends Error {}

/** An AbortSignal as the core's CancellationSignal. */
export function signalOf(abort: AbortSignal): CancellationSignal {
  return {
    get isCancellationRequested() {
      return abort.aborted;
    },
    onCancellationRequested(listener) {
      if (abort.aborted) {
        listener();
        return { dispose: () => undefined };
      }
      const handler = () => listener();
      abort.addEventListener('abort', handler, { once: true });
      return { dispose: () => abort.removeEventListener('abort', handler) };
    },
  };
}

export class McpHttpServer {
  readonly token: string;
  private http: http.Server | undefined;
  private port = 0;
  private readonly sessions = new Map<string, Session>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: McpServerOptions) {
    this.token = options.token ?? newToken();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${MCP_PATH}`;
  }

  get listeningPort(): number {
    return this.port;
  }

  get clients(): number {
    return this.sessions.size;
  }

  async start(): Promise<void> {
    if (this.http) return;
    const server = http.createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        this.options.log?.(`MCP request failed: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
        else res.end();
      });
    });
    server.headersTimeout = 30_000;
    // Clients keep their connection between calls; a client whose event loop is busy (the SDK's client compiles every
    // listed output schema) may not see the default 5 s idle close in time and send on a closed socket.
    server.keepAliveTimeout = 65_000;
    server.requestTimeout = 0; // SSE streams stay open; a body still has to arrive within headersTimeout + the socket's activity.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.http = server;
    this.port = (server.address() as AddressInfo).port;
    const idle = this.options.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS;
    this.sweeper = setInterval(() => this.closeIdle(idle), Math.max(10, Math.min(60_000, idle / 4)));
    this.sweeper.unref();
  }

  /** Closes the sessions nobody used for `idleMs` (none in flight, no open stream). */
  private closeIdle(idleMs: number): void {
    const now = Date.now();
    let closed = 0;
    for (const [id, session] of this.sessions) {
      if (session.open > 0 || now - session.lastUsed < idleMs) continue;
      this.sessions.delete(id);
      closed++;
      void session.transport.close().catch(() => undefined);
    }
    if (closed > 0) {
      this.options.log?.(`MCP: closed ${closed === 1 ? '1 session' : `${closed} sessions`} idle for ${Math.round(idleMs / 60_000)} min.`);
      this.options.onClientsChanged?.(this.sessions.size);
    }
  }

  /** Counts a request or stream as open on the session until its response ends. */
  private using(session: Session, res: http.ServerResponse): void {
    session.open++;
    session.lastUsed = Date.now();
    res.once('close', () => {
      session.open--;
      session.lastUsed = Date.now();
    });
  }

  async stop(): Promise<void> {
    const server = this.http;
    this.http = undefined;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((s) => s.transport.close().catch(() => undefined)));
    if (sessions.length > 0) this.options.onClientsChanged?.(0);
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Sends notifications/tools/list_changed to every session (the mode, trust or profile changed). */
  toolsChanged(): void {
    for (const s of this.sessions.values()) s.server.sendToolListChanged().catch(() => undefined);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refusal = refuse(
      { host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization },
      this.port,
      this.token,
      this.options.allowedOrigins?.() ?? [],
    );
    if (refusal) {
      req.resume();
      res.writeHead(refusal.status, { 'Content-Type': 'text/plain; charset=utf-8', ...refusal.headers });
      res.end(refusal.message);
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== MCP_PATH) {
      req.resume();
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: the MCP endpoint is ${MCP_PATH}.`);
      return;
    }
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          res.setHeader('Connection', 'close');
          jsonRpcError(res, 413, -32600, `Request body larger than ${this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes.`);
          return;
        }
        jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
        return;
      }
      if (sessionId !== undefined) {
        const session = this.sessions.get(sessionId);
        if (!session) return jsonRpcError(res, 404, -32001, 'Session not found: initialize a new session.');
        this.using(session, res);
        await session.transport.handleRequest(req, res, body);
        return;
      }
      if (!isInitializeRequest(body)) {
        jsonRpcError(res, 400, -32600, 'Invalid request: without an Mcp-Session-Id header the only request accepted is a valid initialize.');
        return;
      }
      const session = this.newSession();
      this.using(session, res);
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      req.resume();
      const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
      if (!session) return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32001, 'Session not found.');
      this.using(session, res);
      await session.transport.handleRequest(req, res);
      return;
    }
    req.resume();
    res.writeHead(405, { Allow: 'GET, POST, DELETE', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed.');
  }

  private newSession(): Session {
    const max = this.options.maxSessions ?? 32;
    while (this.sessions.size >= max) {
      const [oldestId, oldest] = [...this.sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      this.sessions.delete(oldestId);
      void oldest.transport.close().catch(() => undefined);
    }
    const server = this.mcpServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        this.options.onClientsChanged?.(this.sessions.size);
      },
    });
    const session: Session = { server, transport, lastUsed: Date.now(), open: 0 };
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.sessions.get(id) === session) {
        this.sessions.delete(id);
        this.options.onClientsChanged?.(this.sessions.size);
      }
    };
    void server.connect(transport);
    return session;
  }

  private mcpServer(): Server {
    const server = new Server(
      { name: this.options.name, version: this.options.version, title: 'Agent Workbench' },
      {
        capabilities: { tools: { listChanged: true } },
        instructions:
          "Semantic IDE tools answered by the VS Code window's language services. Changes are staged in a transaction the person reviews; nothing is written until transaction-commit.",
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.options.door.tools().map((t) => mcpToolListing(t) as unknown as { name: string; inputSchema: { type: 'object' } }),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      let timer: ReturnType<typeof setInterval> | undefined;
      if (progressToken !== undefined) {
        const started = Date.now();
        let n = 0;
        timer = setInterval(() => {
          n++;
          extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: n, message: `${request.params.name} still running after ${Math.round((Date.now() - started) / 1000)} s` },
            })
            .catch(() => undefined);
        }, this.options.progressIntervalMs ?? 2000);
      }
      try {
        const result = await this.options.door.call(request.params.name, request.params.arguments ?? {}, signalOf(extra.signal));
        return mcpCallResult(result);
      } finally {
        if (timer) clearInterval(timer);
      }
    });
    return server;
  }
}

function readBody(req: http.IncomingMessage, max: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.reject(new BodyTooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        chunks.length = 0;
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks).toString('utf8'));
      }
    });
    req.on('error', (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
  });
}

function jsonRpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
