// Cost of `ctx.sample(...)` and `ctx.roots()` (createElicitation) against the same tools written by
// hand on the SDK, on the same connection, reported like ctx.elicit in server.ts: 2025-11-25
// `ctx.mcpReq.send({ method: "sampling/createMessage" | "roots/list" })`, 2026-07-28
// `inputRequired({ inputRequests: { k: inputRequired.createMessage(...) | listRoots() } })` and
// `inputResponse(ctx.mcpReq.inputResponses, k)` on the retry. A plain tools/call is the unit.
// On 2026-07-28 also one round asking elicit + sample + roots together (Promise.all) against the
// same three asked one after another (three rounds), and the requestState of that one round.
//
// The client declares roots without listChanged, so ctx.roots asks on every call; with listChanged
// it would answer 2025-era calls from its per-connection cache, with no round trip to compare.
import { Client } from "@modelcontextprotocol/client";
import {
  McpServer,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type CreateMessageRequestParams,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { createElicitation } from "../dist/server/index.js";
import { bookingSchema } from "../test/helpers/seeds.js";
import {
  benchRoundTrips,
  callOnce,
  checkTools,
  formatRoundTrips,
  loadLine,
  openSetup,
  type Comparison,
  type Era,
  type RoundTripRow,
  type Setup,
} from "./harness.js";

const BOOKING = bookingSchema();
const BOOKING_ANSWER = { confirmBooking: true, seatPreference: "window", roomType: "sea view", travelInsurance: false };
const SAMPLE_ANSWER = {
  role: "assistant",
  content: { type: "text", text: "IB 3021: direct, 2 h 05, €142." },
  model: "bench-model",
  stopReason: "endTurn",
};
const ROOTS_ANSWER = { roots: [{ uri: "file:///home/ada/trips", name: "trips" }] };

/** A small model request like the travel example's: pick a fare from a short list. */
const sampleFor = (hotel: string): CreateMessageRequestParams => ({
  systemPrompt: "You pick the best flight for the traveller. Answer with the flight number and one line why.",
  messages: [
    {
      role: "user",
      content: {
        type: "text",
        text: `Trip to ${hotel}, 2026-06-15 to 2026-06-22. Fares:\n1. IB 3021 direct 2 h 05 €142\n2. VY 1001 direct 2 h 10 €119, no bag\n3. LH 1130 via FRA 5 h 40 €176`,
      },
    },
  ],
  maxTokens: 200,
  modelPreferences: { intelligencePriority: 0.8, speedPriority: 0.3 },
});

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const hotelInput = z.object({ hotel: z.string() });
const kit = createElicitation();

const SAMPLE: Comparison = { what: "ctx.sample", raw: "raw-sample", ours: "ours-sample" };
const ROOTS: Comparison = { what: "ctx.roots", raw: "raw-roots", ours: "ours-roots" };
const MIXED: Comparison = { what: "elicit + sample + roots", raw: "seq3", ours: "mixed" };

export function makeServer(era: Era): McpServer {
  const server = new McpServer({ name: "bench-inputs", version: "1.0.0" }, { capabilities: { tools: {} } });
  const tool = <R extends CallToolResult | InputRequiredResult>(name: string, cb: (hotel: string, ctx: ServerContext) => Promise<R>) =>
    server.registerTool(name, { description: name, inputSchema: hotelInput }, ({ hotel }, ctx) => cb(hotel, ctx));
  tool("plain", async (hotel) => text(`plain ${hotel}`));

  kit.registerTool(server, SAMPLE.ours, { description: "One ctx.sample", inputSchema: hotelInput }, async ({ hotel }, ctx) => {
    const result = await ctx.sample(sampleFor(hotel));
    return text(`sampled ${hotel}: ${result.model}`);
  });
  kit.registerTool(server, ROOTS.ours, { description: "One ctx.roots", inputSchema: hotelInput }, async ({ hotel }, ctx) => {
    const roots = await ctx.roots();
    return text(`roots ${hotel}: ${roots.map((r) => r.name).join(",")}`);
  });

  if (era === "legacy") {
    tool(SAMPLE.raw, async (hotel, ctx) => {
      const result = await ctx.mcpReq.send({ method: "sampling/createMessage", params: sampleFor(hotel) });
      return text(`sampled ${hotel}: ${result.model}`);
    });
    tool(ROOTS.raw, async (hotel, ctx) => {
      const { roots } = await ctx.mcpReq.send({ method: "roots/list" });
      return text(`roots ${hotel}: ${roots.map((r) => r.name).join(",")}`);
    });
    return server;
  }

  tool(SAMPLE.raw, async (hotel, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "pick");
    if (view.kind !== "sampling") return inputRequired({ inputRequests: { pick: inputRequired.createMessage(sampleFor(hotel)) } });
    return text(`sampled ${hotel}: ${view.result.model}`);
  });
  tool(ROOTS.raw, async (hotel, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "roots");
    if (view.kind !== "roots") return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return text(`roots ${hotel}: ${view.roots.map((r) => r.name).join(",")}`);
  });

  // The same three requests, in one round and in three.
  kit.registerTool(
    server,
    MIXED.ours,
    { description: "elicit + sample + roots in one round", inputSchema: hotelInput },
    async ({ hotel }, ctx) => {
      const [answer, sample, roots] = await Promise.all([ctx.elicit(`Book ${hotel}?`, BOOKING), ctx.sample(sampleFor(hotel)), ctx.roots()]);
      return text(`asked ${hotel}: ${answer.action} ${sample.model} ${roots.length}`);
    },
  );
  kit.registerTool(
    server,
    MIXED.raw,
    { description: "elicit, then sample, then roots", inputSchema: hotelInput },
    async ({ hotel }, ctx) => {
      const answer = await ctx.elicit(`Book ${hotel}?`, BOOKING);
      const sample = await ctx.sample(sampleFor(hotel));
      const roots = await ctx.roots();
      return text(`asked ${hotel}: ${answer.action} ${sample.model} ${roots.length}`);
    },
  );
  return server;
}

