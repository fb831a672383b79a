// N concurrent elicitations on ONE server process over Streamable HTTP, ours (serveHttp + ctx.elicit)
// against the raw SDK (see scale-server.ts), the clients in a load generator process of their own
// (scale-load.ts, a lean client: scale-client.ts). On 2025-11-25: N sessions each with a call waiting
// for its answer (memory per pending elicitation, time until all are pending), then all N answered at
// the same instant (resume latency, errors, lost and duplicated answers). On 2026-07-28: N first rounds,
// then all N retries at the same instant (requestState size, round time, drain time, errors).
// BENCH_SCALE_N (default 10,000), BENCH_SCALE_KEEPALIVE_MS and BENCH_SCALE_BACKLOG (server idle keep-alive and
// listen backlog on both sides; unset = each side's default), BENCH_SCALE_SIDES (default "ours,raw"),
// BENCH_SCALE_ERAS (default "legacy,modern"), BENCH_SCALE_DIST (another build of the package, e.g. an earlier
// commit's dist/, for a before/after), BENCH_SCALE_HEAPSNAPSHOT (a directory: the 2025-11-25 server writes heap
// snapshots there before the sessions and after they closed). Run alone: `npx tsx bench/scale.ts`.
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { table } from "./harness.js";
import type { Errors, LegacyOpenReport, ModernReport, Settled } from "./scale-load.js";
import type { Era, Side } from "./scale-server.js";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const N = Number(process.env.BENCH_SCALE_N ?? 10_000);
const OPEN_CONCURRENCY = 256;
const BOUND_MS = 120_000;

interface ServerStats {
  rss: number;
  heapUsed: number;
  cpuMs: number;
  sessions: number;
  /** The server's clientError events by code, since it started. */
  clientErrors: Record<string, number>;
  /** Peak open descriptors and connections since the previous stats. */
  peakFds: number;
  peakConnections: number;
  fds: number;
  /** Connections open now. */
  connections: number;
}

type Message = Record<string, unknown>;
/** What scale-server.ts says once it listens. */
interface Hello {
  listening: string;
  keepAliveTimeout: number;
  headersTimeout: number;
}

/** A forked child speaking IPC: `ask` sends a message and resolves with the next reply that `pick` accepts. */
class Child {
  private constructor(readonly process: ChildProcess) {}
  static async start(file: string, args: string[], env: Record<string, string> = {}): Promise<{ child: Child; hello: Hello }> {
    const proc = fork(here(file), args, {
      execArgv: ["--expose-gc", "--import", "tsx"],
      env: { ...process.env, ...env },
      stdio: "inherit",
    });
    const child = new Child(proc);
    const hello = await child.next<Hello>(() => true);
    return { child, hello };
  }
  next<T>(pick: (message: Message) => boolean): Promise<T> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: Message) => {
        if (!pick(message)) return;
        cleanup();
        resolve(message as T);
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`${this.process.spawnargs.join(" ")} exited (${code}) before answering`));
      };
      const cleanup = () => {
        this.process.off("message", onMessage);
        this.process.off("exit", onExit);
      };
      this.process.on("message", onMessage);
      this.process.on("exit", onExit);
    });
  }
  ask<T>(message: unknown, pick: (reply: Message) => boolean = () => true): Promise<T> {
    const reply = this.next<T>(pick);
    this.process.send(message as never);
    return reply;
  }
  stop(): Promise<void> {
    if (this.process.exitCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.process.once("exit", () => resolve()));
    this.process.kill("SIGTERM");
    return exited;
  }
}

export interface LegacyRow {
  side: Side;
  keepAliveTimeout: number;
  open: LegacyOpenReport;
  baseline: ServerStats;
  pending: ServerStats;
  answered: Settled;
  after: ServerStats;
  /** How long the server took to have no connection and no session left after the generator closed them. */
  closeWaitMs: number;
}

