// The fleet against one instance: 3 serveHttp members on one real Redis behind a real HAProxy (sticky
// on Mcp-Session-Id), against 1 member behind the same proxy, so only the member count differs. Both
// run test/fixtures/fleet-server.ts's tools in member processes (test/helpers/fleet.ts). Measured:
// - throughput of complete elicitation round trips from WORKERS concurrent lean clients
//   (bench/scale-client.ts) for DURATION_MS: 2026-07-28 (tool `book`: first round, then the retry with
//   the answer; any member serves any round) and 2025-11-25 (a session: initialize, the call, its
//   elicitation answered, the result, DELETE; sticky to its member);
// - completion delivery across members: a 2025-11-25 session held by member A, a URL flow finished on
//   member B's page, and the time until the client on A hears of it (notifications/elicitation/complete,
//   else the tool's result), through Redis pub/sub. COMPLETIONS samples, one at a time.
// The machine's load average is printed before and after each part. Run alone: `npx tsx bench/fleet.ts`.
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startFleet, type Fleet } from "../test/helpers/fleet.js";
import { watchGetStream } from "../test/helpers/get-stream.js";
import { startRedis } from "../test/helpers/redis.js";
import { table } from "./harness.js";
import { kindOf, makeAgent, modernCall, startLegacyCall, type Wire } from "./scale-client.js";

const WORKERS = Number(process.env.BENCH_FLEET_WORKERS ?? 32);
const DURATION_MS = Number(process.env.BENCH_FLEET_DURATION_MS ?? 8_000);
const COMPLETIONS = Number(process.env.BENCH_FLEET_COMPLETIONS ?? 200);

interface Throughput {
  rounds: number;
  perSecond: number;
  errors: Record<string, number>;
}

async function throughput(url: URL, trip: (wire: Wire) => Promise<void>): Promise<Throughput> {
  const wire: Wire = { url, agent: makeAgent(WORKERS * 4) };
  const errors: Record<string, number> = {};
  let rounds = 0;
  const start = performance.now();
  const end = start + DURATION_MS;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (performance.now() < end) {
        try {
          await trip(wire);
          rounds++;
        } catch (error) {
          const kind = kindOf(error);
          errors[kind] = (errors[kind] ?? 0) + 1;
        }
      }
    }),
  );
  wire.agent.destroy();
  return { rounds, perSecond: rounds / ((performance.now() - start) / 1000), errors };
}

/** One 2026-07-28 call of `book`: the first round, then the retry carrying the answer. */
async function modernTrip(wire: Wire): Promise<void> {
  const first = await modernCall(wire, "book", {});
  const key = Object.keys(first.inputRequests ?? {})[0];
  if (!key) throw new Error(`book: expected input_required, got ${JSON.stringify(first).slice(0, 200)}`);
  const done = await modernCall(
    wire,
    "book",
    {},
    { inputResponses: { [key]: { action: "accept", content: { confirm: true } } }, requestState: first.requestState },
  );
  if (!String(done.content?.[0]?.text).startsWith("booked=true")) throw new Error(`book: ${JSON.stringify(done).slice(0, 200)}`);
}

