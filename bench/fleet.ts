// The fleet against one instance, each member under the same CPU quota: 3 serveHttp members on one real
// Redis behind a real HAProxy (sticky on Mcp-Session-Id), against 1 member behind its own HAProxy on the
// same Redis, both up at once so only the member count differs. Each member process gets a cgroup of its
// own capped at BENCH_FLEET_CPU CPUs (default 0.3) every BENCH_FLEET_CPU_PERIOD_US (default 10,000 µs;
// bench/cpu-quota.ts), so three members have three times the CPU of one while the clients, HAProxy and
// Redis run uncapped beside them: on a small machine the fleet's scaling shows. BENCH_FLEET_CPU=0 runs
// uncapped. Members run test/fixtures/fleet-server.ts's tools (test/helpers/fleet.ts). Measured:
// - throughput of complete round trips from WORKERS lean clients (bench/fleet-load.ts) for DURATION_MS,
//   2026-07-28 and 2025-11-25, REPS times, 1 member and 3 members alternating (ABBA);
// - completion delivery across members: a 2025-11-25 session held by member A, a URL flow finished on
//   member B's page, and the time from the page's request until the client on A hears of it
//   (notifications/elicitation/complete, else the tool's result), through Redis pub/sub; COMPLETIONS
//   samples one at a time, on the idle fleet and under 2026-07-28 load (forked, so the timing client's
//   event loop is not the load's).
// The machine's load average is printed before and after each part. Run alone: `npx tsx bench/fleet.ts`.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { startFleet, type Fleet } from "../test/helpers/fleet.js";
import { startRedis } from "../test/helpers/redis.js";
import { openCpuQuota, type CpuQuota, type GroupStats } from "./cpu-quota.js";
import { throughput, type Era, type Throughput as Trips } from "./fleet-load.js";
import { completionDelivery, HOPS, pct, underLoad, type Delivery } from "./fleet-delivery.js";
import { table } from "./harness.js";

const WORKERS = Number(process.env.BENCH_FLEET_WORKERS ?? 32);
/** BENCH_FLEET_WORKERS_PER_MEMBER=1: the fleet's rows run WORKERS clients per member (3 × WORKERS), so each member sees as many clients as the lone one. */
const PER_MEMBER = process.env.BENCH_FLEET_WORKERS_PER_MEMBER === "1";
const workersFor = (f: Fleet) => (PER_MEMBER ? WORKERS * f.members.length : WORKERS);
const DURATION_MS = Number(process.env.BENCH_FLEET_DURATION_MS ?? 8_000);
const REPS = Number(process.env.BENCH_FLEET_REPS ?? 2);
const WARM_MS = Number(process.env.BENCH_FLEET_WARM_MS ?? 3_000);
const COMPLETIONS = Number(process.env.BENCH_FLEET_COMPLETIONS ?? 200);
const CPU = Number(process.env.BENCH_FLEET_CPU ?? 0.3);
const PERIOD_US = Number(process.env.BENCH_FLEET_CPU_PERIOD_US ?? 10_000);
const WEIGHT = Number(process.env.BENCH_FLEET_CPU_WEIGHT ?? 100);
/** Unused quota a member may bank and spend at once (cfs burst), µs; 0 = none. */
const BURST_US = Number(process.env.BENCH_FLEET_CPU_BURST_US ?? 0);
const SATURATED_COMPLETIONS = Number(process.env.BENCH_FLEET_SATURATED_COMPLETIONS ?? 50);
/** The open-loop load delivery is timed under, as a share of the 3 members' measured 2026-07-28 round trips/s. */
const LOAD_SHARE = Number(process.env.BENCH_FLEET_LOAD_SHARE ?? 0.5);
const ERAS = (process.env.BENCH_FLEET_ERAS ?? "2026-07-28,2025-11-25").split(",") as Era[];
/** BENCH_FLEET_WARM=off: members replay every 2026-07-28 retry, so the lone member's retries (all its own) are not warm while most of the fleet's are cold. */
const WARM_ROUNDS = process.env.BENCH_FLEET_WARM !== "off";
/** BENCH_FLEET_ROUTE=off: HAProxy balances 2026-07-28 retries round robin instead of sending each back to the member whose route tag its requestState carries. */
const ROUTE_TAGS = process.env.BENCH_FLEET_ROUTE !== "off";

/** Round trips, the CPU each member used meanwhile (in CPUs, from /proc/<pid>/stat: utime + stime), and the machine's idle share (/proc/stat). */
type Throughput = Trips & { memberCpus?: number[]; machineIdle?: number };
const machineTimes = (): { idle: number; total: number } => {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).map(Number);
  return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((a, b) => a + b, 0) };
};
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux
const cpuSeconds = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
};

/** `run` with the CPU each of `fleet`'s members used meanwhile. */
async function withMemberCpu(fleet: Fleet, run: () => Promise<Trips>): Promise<Throughput> {
  const before = fleet.members.map((m) => cpuSeconds(m.pid));
  const machine = machineTimes();
  const start = performance.now();
  const trips = await run();
  const seconds = (performance.now() - start) / 1000;
  const after = machineTimes();
  return {
    ...trips,
    memberCpus: fleet.members.map((m, i) => (cpuSeconds(m.pid) - before[i]!) / seconds),
    machineIdle: (after.idle - machine.idle) / (after.total - machine.total),
  };
}