export interface ModernRow {
  side: Side;
  keepAliveTimeout: number;
  report: ModernReport;
  cpuMs: number;
  /** The server after both rounds (its clientErrors, peak descriptors and connections). */
  server: ServerStats;
  /** How Linux's TCP counters moved during both rounds (undefined off Linux). */
  kernel?: KernelCounters;
}

export interface ScaleResult {
  n: number;
  legacy: LegacyRow[];
  modern: ModernRow[];
  load: { before: number[]; after: number[] };
}

async function withProcesses<T>(side: Side, era: Era, run: (server: Child, load: Child, hello: Hello) => Promise<T>): Promise<T> {
  const { child: server, hello } = await Child.start("scale-server.ts", [side, era], { BENCH_SCALE_N: String(N) });
  try {
    const { child: load } = await Child.start("scale-load.ts", []);
    try {
      return await run(server, load, hello);
    } finally {
      await load.stop();
    }
  } finally {
    await server.stop();
  }
}

/** Linux's TCP counters (machine-wide: other work on the machine adds to them). */
const KERNEL_COUNTERS = ["ListenOverflows", "TCPReqQFullDoCookies", "SyncookiesFailed", "TCPAbortOnTimeout"] as const;
type KernelCounters = Record<(typeof KERNEL_COUNTERS)[number], number>;
function kernelCounters(): KernelCounters | undefined {
  try {
    // /proc/net/netstat: pairs of lines, "TcpExt: names..." then "TcpExt: values...".
    const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
    const at = lines.findIndex((line) => line.startsWith("TcpExt:"));
    const names = lines[at]!.split(/\s+/);
    const values = lines[at + 1]!.split(/\s+/).map(Number);
    return Object.fromEntries(KERNEL_COUNTERS.map((name) => [name, values[names.indexOf(name)] ?? NaN])) as KernelCounters;
  } catch {
    return undefined;
  }
}
const somaxconn = () => {
  try {
    return readFileSync("/proc/sys/net/core/somaxconn", "utf8").trim();
  } catch {
    return "unknown";
  }
};
const stats = (server: Child) => server.ask<ServerStats>("stats");
/** BENCH_SCALE_HEAPSNAPSHOT=<dir>: the server writes a heap snapshot there (before the sessions and after they closed). */
const snapshot = async (server: Child) => {
  if (process.env.BENCH_SCALE_HEAPSNAPSHOT)
    console.error(`heap snapshot: ${(await server.ask<{ snapshot: string }>("heap-snapshot", (m) => "snapshot" in m)).snapshot}`);
};
/**
 * The server's stats once the connections the generator closed are gone (at most 30 s): measured at once,
 * the heap "after close" counts every socket whose FIN the server has not read yet (about 3 KiB each, so
 * tens of MiB at N = 10,000), not what the sessions left behind.
 */
