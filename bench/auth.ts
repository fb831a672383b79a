// What bearer authentication costs a protected server (`serveHttp(factory, { auth })`): a plain
// tools/call over Streamable HTTP with and without auth, on 2025-11-25 (a session) and 2026-07-28
// (stateless), and the JWT check alone (jose against the cached key set). Tokens come from the
// local OpenID provider (`mcp-elicit/oidc`) by the tests' sign-in; keys are fetched before timing.
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { Bench } from "tinybench";
import { startOpenIdProvider } from "../dist/oidc/index.js";
import { createElicitation, jwtAccessTokenVerifier, serveHttp } from "../dist/server/index.js";
import { signIn } from "../test/helpers/oidc.js";

export interface AuthBenchRow {
  what: string;
  opsPerSecond: number;
  /** Median ms per operation. */
  medianMs: number;
}

function factory() {
  const kit = createElicitation();
  return () => {
    const server = new McpServer({ name: "bench-auth", version: "1.0.0" });
    kit.registerTool(server, "plain", { description: "Answers at once" }, () => ({ content: [{ type: "text", text: "ok" }] }));
    return server;
  };
}

function clientFor(revision: "2025-11-25" | "2026-07-28"): Client {
  const options =
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : { supportedProtocolVersions: ["2025-11-25"] };
  return new Client({ name: "bench", version: "1.0.0" }, options as never);
}

export async function benchAuth(options: { time?: number } = {}): Promise<AuthBenchRow[]> {
  const provider = await startOpenIdProvider();
  const open = await serveHttp(factory());
  const guarded = await serveHttp(factory(), { auth: { issuer: provider.issuer, scopes: ["mcp:tools"] } });
  const { accessToken } = await signIn({ issuer: provider.issuer, user: "alice", resource: guarded.url.href, scopes: ["mcp:tools"] });
  const verifier = jwtAccessTokenVerifier({ issuer: provider.issuer, audience: guarded.url.href });
  await verifier.verifyAccessToken(accessToken); // fetches and caches the keys

  const clients: Client[] = [];
  const bench = new Bench({ name: "auth", time: options.time ?? 2000, warmupTime: 300, throws: true });
  try {
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      for (const [label, url, headers] of [
        ["no auth", open.url, {}],
        ["bearer", guarded.url, { authorization: `Bearer ${accessToken}` }],
      ] as const) {
        const client = clientFor(revision);
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
        clients.push(client);
        bench.add(`tools/call ${revision}, ${label}`, async () => {
          await client.callTool({ name: "plain", arguments: {} });
        });
      }
    }
    bench.add("JWT check alone (jose, cached keys)", async () => {
      await verifier.verifyAccessToken(accessToken);
    });
    await bench.run();
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled([open.close(), guarded.close()]);
    await provider.close();
  }
  return bench.tasks.map((task) => {
    const result = task.result;
    if (!result || (result.state !== "completed" && result.state !== "aborted-with-statistics")) throw new Error(`${task.name}: no result`);
    return { what: task.name, opsPerSecond: 1000 / result.period, medianMs: result.latency.p50 ?? result.period };
  });
}

export function formatAuthTable(rows: AuthBenchRow[]): string {
  const table = [
    ["operation", "ops/s", "median ms"],
    ...rows.map((r) => [r.what, Math.round(r.opsPerSecond).toLocaleString("en-US"), r.medianMs.toFixed(3)]),
  ];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(table[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...table.slice(1).map(line)].join("\n");
}

// Run alone: npx tsx bench/auth.ts
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatAuthTable(await benchAuth()));
}
