// The load generator of bench/scale.ts, in a process of its own (forked with IPC) so that the server's
// CPU and memory are not shared with N clients. Each command is one phase, answered with its numbers:
//   { cmd: "legacy-open", url, n, concurrency }  opens n 2025-11-25 sessions, each with a call whose
//       elicitation/create has arrived (pending), at most `concurrency` opening at a time;
//   { cmd: "legacy-answer", boundMs }  answers every pending elicitation at the same instant and waits
//       for each call's result (a call with none after boundMs is lost);
//   { cmd: "legacy-close" }  ends the sessions;
//   { cmd: "modern", url, n, concurrency, boundMs }  n 2026-07-28 first rounds (`concurrency` at a
//       time), then all n retries with inputResponses at the same instant.
// Every call carries a unique id and answers with a unique value; the tools echo it, so a result for
// the wrong call, or a second result for one, is seen.
import { randomUUID } from "node:crypto";
import { kindOf, makeAgent, modernCall, startLegacyCall, type Json, type LegacyCall, type Wire } from "./scale-client.js";

export interface Errors {
  [kind: string]: number;
}

export interface LegacyOpenReport {
  pending: number;
  /** From the first initialize to the last elicitation/create received. */
  pendingMs: number;
  errors: Errors;
}

export interface Settled {
  /** Calls answered correctly (the echo is the answer this call gave). */
  ok: number;
  /** Results carrying another call's answer. */
  wrong: number;
  /** Calls with no result within the bound. */
  lost: number;
  /** Calls that received more than one result. */
  duplicated: number;
  errors: Errors;
  /** ms from the instant all answers were sent to each ok result (sorted). */
  latencies: number[];
  /** ms from that instant to each failure (sorted): resets within a second point elsewhere than resets after a minute. */
  failedAt: number[];
  drainMs: number;
}

export interface ModernReport extends Settled {
  /** Time for the n first rounds (each returns input_required). */
  firstRoundsMs: number;
  firstRoundErrors: Errors;
  stateBytes: number[];
}

const count = (errors: Errors, kind: string) => void (errors[kind] = (errors[kind] ?? 0) + 1);
const SOCKETS_FOR_ANSWERS = 4_096;
/** Below the process's 20,000 descriptors with room for the rest. */
const MAX_SOCKETS = 19_000;

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

const wireFor = (url: string, n: number): Wire => ({ url: new URL(url), agent: makeAgent(Math.min(MAX_SOCKETS, n + SOCKETS_FOR_ANSWERS)) });

let wire: Wire | undefined;
let calls: { id: string; call: LegacyCall }[] = [];

async function legacyOpen(url: string, n: number, concurrency: number): Promise<LegacyOpenReport> {
  wire = wireFor(url, n);
  calls = [];
  const errors: Errors = {};
  const start = performance.now();
  await pool(
    Array.from({ length: n }, () => randomUUID()),
    concurrency,
    async (id) => {
      try {
        calls.push({ id, call: await startLegacyCall(wire!, "ask", { call: id }) });
      } catch (error) {
        count(errors, kindOf(error));
      }
    },
  );
  return { pending: calls.length, pendingMs: performance.now() - start, errors };
}

/** Waits for each result up to `boundMs` after `start`; what has none by then is lost. */
async function settle(
  outcomes: { expected: string; result: Promise<{ value: string; at: number }>; results: () => number }[],
  start: number,
  boundMs: number,
  errors: Errors,
): Promise<Settled> {
  const settled: Settled = { ok: 0, wrong: 0, lost: 0, duplicated: 0, errors, latencies: [], failedAt: [], drainMs: 0 };
  const bound = new Promise<"lost">((resolve) => setTimeout(() => resolve("lost"), boundMs).unref());
  await Promise.all(
    outcomes.map(async ({ expected, result }) => {
      try {
        const got = await Promise.race([result, bound]);
        if (got === "lost") return void settled.lost++;
        if (got.value !== expected) return void settled.wrong++;
        settled.ok++;
        settled.latencies.push(got.at - start);
      } catch (error) {
        count(errors, kindOf(error));
        settled.failedAt.push(performance.now() - start);
      }
    }),
  );
  settled.drainMs = performance.now() - start;
  // A second result would arrive right behind the first; give it a moment before counting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  settled.duplicated = outcomes.filter((o) => o.results() > 1).length;
  settled.latencies.sort((a, b) => a - b);
  settled.failedAt.sort((a, b) => a - b);
  return settled;
}

