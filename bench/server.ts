// Cost of one elicitation round trip through our kit (`ctx.elicit`) against the same tool written
// on the SDK's own path, on the same connection: 2025-11-25 `ctx.mcpReq.elicitInput(params,
// { relatedRequestId })`, 2026-07-28 `inputRequired({ inputRequests })` + `ctx.mcpReq.inputResponses`.
// Every server registers all tools (plain, raw, ours, flow10), so on each setup only the
// elicitation path differs; a plain tools/call (no elicitation) is timed alongside as the unit.
// Then a 10-step flow on 2026-07-28 (ten `ctx.elicit` in sequence, replayed every round):
// total time, per-round time and requestState size, and heap before/after. Setups and timing are
// harness.ts's. On 2026-07-28 "ours" is warm (the retry resumes the held handler); server-rounds.ts
// has ours warm and cold at equal function against three raw tools, and the n-round curve.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/client";
import {
  McpServer,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { createElicitation } from "../dist/server/index.js";
import {
  benchRoundTrips,
  callOnce,
  checkTools,
  formatRoundTrips,
  loadLine,
  median,
  openSetup,
  table,
  type Era,
  type RoundTripRow,
  type Setup,
  type TransportKind,
} from "./harness.js";
import { benchCurve, benchEqualFunction, formatCurve, heapPerHeld, type CurveRow } from "./server-rounds.js";
import { BOOKING, STEP_FORM, elicitAnswerer, hotelInput, text } from "./tools.js";

const FLOW_STEPS = 10;
const FLOW_WARMUP_MS = 1000;
const FLOW_RUNS = { memory: 60, http: 20 };

const kit = createElicitation();

/** One server with every tool of the bench; the raw tool takes the SDK's path for the era. */
export function makeServer(era: Era): McpServer {
  const server = new McpServer({ name: "bench-server", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("plain", { description: "No elicitation", inputSchema: hotelInput }, async ({ hotel }) => text(`booked ${hotel}`));

  kit.registerTool(server, "ours", { description: "Books after one ctx.elicit", inputSchema: hotelInput }, async ({ hotel }, ctx) => {
    const answer = await ctx.elicit(`Book ${hotel}?`, BOOKING);
    return text(answer.action === "accept" ? `booked ${hotel}: ${JSON.stringify(answer.content)}` : answer.action);
  });

  // The SDK's own multi-round style; on a 2025-era connection its legacy shim fulfils it with live requests.
  const inputRequiredTool = async ({ hotel }: { hotel: string }, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "booking");
    if (view.kind !== "elicit") {
      return inputRequired({
        inputRequests: { booking: inputRequired.elicit({ message: `Book ${hotel}?`, requestedSchema: BOOKING as never }) },
      });
    }
    return text(view.action === "accept" ? `booked ${hotel}: ${JSON.stringify(view.content)}` : view.action);
  };
  server.registerTool("shim", { description: "Books after one inputRequired round", inputSchema: hotelInput }, inputRequiredTool);

  if (era === "legacy") {
    server.registerTool(
      "raw",
      { description: "Books after one elicitInput", inputSchema: hotelInput },
      async ({ hotel }, ctx: ServerContext) => {
        const result = await ctx.mcpReq.elicitInput(
          { mode: "form", message: `Book ${hotel}?`, requestedSchema: BOOKING as never },
          { relatedRequestId: ctx.mcpReq.id },
        );
        return text(result.action === "accept" ? `booked ${hotel}: ${JSON.stringify(result.content)}` : result.action);
      },
    );
  } else {
    server.registerTool("raw", { description: "Books after one inputRequired round", inputSchema: hotelInput }, inputRequiredTool);
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

export function makeClient(era: Era): Client {
  const client = new Client({ name: "bench-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    ...(era === "modern"
      ? { versionNegotiation: { mode: { pin: "2026-07-28" } }, inputRequired: { autoFulfill: true, maxRounds: 2 * FLOW_STEPS } }
      : {}),
  } as never);
  client.setRequestHandler("elicitation/create", elicitAnswerer());
  return client;
}

const open = (kind: TransportKind, era: Era) => openSetup(kind, era, makeServer, makeClient);

/** ctx.elicit against the SDK's own path (tool "raw"), with tool "plain" as the unit. */
async function benchElicit(setup: Setup): Promise<RoundTripRow[]> {
  await checkTools(setup, { plain: "booked Barcelona", raw: "booked Barcelona: ", ours: "booked Barcelona: ", shim: "booked Barcelona: " });
  // On 2025 eras also against the SDK's legacy shim: the measurement behind docs/design/sdk-seams.md.
  const shim = setup.era === "legacy" ? [{ what: "legacy shim", raw: "shim", ours: "ours" }] : [];
  return benchRoundTrips(setup, "plain", [{ what: "raw SDK", raw: "raw", ours: "ours" }, ...shim]);
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
  /** Heap bytes each finished call leaves behind (in-memory, 2026-07-28, after gc), ours and raw. */
  keptPerCall?: { ours: number; raw: number; calls: number };
  /** 2026-07-28 in memory at equal function: ours warm and cold against bare, codec and sealed raw tools. */
  equal: RoundTripRow[];
  /** Total CPU of flows of n questions. */
  curve: CurveRow[];
  /** Heap per held (suspended) handler, against the estimate the warmRounds.maxBytes bound counts. */
  held?: Awaited<ReturnType<typeof heapPerHeld>>;
}

/**
 * A full collection, when the runtime lets us switch `gc` on, after a turn of the event loop: an
 * in-memory connection runs call after call as promise callbacks of one task, and V8 keeps the target of
 * every WeakRef made in a task (AbortSignal.any makes them) until that task ends.
 */
function getGc(): (() => Promise<void>) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      gc();
    };
  } catch {
    return undefined;
  }
}

