// The travel server on Bun: bun run examples/serverless/bun.ts
import { sqliteStore } from "../../src/store/index.js"; // "mcp-elicit/store" in your project
import { travelHandler } from "./travel.js";

// Bun's own types in a Bun project; declared here for this repository's Node type-check.
interface BunServer {
  url: URL;
  requestIP(request: Request): { address: string } | null;
}
declare const Bun: {
  serve(options: { hostname?: string; port?: number; fetch(request: Request, server: BunServer): Promise<Response> }): BunServer;
};

const handler = travelHandler(sqliteStore(process.env.MCP_ELICIT_STORE ?? "travel.db"));

const server = Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
  // The peer's address is what local mode checks.
  fetch: (request, server) => handler(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log(`Listening on ${server.url.href}`);
