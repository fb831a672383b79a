// Load on a sticky fleet with 2025-11-25 sessions: SESSIONS SDK clients at once (real sessions over
// StreamableHTTPClientTransport) through a real HAProxy, sticky on Mcp-Session-Id, to three members on
// a real redis-server. Each client calls `charge_answer` (a ctx.step counted in Redis, then one question
// whose answer carries the call's own id, echoed in the result); each person answers after a random
// 0-2 s, and one member is SIGKILLed half a second into the answers.
// What docs/server/survive-a-member-dying.md promises, checked per call: no call is lost. A call on a survivor ends with its own
// answer; a call that was running on the killed member is finished by the survivor that adopts its
// session (its client resumes the stream with Last-Event-ID there; the survivor runs the tool again from
// its journal and asks the question again), and ends with its own answer; the next call on that client
// ends with its own answer on a survivor; every call's step ran exactly once (a finished call's on the
// dead member, before its question: the survivor gets its recorded value); a person is asked at most
// twice, and only for a call the kill caught. Afterwards the survivors' heaps come back near their baselines.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { createClient } from "redis";
import { startFleet, type Fleet } from "../helpers/fleet.js";
import { clientFor } from "../helpers/mcp.js";
import { LOAD_SESSIONS, loadTimeoutMs } from "../helpers/load-size.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";

/**
 * The 1,000 in npm run test:load (about 45 s on the 2-core machine at load 9, warming batch
 * included); npm test runs 200 (LOAD_SESSIONS), which holds when the machine is busier still.
 */
const SESSIONS = LOAD_SESSIONS;
const MAX_DELAY_MS = 2_000;
/** No call may take longer than this (the lost ones wait for the dead member's 3 s heartbeat to expire). */
const CALL_BOUND_MS = 60_000;
/**
 * A survivor's heap after the run may exceed its baseline (taken after a warming batch) by this much;
 * 4-7 MiB is seen. Batch after batch of 300 sessions on one member levels off within 1 MiB of the first.
 * Each survivor held ~500 sessions (its own and adopted ones): a leak of 20 KiB per session would show
 * (100 KiB at npm test's 200 sessions: the leak check is test:load's; the smaller run checks the calls).
 */
const HEAP_MARGIN_BYTES = 10 * 1024 * 1024;
const WARMING_SESSIONS = Math.ceil(SESSIONS * 0.15);

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? JSON.stringify(result)) as string;

/** Requests HAProxy answered 503 "No server is available" (see fetchThroughBusyProxy). */
let proxyBusy = 0;

/**
 * HAProxy answers 503 "No server is available" while its health checks find every member too busy to
 * answer in time (this many sessions on two cores), and a member answers 503 "try again shortly" while
 * the member holding the session does not take a request passed to it: neither reached the session, so
 * it is sent again, as a client honouring 503 does. Any other answer is the member's.
 */
async function fetchThroughBusyProxy(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(input, init);
    // HAProxy's own 503, or a member's (Retry-After: 1) while the member holding the session is too busy to take a passed-on request.
    const again = res.status === 503 && /No server is available|try again shortly/.test(await res.clone().text());
    if (!again || attempt >= 40) return res;
    await res.body?.cancel();
    proxyBusy++;
    await sleep(250);
  }
}

/** One simulated person with their own client and session. */
interface Person {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** The member that created the session (HAProxy's x-served-by on initialize). */
  member?: string;
  /** The call id of each question asked, in order. */
  asked: string[];
  /** GET requests resuming a stream with Last-Event-ID. */
  resumes: number;
  /** What the client's transport reported (failed reconnections and the like), for a call that did not end well. */
  errors: string[];
}

/** `asked` hears each question as it arrives; the answer goes after `answerAfter()` resolves. */
function person(url: URL, asked: (p: Person) => void, answerAfter: () => Promise<void>): Person {
  const client = clientFor("2025-11-25");
  const p: Person = { client, transport: undefined as never, asked: [], resumes: 0, errors: [] };
  client.onerror = (error) => p.errors.push(error.message);
  const tracking: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if ((init?.method ?? "GET") === "GET" && headers.has("last-event-id")) p.resumes++;
    const res = await fetchThroughBusyProxy(input, init);
    const body = typeof init?.body === "string" ? init.body : "";
    if (!p.member && body.includes('"initialize"')) p.member = res.headers.get("x-served-by") ?? undefined;
    return res;
  };
  p.transport = new StreamableHTTPClientTransport(url, { fetch: tracking });
  client.setRequestHandler("elicitation/create", async () => {
    // The question names no call id; the call this person is waiting on is the last one they started.
    const call = current.get(p)!;
    p.asked.push(call);
    asked(p);
    await answerAfter();
    return { action: "accept", content: { answer: `answer-${call}` } };
  });
  return p;
}
const current = new WeakMap<Person, string>();

