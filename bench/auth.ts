// What bearer authentication costs a protected server (`serveHttp(factory, { auth })`): a plain
// tools/call over Streamable HTTP with and without auth, on 2025-11-25 (a session) and 2026-07-28
// (stateless), and the token check alone: a token's first check (jose against the cached key set)
// and a repeated one (the verified-token cache). Tokens come from the
// local OpenID provider (`mcp-elicit/oidc`) by the tests' sign-in; keys are fetched before timing.
// With and without auth are timed in turns, so a busy machine slows both alike.
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider } from "../dist/oidc/index.js";
import { createElicitation, jwtAccessTokenVerifier } from "../dist/server/index.js";
import { serveHttp } from "../dist/node/index.js";
import { signIn } from "../test/helpers/oidc.js";

const FRESH_TOKENS = 40;

export interface AuthBenchRow {
  what: string;
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Times `fns` in turns (one call of each per turn), so load that comes and goes hits them alike. */
async function interleaved(fns: Array<() => Promise<unknown>>, turns: number): Promise<number[][]> {
  const samples = fns.map(() => [] as number[]);
  for (let turn = 0; turn < turns; turn++) {
    // Every other turn in reverse order, so no function always runs right after another.
    const order = turn % 2 ? [...fns.entries()].reverse() : [...fns.entries()];
    for (const [i, fn] of order) {
      const started = performance.now();
      await fn();
      samples[i]!.push(performance.now() - started);
    }
  }
  return samples;
}

export async function benchAuth(options: { turns?: number; warmup?: number } = {}): Promise<AuthBenchRow[]> {
  const turns = options.turns ?? 300;
  const provider = await startOpenIdProvider();
  const open = await serveHttp(factory());
  const guarded = await serveHttp(factory(), { auth: { issuer: provider.issuer, scopes: ["mcp:tools"] } });
  const { accessToken } = await signIn({ issuer: provider.issuer, user: "alice", resource: guarded.url.href, scopes: ["mcp:tools"] });
  const verifier = jwtAccessTokenVerifier({ issuer: provider.issuer, audience: guarded.url.href });

  const clients: Client[] = [];
  const rows: AuthBenchRow[] = [];
  try {
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      const calls: Array<() => Promise<unknown>> = [];
      for (const [url, headers] of [
        [open.url, {}],
        [guarded.url, { authorization: `Bearer ${accessToken}` }],
      ] as const) {
        const client = clientFor(revision);
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
        clients.push(client);
        calls.push(() => client.callTool({ name: "plain", arguments: {} }));
      }
      await interleaved(calls, options.warmup ?? 30);
      const [plain, bearer] = await interleaved(calls, turns);
      rows.push({ what: `tools/call ${revision}, no auth`, medianMs: median(plain!) });
      rows.push({ what: `tools/call ${revision}, bearer`, medianMs: median(bearer!) });
    }
    // A token's first check runs jose (signature by WebCrypto, claims); later ones hit the verified-token cache.
    const fresh: string[] = [];
    for (let i = 0; i < FRESH_TOKENS; i++)
      fresh.push((await signIn({ issuer: provider.issuer, user: "bob", resource: guarded.url.href, scopes: ["mcp:tools"] })).accessToken);
    await verifier.verifyAccessToken(accessToken); // fetches and caches the keys
    const first = await interleaved(
      fresh.map((t) => () => verifier.verifyAccessToken(t)),
      1,
    );
    rows.push({ what: `token check, first time (jose; median of ${FRESH_TOKENS} tokens)`, medianMs: median(first.flat()) });
    const [again] = await interleaved([() => verifier.verifyAccessToken(accessToken)], turns * 10);
    rows.push({ what: "token check, same token again (cached)", medianMs: median(again!) });
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled([open.close(), guarded.close()]);
    await provider.close();
  }
  return rows;
}

export function formatAuthTable(rows: AuthBenchRow[]): string {
  const table = [["operation", "median ms"], ...rows.map((r) => [r.what, r.medianMs.toFixed(3)])];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(table[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...table.slice(1).map(line)].join("\n");
}

// Run alone: npx tsx bench/auth.ts
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatAuthTable(await benchAuth()));
}
