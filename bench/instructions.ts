// Instructions per call, counted by valgrind's callgrind, for the 2026-07-28 ratios that matter: one
// round trip of our kit (`ctx.elicit`, `ctx.sample`, `ctx.roots`; warm: the retry resumes the held
// handler; cold: `warmRounds: false`, it replays) against a bare raw SDK tool asking the same with
// `inputRequired` (no state), and a plain tools/call as the unit. The tools are bench/server-rounds.ts'
// (the timed bench's, on the same server). Counted, not timed, so a 5% target is decidable on a busy
// 2-core machine. Two setups:
//   in-memory  client and server in one process under callgrind (both ends counted);
//   HTTP       Streamable HTTP on 127.0.0.1, the server process alone under callgrind, the client
//              in this process (natively).
// How only the measured calls are counted: callgrind zeroes its counters when the process enters
// libuv's uv_os_getpriority (os.getPriority()) and dumps them when it enters uv_os_gethostname
// (os.hostname()); the process makes those two calls around each window of N calls, after a
// warm-up. Node runs with V8's --single-threaded, so compilation and GC happen on the one counted
// thread, in the same order every run. Windows alternate between the tools (rotated), several per
// tool: a tool's count is the median of its windows, their range shows whether the JIT had settled.
// Under valgrind node runs ~50× slower, so N and the warm-up are small (BENCH_INSTR_N calls a window,
// default 200; BENCH_INSTR_WARMUP calls per tool in memory, default 5,000, BENCH_INSTR_WARMUP_HTTP over HTTP, default 2,000).
// BENCH_INSTR_KINDS: which questions (default "elicit"; "elicit,sample,roots" for all three);
// BENCH_INSTR_COLD=0 leaves the cold tools out; BENCH_INSTR_SETUPS: "memory,http" (default) or one of them.
// Run alone: npx tsx bench/instructions.ts (after a build; needs valgrind).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { getPriority, hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Client } from "@modelcontextprotocol/client";
import { serveHttp } from "../dist/node/index.js";
import { callOnce, checkTools, loadLine, median, openSetup, table } from "./harness.js";
import { makeRoundsClient, makeRoundsServer } from "./server-rounds.js";

const N = Number(process.env.BENCH_INSTR_N ?? 200);
const WINDOWS = Number(process.env.BENCH_INSTR_WINDOWS ?? 3);
const WARMUP = { memory: Number(process.env.BENCH_INSTR_WARMUP ?? 5000), http: Number(process.env.BENCH_INSTR_WARMUP_HTTP ?? 2000) };
const KINDS = (process.env.BENCH_INSTR_KINDS ?? "elicit").split(",").map((k) => k.trim());
const COLD = process.env.BENCH_INSTR_COLD !== "0";
const SETUPS = (process.env.BENCH_INSTR_SETUPS ?? "memory,http").split(",").map((k) => k.trim());
/** Each kind's bare raw tool and ours, warm and (unless BENCH_INSTR_COLD=0) cold; "plain" first, the unit. */
const TOOLS: string[] = ["plain", ...KINDS.flatMap((k) => [`raw-${k}`, `warm-${k}`, ...(COLD ? [`cold-${k}`] : [])])];
type Tool = string;
/** What each row of the tables compares: ours (warm, cold) against the bare raw tool asking the same. */
const PAIRS = KINDS.flatMap((k) => ["warm", ...(COLD ? ["cold"] : [])].map((tag) => ({ ours: `${tag}-${k}`, raw: `raw-${k}` })));
const SELF = fileURLToPath(import.meta.url);
const VALGRIND = process.env.VALGRIND ?? "valgrind";

const EXPECTED = Object.fromEntries(
  TOOLS.map((t) => [t, t === "plain" ? "booked Barcelona" : `${t.slice(t.indexOf("-") + 1)} Barcelona: `]),
);

