// Cost of one elicitation round trip through our kit (`ctx.elicit`) against the same tool written
// on the SDK's own path, on the same connection: 2025-11-25 `ctx.mcpReq.elicitInput(params,
// { relatedRequestId })`, 2026-07-28 `inputRequired({ inputRequests })` + `ctx.mcpReq.inputResponses`.
// Every server registers all tools (plain, raw, ours, flow10), so on each setup only the
// elicitation path differs; a plain tools/call (no elicitation) is timed alongside as the unit.
// Then a 10-step flow on 2026-07-28 (ten `ctx.elicit` in sequence, replayed every round):
// total time, per-round time and requestState size, and heap before/after.
//
// Timing: warmup, then ROUNDS rounds; in each round every variant runs one batch of calls
// (~BATCH_MS, order rotated per round) and we keep the batch mean. A variant's time is the median of
// its batch means; ours/raw is the median of the per-round ratios (paired, so drift cancels).
// Process CPU time (client + server, all threads) is kept too: on a shared machine it moves less
// than wall time when other work takes the cores.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  InMemoryTransport,
  McpServer,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import type { RequestedSchema } from "../dist/schema/index.js";
import { createElicitation, serveHttp } from "../dist/server/index.js";
import { bookingSchema } from "../test/helpers/seeds.js";

const WARMUP_MS = 300;
const ROUNDS = 9;
const BATCH_MS = 180;
const FLOW_STEPS = 10;
const FLOW_WARMUP_MS = 1000;
const FLOW_RUNS = { memory: 60, http: 20 };

type Era = "legacy" | "modern";
type Variant = "plain" | "raw" | "ours";
const VARIANTS: Variant[] = ["plain", "raw", "ours"];

const BOOKING: RequestedSchema = bookingSchema();
const BOOKING_ANSWER = { confirmBooking: true, seatPreference: "window", roomType: "sea view", travelInsurance: false };
const STEP_FORM: RequestedSchema = {
  type: "object",
  properties: { answer: { type: "string", title: "Answer", maxLength: 40 }, ok: { type: "boolean", default: true } },
  required: ["answer"],
};

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const hotelInput = z.object({ hotel: z.string() });
const kit = createElicitation();

/** One server with every tool of the bench; the raw tool takes the SDK's path for the era. */
function makeServer(era: Era): McpServer {
  const server = new McpServer({ name: "bench-server", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("plain", { description: "No elicitation", inputSchema: hotelInput }, async ({ hotel }) => text(`booked ${hotel}`));

  kit.registerTool(server, "ours", { description: "Books after one ctx.elicit", inputSchema: hotelInput }, async ({ hotel }, ctx) => {
    const answer = await ctx.elicit(`Book ${hotel}?`, BOOKING);
    return text(answer.action === "accept" ? `booked ${hotel}: ${JSON.stringify(answer.content)}` : answer.action);
  });

  if (era === "legacy") {
    server.registerTool("raw", { description: "Books after one elicitInput", inputSchema: hotelInput }, async ({ hotel }, ctx: ServerContext) => {
      const result = await ctx.mcpReq.elicitInput(
        { mode: "form", message: `Book ${hotel}?`, requestedSchema: BOOKING as never },
        { relatedRequestId: ctx.mcpReq.id },
      );
      return text(result.action === "accept" ? `booked ${hotel}: ${JSON.stringify(result.content)}` : result.action);
    });
  } else {
    server.registerTool(
      "raw",
      { description: "Books after one inputRequired round", inputSchema: hotelInput },
      async ({ hotel }, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
        const view = inputResponse(ctx.mcpReq.inputResponses, "booking");
        if (view.kind !== "elicit") {
          return inputRequired({ inputRequests: { booking: inputRequired.elicit({ message: `Book ${hotel}?`, requestedSchema: BOOKING as never }) } });
        }
        return text(view.action === "accept" ? `booked ${hotel}: ${JSON.stringify(view.content)}` : view.action);
      },
    );
  }

  kit.registerTool(server, "flow10", { description: `${FLOW_STEPS} questions in sequence` }, async (_args, ctx) => {
    const answers: string[] = [];
    for (let i = 1; i <= FLOW_STEPS; i++) {
      const a = await ctx.elicit(`Step ${i} of ${FLOW_STEPS}: anything to add?`, STEP_FORM);
      answers.push(a.action === "accept" ? String(a.content.answer) : a.action);
    }
    return text(answers.join(","));
  });
  return server;
}

/** Incoming input_required results (the client transport's view), for the flow bench. */
interface Observer {
  record?: (requestStateBytes: number) => void;
}

function makeClient(era: Era): Client {
  const client = new Client(
    { name: "bench-client", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } }, inputRequired: { autoFulfill: true, maxRounds: 2 * FLOW_STEPS } } : {}),
    } as never,
  );
  let n = 0;
  client.setRequestHandler("elicitation/create", async (request) => {
    const props = (request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {};
    return { action: "accept", content: "confirmBooking" in props ? BOOKING_ANSWER : { answer: `a${n++ % 10}`, ok: true } };
  });
  return client;
}

/** Lets `observer` see every input_required result the client receives (same cost for every variant). */
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

