// 2026-07-28 rounds at equal function, in memory: our kit warm (the retry resumes the held handler)
// and cold (warmRounds: false, every retry replays) against three raw SDK tools asking the same:
// bare (no state at all: less than ours does), carrying its state with the SDK's own
// createRequestStateCodec (HMAC, readable), and with a journal it encrypts itself (AES-256-GCM).
// Each carrying tool binds its state to the tool and arguments, expires it, and reads it back on the
// retry, as ours does. Then the n-round curve (n questions in sequence, total CPU of the flow), and
// the heap a held handler takes against the estimate that bounds them.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/client";
import {
  McpServer,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { createElicitation } from "../dist/server/index.js";
import { benchRoundTrips, checkTools, median, openSetup, table, us, type Comparison, type RoundTripRow } from "./harness.js";
import { BOOKING, ROOTS_ANSWER, SAMPLE, SAMPLE_ANSWER, STEP_FORM, elicitAnswerer, hotelInput, text } from "./tools.js";

export const CURVE = [1, 5, 20] as const;
const TTL_MS = 30 * 60_000;

const warm = createElicitation();
const cold = createElicitation({ warmRounds: false });

type Kind = "elicit" | "sample" | "roots";
const request = (kind: Kind, hotel: string) =>
  kind === "elicit"
    ? inputRequired.elicit({ message: `Book ${hotel}?`, requestedSchema: BOOKING as never })
    : kind === "sample"
      ? inputRequired.createMessage(SAMPLE as never)
      : inputRequired.listRoots();
/** The answer's text, as each tool returns it; undefined when the response is not there yet. */
function answerText(kind: Kind, responses: unknown, key: string): string | undefined {
  const view = inputResponse(responses as never, key);
  if (kind === "elicit" && view.kind === "elicit") return view.action === "accept" ? JSON.stringify(view.content) : view.action;
  if (kind === "sample" && view.kind === "sampling") return view.result.model;
  if (kind === "roots" && view.kind === "roots") return view.roots.map((r) => r.name).join(",");
  return undefined;
}

// The SDK's codec: state bound to the tool and arguments (its bind hook sees only the context, so the
// handler leaves the call's binding where the hook finds it), 30 minutes as ours.
const bound = new WeakMap<object, string>();
const codec = createRequestStateCodec<{ call: string; asked: string }>({
  key: randomBytes(32),
  ttlSeconds: TTL_MS / 1000,
  bind: (ctx) => bound.get(ctx.mcpReq) ?? "",
});

// A journal the tool encrypts itself: AES-256-GCM over { call, asked, answers, expiry, binding digest }.
const KEY = randomBytes(32);
type Journal = { c: string; k: string[]; a: Record<string, string>; e: number; b: string };
const bindingOf = (tool: string, args: unknown) =>
  createHash("sha256")
    .update(`${tool}\0${JSON.stringify(args)}`)
    .digest("base64url");
function sealJournal(j: Journal): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", KEY, iv);
  const body = cipher.update(JSON.stringify(j), "utf8");
  cipher.final();
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}
function openJournal(token: unknown, binding: string): Journal {
  const raw = Buffer.from(String(token), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", KEY, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  const plain = decipher.update(raw.subarray(12, raw.length - 16));
  decipher.final();
  const j = JSON.parse(plain.toString("utf8")) as Journal;
  if (Date.now() > j.e || j.b !== binding) throw new Error("requestState refused");
  return j;
}

type Handler = (args: { hotel: string }, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>;

/** Raw tools asking `kind` once: bare, with the SDK's codec, with a sealed journal. */
function rawTools(kind: Kind): Record<string, Handler> {
  const key = kind;
  return {
    [`raw-${kind}`]: async ({ hotel }, ctx) => {
      const got = answerText(kind, ctx.mcpReq.inputResponses, key);
      return got === undefined ? inputRequired({ inputRequests: { [key]: request(kind, hotel) } }) : text(`${kind} ${hotel}: ${got}`);
    },
    [`codec-${kind}`]: async ({ hotel }, ctx) => {
      bound.set(ctx.mcpReq, `codec-${kind}\0${JSON.stringify({ hotel })}`);
      const state = ctx.mcpReq.requestState() as string | undefined;
      if (state === undefined) {
        const requestState = await codec.mint({ call: randomUUID(), asked: key }, ctx);
        return inputRequired({ inputRequests: { [key]: request(kind, hotel) }, requestState });
      }
      const payload = await codec.verify(state, ctx);
      return text(`${kind} ${hotel}: ${answerText(kind, ctx.mcpReq.inputResponses, payload.asked)}`);
    },
    [`sealed-${kind}`]: async ({ hotel }, ctx) => {
      const binding = bindingOf(`sealed-${kind}`, { hotel });
      const state = ctx.mcpReq.requestState() as string | undefined;
      if (state === undefined) {
        const requestState = sealJournal({ c: randomUUID(), k: [key], a: {}, e: Date.now() + TTL_MS, b: binding });
        return inputRequired({ inputRequests: { [key]: request(kind, hotel) }, requestState });
      }
      const j = openJournal(state, binding);
      return text(`${kind} ${hotel}: ${answerText(kind, ctx.mcpReq.inputResponses, j.k[0]!)}`);
    },
  };
}

/** A raw flow of n questions in sequence, its answers carried in a journal it seals each round. */
function rawFlow(n: number): Handler {
  return async (_args, ctx) => {
    const binding = bindingOf(`sealed-flow-${n}`, {});
    const state = ctx.mcpReq.requestState() as string | undefined;
    const j: Journal =
      state === undefined ? { c: randomUUID(), k: [], a: {}, e: Date.now() + TTL_MS, b: binding } : openJournal(state, binding);
    const asked = j.k[j.k.length - 1];
    if (asked) j.a[asked] = answerText("elicit", ctx.mcpReq.inputResponses, asked) ?? "cancel";
    if (j.k.length === n) return text(Object.values(j.a).join(","));
    const next = `step-${j.k.length + 1}`;
    j.k.push(next);
    const params = { message: `Step ${j.k.length} of ${n}: anything to add?`, requestedSchema: STEP_FORM as never };
    return inputRequired({ inputRequests: { [next]: inputRequired.elicit(params) }, requestState: sealJournal(j) });
  };
}

export function makeRoundsServer(): McpServer {
  const server = new McpServer({ name: "bench-rounds", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("plain", { description: "No input", inputSchema: hotelInput }, async ({ hotel }) => text(`booked ${hotel}`));
  for (const kind of ["elicit", "sample", "roots"] as const) {
    for (const [name, handler] of Object.entries(rawTools(kind)))
      server.registerTool(name, { description: `Asks ${kind} by hand`, inputSchema: hotelInput }, handler as never);
    for (const [tag, kit] of [
      ["warm", warm],
      ["cold", cold],
    ] as const) {
      kit.registerTool(
        server,
        `${tag}-${kind}`,
        { description: `Asks ${kind} with our kit`, inputSchema: hotelInput },
        async ({ hotel }, ctx) => {
          if (kind === "elicit") {
            const answer = await ctx.elicit(`Book ${hotel}?`, BOOKING);
            return text(`${kind} ${hotel}: ${answer.action === "accept" ? JSON.stringify(answer.content) : answer.action}`);
          }
          if (kind === "sample") return text(`${kind} ${hotel}: ${(await ctx.sample(SAMPLE)).model}`);
          return text(`${kind} ${hotel}: ${(await ctx.roots()).map((r) => r.name).join(",")}`);
        },
      );
    }
  }
  for (const n of CURVE) {
    for (const [tag, kit] of [
      ["warm", warm],
      ["cold", cold],
    ] as const) {
      kit.registerTool(server, `${tag}-flow-${n}`, { description: `${n} questions in sequence` }, async (_args, ctx) => {
        const answers: string[] = [];
        for (let i = 1; i <= n; i++) {
          const a = await ctx.elicit(`Step ${i} of ${n}: anything to add?`, STEP_FORM);
          answers.push(a.action === "accept" ? String(a.content.answer) : a.action);
        }
        return text(answers.join(","));
      });
    }
    server.registerTool(`sealed-flow-${n}`, { description: `${n} questions by hand` }, ((ctx: ServerContext) =>
      rawFlow(n)({ hotel: "" }, ctx)) as never);
  }
  return server;
}

export function makeRoundsClient(): Client {
  const client = new Client({ name: "bench-rounds-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    inputRequired: { autoFulfill: true, maxRounds: 2 * Math.max(...CURVE) },
  } as never);
  client.setRequestHandler("elicitation/create", elicitAnswerer());
  client.setRequestHandler("sampling/createMessage", async () => SAMPLE_ANSWER as never);
  client.setRequestHandler("roots/list", async () => ROOTS_ANSWER);
  return client;
}

const openRounds = () =>
  openSetup(
    "memory",
    "modern",
    () => makeRoundsServer(),
    () => makeRoundsClient(),
  );

/** Per kind: ours warm and cold, each against the bare raw tool, the codec one and the sealed one. */
export async function benchEqualFunction(): Promise<RoundTripRow[]> {
  const rows: RoundTripRow[] = [];
  const setup = await openRounds();
  try {
    for (const kind of ["elicit", "sample", "roots"] as const) {
      const tools = [`raw-${kind}`, `codec-${kind}`, `sealed-${kind}`, `warm-${kind}`, `cold-${kind}`];
      await checkTools(setup, Object.fromEntries(tools.map((t) => [t, `${kind} Barcelona: `])));
      const comparisons: Comparison[] = [];
      for (const ours of ["warm", "cold"])
        for (const [raw, what] of [
          ["raw", "bare raw"],
          ["codec", "raw + SDK codec"],
          ["sealed", "raw + sealed journal"],
        ])
          comparisons.push({ what: `${kind} ${ours} / ${what}`, raw: `${raw}-${kind}`, ours: `${ours}-${kind}` });
      rows.push(...(await benchRoundTrips(setup, "plain", comparisons)));
    }
  } finally {
    await setup.close();
  }
  return rows;
}

export interface CurveRow {
  tool: string;
  n: number;
  /** Median CPU µs of one whole flow (the first call, n retries), and wall µs. */
  cpuUs: number;
  wallUs: number;
}

const CURVE_ROUNDS = 9;
const CURVE_BATCH_MS = 250;

/** Total CPU of a flow of n questions, for n in CURVE; flows of every n alternate within each round. */
export async function benchCurve(): Promise<CurveRow[]> {
  const setup = await openRounds();
  const tools = ["warm", "cold", "sealed"].flatMap((tag) => CURVE.map((n) => ({ tool: `${tag}-flow-${n}`, n })));
  const flow = async (tool: string) => {
    const result = (await setup.client.callTool({ name: tool, arguments: {} })) as CallToolResult;
    if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result)}`);
  };
  try {
    const perBatch: Record<string, number> = {};
    for (const { tool } of tools) {
      let runs = 0;
      const start = performance.now();
      while (performance.now() - start < 600) {
        await flow(tool);
        runs++;
      }
      perBatch[tool] = Math.max(3, Math.round((runs * CURVE_BATCH_MS) / 600));
    }
    const cpu: Record<string, number[]> = {};
    const wall: Record<string, number[]> = {};
    for (let r = 0; r < CURVE_ROUNDS; r++) {
      for (let i = 0; i < tools.length; i++) {
        const { tool } = tools[(i + r) % tools.length]!;
        const n = perBatch[tool]!;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        for (let k = 0; k < n; k++) await flow(tool);
        const c = process.cpuUsage(c0);
        (wall[tool] ??= []).push(((performance.now() - t0) * 1000) / n);
        (cpu[tool] ??= []).push((c.user + c.system) / n);
      }
    }
    return tools.map(({ tool, n }) => ({ tool, n, cpuUs: median(cpu[tool]!), wallUs: median(wall[tool]!) }));
  } finally {
    await setup.close();
  }
}

export function formatCurve(rows: CurveRow[]): string {
  const byTag = (tag: string) => rows.filter((r) => r.tool.startsWith(`${tag}-`));
  const lines = [
    ["flow of n questions", "n", "CPU µs / flow", "wall µs / flow", "CPU µs / question", "CPU(n) / (n × CPU(1))", "slope µs/question"],
  ];
  for (const tag of ["warm", "cold", "sealed"]) {
    const series = byTag(tag);
    const one = series.find((r) => r.n === 1)!;
    series.forEach((r, i) => {
      const prev = series[i - 1];
      const slope = prev ? (r.cpuUs - prev.cpuUs) / (r.n - prev.n) : NaN;
      lines.push([
        { warm: "ours, warm", cold: "ours, cold (replay)", sealed: "raw + sealed journal" }[tag]!,
        String(r.n),
        us(r.cpuUs),
        us(r.wallUs),
        us(r.cpuUs / r.n),
        (r.cpuUs / (r.n * one.cpuUs)).toFixed(2),
        prev ? us(slope) : "-",
      ]);
    });
  }
  return table(lines);
}

/** Heap a held handler takes (in memory, after gc), against the estimate the maxBytes bound counts. */
export async function heapPerHeld(
  gc: () => Promise<void>,
  count = 2000,
  kind: "memory" | "http" = "memory",
): Promise<{ perHandler: number; estimate: number; count: number }> {
  const kit = createElicitation({ warmRounds: { maxHandlers: count * 2, idleMs: TTL_MS } });
  const server = () => {
    const s = new McpServer({ name: "bench-held", version: "1.0.0" });
    kit.registerTool(s, "held", { description: "Waits on one question", inputSchema: hotelInput }, async ({ hotel }, ctx) => {
      const answer = await ctx.elicit(`Book ${hotel}?`, BOOKING);
      return text(answer.action);
    });
    return s;
  };
  const client = new Client({ name: "bench-held-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    inputRequired: { autoFulfill: false },
  } as never);
  const setup = await openSetup(kind, "modern", server, () => client);
  const call = (i: number) => client.callTool({ name: "held", arguments: { hotel: `h${i}` } }, { allowInputRequired: true } as never);
  try {
    for (let i = 0; i < 200; i++) await call(i); // caches filled
    await gc();
    const before = process.memoryUsage().heapUsed;
    let tokenBytes = 0;
    for (let i = 0; i < count; i++) tokenBytes += String(((await call(i)) as { requestState?: string }).requestState).length;
    await gc();
    // The ledger keeps nothing for a first round; the last 512 states remembered for reopening are counted too.
    const perHandler = (process.memoryUsage().heapUsed - before) / count;
    // HANDLER_BASE_BYTES (src/server/rounds/warm.ts) plus twice the state, as the bound counts it.
    return { perHandler, estimate: 8 * 1024 + (2 * tokenBytes) / count, count };
  } finally {
    await setup.close();
  }
}
