// The server of bench/gateway.ts: one tool, `echo`, that answers at once. `stdio` serves it on stdio;
// `http` on 127.0.0.1 at a free port, printing "listening on URL" on stderr.
// Run: node --import tsx bench/gateway-server.ts stdio|http
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import { serveHttp } from "../dist/node/index.js";

function build(): McpServer {
  const server = new McpServer({ name: "bench-gateway", version: "1.0.0" });
  server.registerTool("echo", { description: "Answers with its text", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

if (process.argv[2] === "http") {
  const handle = await serveHttp(() => build(), { port: 0 });
  process.stderr.write(`listening on ${handle.url.href}\n`);
} else serveStdio(() => build());
