// The floor under "warm / bare raw": instructions (callgrind Ir) of each guarantee a warm 2026-07-28
// round of ours keeps and the bare raw tool (no state) does not, counted alone, server side, per tool
// call of one question. Each item runs in a loop in one process under callgrind, after a warm-up, in
// a window marked as bench/instructions.ts marks its windows (os.getPriority / os.hostname):
//   seal       the requestState: envelope JSON, AES-256-GCM, base64url (kept so a retry that lands on
//              another process, or after this one died, replays the call)
//   bind       the state's terms checked on the retry (expiry, principal, tool), the arguments' digest
//              on both requests of the call (each request has its own guarded call)
//   claim      one answer per round: the answers' digest, the ledger's claim and the call's status
//   result     the finished call's record (dedupe for the state's lifetime), its claim let go
//   hold       the held handler put away and taken back (the warm round itself)
// Run: npx tsx bench/instructions-floor.ts (after a build; needs valgrind). BENCH_FLOOR_N (default 2,000).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { getPriority, hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { randomBytes, randomUUID } from "node:crypto";
import { CallLedger } from "../dist/server/rounds/ledger.js";
import { checkTerms, digest, sealed, type SealOptions, type StateBinding } from "../dist/server/base/sealed-state.js";
import { SuspendedRuns, warmBounds } from "../dist/server/rounds/warm.js";
import { memoryStore } from "../dist/store/memory.js";
import { callgrindArgs, dumps, instrumentationOn, split } from "./instructions.js";
import { loadLine, table } from "./harness.js";
import { BOOKING_ANSWER } from "./tools.js";

const N = Number(process.env.BENCH_FLOOR_N ?? 2000);
const SELF = fileURLToPath(import.meta.url);
const TTL = 30 * 60_000;

const seal: SealOptions = { key: randomBytes(32), ttlMs: TTL };
const args = { hotel: "Barcelona" };
const answers = { "elicit-1": { action: "accept", content: BOOKING_ANSWER } };
const result = { content: [{ type: "text", text: `elicit Barcelona: ${JSON.stringify(BOOKING_ANSWER)}` }] };
const journal = () => ({ call: randomUUID(), round: 0, answers: {}, steps: [], asked: { "elicit-1": "x8Yq2mJ0bLr3aV1c" } });
const binding = (): StateBinding => ({ principal: "anonymous", tool: "warm-elicit", args });

/** One tool call's worth of each item; async ones as the kit awaits them. */
function items() {
  const ledger = new CallLedger(memoryStore(), TTL + 60_000);
  const held = new SuspendedRuns(warmBounds({ maxHandlers: 1000 }, TTL));
  const run = { resumable: true } as never;
  const { token, terms } = sealed(journal(), binding(), seal);
  let calls = 0;
  return {
    seal: () => void sealed(journal(), binding(), seal),
    bind: () => {
      for (let request = 0; request < 2; request++) {
        const b = binding();
        b.argsDigest = digest(args);
        if (request === 1) checkTerms(terms, b);
      }
    },
    claim: async () => {
      await ledger.admit(`call-${calls++}`, 1, digest(answers));
    },
    result: async () => {
      const call = `call-${calls++}`;
      await ledger.admit(call, 1, "d");
      await ledger.recordResult(call, result as never, 1);
    },
    hold: () => {
      const key = `${token}${calls++}`;
      held.hold(key, run, terms);
      held.peek(key);
      held.take(key);
    },
  } satisfies Record<string, () => unknown>;
}
type Item = keyof ReturnType<typeof items>;
const ITEMS: Item[] = ["seal", "bind", "claim", "result", "hold"];

async function child(): Promise<void> {
  const work = items();
  for (const item of ITEMS) for (let i = 0; i < 5 * N; i++) await work[item]();
  process.stdout.write("warm\n");
  for await (const line of createInterface({ input: process.stdin })) if (line === "go") break;
  for (const item of ITEMS) {
    getPriority(); // callgrind: --zero-before=uv_os_getpriority
    for (let i = 0; i < N; i++) await work[item]();
    hostname(); // callgrind: --dump-before=uv_os_gethostname
  }
  process.exit(0);
}

export async function benchFloor(): Promise<Record<Item, { total: number; gc: number }>> {
  const dir = mkdtempSync(join(tmpdir(), "elicit-callgrind-floor-"));
  try {
    const child = spawn(process.env.VALGRIND ?? "valgrind", [...callgrindArgs(dir, SELF), "child"], { stdio: ["pipe", "pipe", "inherit"] });
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    if ((await lines.next()).value !== "warm") throw new Error(`floor: the child did not warm up (exit ${await exit})`);
    instrumentationOn(child.pid!);
    child.stdin!.end("go\n");
    if ((await exit) !== 0) throw new Error("floor: the child under callgrind failed");
    const files = dumps(dir);
    if (files.length !== ITEMS.length) throw new Error(`floor: ${files.length} dumps, expected ${ITEMS.length}`);
    return Object.fromEntries(
      ITEMS.map((item, k) => {
        const { total, gc } = split(files[k]!);
        return [item, { total: total / N, gc: gc / N }];
      }),
    ) as Record<Item, { total: number; gc: number }>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === "child") await child();
  else {
    const floor = await benchFloor();
    const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
    const sum = ITEMS.reduce((s, item) => s + floor[item].total, 0);
    console.log(loadLine());
    console.log(
      `Instructions per tool call of each guarantee alone (callgrind Ir, ${N} iterations after ${5 * N} warm-up), node ${process.version}`,
    );
    console.log(
      table([["item", "instructions", "of which GC"], ...ITEMS.map((i) => [i, k(floor[i].total), k(floor[i].gc)]), ["sum", k(sum), ""]]),
    );
  }
}
