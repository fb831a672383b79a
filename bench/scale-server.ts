// The server side of bench/scale.ts, in a process of its own so that its memory and CPU are its own:
// `node --expose-gc --import tsx bench/scale-server.ts <ours|raw> <legacy|modern>`, forked with IPC.
// ours = serveHttp + a kit tool (ctx.elicit); raw = the SDK by hand: a NodeStreamableHTTPServerTransport
// per session and ctx.mcpReq.elicitInput on 2025-11-25, createMcpHandler and inputRequired() on
// 2026-07-28. Both tools ask one question and echo the answer, so the generator can tell whose it is.
// BENCH_SCALE_DIST measures another build of the package (default ../dist).
// It sends { listening: url, keepAliveTimeout, headersTimeout } once up, and answers "stats" with
// memory (after gc) and CPU time.
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { writeHeapSnapshot } from "node:v8";
import {
  McpServer,
  createMcpHandler,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import * as z from "zod";
import type { RequestedSchema } from "../dist/schema/index.js";

// BENCH_SCALE_DIST: another build of the package to measure (e.g. an earlier commit's dist/), else ../dist.
// serveHttp is in node/index.js since the fetch entry; earlier builds have it in server/index.js.
type ServerModule = typeof import("../dist/server/index.js");
type NodeModule = typeof import("../dist/node/index.js");
const dist = process.env.BENCH_SCALE_DIST;
const serverModule = (await import(dist ? pathToFileURL(`${dist}/server/index.js`).href : "../dist/server/index.js")) as ServerModule &
  Partial<NodeModule>;
const { createElicitation } = serverModule;
const serveHttp: NodeModule["serveHttp"] =
  serverModule.serveHttp ??
  ((await import(dist ? pathToFileURL(`${dist}/node/index.js`).href : "../dist/node/index.js")) as NodeModule).serveHttp;

export type Side = "ours" | "raw";
export type Era = "legacy" | "modern";

const ANSWER_FORM: RequestedSchema = { type: "object", properties: { answer: { type: "string", maxLength: 64 } }, required: ["answer"] };
const input = z.object({ call: z.string() });
const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const echo = (action: string, content: unknown) => text(action === "accept" ? String((content as { answer?: unknown }).answer) : action);

const kit = createElicitation();

function oursServer(): McpServer {
  const server = new McpServer({ name: "scale-ours", version: "1.0.0" });
  kit.registerTool(server, "ask", { description: "One question, echoed", inputSchema: input }, async ({ call }, ctx) => {
    const answer = await ctx.elicit(`Answer for ${call}?`, ANSWER_FORM);
    return echo(answer.action, answer.action === "accept" ? answer.content : undefined);
  });
  return server;
}

function rawServer(era: Era): McpServer {
  const server = new McpServer({ name: "scale-raw", version: "1.0.0" }, { capabilities: { tools: {} } });
  if (era === "legacy") {
    server.registerTool("ask", { description: "One question, echoed", inputSchema: input }, async ({ call }, ctx: ServerContext) => {
      const result = await ctx.mcpReq.elicitInput(
        { mode: "form", message: `Answer for ${call}?`, requestedSchema: ANSWER_FORM as never },
        { relatedRequestId: ctx.mcpReq.id, timeout: 10 * 60_000 },
      );
      return echo(result.action, result.content);
    });
  } else {
    const ask = async ({ call }: { call: string }, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, "answer");
      if (view.kind !== "elicit")
        return inputRequired({
          inputRequests: { answer: inputRequired.elicit({ message: `Answer for ${call}?`, requestedSchema: ANSWER_FORM as never }) },
        });
      return echo(view.action, view.content);
    };
    server.registerTool("ask", { description: "One question, echoed", inputSchema: input }, ask);
  }
  return server;
}