export function makeClient(era: Era): Client {
  const client = new Client({ name: "bench-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    ...(era === "modern"
      ? { versionNegotiation: { mode: { pin: "2026-07-28" } }, inputRequired: { autoFulfill: true, maxRounds: 5 } }
      : {}),
  } as never);
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: BOOKING_ANSWER }));
  client.setRequestHandler("sampling/createMessage", async () => SAMPLE_ANSWER as never);
  client.setRequestHandler("roots/list", async () => ROOTS_ANSWER);
  return client;
}

/** requestState bytes of each input_required result of one call of `tool`. */
async function stateSizes(setup: Setup, tool: string): Promise<number[]> {
  const bytes: number[] = [];
  setup.observer.record = (b) => bytes.push(b);
  try {
    await callOnce(setup.client, tool);
  } finally {
    setup.observer.record = undefined;
  }
  return bytes;
}

export interface MixedRow extends RoundTripRow {
  /** requestState bytes of the one mixed round, and of each of the three sequential rounds. */
  mixedState: number;
  seqStates: number[];
}

export interface InputsBenchResult {
  roundTrips: RoundTripRow[];
  mixed: MixedRow[];
}

export async function benchInputs(): Promise<InputsBenchResult> {
  const roundTrips: RoundTripRow[] = [];
  const mixed: MixedRow[] = [];
  for (const kind of ["memory", "http"] as const) {
    for (const era of ["legacy", "modern"] as const) {
      const setup = await openSetup(kind, era, makeServer, makeClient);
      try {
        const expected: Record<string, string> = {
          plain: "plain Barcelona",
          [SAMPLE.raw]: "sampled Barcelona: bench-model",
          [ROOTS.raw]: "roots Barcelona: trips",
        };
        Object.assign(expected, { [SAMPLE.ours]: expected[SAMPLE.raw], [ROOTS.ours]: expected[ROOTS.raw] });
        if (era === "modern")
          Object.assign(expected, {
            [MIXED.raw]: "asked Barcelona: accept bench-model 1",
            [MIXED.ours]: "asked Barcelona: accept bench-model 1",
          });
        await checkTools(setup, expected);
        const rows = await benchRoundTrips(setup, "plain", era === "modern" ? [SAMPLE, ROOTS, MIXED] : [SAMPLE, ROOTS]);
        roundTrips.push(...rows.filter((r) => r.what !== MIXED.what));
        const row = rows.find((r) => r.what === MIXED.what);
        if (row) {
          const [mixedState = 0] = await stateSizes(setup, MIXED.ours);
          mixed.push({ ...row, mixedState, seqStates: await stateSizes(setup, MIXED.raw) });
        }
      } finally {
        await setup.close();
      }
    }
  }
  return { roundTrips, mixed };
}

export function formatInputsTables(r: InputsBenchResult): string {
  const state = r.mixed[0];
  return [
    loadLine(),
    "One tools/call with one sampling/createMessage (a 3-fare prompt) or roots/list, µs per call; ours/raw < 1.0 means ours is faster.",
    "raw = ctx.mcpReq.send({ method }) on 2025-11-25, inputRequired.createMessage()/listRoots() + inputResponses on 2026-07-28 (auto-fulfil).",
    "",
    formatRoundTrips(r.roundTrips, { what: "request" }),
    "",
    "2026-07-28: ctx.elicit + ctx.sample + ctx.roots under Promise.all (one round, mixed) against the same three awaited in turn (seq, three rounds).",
    "",
    formatRoundTrips(r.mixed, { what: "requests", raw: "seq", ours: "mixed" }),
    "",
    state
      ? `requestState: ${state.mixedState} bytes in the mixed round's input_required; ${state.seqStates.join(", ")} bytes in the three sequential rounds'.`
      : "",
  ].join("\n");
}