export interface FleetBenchResult {
  quota: CpuQuota;
  rows: { era: Era; rep: number; one: Throughput; fleet: Throughput }[];
  delivery: { label: string; value: Delivery; load?: Trips }[];
  throttling: { label: string; groups: GroupStats[] }[];
  load: { label: string; before: number[]; after: number[] }[];
}

export async function benchFleet(): Promise<FleetBenchResult> {
  const quota = openCpuQuota({ cpus: CPU, periodUs: PERIOD_US, burstUs: BURST_US, weight: WEIGHT });
  // This process, and what it starts (Redis, HAProxy, the forked load), weigh more than other work on the machine but are not capped.
  quota.boost(process.pid, "driver");
  const redis = await startRedis();
  if (!quota.mechanism)
    console.error(`fleet bench: members run UNCAPPED (${quota.reason}); the fleet/one ratio then shows the shared machine, not scale.`);
  const load: FleetBenchResult["load"] = [];
  const throttling: FleetBenchResult["throttling"] = [];
  const measured = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const before = loadavg();
    const stats = quota.stats();
    const value = await run();
    load.push({ label, before, after: loadavg() });
    throttling.push({
      label,
      groups: quota.stats().map((s, i) => ({
        ...s,
        periods: s.periods - (stats[i]?.periods ?? 0),
        throttled: s.throttled - (stats[i]?.throttled ?? 0),
        throttledMs: s.throttledMs - (stats[i]?.throttledMs ?? 0),
      })),
    });
    return value;
  };
  let one: Fleet | undefined, three: Fleet | undefined;
  try {
    [one, three] = await Promise.all(
      [1, 3].map((size) =>
        startFleet({
          size,
          redisUrl: redis.url,
          sticky: true,
          routeTags: ROUTE_TAGS,
          env: WARM_ROUNDS ? {} : { FLEET_WARM_ROUNDS: "off" },
        }),
      ),
    );
    for (const m of one!.members) quota.cap(m.pid, `one-${m.name}`);
    for (const m of three!.members) quota.cap(m.pid, `three-${m.name}`);
    // Unmeasured warm-up: each member's code compiled and optimized (slow under a quota) before anything is timed.
    for (const era of ERAS) for (const f of [one!, three!]) await throughput(f.url, era, workersFor(f), { durationMs: WARM_MS });
    const rows: FleetBenchResult["rows"] = [];
    for (let rep = 1; rep <= REPS; rep++)
      for (const era of ERAS) {
        const run = (f: Fleet, n: number) =>
          measured(`${era}, ${n} member${n > 1 ? "s" : ""}, run ${rep}`, () =>
            withMemberCpu(f, () => throughput(f.url, era, workersFor(f), { durationMs: DURATION_MS })),
          );
        // ABBA: even runs start with the fleet, so a drift in the machine's load favours neither.
        const first = rep % 2 ? await run(one!, 1) : await run(three!, 3);
        const second = rep % 2 ? await run(three!, 3) : await run(one!, 1);
        rows.push({ era, rep, one: rep % 2 ? first : second, fleet: rep % 2 ? second : first });
      }
    const fleetRate = rows
      .filter((row) => row.era === "2026-07-28")
      .reduce((sum, row, _, all) => sum + row.fleet.perSecond / all.length, 0);
    const rate = Math.max(1, Math.round(fleetRate * LOAD_SHARE));
    const delivery: FleetBenchResult["delivery"] = [];
    const time = async (label: string, count: number, loadRate?: number | "saturated") => {
      const value = await measured(`completion delivery, ${label}`, () =>
        loadRate === undefined
          ? completionDelivery(three!, redis.url, count).then((d): { value: Delivery; load?: Trips } => ({ value: d }))
          : underLoad(three!.url, "2026-07-28", WORKERS, loadRate === "saturated" ? undefined : loadRate, () =>
              completionDelivery(three!, redis.url, count),
            ),
      );
      delivery.push({ label, ...value });
    };
    await time("idle", COMPLETIONS);
    await time(`2026-07-28 load started at ${rate}/s (${LOAD_SHARE} of the fleet's measured rate)`, COMPLETIONS, rate);
    await time(`saturated: ${WORKERS} clients of 2026-07-28 back to back`, SATURATED_COMPLETIONS, "saturated");
    return { quota, rows, delivery, throttling, load };
  } finally {
    await Promise.all([one?.stop(), three?.stop()]);
    quota.close();
    await redis.stop();
  }
}

const errorsText = (errors: Record<string, number>) =>
  Object.entries(errors)
    .map(([kind, n]) => `${kind} × ${n}`)
    .join(", ") || "none";

const ms = (x: number) => x.toFixed(1);
const cpus = (t: Throughput) => (t.memberCpus ?? []).map((c) => c.toFixed(2)).join(" ");