/** The order of the measured windows: every tool WINDOWS times, rotated so none always runs first. */
function windowOrder(): Tool[] {
  const order: Tool[] = [];
  for (let w = 0; w < WINDOWS; w++) for (let i = 0; i < TOOLS.length; i++) order.push(TOOLS[(i + w) % TOOLS.length]!);
  return order;
}

/** Every window starts from a collected heap, so one window does not pay for garbage another left. */
// BENCH_INSTR_GC=1: with a forced full GC the windows counted V8 recompiling each time (2-5 M instructions a call).
const fullGc = () => (process.env.BENCH_INSTR_GC === "1" ? (globalThis as { gc?: () => void }).gc?.() : undefined);

/**
 * Warm-up in the measured pattern (a GC, then N calls of one tool, tools rotated): warmed up call by
 * call in turn instead, V8 still re-optimized in every measured window (a third of its instructions).
 */
async function warmUp(client: Client, calls: number): Promise<void> {
  for (let done = 0, r = 0; done < calls; done += N, r++) {
    for (let i = 0; i < TOOLS.length; i++) {
      fullGc();
      for (let k = 0; k < N; k++) await callOnce(client, TOOLS[(i + r) % TOOLS.length]!);
    }
  }
}

// ---- child processes (run under callgrind) ----

/** In-memory: client and server here; after the warm-up, waits for "go" (instrumentation on), then the windows. */
async function childMemory(): Promise<void> {
  const setup = await openSetup(
    "memory",
    "modern",
    () => makeRoundsServer(),
    () => makeRoundsClient(),
  );
  await checkTools(setup, EXPECTED);
  await warmUp(setup.client, WARMUP.memory);
  process.stdout.write("warm\n");
  for await (const line of createInterface({ input: process.stdin })) if (line === "go") break;
  for (const tool of windowOrder()) {
    fullGc();
    getPriority(); // callgrind: --zero-before=uv_os_getpriority
    for (let i = 0; i < N; i++) await callOnce(setup.client, tool);
    hostname(); // callgrind: --dump-before=uv_os_gethostname
  }
  await setup.close();
  process.exit(0);
}