interface Setup {
  name: string;
  era: Era;
  client: Client;
  observer: Observer;
  close(): Promise<void>;
}

async function openSetup(transportKind: "memory" | "http", era: Era): Promise<Setup> {
  const client = makeClient(era);
  const observer: Observer = {};
  const name = `${transportKind === "memory" ? "in-memory" : "HTTP 127.0.0.1"}`;
  if (transportKind === "http") {
    const http = await serveHttp(({ era }) => makeServer(era));
    const transport = new StreamableHTTPClientTransport(http.url);
    await client.connect(transport);
    observe(transport as never, observer);
    return { name, era, client, observer, close: async () => { await client.close(); await http.close(); } };
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  let closeServer = async () => {};
  if (era === "modern") {
    const handle = serveStdio(({ era }) => makeServer(era), { transport: serverSide });
    closeServer = () => handle.close();
  } else {
    const server = makeServer("legacy");
    await server.connect(serverSide);
    closeServer = () => server.close();
  }
  await client.connect(clientSide);
  observe(clientSide as never, observer);
  return { name, era, client, observer, close: async () => { await client.close(); await closeServer(); } };
}

const EXPECTED: Record<Variant, string> = { plain: "booked Barcelona", raw: "booked Barcelona: ", ours: "booked Barcelona: " };

async function callOnce(client: Client, variant: Variant) {
  return (await client.callTool({ name: variant, arguments: { hotel: "Barcelona" } })) as CallToolResult;
}

/** Wall and CPU µs per call of `n` sequential calls. */
async function batch(client: Client, variant: Variant, n: number): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await callOnce(client, variant);
  const wall = Number(process.hrtime.bigint() - start) / n / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / n };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface RoundTripRow {
  setup: string;
  revision: string;
  /** Median µs per tools/call. */
  us: Record<Variant, number>;
  /** Median of per-round ours/raw ratios (wall), their range, and the same median on CPU time. */
  oursOverRaw: number;
  ratioMin: number;
  ratioMax: number;
  oursOverRawCpu: number;
  /** Timed calls, all variants together. */
  calls: number;
}

async function benchRoundTrips(setup: Setup): Promise<RoundTripRow> {
  const { client } = setup;
  // Sanity (not a timing assertion): the three tools must do what the bench says they do.
  for (const v of VARIANTS) {
    const result = await callOnce(client, v);
    const got = (result.content[0] as { text?: string } | undefined)?.text ?? "";
    if (result.isError || !got.startsWith(EXPECTED[v])) throw new Error(`${setup.name} ${setup.era} ${v}: unexpected result ${JSON.stringify(result)}`);
  }
  const perBatch = {} as Record<Variant, number>;
  for (const v of VARIANTS) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < WARMUP_MS) {
      await callOnce(client, v);
      n++;
    }
    perBatch[v] = Math.max(5, Math.round((n * BATCH_MS) / WARMUP_MS));
  }
  const samples: Record<Variant, number[]> = { plain: [], raw: [], ours: [] };
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  let calls = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
    const round = {} as Record<Variant, { wall: number; cpu: number }>;
    for (const v of order) {
      round[v] = await batch(client, v, perBatch[v]);
      samples[v].push(round[v].wall);
      calls += perBatch[v];
    }
    ratios.push(round.ours.wall / round.raw.wall);
    cpuRatios.push(round.ours.cpu / round.raw.cpu);
  }
  return {
    setup: setup.name,
    revision: client.getNegotiatedProtocolVersion() ?? "?",
    us: { plain: median(samples.plain), raw: median(samples.raw), ours: median(samples.ours) },
    oursOverRaw: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    oursOverRawCpu: median(cpuRatios),
    calls,
  };
}

export interface FlowRow {
  setup: string;
  revision: string;
  runs: number;
  /** Median ms per whole flow (FLOW_STEPS elicitations + the final call), wall and process CPU. */
  totalMs: number;
  cpuMs: number;
  /** requestState bytes in each input_required result, by round (2026-07-28 only). */
  stateBytes: number[];
  /** Median ms of each round, from the call (or previous round) to that round's input_required. */
  roundMs: number[];
}

async function benchFlow(setup: Setup, runs: number): Promise<FlowRow & { warmupRuns: number }> {
  const { client, observer } = setup;
  const run = async () => {
    const result = (await client.callTool({ name: "flow10", arguments: {} })) as CallToolResult;
    if (result.isError) throw new Error(`flow10 failed: ${JSON.stringify(result)}`);
  };
  let warmupRuns = 0;
  const warmupStart = performance.now();
  while (performance.now() - warmupStart < FLOW_WARMUP_MS) {
    await run();
    warmupRuns++;
  }
  const totals: number[] = [];
  const cpus: number[] = [];
  const rounds: number[][] = [];
  let stateBytes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const bytes: number[] = [];
    const marks: number[] = [];
    let last = performance.now();
    observer.record = (b) => {
      const now = performance.now();
      bytes.push(b);
      marks.push(now - last);
      last = now;
    };
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    await run();
    const end = performance.now();
    const cpu = process.cpuUsage(cpu0);
    cpus.push((cpu.user + cpu.system) / 1000);
    observer.record = undefined;
    marks.push(end - last); // the final round: last answers in, complete result out
    totals.push(end - start);
    rounds.push(marks);
    stateBytes = bytes;
  }
  const roundMs = rounds[0]!.map((_, k) => median(rounds.map((r) => r[k] ?? 0)));
  const revision = client.getNegotiatedProtocolVersion() ?? "?";
  return { setup: setup.name, revision, runs, totalMs: median(totals), cpuMs: median(cpus), stateBytes, roundMs, warmupRuns };
}

