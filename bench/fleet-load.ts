// The fleet bench's load: WORKERS lean clients (bench/scale-client.ts) running complete elicitation
// round trips back to back. 2026-07-28: a call of `book`, the first round then the retry with the answer
// (any member serves any round); 2025-11-25: a whole session (initialize, the call, its elicitation
// answered, the result, DELETE; sticky to its member). Imported by bench/fleet.ts for the measured rows,
// and forked by it (`node --import tsx bench/fleet-load.ts <url> <era> <workers> [rate]`, IPC) as background
// load while completion delivery is timed, so the timing client's event loop is not the load's.
import { fileURLToPath } from "node:url";
import { kindOf, makeAgent, modernCall, startLegacyCall, type Wire } from "./scale-client.js";

export type Era = "2026-07-28" | "2025-11-25";

export interface Throughput {
  rounds: number;
  perSecond: number;
  errors: Record<string, number>;
}

/**
 * Runs `workers` clients back to back (closed loop: each starts its next round trip when the last ends)
 * until `durationMs` has passed or `signal` aborts. With `rate`, round trips start at that many per
 * second instead (open loop), at most `workers` at once; a start that finds all busy is counted as
 * "skipped (all workers busy)".
 */
export async function throughput(
  url: URL,
  era: Era,
  workers: number,
  { durationMs = Infinity, signal, rate }: { durationMs?: number; signal?: AbortSignal; rate?: number },
): Promise<Throughput> {
  const trip = era === "2026-07-28" ? modernTrip : legacyTrip;
  const wire: Wire = { url, agent: makeAgent(workers * 4) };
  const errors: Record<string, number> = {};
  let rounds = 0;
  const start = performance.now();
  const end = start + durationMs;
  const once = async () => {
    try {
      await trip(wire);
      rounds++;
    } catch (error) {
      const kind = kindOf(error);
      errors[kind] = (errors[kind] ?? 0) + 1;
    }
  };
  if (rate === undefined)
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (performance.now() < end && !signal?.aborted) await once();
      }),
    );
  else {
    const running = new Set<Promise<void>>();
    for (let n = 0; performance.now() < end && !signal?.aborted; n++) {
      // Starts are due at fixed times from the start, so a late timer does not lower the rate.
      const due = start + (n * 1000) / rate;
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      if (running.size >= workers) {
        errors["skipped (all workers busy)"] = (errors["skipped (all workers busy)"] ?? 0) + 1;
        continue;
      }
      const one = once().finally(() => running.delete(one));
      running.add(one);
    }
    await Promise.all(running);
  }
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

// Forked: load until the parent says "stop" (or goes away), then report the throughput and exit.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [url, era, workers, rate] = process.argv.slice(2);
  if (!url || (era !== "2026-07-28" && era !== "2025-11-25"))
    throw new Error("usage: fleet-load.ts <url> <2026-07-28|2025-11-25> <workers> [round trips/s]");
  const stop = new AbortController();
  process.on("message", (message) => message === "stop" && stop.abort());
  process.on("disconnect", () => stop.abort());
  process.send!("started");
  const result = await throughput(new URL(url), era, Number(workers ?? 32), { signal: stop.signal, rate: rate ? Number(rate) : undefined });
  if (process.connected) process.send!(result, () => process.disconnect());
}
