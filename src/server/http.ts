// Streamable HTTP for every revision on one URL. 2026-07-28 requests go to the SDK's stateless
// createMcpHandler; 2025-era requests get a session each, because only a session remembers the
// client's capabilities and can carry server→client requests (elicitation) on the call's stream.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, isLegacyRequest, type McpServer } from "@modelcontextprotocol/server";
import { localhostHostValidation, NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";

export type ServerFactory = (ctx: { era: "legacy" | "modern" }) => McpServer | Promise<McpServer>;

export interface ServeHttpOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /** Reject requests whose Host header is not localhost (DNS-rebinding protection; default true for loopback hosts). */
  localhostOnly?: boolean;
  onerror?: (error: Error) => void;
}

export interface HttpServerHandle {
  url: URL;
  server: Server;
  close(): Promise<void>;
}

function sendJsonError(res: import("node:http").ServerResponse, status: number, message: string) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readBody(req: IncomingMessage): Promise<{ web: Request; parsed: unknown }> {
  const web = await toWebRequest(req);
  const text = req.method === "POST" ? await web.clone().text() : "";
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined; // the transport answers the parse error
  }
  return { web, parsed };
}

export async function serveHttp(factory: ServerFactory, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const localhostOnly = options.localhostOnly ?? ["127.0.0.1", "localhost", "::1"].includes(host);
  const modern = toNodeHandler(createMcpHandler(factory, { legacy: "reject", ...(options.onerror ? { onerror: options.onerror } : {}) }));
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const validateHost = localhostHostValidation();

  const server = createServer(async (req, res) => {
    try {
      if (localhostOnly && !validateHost(req, res)) return;
      if (new URL(req.url ?? "/", "http://x").pathname !== path) return sendJsonError(res, 404, `Not found; the MCP endpoint is ${path}`);
      const { web, parsed } = await readBody(req);
      if (!(await isLegacyRequest(web))) return await modern(req, res, parsed);
      const sid = req.headers["mcp-session-id"] as string | undefined;
      let transport = sid ? sessions.get(sid) : undefined;
      if (!transport) {
        if (sid) return sendJsonError(res, 404, "Unknown or expired session");
        if (req.method !== "POST") return sendJsonError(res, 400, "Missing session id");
        const created: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
          onsessionclosed: (id) => void sessions.delete(id),
        });
        await (await factory({ era: "legacy" })).connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, parsed);
    } catch (error) {
      options.onerror?.(error as Error);
      if (!res.headersSent) sendJsonError(res, 500, "Internal error");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`);
  return {
    url,
    server,
    async close() {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
