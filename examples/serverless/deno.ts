// The travel server on Deno: deno run --allow-net --allow-env --allow-read --allow-write deno.ts (in this
// repository add --sloppy-imports, since its imports name the TypeScript sources by their .js names).
import { sqliteStore } from "../../src/store/index.js"; // "mcp-elicit/store" in your project
import { travelHandler } from "./travel.js";

// Deno's own types in a Deno project; declared here for this repository's Node type-check.
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname?: string; port?: number },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
};

const handler = travelHandler(sqliteStore(Deno.env.get("MCP_ELICIT_STORE") ?? "travel.db"));

// Deno prints "Listening on http://HOST:PORT/"; the peer's address is what local mode checks.
Deno.serve({ hostname: Deno.env.get("HOST") ?? "127.0.0.1", port: Number(Deno.env.get("PORT") ?? 8000) }, (request, info) =>
  handler(request, { remoteAddress: info.remoteAddr.hostname }),
);