const KEPT_CALLS = 10_000;

/**
 * What a finished 2026-07-28 call leaves in the heap: ours keeps the call ledger's record of its
 * result (for as long as any of its states can come back, 31 minutes by default); raw keeps nothing.
 */
async function keptPerCall(gc: () => Promise<void>): Promise<ServerBenchResult["keptPerCall"]> {
  const setup = await open("memory", "modern");
  try {
    const kept = async (tool: string) => {
      for (let i = 0; i < 2000; i++) await callOnce(setup.client, tool); // warm, and the caches filled
      await gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < KEPT_CALLS; i++) await callOnce(setup.client, tool);
      await gc();
      return (process.memoryUsage().heapUsed - before) / KEPT_CALLS;
    };
    return { raw: await kept("raw"), ours: await kept("ours"), calls: KEPT_CALLS };
  } finally {
    await setup.close();
  }
}

export async function benchServer(): Promise<ServerBenchResult> {
  const equal = await benchEqualFunction();
  const curve = await benchCurve();
  const roundTrips: RoundTripRow[] = [];
  for (const kind of ["memory", "http"] as const) {
    for (const era of ["legacy", "modern"] as const) {
      const setup = await open(kind, era);
      try {
        roundTrips.push(...(await benchElicit(setup)));
      } finally {
        await setup.close();
      }
    }
  }

  const gc = getGc();
  const flows: FlowRow[] = [];
  await gc?.();
  const before = process.memoryUsage().heapUsed;
  let flowRuns = 0;
  for (const [kind, era] of [
    ["memory", "modern"],
    ["http", "modern"],
    ["memory", "legacy"],
  ] as const) {
    const setup = await open(kind, era);
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
    await gc();
    afterGc = process.memoryUsage().heapUsed;
  }
  const kept = gc && (await keptPerCall(gc));
  const held = gc && (await heapPerHeld(gc));
  return {
    roundTrips,
    flows,
    heap: { before, after, afterGc, flowRuns },
    ...(kept && { keptPerCall: kept }),
    equal,
    curve,
    ...(held && { held }),
  };
}

/** The equal-function table, the n-round curve and the heap per held handler. */
function formatEqual(r: ServerBenchResult): string {
  const held = r.held
    ? `heap per held handler (in memory, ${r.held.count} suspended on one booking question, after gc): ${r.held.perHandler.toFixed(0)} B; ` +
      `the maxBytes bound counts ${r.held.estimate.toFixed(0)} B for each`
    : "heap per held handler: gc unavailable";
  return [
    "2026-07-28 in memory, at equal function: ours warm (the retry resumes the held handler) and cold (warmRounds: false, replayed),",
    "each against the bare raw tool (no state), raw + createRequestStateCodec (HMAC, readable) and raw + a journal it seals (AES-256-GCM).",
    "One tools/call with one question (booking form, a sampling request, roots/list), µs per call; ours/raw < 1.0 means ours is faster.",
    "",
    formatRoundTrips(r.equal, { what: "kind, ours / baseline" }),
    "",
    "n-round curve: one tool asking n small forms in sequence (n input_required rounds, then the result), total CPU of the flow",
    "(client + server, one process); linear cost keeps the slope flat and CPU(n) / (n × CPU(1)) at or under 1.",
    "",
    formatCurve(r.curve),
    "",
    held,
    "",
  ].join("\n");
}

export function formatServerTables(r: ServerBenchResult): string {
  const trips = formatRoundTrips(r.roundTrips, { what: "compared with" });
  const flows = table([
    [
      "flow (10 × ctx.elicit)",
      "revision",
      "runs",
      "total ms",
      "ms/step",
      "CPU ms",
      "first round ms",
      "last round ms",
      "final requestState B",
    ],
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
    (heap.afterGc !== undefined
      ? `, ${mib(heap.afterGc)} after gc (${heap.afterGc >= heap.before ? "+" : ""}${((heap.afterGc - heap.before) / 1024).toFixed(0)} KiB)`
      : " (gc unavailable)");
  return [
    loadLine(),
    formatEqual(r),
    "",
    "One tools/call with one elicitation (booking form, client accepts), µs per call; ours/raw < 1.0 means ours is faster.",
    "raw = ctx.mcpReq.elicitInput({ relatedRequestId }) on 2025-11-25, inputRequired() + inputResponses on 2026-07-28 (auto-fulfil);",
    '"legacy shim" rows: raw = that inputRequired() tool on 2025-11-25, fulfilled by the SDK\'s legacy shim (a live request, the handler re-entered);',
    'plain = the same tool without elicitation, so raw/plain reads "the SDK\'s elicitation costs about N plain tool calls".',
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
    ...(r.keptPerCall
      ? [
          `heap kept per finished call (in-memory, 2026-07-28, ${r.keptPerCall.calls} calls, after gc): ours ${r.keptPerCall.ours.toFixed(0)} B ` +
            `(the call ledger's record of the result, kept 31 min), raw ${r.keptPerCall.raw.toFixed(0)} B`,
        ]
      : []),
  ].join("\n");
}