/** One 2025-11-25 session of `book`: initialize, the call, its elicitation answered, the result, DELETE. */
async function legacyTrip(wire: Wire): Promise<void> {
  const call = await startLegacyCall(wire, "book", {});
  await call.answer({ confirm: true });
  const result = await call.result;
  await call.close();
  if (!String(result.content?.[0]?.text).startsWith("booked=true")) throw new Error(`book: ${JSON.stringify(result).slice(0, 200)}`);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** A session on one member, URL flows finished on another member's page: ms from the page's answer to the client hearing of it. */
async function completionDelivery(
  fleet: Fleet,
): Promise<{ samples: number[]; timedOut: number; notified: number; holder: string; pageOn: string }> {
  let holder = "";
  // The page is finished only once the client's GET stream is open, so a notice sent at once is heard.
  const getStream = watchGetStream();
  const recording: typeof fetch = async (input, init) => {
    const response = await getStream.fetch(input, init);
    holder ||= response.headers.get("x-served-by") ?? "";
    return response;
  };
  const client = new Client({ name: "fleet-bench", version: "1.0.0" }, {
    capabilities: { elicitation: { url: {} } },
    supportedProtocolVersions: ["2025-11-25"],
  } as never);
  let pageFinished = 0;
  let heard: ((at: number) => void) | undefined;
  let notified = 0;
  client.setNotificationHandler("notifications/elicitation/complete", () => {
    notified++;
    heard?.(performance.now());
  });
  client.setRequestHandler("elicitation/create", async (request) => {
    const flowId = new URL((request.params as { url: string }).url).pathname.split("/").pop()!;
    const page = fleet.members.find((m) => m.name !== holder)!;
    // The person's browser, after the client has answered: the page on another member ends the flow.
    const pageUrl = new URL(`done/${flowId}`, page.pageUrl.href.endsWith("/") ? page.pageUrl.href : `${page.pageUrl.href}/`);
    setImmediate(() => {
      void getStream.opened
        .then(() => fetch(pageUrl))
        .then(async (r) => {
          pageFinished = performance.now();
          const body = await r.text();
          if (!r.ok) console.error(`page ${pageUrl.href}: ${r.status} ${body}`);
        })
        .catch((error: unknown) => console.error(`page ${pageUrl.href}: ${(error as Error).message}`));
    });
    return { action: "accept" };
  });
  await client.connect(new StreamableHTTPClientTransport(fleet.url, { fetch: recording }));
  const samples: number[] = [];
  let timedOut = 0;
  try {
    // A flow that does not complete within 10 s is counted, not waited for; three in a row end the part.
    for (let i = 0; i < COMPLETIONS && timedOut < 3; i++) {
      const notice = new Promise<number>((resolve) => (heard = resolve));
      const result = client.callTool({ name: "connect", arguments: { via: "request" } }, { timeout: 10_000 }).then(() => performance.now());
      try {
        const at = await Promise.race([notice, result]);
        await result;
        samples.push(Math.max(0, at - pageFinished));
      } catch {
        timedOut++;
      }
    }
  } finally {
    await client.close();
  }
  samples.sort((a, b) => a - b);
  return { samples, timedOut, notified, holder, pageOn: fleet.members.find((m) => m.name !== holder)!.name };
}

export interface FleetBenchResult {
  rows: { what: string; one: Throughput; fleet: Throughput }[];
  delivery: Awaited<ReturnType<typeof completionDelivery>>;
  load: { label: string; before: number[]; after: number[] }[];
}

async function measured<T>(load: FleetBenchResult["load"], label: string, run: () => Promise<T>): Promise<T> {
  const before = loadavg();
  const value = await run();
  load.push({ label, before, after: loadavg() });
  return value;
}

export async function benchFleet(): Promise<FleetBenchResult> {
  const redis = await startRedis();
  const load: FleetBenchResult["load"] = [];
  try {
    const one = await startFleet({ size: 1, redisUrl: redis.url, sticky: true });
    let oneModern: Throughput, oneLegacy: Throughput;
    try {
      oneModern = await measured(load, "2026-07-28, 1 member", () => throughput(one.url, modernTrip));
      oneLegacy = await measured(load, "2025-11-25, 1 member", () => throughput(one.url, legacyTrip));
    } finally {
      await one.stop();
    }
    const fleet = await startFleet({ size: 3, redisUrl: redis.url, sticky: true });
    try {
      const fleetModern = await measured(load, "2026-07-28, 3 members", () => throughput(fleet.url, modernTrip));
      const fleetLegacy = await measured(load, "2025-11-25, 3 members", () => throughput(fleet.url, legacyTrip));
      const delivery = await measured(load, "completion delivery", () => completionDelivery(fleet));
      return {
        rows: [
          { what: "2026-07-28 calls (2 rounds each)", one: oneModern, fleet: fleetModern },
          { what: "2025-11-25 sessions (sticky)", one: oneLegacy, fleet: fleetLegacy },
        ],
        delivery,
        load,
      };
    } finally {
      await fleet.stop();
    }
  } finally {
    await redis.stop();
  }
}

const errorsText = (errors: Record<string, number>) =>
  Object.entries(errors)
    .map(([kind, n]) => `${kind} × ${n}`)
    .join(", ") || "none";

export function formatFleetTables(r: FleetBenchResult): string {
  const through = table([
    ["complete round trips / s", "1 member", "3 members", "fleet/one", "errors (1 / 3)"],
    ...r.rows.map(({ what, one, fleet }) => [
      what,
      one.perSecond.toFixed(0),
      fleet.perSecond.toFixed(0),
      (fleet.perSecond / one.perSecond).toFixed(2),
      `${errorsText(one.errors)} / ${errorsText(fleet.errors)}`,
    ]),
  ]);
  const d = r.delivery;
  const delivery = table([
    ["completion delivery, page on B to client on A", "ms"],
    ["p50", pct(d.samples, 50).toFixed(1)],
    ["p99", pct(d.samples, 99).toFixed(1)],
    ["max", (d.samples.at(-1) ?? NaN).toFixed(1)],
  ]);
  return [
    `${WORKERS} concurrent clients for ${DURATION_MS / 1000} s per row, through HAProxy (sticky on Mcp-Session-Id), members on one Redis.`,
    "",
    through,
    "",
    `${d.samples.length} URL flows one at a time, session on ${d.holder}, pages finished on ${d.pageOn}; ${d.notified} notifications/elicitation/complete heard (else the tool's result counts); ${d.timedOut} flows not completed within 10 s.`,
    "",
    delivery,
    "",
    "Load average (1, 5, 15 min) before → after each part:",
    ...r.load.map((l) => `- ${l.label}: ${l.before.map((x) => x.toFixed(2)).join(" ")} → ${l.after.map((x) => x.toFixed(2)).join(" ")}`),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  console.log(formatFleetTables(await benchFleet()));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