async function callOnce(p: Person, callId: string): Promise<string> {
  current.set(p, callId);
  return textOf(await p.client.callTool({ name: "charge_answer", arguments: { callId } }, { timeout: CALL_BOUND_MS }));
}

// A fleet: members on one redis-server behind HAProxy (test/helpers/needs.ts skips it without them).
const skip = needs("redis-server", "haproxy");
describe(`load: ${SESSIONS} concurrent 2025-11-25 sessions on a sticky fleet of three, one member SIGKILLed mid-run`, { skip }, () => {
  let redis: RedisServer;
  let fleet: Fleet;
  before(async () => {
    redis = await startRedis();
    fleet = await startFleet({ size: 3, redisUrl: redis.url, sticky: true });
  });
  after(async () => {
    await fleet?.stop();
    await redis?.stop();
  });

  // The bound on the whole run: a hang fails here rather than stalling the suite.
  test(
    "no call is lost: calls on the killed member are finished by the survivors that adopt their sessions, each step once",
    { timeout: loadTimeoutMs(180_000) },
    async (t) => {
      // A warming batch: what is made once and kept (compiled code, pools) is made before the baselines.
      const warm = Array.from({ length: WARMING_SESSIONS }, () =>
        person(
          fleet.url,
          () => {},
          () => Promise.resolve(),
        ),
      );
      await Promise.all(
        warm.map(async (p) => {
          await p.client.connect(p.transport);
          await callOnce(p, randomUUID());
          await p.transport.terminateSession();
          await p.client.close();
        }),
      );
      const killed = fleet.members[1]!;
      const survivors = fleet.members.filter((m) => m !== killed);
      await sleep(1_000);
      const baselines = await Promise.all(survivors.map((m) => m.heap()));

      // Every person waits until all questions are out (or their call ended without one), then answers
      // after a random 0-2 s; the member dies a quarter of that in.
      let waiting = SESSIONS;
      let allAsked!: () => void;
      const asked = new Promise<void>((resolve) => (allAsked = resolve));
      const counted = new WeakSet<Person>();
      const reached = (p: Person) => {
        if (counted.has(p)) return;
        counted.add(p);
        if (--waiting === 0) allAsked();
      };
      const people = Array.from({ length: SESSIONS }, () =>
        person(fleet.url, reached, async () => {
          await asked;
          await sleep(Math.random() * MAX_DELAY_MS);
        }),
      );
      await Promise.all(people.map((p) => p.client.connect(p.transport)));
      const firstCalls = people.map(() => randomUUID());
      const outcomes = Promise.allSettled(people.map((p, i) => callOnce(p, firstCalls[i]!).finally(() => reached(p))));
      await asked;
      await sleep(MAX_DELAY_MS / 4);
      await killed.kill("SIGKILL");
      const settled = await outcomes;

      // Every call ends with its own answer: on its own member, or (the killed member's) on a survivor.
      const problems: string[] = [];
      const finished: number[] = [];
      const servedBy = new Map<string, number>();
      settled.forEach((outcome, i) => {
        const p = people[i]!;
        const call = firstCalls[i]!;
        if (outcome.status === "rejected") {
          const error = outcome.reason as Error & { code?: number; data?: { reason?: string } };
          problems.push(
            `${call} (session on ${p.member}, resumed ${p.resumes}): ${error.code ?? ""} ${error.data?.reason ?? ""} ${error.message}; client errors: ${p.errors.slice(-3).join(" | ")}`,
          );
          return;
        }
        const match = /^charged=1 answer=answer-(\S+) by (\S+)$/.exec(outcome.value);
        if (!match || match[1] !== call) problems.push(`${call} (session on ${p.member}): ${outcome.value}`);
        else if (match[2] !== p.member && (p.member !== killed.name || match[2] === killed.name))
          problems.push(`${call}: session created on ${p.member}, answered by ${match[2]}`);
        else {
          servedBy.set(match[2]!, (servedBy.get(match[2]!) ?? 0) + 1);
          if (match[2] !== p.member) finished.push(i);
        }
      });
      assert.deepEqual(problems.slice(0, 5), [], `${problems.length} of ${SESSIONS} calls did not end with their own answer`);
      assert.ok(finished.length > 0, "the kill fell among the answers: some calls were finished by a survivor");

      // Those clients go on: their sessions were adopted by survivors, where the next call completes.
      const nextCalls = finished.map(() => randomUUID());
      const next = await Promise.allSettled(finished.map((i, k) => callOnce(people[i]!, nextCalls[k]!)));
      const adoptedBy = new Map<string, number>();
      next.forEach((outcome, k) => {
        const call = nextCalls[k]!;
        const match = outcome.status === "fulfilled" ? /^charged=1 answer=answer-(\S+) by (\S+)$/.exec(outcome.value) : null;
        if (!match || match[1] !== call || match[2] === killed.name)
          problems.push(`next call ${call}: ${outcome.status === "fulfilled" ? outcome.value : (outcome.reason as Error).message}`);
        else adoptedBy.set(match[2]!, (adoptedBy.get(match[2]!) ?? 0) + 1);
      });
      assert.deepEqual(problems.slice(0, 5), [], `${problems.length} next calls on adopted sessions did not end with their own answer`);

      // Each question was for the call then running on that client; only a call the kill caught was asked
      // twice (once by the dead member, once by the survivor that finished it).
      let askedAgain = 0;
      const wrongAsks = people.flatMap((p, i) => {
        const k = finished.indexOf(i);
        const first = firstCalls[i]!;
        const expected =
          k < 0
            ? [[first]]
            : [
                [first, nextCalls[k]!],
                [first, first, nextCalls[k]!],
              ];
        const seen = JSON.stringify(p.asked);
        if (seen === JSON.stringify([first, first, nextCalls[k] ?? ""])) askedAgain++;
        return expected.some((e) => JSON.stringify(e) === seen) ? [] : [`${i}: ${p.asked.join(",")}`];
      });
      assert.deepEqual(wrongAsks.slice(0, 5), []);

      // Every call's step ran exactly once: a finished call's on the dead member, before its question (the
      // survivor that finished it got the step's recorded value from the call's journal in Redis).
      const counters = createClient({ url: redis.url });
      await counters.connect();
      try {
        const all = [...firstCalls, ...nextCalls];
        const counts = await counters.mGet(all.map((callId) => `test:charged:${callId}`));
        assert.deepEqual(counts.flatMap((count, i) => (count === "1" ? [] : [`${all[i]}: charged ${count ?? 0} times`])).slice(0, 5), []);
      } finally {
        await counters.close();
      }

      const sessionsPer = new Map<string, number>();
      for (const p of people) sessionsPer.set(p.member ?? "?", (sessionsPer.get(p.member ?? "?") ?? 0) + 1);
      const resumes = people.reduce((sum, p) => sum + p.resumes, 0);
      const list = (m: Map<string, number>) =>
        [...m]
          .sort()
          .map(([name, n]) => `${name} ${n}`)
          .join(", ");
      t.diagnostic(`sessions per member: ${list(sessionsPer)}; ${killed.name} SIGKILLed`);
      t.diagnostic(
        `first calls completed per member: ${list(servedBy)}; of them finished by a survivor after ${killed.name} died: ${finished.length} (asked again: ${askedAgain}); lost: 0`,
      );
      t.diagnostic(`streams resumed with Last-Event-ID: ${resumes}; next calls on adopted sessions served by: ${list(adoptedBy)}`);
      t.diagnostic(`requests sent again after HAProxy's 503 (no member passed its health check in time): ${proxyBusy}`);

      // Close every session (DELETE); then the survivors' heaps come back near their baselines.
      await Promise.all(
        people.map(async (p) => {
          await p.transport.terminateSession().catch(() => {});
          await p.client.close();
        }),
      );
      // Closed connections are let go over the next seconds: 3 s after the close the heap is 4-7 MiB above
      // the baseline, and a further batch of 300 sessions lowers it (a plateau, not growth per session).
      // So it is read each second for up to 15 s, until every survivor is back within the margin; a leak never is.
      let heaps: number[] = [];
      for (let second = 0; second < 15; second++) {
        await sleep(1_000);
        heaps = await Promise.all(survivors.map((m) => m.heap()));
        if (heaps.every((h, i) => h - baselines[i]! < HEAP_MARGIN_BYTES)) break;
      }
      survivors.forEach((m, i) =>
        t.diagnostic(`${m.name} heap after gc: ${mib(baselines[i]!)} before, ${mib(heaps[i]!)} after the sessions closed`),
      );
      survivors.forEach((m, i) =>
        assert.ok(
          heaps[i]! - baselines[i]! < HEAP_MARGIN_BYTES,
          `${m.name}: heap ${mib(heaps[i]!)} after the run, baseline ${mib(baselines[i]!)}: more than ${mib(HEAP_MARGIN_BYTES)} above it`,
        ),
      );
    },
  );
});