/** The SDK's documented shape: one transport per session, looked up by Mcp-Session-Id; stateless handler for 2026-07-28. */
async function serveRaw(era: Era): Promise<{ server: Server; url: URL; sessions: () => number }> {
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const modern = toNodeHandler(createMcpHandler(() => rawServer("modern"), { legacy: "reject" }));
  const server = createServer(async (req, res) => {
    try {
      if (era === "modern") return await modern(req, res);
      const sid = req.headers["mcp-session-id"] as string | undefined;
      const known = sid ? transports.get(sid) : undefined;
      if (known) return await known.handleRequest(req, res);
      if (sid || req.method !== "POST") return void res.writeHead(404).end();
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport),
        onsessionclosed: (id) => void transports.delete(id),
      });
      await rawServer("legacy").connect(transport);
      await transport.handleRequest(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", ...(backlog && { backlog }) }, resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: new URL(`http://127.0.0.1:${port}/mcp`), sessions: () => transports.size };
}

const [side, era] = process.argv.slice(2) as [Side, Era];
// BENCH_SCALE_BACKLOG sets the listen backlog on either side (Node's default is 511, serveHttp's 16,384;
// the kernel caps both at net.core.somaxconn).
const backlog = Number(process.env.BENCH_SCALE_BACKLOG ?? 0) || undefined;
const n = Number(process.env.BENCH_SCALE_N ?? 10_000);
const served =
  side === "ours"
    ? await serveHttp(() => oursServer(), { maxSessions: Math.max(10_000, n + 100), ...(backlog && { backlog }) }).then((h) => ({
        server: h.server,
        url: h.url,
        sessions: () => h.sessionCount,
      }))
    : await serveRaw(era);
// BENCH_SCALE_KEEPALIVE_MS sets the idle keep-alive time on either side (Node's default is 5 s).
const keepAlive = Number(process.env.BENCH_SCALE_KEEPALIVE_MS ?? 0);
if (keepAlive > 0) {
  served.server.keepAliveTimeout = keepAlive;
  served.server.headersTimeout = keepAlive + 1_000;
}

// What the server itself sees of failing connections: clientError by code (answered as Node does without
// a listener: 400/408 if the socket is writable, else destroyed), and the peak of open descriptors and
// connections, sampled every 250 ms (an accept that fails with EMFILE shows as the peak at the limit).
const clientErrors: Record<string, number> = {};
served.server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
  const code = error.code ?? "unknown";
  clientErrors[code] = (clientErrors[code] ?? 0) + 1;
  if (code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const status = code === "ERR_HTTP_REQUEST_TIMEOUT" ? "408 Request Timeout" : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
});
let peakFds = 0;
let peakConnections = 0;
const fds = () => readdirSync("/proc/self/fd").length;
setInterval(() => {
  peakFds = Math.max(peakFds, fds());
  served.server.getConnections((error, n) => void (error || (peakConnections = Math.max(peakConnections, n))));
}, 250).unref();

const gc = (globalThis as { gc?: () => void }).gc;
process.on("message", async (message) => {
  // BENCH_SCALE_HEAPSNAPSHOT=<dir>: a heap snapshot on request (after the sessions closed), to find what holds the heap.
  if (message === "heap-snapshot" && process.env.BENCH_SCALE_HEAPSNAPSHOT) {
    gc?.();
    const file = writeHeapSnapshot(`${process.env.BENCH_SCALE_HEAPSNAPSHOT}/scale-${side}-${era}-${Date.now()}.heapsnapshot`);
    return void process.send!({ snapshot: file });
  }
  if (message !== "stats") return;
  const connections = await new Promise<number>((resolve) => served.server.getConnections((error, n) => resolve(error ? -1 : n)));
  gc?.();
  gc?.();
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  process.send!({
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    cpuMs: (cpu.user + cpu.system) / 1000,
    sessions: served.sessions(),
    clientErrors: { ...clientErrors },
    peakFds,
    peakConnections,
    fds: fds(),
    connections,
  });
  peakFds = 0;
  peakConnections = 0;
});
process.on("disconnect", () => process.exit(0));
process.send!({
  listening: served.url.href,
  keepAliveTimeout: served.server.keepAliveTimeout,
  headersTimeout: served.server.headersTimeout,
  gc: gc !== undefined,
});