export interface ServerBenchResult {
  roundTrips: RoundTripRow[];
  flows: FlowRow[];
  heap: { before: number; after: number; afterGc: number | undefined; flowRuns: number };
}

/** `global.gc`, when the runtime lets us switch it on. */
function getGc(): (() => void) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return undefined;
  }
}

export async function benchServer(): Promise<ServerBenchResult> {
  const roundTrips: RoundTripRow[] = [];
  for (const kind of ["memory", "http"] as const) {
    for (const era of ["legacy", "modern"] as const) {
      const setup = await openSetup(kind, era);
      try {
        roundTrips.push(await benchRoundTrips(setup));
      } finally {
        await setup.close();
      }
    }
  }

  const gc = getGc();
  const flows: FlowRow[] = [];
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let flowRuns = 0;
  for (const [kind, era] of [["memory", "modern"], ["http", "modern"], ["memory", "legacy"]] as const) {
    const setup = await openSetup(kind, era);
    try {
      const row = await benchFlow(setup, FLOW_RUNS[kind]);
      flows.push(row);
      flowRuns += row.warmupRuns + row.runs;
    } finally {
      await setup.close();
    }
  }
  const after = process.memoryUsage().heapUsed;
  let afterGc: number | undefined;
  if (gc) {
    gc();
    afterGc = process.memoryUsage().heapUsed;
  }
  return { roundTrips, flows, heap: { before, after, afterGc, flowRuns } };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export function formatServerTables(r: ServerBenchResult): string {
  const us = (n: number) => Math.round(n).toLocaleString("en-US");
  const x = (n: number) => n.toFixed(2);
  const trips = table([
    ["setup", "revision", "plain µs", "raw SDK µs", "ours µs", "ours/raw", "(per-round range)", "ours/raw CPU", "raw/plain", "ours/plain", "timed calls"],
    ...r.roundTrips.map((row) => [
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
  const flows = table([
    ["flow (10 × ctx.elicit)", "revision", "runs", "total ms", "ms/step", "CPU ms", "first round ms", "last round ms", "final requestState B"],
    ...r.flows.map((f) => [
      f.setup,
      f.revision,
      String(f.runs),
      f.totalMs.toFixed(2),
      (f.totalMs / FLOW_STEPS).toFixed(2),
      f.cpuMs.toFixed(2),
      f.stateBytes.length ? f.roundMs[0]!.toFixed(2) : "-",
      f.stateBytes.length ? f.roundMs[f.roundMs.length - 1]!.toFixed(2) : "-",
      f.stateBytes.length ? String(f.stateBytes[f.stateBytes.length - 1]) : "- (live)",
    ]),
  ]);
  const modern = r.flows.find((f) => f.stateBytes.length) ?? r.flows[0]!;
  const perRound = table([
    ["round", ...modern.roundMs.map((_, k) => (k < modern.stateBytes.length ? String(k + 1) : "final"))],
    ["requestState bytes", ...modern.roundMs.map((_, k) => (k < modern.stateBytes.length ? String(modern.stateBytes[k]) : "-"))],
    ["round ms (median)", ...modern.roundMs.map((ms) => ms.toFixed(2))],
  ]);
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  const { heap } = r;
  const heapNote =
    `heap used: ${mib(heap.before)} before the flows (after gc), ${mib(heap.after)} after ${heap.flowRuns} flows` +
    (heap.afterGc !== undefined ? `, ${mib(heap.afterGc)} after gc (${heap.afterGc >= heap.before ? "+" : ""}${((heap.afterGc - heap.before) / 1024).toFixed(0)} KiB)` : " (gc unavailable)");
  return [
    "One tools/call with one elicitation (booking form, client accepts), µs per call; ours/raw < 1.0 means ours is faster.",
    "raw = ctx.mcpReq.elicitInput({ relatedRequestId }) on 2025-11-25, inputRequired() + inputResponses on 2026-07-28 (auto-fulfil);",
    "plain = the same tool without elicitation, so raw/plain reads \"the SDK's elicitation costs about N plain tool calls\".",
    "",
    trips,
    "",
    `${FLOW_STEPS}-step flow: one tool calling ctx.elicit ${FLOW_STEPS} times (small form); 2026-07-28 replays the handler every round.`,
    "",
    flows,
    "",
    `Per round, ${modern.setup} ${modern.revision}: round 1 is the first call, round k the retry carrying k-1 answers;`,
    "bytes = the requestState in that round's input_required; round ms = client-side, from the previous result to this one.",
    "",
    perRound,
    "",
    heapNote,
  ].join("\n");
}