const echoOf = (result: Json) => String(result.content?.[0]?.text ?? JSON.stringify(result));

async function legacyAnswer(boundMs: number): Promise<Settled> {
  const errors: Errors = {};
  const start = performance.now();
  const outcomes = calls.map(({ id, call }) => {
    const expected = `answer-${id}`;
    // An answer that did not get through is counted by its kind; its call then ends lost or failed.
    call.answer({ answer: expected }).catch((error) => count(errors, `answer POST: ${kindOf(error)}`));
    return { expected, results: call.results, result: call.result.then((r) => ({ value: echoOf(r), at: performance.now() })) };
  });
  return settle(outcomes, start, boundMs, errors);
}

async function legacyClose(): Promise<void> {
  await pool(calls, 256, ({ call }) => call.close());
  calls = [];
  wire?.agent.destroy();
}

async function modern(url: string, n: number, concurrency: number, boundMs: number): Promise<ModernReport> {
  const w = wireFor(url, n);
  const firstRoundErrors: Errors = {};
  const rounds: { id: string; requestState: string | undefined; key: string }[] = [];
  const stateBytes: number[] = [];
  const start = performance.now();
  await pool(
    Array.from({ length: n }, () => randomUUID()),
    concurrency,
    async (id) => {
      try {
        const result = await modernCall(w, "ask", { call: id });
        const key = Object.keys(result.inputRequests ?? {})[0];
        if (result.resultType !== "input_required" || !key) return count(firstRoundErrors, "not input_required");
        rounds.push({ id, requestState: result.requestState, key });
        stateBytes.push(Buffer.byteLength(result.requestState ?? ""));
      } catch (error) {
        count(firstRoundErrors, kindOf(error));
      }
    },
  );
  const firstRoundsMs = performance.now() - start;
  const errors: Errors = {};
  const retryStart = performance.now();
  const outcomes = rounds.map(({ id, requestState, key }) => {
    const expected = `answer-${id}`;
    const retry = {
      inputResponses: { [key]: { action: "accept", content: { answer: expected } } },
      ...(requestState ? { requestState } : {}),
    };
    const result = modernCall(w, "ask", { call: id }, retry).then((r) => ({ value: echoOf(r), at: performance.now() }));
    // A JSON response carries one result: duplicates cannot show on this wire.
    return { expected, result, results: () => 1 };
  });
  const settled = await settle(outcomes, retryStart, boundMs, errors);
  w.agent.destroy();
  stateBytes.sort((a, b) => a - b);
  return { ...settled, firstRoundsMs, firstRoundErrors, stateBytes };
}

type Command =
  | { cmd: "legacy-open"; url: string; n: number; concurrency: number }
  | { cmd: "legacy-answer"; boundMs: number }
  | { cmd: "legacy-close" }
  | { cmd: "modern"; url: string; n: number; concurrency: number; boundMs: number };

process.on("message", async (command: Command) => {
  const reply = await (async () => {
    switch (command.cmd) {
      case "legacy-open":
        return legacyOpen(command.url, command.n, command.concurrency);
      case "legacy-answer":
        return legacyAnswer(command.boundMs);
      case "legacy-close":
        return legacyClose();
      case "modern":
        return modern(command.url, command.n, command.concurrency, command.boundMs);
    }
  })();
  process.send!({ done: command.cmd, reply: reply ?? null });
});
process.on("disconnect", () => process.exit(0));
process.send!({ ready: true });
