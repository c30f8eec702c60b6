import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The MCP door's transport rules, as plain functions: who may talk to the server at all.
 * Checked on every HTTP request before the body is read or a session looked up.
 */

/** A bearer token of 256 random bits, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether an Authorization header carries exactly this token; constant time whatever the input. */
export function bearerMatches(header: string | string[] | undefined, token: string): boolean {
  if (typeof header !== 'string') return false;
  const m = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  // Hash both sides: timingSafeEqual needs equal lengths, and a length check would leak the token's length.
  const given = createHash('sha256')
    .update(m ? m[1] : '')
    .digest();
  const wanted = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, wanted) && m !== null;
}

/** Lower case, no trailing slash: `https://Example.com/` and `https://example.com` are one origin. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}

/** The Host values a local client sends to this port; anything else is DNS rebinding or a proxy. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export interface RequestFacts {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | string[] | undefined;
}

export interface Refusal {
  status: 401 | 403;
  headers: Record<string, string>;
  message: string;
}

/**
 * Host first (403: a rebinding page never gets as far as the token), then Origin (403 unless
 * allowlisted: a browser page on any site can reach 127.0.0.1), then the token (401 with
 * WWW-Authenticate). undefined when the request may proceed.
 */
export function refuse(facts: RequestFacts, port: number, token: string, allowedOrigins: readonly string[]): Refusal | undefined {
  const host = facts.host?.trim().toLowerCase();
  if (!host || !allowedHosts(port).includes(host)) {
    return { status: 403, headers: {}, message: 'Forbidden: this server answers only requests addressed to 127.0.0.1 or localhost on its own port.' };
  }
  if (facts.origin !== undefined) {
    const origin = normalizeOrigin(facts.origin);
    if (!allowedOrigins.some((o) => normalizeOrigin(o) === origin)) {
      return {
        status: 403,
        headers: {},
        message: 'Forbidden: requests from web pages are refused unless their origin is in agentWorkbench.mcp.allowedOrigins.',
      };
    }
  }
  if (!bearerMatches(facts.authorization, token)) {
    return {
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="agent-workbench", error="invalid_token"' },
      message:
        'Unauthorized: send Authorization: Bearer <token> (the token is in the window\'s discovery file and the "Connect an Agent over MCP" setup text).',
    };
  }
  return undefined;
}
