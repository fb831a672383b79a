// The round-trip machinery shared by server.ts (ctx.elicit) and inputs.ts (ctx.sample, ctx.roots):
// a client and server on one connection (in-memory or Streamable HTTP, 2025-11-25 or 2026-07-28),
// paired timing of tools on that connection, and the table they are printed in.
//
// Timing: warmup (per tool, until the JIT has settled), then ROUNDS rounds; in each round every tool runs one batch of calls (~BATCH_MS,
// order rotated per round) and we keep the batch mean. A tool's time is the median of its batch
// means; ours/raw is the median of the per-round ratios (paired, so drift cancels). Process CPU
// time (client + server, all threads) is kept too: on a shared machine it moves less than wall
// time when other work takes the cores.
import { StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, type CallToolResult, type McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { loadavg } from "node:os";
import { serveHttp } from "../dist/node/index.js";

// Long enough for V8 to finish optimizing both paths: after ~1,600 calls TurboFan was still compiling
// our functions (a third of the instructions of a call, counted with callgrind), none after ~8,000.
const WARMUP_MS = 1500;
const ROUNDS = 9;
const BATCH_MS = 180;

export type Era = "legacy" | "modern";
export type TransportKind = "memory" | "http";

/** Incoming input_required results (the client transport's view). */
export interface Observer {
  record?: (requestStateBytes: number) => void;
}

/** Lets `observer` see every input_required result the client receives (same cost for every tool). */
function observe(transport: { onmessage?: (message: never, extra?: never) => void }, observer: Observer) {
  const inner = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if (observer.record) {
      const result = (message as { result?: { resultType?: string; requestState?: string } }).result;
      if (result?.resultType === "input_required") observer.record(Buffer.byteLength(result.requestState ?? ""));
    }
    inner(message, extra);
  };
}

export interface Setup {
  name: string;
  era: Era;
  client: Client;
  observer: Observer;
  close(): Promise<void>;
}

/** One connection: `makeServer(era)` behind the transport (per session over HTTP), `makeClient(era)` in front. */
export async function openSetup(
  kind: TransportKind,
  era: Era,
  makeServer: (era: Era) => McpServer,
  makeClient: (era: Era) => Client,
): Promise<Setup> {
  const client = makeClient(era);
  const observer: Observer = {};
  const name = kind === "memory" ? "in-memory" : "HTTP 127.0.0.1";
  let transport: StreamableHTTPClientTransport | InMemoryTransport;
  let closeServer: () => Promise<void>;
  if (kind === "http") {
    const http = await serveHttp(({ era }) => makeServer(era));
    transport = new StreamableHTTPClientTransport(http.url);
    closeServer = () => http.close();
  } else {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    transport = clientSide;
    if (era === "modern") {
      const handle = serveStdio(({ era }) => makeServer(era), { transport: serverSide });
      closeServer = () => handle.close();
    } else {
      const server = makeServer("legacy");
      await server.connect(serverSide);
      closeServer = () => server.close();
    }
  }
  await client.connect(transport);
  observe(transport as never, observer);
  return {
    name,
    era,
    client,
    observer,
    close: async () => {
      await client.close();
      await closeServer();
    },
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export const ARGS = { hotel: "Barcelona" };

export async function callOnce(client: Client, tool: string) {
  return (await client.callTool({ name: tool, arguments: ARGS })) as CallToolResult;
}

/** Calls each tool once and checks its text starts as expected (sanity, not a timing assertion). */
export async function checkTools(setup: Setup, expected: Record<string, string>): Promise<void> {
  for (const [tool, prefix] of Object.entries(expected)) {
    const result = await callOnce(setup.client, tool);
    const got = (result.content[0] as { text?: string } | undefined)?.text ?? "";
    if (result.isError || !got.startsWith(prefix))
      throw new Error(`${setup.name} ${setup.era} ${tool}: unexpected result ${JSON.stringify(result)}`);
  }
}

/** Wall and CPU µs per call of `n` sequential calls. */
async function batch(client: Client, tool: string, n: number): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await callOnce(client, tool);
  const wall = Number(process.hrtime.bigint() - start) / n / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / n };
}

