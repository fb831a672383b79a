// What `elicit gateway` adds to a call: a `tools/call` round trip forwarded by the gateway against the
// same call made directly, on stdio (the host starts `elicit gateway -- <server>`, or the server) and on
// Streamable HTTP (the host connects to `elicit gateway --http` in front of the server's URL, or to the
// URL), for a 2025-11-25 host and a 2026-07-28 host. Direct and forwarded calls are timed in turns on
// connections open side by side, after a warm-up, so a busy machine slows both alike; the table gives
// the median and p90 of each and their ratios. A third connection goes through bench/relay-floor.ts, a
// process that only parses and writes each message on: the floor of any process in between.
// BENCH_GATEWAY_CPU_PROF=DIR writes a V8 CPU profile of each gateway process to DIR (node --cpu-prof).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const BIN = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const SERVER = fileURLToPath(new URL("./gateway-server.ts", import.meta.url));
const RELAY = fileURLToPath(new URL("./relay-floor.ts", import.meta.url));
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
type Revision = (typeof REVISIONS)[number];

export interface GatewayBenchRow {
  transport: "stdio" | "HTTP";
  revision: Revision;
  direct: { medianMs: number; p90Ms: number };
  relay: { medianMs: number; p90Ms: number };
  gateway: { medianMs: number; p90Ms: number };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** Times `fns` in turns (one call of each per turn, every other turn reversed), so load hits them alike. */
async function interleaved(fns: Array<() => Promise<unknown>>, turns: number): Promise<number[][]> {
  const samples = fns.map(() => [] as number[]);
  for (let turn = 0; turn < turns; turn++) {
    const order = turn % 2 ? [...fns.entries()].reverse() : [...fns.entries()];
    for (const [i, fn] of order) {
      const started = performance.now();
      await fn();
      samples[i]!.push(performance.now() - started);
    }
  }
  return samples;
}

function clientFor(revision: Revision): Client {
  const options =
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : { supportedProtocolVersions: ["2025-11-25"] };
  return new Client({ name: "bench-host", version: "1.0.0" }, options as never);
}

const nodeArgs = () => (process.env.BENCH_GATEWAY_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_GATEWAY_CPU_PROF}`] : []);

/** Starts `args` with node and resolves with the first match of `pattern` on its stderr (within 60 s). */
function startAndRead(args: string[], pattern: RegExp, children: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within 60 s from ${args.join(" ")}:\n${stderr}`)), 60_000);
    child.stderr!.on("data", (d) => {
      stderr += d;
      const m = pattern.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}:\n${stderr}`)));
  });
}

/** A direct, a relayed and a forwarded connection of one transport and revision: the three calls to time. */
async function connections(transport: "stdio" | "HTTP", revision: Revision, clients: Client[], children: ChildProcess[]) {
  const server = ["--import", "tsx", SERVER];
  const gatewayArgs = [...nodeArgs(), BIN, "gateway", "--no-browser", "--protocol", revision];
  const direct = clientFor(revision);
  const relayed = clientFor(revision);
  const forwarded = clientFor(revision);
  clients.push(direct, relayed, forwarded);
  if (transport === "stdio") {
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [...server, "stdio"], stderr: "ignore" }));
    await relayed.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", RELAY, "stdio", "--", process.execPath, ...server, "stdio"],
        stderr: "ignore",
      }),
    );
    await forwarded.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...gatewayArgs, "--", process.execPath, ...server, "stdio"],
        stderr: "ignore",
      }),
    );
  } else {
    const url = await startAndRead([...server, "http"], /listening on (\S+)/, children);
    const front = await startAndRead(
      [...gatewayArgs, "--http", "0", "--url", url],
      /served to hosts at (\S+) \(Streamable HTTP\)/,
      children,
    );
    const relay = await startAndRead(["--import", "tsx", RELAY, "http", url], /relaying on (\S+)/, children);
    await direct.connect(new StreamableHTTPClientTransport(new URL(url)));
    await relayed.connect(new StreamableHTTPClientTransport(new URL(relay)));
    await forwarded.connect(new StreamableHTTPClientTransport(new URL(front)));
  }
  const call = (client: Client) => () => client.callTool({ name: "echo", arguments: { text: "hello" } });
  return [call(direct), call(relayed), call(forwarded)];
}

export async function benchGateway(options: { turns?: number; warmup?: number } = {}): Promise<GatewayBenchRow[]> {
  const turns = options.turns ?? Number(process.env.BENCH_GATEWAY_TURNS ?? 1500);
  const warmup = options.warmup ?? 300;
  const rows: GatewayBenchRow[] = [];
  for (const transport of ["stdio", "HTTP"] as const)
    for (const revision of REVISIONS) {
      const clients: Client[] = [];
      const children: ChildProcess[] = [];
      try {
        const calls = await connections(transport, revision, clients, children);
        await interleaved(calls, warmup);
        const [direct, relay, gateway] = await interleaved(calls, turns);
        const stats = (xs: number[]) => ({ medianMs: quantile(xs, 0.5), p90Ms: quantile(xs, 0.9) });
        rows.push({ transport, revision, direct: stats(direct!), relay: stats(relay!), gateway: stats(gateway!) });
      } finally {
        await Promise.allSettled(clients.map((c) => c.close()));
        // SIGINT: the gateway stops as at Ctrl-C (and writes its CPU profile).
        for (const child of children) child.kill("SIGINT");
        await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
      }
    }
  return rows;
}

export function formatGatewayTable(rows: GatewayBenchRow[]): string {
  const ms = (x: number) => x.toFixed(3);
  const table = [
    [
      "tools/call round trip",
      "direct median / p90 ms",
      "bare relay median / p90 ms",
      "gateway median / p90 ms",
      "relay/direct median",
      "gateway/direct median / p90",
      "gateway/relay median",
    ],
    ...rows.map((r) => [
      `${r.transport}, ${r.revision} host`,
      `${ms(r.direct.medianMs)} / ${ms(r.direct.p90Ms)}`,
      `${ms(r.relay.medianMs)} / ${ms(r.relay.p90Ms)}`,
      `${ms(r.gateway.medianMs)} / ${ms(r.gateway.p90Ms)}`,
      (r.relay.medianMs / r.direct.medianMs).toFixed(2),
      `${(r.gateway.medianMs / r.direct.medianMs).toFixed(2)} / ${(r.gateway.p90Ms / r.direct.p90Ms).toFixed(2)}`,
      (r.gateway.medianMs / r.relay.medianMs).toFixed(2),
    ]),
  ];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(table[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...table.slice(1).map(line)].join("\n");
}

// Run alone: npx tsx bench/gateway.ts (after a build)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatGatewayTable(await benchGateway()));
}