async function closed(server: Child): Promise<ServerStats & { waitedMs: number }> {
  const start = performance.now();
  for (;;) {
    const now = await stats(server);
    const waitedMs = performance.now() - start;
    if ((now.connections <= 0 && now.sessions === 0) || waitedMs > 30_000) return { ...now, waitedMs };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
const done = (cmd: string) => (m: Message) => m.done === cmd;
/** Sends a command to the load generator and returns its reply. */
const command = async <T>(load: Child, message: { cmd: string } & Message): Promise<T> =>
  (await load.ask<{ reply: T }>(message, done(message.cmd))).reply;

async function legacy(side: Side): Promise<LegacyRow> {
  return withProcesses(side, "legacy", async (server, load, hello) => {
    const baseline = await stats(server);
    await snapshot(server);
    const open = await command<LegacyOpenReport>(load, { cmd: "legacy-open", url: hello.listening, n: N, concurrency: OPEN_CONCURRENCY });
    const pending = await stats(server);
    const answered = await command<Settled>(load, { cmd: "legacy-answer", boundMs: BOUND_MS });
    await command(load, { cmd: "legacy-close" });
    const after = await closed(server);
    await snapshot(server);
    return { side, keepAliveTimeout: hello.keepAliveTimeout, open, baseline, pending, answered, after, closeWaitMs: after.waitedMs };
  });
}

async function modern(side: Side): Promise<ModernRow> {
  return withProcesses(side, "modern", async (server, load, hello) => {
    const before = await stats(server);
    const kernelBefore = kernelCounters();
    const report = await command<ModernReport>(load, {
      cmd: "modern",
      url: hello.listening,
      n: N,
      concurrency: OPEN_CONCURRENCY,
      boundMs: BOUND_MS,
    });
    const kernelAfter = kernelCounters();
    const after = await stats(server);
    const kernel =
      kernelBefore && kernelAfter
        ? (Object.fromEntries(KERNEL_COUNTERS.map((name) => [name, kernelAfter[name] - kernelBefore[name]])) as KernelCounters)
        : undefined;
    return { side, keepAliveTimeout: hello.keepAliveTimeout, report, cpuMs: after.cpuMs - before.cpuMs, server: after, kernel };
  });
}

export async function benchScale(): Promise<ScaleResult> {
  const sides = (process.env.BENCH_SCALE_SIDES ?? "ours,raw").split(",") as Side[];
  const eras = (process.env.BENCH_SCALE_ERAS ?? "legacy,modern").split(",") as Era[];
  const before = loadavg();
  const legacyRows: LegacyRow[] = [];
  const modernRows: ModernRow[] = [];
  if (eras.includes("legacy")) for (const side of sides) legacyRows.push(await legacy(side));
  if (eras.includes("modern")) for (const side of sides) modernRows.push(await modern(side));
  return { n: N, legacy: legacyRows, modern: modernRows, load: { before, after: loadavg() } };
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const s = (ms: number) => (Number.isNaN(ms) ? "-" : `${(ms / 1000).toFixed(2)} s`);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const errorsText = (errors: Errors) =>
  Object.entries(errors)
    .map(([kind, n]) => `${kind} × ${n}`)
    .join(", ") || "none";
const ratio = (ours: number | undefined, raw: number | undefined) =>
  ours !== undefined && raw !== undefined && raw > 0 ? (ours / raw).toFixed(2) : "-";
const failedAt = (at: number[] | undefined) => (at?.length ? `${s(at[0]!)} / ${s(pct(at, 50))} / ${s(at.at(-1)!)}` : "-");
const peaks = (stats: ServerStats | undefined) => (stats ? `${stats.peakFds} / ${stats.peakConnections}` : "-");
const cookies = (k: KernelCounters | undefined) => (k ? `${k.ListenOverflows} / ${k.TCPReqQFullDoCookies} / ${k.SyncookiesFailed}` : "-");
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");

export function formatScaleTables(r: ScaleResult): string {
  const L = (side: Side) => r.legacy.find((row) => row.side === side);
  const M = (side: Side) => r.modern.find((row) => row.side === side);
  const perPending = (row: LegacyRow, key: "rss" | "heapUsed") => (row.pending[key] - row.baseline[key]) / Math.max(1, row.open.pending);
  const legacyMetrics: [string, (row: LegacyRow) => number | undefined, (v: number) => string][] = [
    ["pending elicitations", (row) => row.open.pending, String],
    ["time until all pending", (row) => row.open.pendingMs, s],
    ["RSS per pending (after gc)", (row) => perPending(row, "rss"), kib],
    ["heap per pending (after gc)", (row) => perPending(row, "heapUsed"), kib],
    ["RSS with all pending", (row) => row.pending.rss, mib],
    ["resume p50", (row) => pct(row.answered.latencies, 50), s],
    ["resume p99", (row) => pct(row.answered.latencies, 99), s],
    ["resume max (drain)", (row) => row.answered.latencies.at(-1), s],
    ["completed with their own answer", (row) => row.answered.ok, String],
    ["lost (no result in 120 s)", (row) => row.answered.lost, String],
    ["duplicated", (row) => row.answered.duplicated, String],
    ["wrong answer", (row) => row.answered.wrong, String],
    ["heap after close (after gc)", (row) => row.after.heapUsed, mib],
    ["connections open then", (row) => row.after.connections, String],
    ["sessions open then", (row) => row.after.sessions, String],
    ["waited for them to close", (row) => row.closeWaitMs, s],
  ];
  const legacyTable = table([
    ["2025-11-25", "ours", "raw", "ours/raw"],
    ...legacyMetrics.map(([what, get, fmt]) => {
      const o = L("ours") && get(L("ours")!);
      const w = L("raw") && get(L("raw")!);
      return [what, o === undefined ? "-" : fmt(o), w === undefined ? "-" : fmt(w), ratio(o, w)];
    }),
    ["errors while opening", errorsText(L("ours")?.open.errors ?? {}), errorsText(L("raw")?.open.errors ?? {}), ""],
    ["errors after answering", errorsText(L("ours")?.answered.errors ?? {}), errorsText(L("raw")?.answered.errors ?? {}), ""],
  ]);
  const modernMetrics: [string, (row: ModernRow) => number | undefined, (v: number) => string][] = [
    ["first rounds (input_required), all", (row) => row.report.firstRoundsMs, s],
    ["requestState bytes (median)", (row) => pct(row.report.stateBytes, 50), String],
    ["retry round p50", (row) => pct(row.report.latencies, 50), s],
    ["retry round p99", (row) => pct(row.report.latencies, 99), s],
    ["drain (all retries answered)", (row) => row.report.drainMs, s],
    ["server CPU", (row) => row.cpuMs, s],
    ["completed with their own answer", (row) => row.report.ok, String],
    ["lost (no result in 120 s)", (row) => row.report.lost, String],
    ["wrong answer", (row) => row.report.wrong, String],
  ];
  const modernTable = table([
    ["2026-07-28", "ours", "raw", "ours/raw"],
    ...modernMetrics.map(([what, get, fmt]) => {
      const o = M("ours") && get(M("ours")!);
      const w = M("raw") && get(M("raw")!);
      return [what, o === undefined ? "-" : fmt(o), w === undefined ? "-" : fmt(w), ratio(o, w)];
    }),
    ["errors, first rounds", errorsText(M("ours")?.report.firstRoundErrors ?? {}), errorsText(M("raw")?.report.firstRoundErrors ?? {}), ""],
    ["errors, retries", errorsText(M("ours")?.report.errors ?? {}), errorsText(M("raw")?.report.errors ?? {}), ""],
    ["retry failures: first / median / last", failedAt(M("ours")?.report.failedAt), failedAt(M("raw")?.report.failedAt), ""],
    ["server clientError events", errorsText(M("ours")?.server.clientErrors ?? {}), errorsText(M("raw")?.server.clientErrors ?? {}), ""],
    ["server peak descriptors / connections", peaks(M("ours")?.server), peaks(M("raw")?.server), ""],
    ["kernel: listen overflows / SYN cookies sent / failed", cookies(M("ours")?.kernel), cookies(M("raw")?.kernel), ""],
  ]);
  const keepAlive = [...r.legacy, ...r.modern].map((row) => `${row.side} ${row.keepAliveTimeout} ms`);
  return [
    `N = ${r.n}; server and load generator in separate processes; ${OPEN_CONCURRENCY} sessions/first rounds opened at a time, then all N answered at once.`,
    `Server keep-alive timeout: ${[...new Set(keepAlive)].join(", ")}. Listen backlog: ${process.env.BENCH_SCALE_BACKLOG ? `${process.env.BENCH_SCALE_BACKLOG} on both sides` : "ours 16384, raw 511 (each side's default)"}, net.core.somaxconn ${somaxconn()}.`,
    `Load average before ${load(r.load.before)}, after ${load(r.load.after)}.`,
    "",
    legacyTable,
    "",
    modernTable,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  console.log(formatScaleTables(await benchScale()));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