/** One comparison on a setup: `ours` against `raw`, with `plain` (a tool call without input requests) as the unit. */
export interface Comparison {
  what: string;
  raw: string;
  ours: string;
}

export interface RoundTripRow {
  what: string;
  setup: string;
  revision: string;
  /** Median µs per tools/call. */
  us: { plain: number; raw: number; ours: number };
  /** Median of per-round ours/raw ratios (wall), their range, and the same median on CPU time. */
  oursOverRaw: number;
  ratioMin: number;
  ratioMax: number;
  oursOverRawCpu: number;
  /** Timed calls of the three tools. */
  calls: number;
}

/** Times `plain` and every comparison's tools in the same rounds; one row per comparison. */
export async function benchRoundTrips(setup: Setup, plain: string, comparisons: Comparison[]): Promise<RoundTripRow[]> {
  const { client } = setup;
  const tools = [...new Set([plain, ...comparisons.flatMap((c) => [c.raw, c.ours])])];
  const perBatch: Record<string, number> = {};
  for (const tool of tools) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < WARMUP_MS) {
      await callOnce(client, tool);
      n++;
    }
    perBatch[tool] = Math.max(5, Math.round((n * BATCH_MS) / WARMUP_MS));
  }
  const samples: Record<string, number[]> = Object.fromEntries(tools.map((t) => [t, []]));
  const ratios = comparisons.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let r = 0; r < ROUNDS; r++) {
    const round: Record<string, { wall: number; cpu: number }> = {};
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[(i + r) % tools.length]!;
      round[tool] = await batch(client, tool, perBatch[tool]!);
      samples[tool]!.push(round[tool].wall);
    }
    comparisons.forEach((c, k) => {
      ratios[k]!.wall.push(round[c.ours]!.wall / round[c.raw]!.wall);
      ratios[k]!.cpu.push(round[c.ours]!.cpu / round[c.raw]!.cpu);
    });
  }
  const revision = client.getNegotiatedProtocolVersion() ?? "?";
  return comparisons.map((c, k) => ({
    what: c.what,
    setup: setup.name,
    revision,
    us: { plain: median(samples[plain]!), raw: median(samples[c.raw]!), ours: median(samples[c.ours]!) },
    oursOverRaw: median(ratios[k]!.wall),
    ratioMin: Math.min(...ratios[k]!.wall),
    ratioMax: Math.max(...ratios[k]!.wall),
    oursOverRawCpu: median(ratios[k]!.cpu),
    calls: ROUNDS * (perBatch[plain]! + perBatch[c.raw]! + perBatch[c.ours]!),
  }));
}

/** The machine's load when a table was made: round trips on a busy machine read slower (and noisier). */
export const loadLine = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} (1, 5, 15 min)`;

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export const us = (n: number) => Math.round(n).toLocaleString("en-US");

/** The round-trip table; `what` adds a first column, `raw`/`ours` rename the compared columns. */
export function formatRoundTrips(rows: RoundTripRow[], options: { what?: string; raw?: string; ours?: string } = {}): string {
  const x = (n: number) => n.toFixed(2);
  const { raw = "raw", ours = "ours" } = options;
  const lead = options.what ? [options.what] : [];
  return table([
    [
      ...lead,
      "setup",
      "revision",
      "plain µs",
      `${raw === "raw" ? "raw SDK" : raw} µs`,
      `${ours} µs`,
      `${ours}/${raw}`,
      "(per-round range)",
      `${ours}/${raw} CPU`,
      `${raw}/plain`,
      `${ours}/plain`,
      "timed calls",
    ],
    ...rows.map((row) => [
      ...(options.what ? [row.what] : []),
      row.setup,
      row.revision,
      us(row.us.plain),
      us(row.us.raw),
      us(row.us.ours),
      row.oursOverRaw.toFixed(3),
      `${row.ratioMin.toFixed(2)}–${row.ratioMax.toFixed(2)}`,
      row.oursOverRawCpu.toFixed(3),
      x(row.us.raw / row.us.plain),
      x(row.us.ours / row.us.plain),
      row.calls.toLocaleString("en-US"),
    ]),
  ]);
}