/** HTTP server: prints its URL; each "zero" / "dump" line on stdin marks a window, answered "ok". */
async function childHttpServer(): Promise<void> {
  const handle = await serveHttp(() => makeRoundsServer(), { port: 0 });
  process.stdout.write(`url ${handle.url.href}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === "zero") {
      fullGc();
      getPriority();
    } else if (line === "dump") hostname();
    else break;
    process.stdout.write("ok\n");
  }
  await handle.close();
}

// ---- this process ----

/** valgrind's arguments to run `script` (a bench file, under tsx) with windows marked as above, dumps in `dir`. */
export function callgrindArgs(dir: string, script = SELF): string[] {
  return [
    "--tool=callgrind",
    "--instr-atstart=no", // start-up and warm-up run uninstrumented (several times faster)
    `--callgrind-out-file=${join(dir, "cg.%p")}`,
    "--zero-before=uv_os_getpriority",
    "--dump-before=uv_os_gethostname",
    "--dump-instr=no",
    process.execPath,
    "--single-threaded",
    "--expose-gc",
    "--import",
    "tsx",
    script,
  ];
}

/** The dumps a run wrote, in order (cg.PID.1, .2, ...; cg.PID alone is the rest of the run, at exit). */
export function dumps(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => /^cg\.\d+\.(\d+)$/.exec(name))
    .filter((m) => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => join(dir, m[0]));
}

const instructionsIn = (file: string) => Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(file, "utf8"))?.[1] ?? NaN);

export interface InstructionRow {
  setup: string;
  /** Instructions per call, median of the windows, and each window's. */
  perCall: Record<Tool, number>;
  windows: Record<Tool, number[]>;
  /** The same without V8's compilers and garbage collector (by function name): the calls' own work. */
  running: Record<Tool, number>;
  /** Per call, median over the windows: compiling and collecting. */
  compile: Record<Tool, number>;
  gc: Record<Tool, number>;
}

// V8's own functions, by name: the garbage collector, and the compilers (a window that still
// compiles counts the JIT's work, not the call's; with --single-threaded both run on the counted thread).
const GC_FN =
  /Heap|Scaveng|Marking|MarkCompact|Sweep|heap::base|cppgc|Evacuat|Worklist|RememberedSet|SlotSet|MemoryAllocator|PagedSpace|MemoryChunk|GCTracer|ObjectCache|BodyDescriptor|Compactor/;
const COMPILE_FN =
  /compiler::|maglev::|baseline::|BytecodeGenerator|Parser|Compiler|Deoptimiz|turboshaft|Scanner|AstNode|Zone::|interpreter::/;

export function split(file: string): { total: number; gc: number; compile: number } {
  let total = 0;
  let gc = 0;
  let compile = 0;
  for (const [fn, n] of selfByFunction(file)) {
    total += n;
    if (GC_FN.test(fn)) gc += n;
    else if (COMPILE_FN.test(fn)) compile += n;
  }
  return { total, gc, compile };
}

export interface FunctionDelta {
  fn: string;
  ours: number;
  raw: number;
}

export interface InstructionsResult {
  rows: InstructionRow[];
  /** HTTP server: self instructions per call by function, ours against raw, largest difference first. */
  httpFunctions: FunctionDelta[];
  n: number;
  windows: number;
  warmup: { memory: number; http: number };
}

function rowOf(setup: string, files: string[]): InstructionRow {
  const order = windowOrder();
  if (files.length !== order.length) throw new Error(`instructions (${setup}): ${files.length} callgrind dumps, expected ${order.length}`);
  const lists = () => Object.fromEntries(TOOLS.map((t) => [t, [] as number[]])) as Record<Tool, number[]>;
  const windows = lists();
  const parts = { running: lists(), compile: lists(), gc: lists() };
  order.forEach((tool, k) => {
    windows[tool]!.push(instructionsIn(files[k]!) / N);
    const { total, gc, compile } = split(files[k]!);
    parts.running[tool]!.push((total - gc - compile) / N);
    parts.compile[tool]!.push(compile / N);
    parts.gc[tool]!.push(gc / N);
  });
  const med = (xs: Record<Tool, number[]>) => Object.fromEntries(TOOLS.map((t) => [t, median(xs[t]!)])) as Record<Tool, number>;
  return { setup, perCall: med(windows), windows, running: med(parts.running), compile: med(parts.compile), gc: med(parts.gc) };
}

/**
 * Self instructions per function in a dump, read from the callgrind file itself (callgrind_annotate
 * counts frames that were on the stack when instrumentation began as if inclusive): a cost line
 * belongs to the current fn= unless it follows a calls= line (then it is the call's inclusive cost).
 * JIT-compiled JavaScript has no symbols (each function is an address): summed as one.
 */
function selfByFunction(file: string): Map<string, number> {
  const names = new Map<string, string>();
  const byFn = new Map<string, number>();
  const named = (ref: string) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(ref);
    if (!m) return ref;
    if (m[2] !== undefined) names.set(m[1]!, m[2]);
    return names.get(m[1]!) ?? ref;
  };
  let fn = "?";
  let afterCalls = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("fn=")) fn = named(line.slice(3));
    else if (line.startsWith("cfn=")) named(line.slice(4));
    else if (line.startsWith("calls=")) afterCalls = true;
    else if (/^[+\-*\d]/.test(line)) {
      if (afterCalls) afterCalls = false;
      else {
        const cost = Number(line.trim().split(/\s+/).at(-1));
        const key = /^0x[0-9a-f]+('\d+)?$/i.test(fn) ? "(JIT-compiled JavaScript)" : fn;
        if (Number.isFinite(cost)) byFn.set(key, (byFn.get(key) ?? 0) + cost);
      }
    }
  }
  return byFn;
}

/** Self instructions per call by function, `ours` against `raw` (the first pair: warm against bare, the first kind). */
function functionDeltas(files: string[], pair = PAIRS[0]!): FunctionDelta[] {
  const order = windowOrder();
  const sum = (tool: Tool) => {
    const total = new Map<string, number>();
    const picked = order.flatMap((t, k) => (t === tool ? [files[k]!] : []));
    for (const file of picked) for (const [fn, n] of selfByFunction(file)) total.set(fn, (total.get(fn) ?? 0) + n / N / picked.length);
    return total;
  };
  const ours = sum(pair.ours);
  const raw = sum(pair.raw);
  return [...new Set([...ours.keys(), ...raw.keys()])]
    .map((fn) => ({ fn, ours: ours.get(fn) ?? 0, raw: raw.get(fn) ?? 0 }))
    .sort((a, b) => b.ours - b.raw - (a.ours - a.raw));
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    child.once("error", reject);
    child.once("exit", (code) => resolve(code));
  });
}

/** Switches callgrind's instrumentation on in a running process (through vgdb). */
export function instrumentationOn(pid: number): void {
  const run = spawnSync("callgrind_control", ["-i", "on", String(pid)], { encoding: "utf8", timeout: 120_000 });
  if (run.status !== 0 || !/OK/.test(run.stdout))
    throw new Error(`instructions: callgrind_control -i on ${pid} failed: ${run.stdout}${run.stderr}`);
}

/** A child under callgrind, and its output lines one at a time (failing with its stderr if it exits). */
function underCallgrind(dir: string, mode: string) {
  const child = spawn(VALGRIND, [...callgrindArgs(dir), mode], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exit = exited(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (what: string): Promise<string> => {
    const line = await Promise.race([
      lines.next(),
      exit.then((code) => {
        throw new Error(`instructions: ${mode} under callgrind exited ${code} while ${what}: ${stderr}`);
      }),
    ]);
    if (line.done) throw new Error(`instructions: ${mode} closed its output while ${what}: ${stderr}`);
    return line.value;
  };
  const done = async () => {
    const code = await exit;
    if (code !== 0) throw new Error(`instructions: ${mode} under callgrind exited ${code}: ${stderr}`);
  };
  return { child, next, done };
}

async function countMemory(dir: string): Promise<InstructionRow> {
  const { child, next, done } = underCallgrind(dir, "child-memory");
  if ((await next("warming up")) !== "warm") throw new Error("instructions: child-memory did not say warm");
  instrumentationOn(child.pid!);
  child.stdin!.end("go\n");
  await done();
  return rowOf("in-memory (client + server)", dumps(dir));
}

async function countHttp(dir: string): Promise<{ row: InstructionRow; functions: FunctionDelta[] }> {
  const { child, next, done } = underCallgrind(dir, "child-http-server");
  let client: Client | undefined;
  try {
    const url = /^url (\S+)/.exec(await next("starting"))?.[1];
    if (!url) throw new Error("instructions: the HTTP server did not print its URL");
    client = makeRoundsClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await checkTools({ name: "HTTP", era: "modern", client, observer: {}, close: async () => {} }, EXPECTED);
    await warmUp(client, WARMUP.http);
    instrumentationOn(child.pid!);
    for (const tool of windowOrder()) {
      child.stdin!.write("zero\n");
      await next("zeroing");
      for (let i = 0; i < N; i++) await callOnce(client, tool);
      child.stdin!.write("dump\n");
      await next("dumping");
    }
  } finally {
    await client?.close();
    child.stdin!.end("stop\n");
  }
  await done();
  const files = dumps(dir);
  return { row: rowOf("HTTP 127.0.0.1 (server process)", files), functions: functionDeltas(files) };
}

export async function benchInstructions(): Promise<InstructionsResult> {
  if (spawnSync(VALGRIND, ["--version"]).status !== 0) throw new Error(`instructions: ${VALGRIND} not found (install valgrind)`);
  if (!existsSync(new URL("../dist/server/index.js", import.meta.url))) throw new Error("instructions: build first (npm run build)");
  const memoryDir = mkdtempSync(join(tmpdir(), "elicit-callgrind-memory-"));
  const httpDir = mkdtempSync(join(tmpdir(), "elicit-callgrind-http-"));
  try {
    // Both at once: counts do not depend on what else runs.
    const [memory, http] = await Promise.all([
      SETUPS.includes("memory") ? countMemory(memoryDir) : undefined,
      SETUPS.includes("http") ? countHttp(httpDir) : undefined,
    ]);
    const rows = [memory, http?.row].filter((row) => row !== undefined);
    return { rows, httpFunctions: http?.functions ?? [], n: N, windows: WINDOWS, warmup: WARMUP };
  } finally {
    rmSync(memoryDir, { recursive: true, force: true });
    rmSync(httpDir, { recursive: true, force: true });
  }
}

export function formatInstructionsTable(r: InstructionsResult): string {
  const k = (n: number) => `${(n / 1000).toFixed(0)}k`;
  const range = (xs: number[]) => `${k(Math.min(...xs))}–${k(Math.max(...xs))}`;
  const rows = table([
    ["setup (2026-07-28), per call", "ours / bare raw", "plain", "raw", "ours", "ours/raw", "ours/plain", "raw windows", "ours windows"],
    ...r.rows.flatMap((row) =>
      PAIRS.map(({ ours, raw }) => [
        row.setup,
        `${ours} / ${raw}`,
        k(row.perCall.plain!),
        k(row.perCall[raw]!),
        k(row.perCall[ours]!),
        (row.perCall[ours]! / row.perCall[raw]!).toFixed(3),
        (row.perCall[ours]! / row.perCall.plain!).toFixed(2),
        range(row.windows[raw]!),
        range(row.windows[ours]!),
      ]),
    ),
  ]);
  const parts = table([
    ["setup, per call", "ours / bare raw", "raw: running", "compile", "GC", "ours: running", "compile", "GC", "ours/raw running"],
    ...r.rows.flatMap((row) =>
      PAIRS.map(({ ours, raw }) => [
        row.setup,
        `${ours} / ${raw}`,
        k(row.running[raw]!),
        k(row.compile[raw]!),
        k(row.gc[raw]!),
        k(row.running[ours]!),
        k(row.compile[ours]!),
        k(row.gc[ours]!),
        (row.running[ours]! / row.running[raw]!).toFixed(3),
      ]),
    ),
  ]);
  const top = r.httpFunctions.slice(0, 12);
  const extra = r.httpFunctions.reduce((sum, f) => sum + f.ours - f.raw, 0);
  const functions = table([
    [
      `HTTP server, self instructions per call (${PAIRS[0]!.ours} / ${PAIRS[0]!.raw})`,
      "raw",
      "ours",
      "ours − raw",
      "share of the difference",
    ],
    ...top.map((f) => [
      f.fn.length > 90 ? `${f.fn.slice(0, 87)}...` : f.fn,
      k(f.raw),
      k(f.ours),
      k(f.ours - f.raw),
      `${((100 * (f.ours - f.raw)) / extra).toFixed(1)}%`,
    ]),
  ]);
  return [
    loadLine(),
    `Instructions per tools/call (callgrind Ir), node ${process.version} --single-threaded; ${r.windows} windows of ${r.n} calls per tool,`,
    `after ${r.warmup.memory} (in-memory) / ${r.warmup.http} (HTTP) warm-up calls of each tool. raw = inputRequired() + inputResponses (no state);`,
    "warm / cold = kit.registerTool + ctx.elicit (sample, roots), the retry resumed / replayed; plain = a tool that asks nothing.",
    "Windows = the range over the windows.",
    "",
    rows,
    "",
    "The same split by V8 function: compile = its compilers (the JIT still at work in the window), GC = the collector,",
    "running = the rest (the calls' own work, in JIT-compiled code, builtins and the runtime).",
    "",
    parts,
    ...(top.length ? ["", functions] : []),
  ].join("\n");
}

const mode = process.argv[2];
if (process.argv[1] === SELF) {
  if (mode === "child-memory") await childMemory();
  else if (mode === "child-http-server") await childHttpServer();
  else console.log(formatInstructionsTable(await benchInstructions()));
}
