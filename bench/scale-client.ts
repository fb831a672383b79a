// A lean Streamable HTTP client for load: JSON-RPC over node:http with one shared keep-alive Agent,
// no SDK Client. An SDK Client per simulated person costs tens of KiB and a share of the generator's
// CPU; at 10,000 of them the generator, not the server, would be measured. It speaks only what the
// benches need: a 2025-11-25 session (initialize, initialized, tools/call whose SSE stream carries the
// server's elicitation/create, the answer POSTed back) and a 2026-07-28 tools/call round (JSON in,
// JSON out, retried with inputResponses and requestState).
import http from "node:http";

export const LEGACY = "2025-11-25";
export const MODERN = "2026-07-28";

export interface Wire {
  url: URL;
  agent: http.Agent;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** A keep-alive pool that can hold `sockets` connections at once (held SSE streams count). */
export function makeAgent(sockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: sockets, maxTotalSockets: sockets, maxFreeSockets: sockets, scheduling: "lifo" });
}

/** A failure with the kind it is counted under: a socket error code, "HTTP 503", "JSON-RPC -32603", ... */
export class WireError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

export const kindOf = (error: unknown): string =>
  error instanceof WireError ? error.kind : ((error as { code?: string }).code ?? `other: ${(error as Error).message}`);

// JSON-RPC messages off the wire, read field by field; what a bench needs is checked where it is used.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface Posted {
  status: number;
  sessionId: string | undefined;
  /** The JSON body, or undefined for an SSE body (its messages went to onMessage) or an empty one. */
  json: Json | undefined;
}

/** Splits an SSE body into the JSON of its data fields, as chunks arrive. */
function sseReader(onMessage: (message: Json) => void): (chunk: string) => void {
  let buffer = "";
  return (chunk) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) onMessage(JSON.parse(data) as Json);
    }
  };
}

/** One POST; an SSE response's messages go to `onMessage` as they arrive, and the promise settles when the body ends. */
export function post(wire: Wire, body: unknown, headers: Record<string, string>, onMessage?: (message: Json) => void): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      wire.url,
      {
        method: "POST",
        agent: wire.agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(payload),
          ...wire.headers,
          ...headers,
        },
      },
      (res) => {
        res.setEncoding("utf8");
        const status = res.statusCode ?? 0;
        const sessionId = res.headers["mcp-session-id"] as string | undefined;
        const sse = (res.headers["content-type"] ?? "").includes("text/event-stream");
        let text = "";
        const read = sse ? sseReader((m) => onMessage?.(m)) : (chunk: string) => void (text += chunk);
        res.on("data", (chunk: string) => {
          try {
            read(chunk);
          } catch (error) {
            res.destroy(error as Error);
          }
        });
        res.on("error", reject);
        res.on("end", () => {
          if (status >= 400) return reject(new WireError(`HTTP ${status}`, `HTTP ${status}: ${text.slice(0, 200)}`));
          try {
            resolve({ status, sessionId, json: text ? (JSON.parse(text) as Json) : undefined });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    // A reset on a reused keep-alive socket (the server closed it idle) is told apart from one on a fresh
    // connection (refused or dropped while being accepted): the remedies differ.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code) reject(new WireError(`${error.code} on a reused socket`, error.message));
      else reject(error);
    });
    req.end(payload);
  });
}

/** The result of a JSON-RPC response, or a WireError naming its error code. */
function resultOf(message: Json | undefined, what: string): Json {
  if (!message) throw new WireError("no response", `${what}: no JSON-RPC response`);
  if (message.error) throw new WireError(`JSON-RPC ${message.error.code}`, `${what}: ${message.error.message}`);
  return message.result as Json;
}

const CLIENT_INFO = { name: "scale-client", version: "1.0.0" };

/** One 2025-11-25 session with one tools/call in flight, from the call to its result. */
export interface LegacyCall {
  sessionId: string;
  /** The server's elicitation/create request, as it arrived on the call's stream. */
  elicitation: Json;
  /** The tools/call result (settles when the call's stream delivers it). */
  result: Promise<Json>;
  /** How many results the call's stream carried (more than 1 is a duplicated answer). */
  results(): number;
  /** POSTs the answer to the elicitation. */
  answer(content: Json): Promise<void>;
  /** Ends the session (DELETE). */
  close(): Promise<void>;
}

/** Opens a session and calls `tool`; resolves once the server's elicitation/create has arrived. */
export async function startLegacyCall(wire: Wire, tool: string, args: Json): Promise<LegacyCall> {
  const init = await new Promise<{ sessionId: string }>((resolve, reject) => {
    let response: Json | undefined;
    post(
      wire,
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: LEGACY, capabilities: { elicitation: { form: {} } }, clientInfo: CLIENT_INFO },
      },
      {},
      (m) => void (response = m),
    ).then((posted) => {
      try {
        resultOf(posted.json ?? response, "initialize");
        if (!posted.sessionId) throw new WireError("no session id", "initialize: no Mcp-Session-Id");
        resolve({ sessionId: posted.sessionId });
      } catch (error) {
        reject(error);
      }
    }, reject);
  });
  const session = { "mcp-session-id": init.sessionId, "mcp-protocol-version": LEGACY };
  await post(wire, { jsonrpc: "2.0", method: "notifications/initialized" }, session);

  let results = 0;
  let settle!: { resolve: (r: Json) => void; reject: (e: unknown) => void };
  const result = new Promise<Json>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => {}); // observed by the caller later
  const elicitation = await new Promise<Json>((resolve, reject) => {
    let asked = false;
    post(wire, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }, session, (m) => {
      if (m.method === "elicitation/create" && !asked) {
        asked = true;
        resolve(m);
      } else if (m.id === 1 && !m.method) {
        results++;
        try {
          settle.resolve(resultOf(m, "tools/call"));
        } catch (error) {
          settle.reject(error);
        }
      }
    }).then(
      (posted) => {
        if (posted.json) {
          results++;
          try {
            settle.resolve(resultOf(posted.json, "tools/call"));
          } catch (error) {
            settle.reject(error);
          }
        }
        const ended = new WireError("stream ended", "tools/call: the stream ended without a result");
        if (!asked) reject(ended);
        settle.reject(ended);
      },
      (error) => {
        reject(error);
        settle.reject(error);
      },
    );
  });
  return {
    sessionId: init.sessionId,
    elicitation,
    result,
    results: () => results,
    answer: async (content) => {
      await post(wire, { jsonrpc: "2.0", id: elicitation.id, result: { action: "accept", content } }, session);
    },
    close: () =>
      new Promise<void>((resolve) => {
        const req = http.request(wire.url, { method: "DELETE", agent: wire.agent, headers: { ...wire.headers, ...session } }, (res) => {
          res.resume();
          res.on("end", resolve);
        });
        req.on("error", () => resolve());
        req.end();
      }),
  };
}

const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

let nextId = 1;

/** One 2026-07-28 tools/call (the headers repeat the body's method and tool name, which the server cross-checks): the first round (no responses) or a retry carrying `inputResponses` and `requestState`. */
export type { Json };

export async function modernCall(
  wire: Wire,
  tool: string,
  args: Json,
  retry?: { inputResponses: Json; requestState?: string },
): Promise<Json> {
  const params = { name: tool, arguments: args, ...retry, _meta: modernMeta };
  let streamed: Json | undefined;
  const posted = await post(
    wire,
    { jsonrpc: "2.0", id: nextId++, method: "tools/call", params },
    { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": tool },
    (m) => {
      if (!m.method) streamed = m;
    },
  );
  return resultOf(posted.json ?? streamed, "tools/call");
}