export function formatFleetTables(r: FleetBenchResult): string {
  const q = r.quota;
  const capped = q.mechanism ? "capped" : "uncapped";
  const quotaLine = q.mechanism
    ? `Each member in a cgroup of its own: ${q.cpus} CPU every ${q.periodUs / 1000} ms period${q.burstUs ? `, burst ${q.burstUs / 1000} ms` : ""} (${q.mechanism}); clients, HAProxy and Redis uncapped; every group weighs as ${q.weight} ordinary processes.${WARM_ROUNDS ? "" : " Warm rounds off: every 2026-07-28 retry replays."}`
    : `Members UNCAPPED: ${q.reason}.`;
  const through = table([
    [
      "complete round trips / s",
      `1 ${capped} member`,
      `3 ${capped} members`,
      "fleet/one",
      "CPUs used per member (1 / 3)",
      "machine idle (1 / 3)",
      "errors (1 / 3)",
    ],
    ...r.rows.map(({ era, rep, one, fleet }) => [
      `${era === "2026-07-28" ? "2026-07-28 calls (2 rounds each)" : "2025-11-25 sessions (sticky)"}, run ${rep}`,
      one.perSecond.toFixed(0),
      fleet.perSecond.toFixed(0),
      (fleet.perSecond / one.perSecond).toFixed(2),
      `${cpus(one)} / ${cpus(fleet)}`,
      `${((one.machineIdle ?? NaN) * 100).toFixed(0)}% / ${((fleet.machineIdle ?? NaN) * 100).toFixed(0)}%`,
      `${errorsText(one.errors)} / ${errorsText(fleet.errors)}`,
    ]),
    ...ERAS.map((era) => {
      const rows = r.rows.filter((row) => row.era === era);
      const one = rows.reduce((s, row) => s + row.one.rounds, 0);
      const fleet = rows.reduce((s, row) => s + row.fleet.rounds, 0);
      return [`${era}, all runs (rounds)`, String(one), String(fleet), (fleet / one).toFixed(2), "", "", ""];
    }),
  ]);
  const p50p99 = (list: number[]) => `${ms(pct(list, 50))} / ${ms(pct(list, 99))}`;
  const delivery = table([
    [
      "completion delivery, page on B to client on A (ms)",
      "flows",
      "p50",
      "p90",
      "p99",
      "max",
      "B: to published p50 / p99",
      "A: published to heard p50 / p99",
      "load done / s",
    ],
    ...r.delivery.map(({ label, value: d, load }) => [
      label,
      `${d.samples.length} (${d.notified} notified, ${d.timedOut} timed out)`,
      ms(pct(d.samples, 50)),
      ms(pct(d.samples, 90)),
      ms(pct(d.samples, 99)),
      ms(d.samples.at(-1) ?? NaN),
      p50p99(d.published),
      p50p99(d.afterPublish),
      load ? `${load.perSecond.toFixed(0)}${Object.keys(load.errors).length ? ` (${errorsText(load.errors)})` : ""}` : "",
    ]),
  ]);
  const hops = table([
    ["hop, from Redis MONITOR's stamps (ms, p50 / p99)", ...HOPS],
    ...r.delivery.map(({ label, value: d }) => [
      `${label.split(" (")[0]!} (${d.hops[HOPS[0]].length} flows)`,
      ...HOPS.map((h) => p50p99(d.hops[h])),
    ]),
  ]);
  const throttled = r.throttling
    .filter((t) => t.groups.length && t.label.startsWith("completion"))
    .map(
      (t) =>
        `- ${t.label}: ${t.groups
          .filter((g) => g.name.startsWith("three"))
          .map((g) => `${g.name.slice(6)} throttled in ${g.throttled} of ${g.periods} periods (${g.throttledMs.toFixed(0)} ms)`)
          .join("; ")}`,
    );
  return [
    `${WORKERS} concurrent clients${PER_MEMBER ? " per member (the fleet's rows: 3 × as many)" : ""} for ${DURATION_MS / 1000} s per row, through HAProxy (sticky on Mcp-Session-Id; ${ROUTE_TAGS ? "2026-07-28 retries sent back to the member that asked, by the route tag of their requestState" : "2026-07-28 retries round robin"}), members on one Redis.`,
    quotaLine,
    "",
    through,
    "",
    `URL flows one at a time on the 3 ${capped} members (10 unmeasured first), the session on one member (${r.delivery.map((d) => d.value.holder).join(", ")}), each finished on another member's page (${r.delivery.map((d) => d.value.pageOn).join(", ")}); the time runs from the page's request until the client hears (a flow's tool result counts when no notification was heard).`,
    "",
    delivery,
    "",
    hops,
    ...(throttled.length ? ["", "CPU quota throttling of the 3 members while delivery was timed:", ...throttled] : []),
    "",
    "Load average (1, 5, 15 min) before → after each part:",
    ...r.load.map((x) => `- ${x.label}: ${x.before.map((v) => v.toFixed(2)).join(" ")} → ${x.after.map((v) => v.toFixed(2)).join(" ")}`),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  console.log(formatFleetTables(await benchFleet()));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
