// Warm rounds of 2026-07-28: a retry that comes back to the process that asked resumes the suspended
// handler instead of replaying it. Shown against the cold path (a second kit with the same key and
// store, as another process of a fleet would be, or an evicted handler): the same result, the same
// single side effect; refused states are refused as before; ctx.sample and ctx.roots resume too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { form, text, yesNo } from "../../../src/schema/index.js";
import { createElicitation, type EvictReason, type WarmRoundOptions } from "../../../src/server/index.js";
import { memoryStore } from "../../../src/store/index.js";
import { callWith, manualClient } from "../../helpers/manual-client.js";
import { connect, type TransportKind } from "../../helpers/mcp.js";
import { deferred, within } from "../../helpers/deferred.js";
import { jsonResult, resultJson } from "../../helpers/results.js";

const KEY = "ab".repeat(32);
const PROCEED = { action: "accept", content: { ok: true } };
const RATE = { action: "accept", content: { stars: "5" } };
const MODEL = { role: "assistant", content: { type: "text", text: "Paris." }, model: "m-1" };
const ROOTS = { roots: [{ uri: "file:///work", name: "work" }] };

/** What the tools did: handler starts (a replay starts it again) and side effects, per order. */
interface Counts {
  runs: number;
  charges: Map<number, number>;
}

/** A server factory on its own kit; kits made with the same store and key stand for processes of one fleet. */
function member(store = memoryStore(), warmRounds?: WarmRoundOptions | false) {
  const kit = createElicitation({ stateKey: KEY, store, ...(warmRounds !== undefined ? { warmRounds } : {}) });
  const counts: Counts = { runs: 0, charges: new Map() };
  const charge = (order: number) => counts.charges.set(order, (counts.charges.get(order) ?? 0) + 1);
  let held: { aborted: Promise<string> } | undefined;
  const factory = () => {
    const server = new McpServer({ name: "warm", version: "1.0.0" });
    const order = { inputSchema: z.object({ order: z.number() }) };
    kit.registerTool(server, "pay", { description: "Asks, charges, asks again", ...order }, async ({ order }, ctx) => {
      counts.runs++;
      const first = await ctx.elicit("Proceed?", form({ ok: yesNo() }));
      const receipt = await ctx.step("charge", () => (charge(order), `receipt-${order}`));
      const second = await ctx.elicit("Rate us", form({ stars: text() }));
      return jsonResult({ first, receipt, second });
    });
    kit.registerTool(server, "both", { description: "Two questions in one round", ...order }, async ({ order }, ctx) => {
      counts.runs++;
      const [a, b] = await Promise.all([ctx.elicit("Proceed?", form({ ok: yesNo() })), ctx.elicit("Rate us", form({ stars: text() }))]);
      const receipt = await ctx.step("charge", () => (charge(order), `receipt-${order}`));
      return jsonResult({ a, b, receipt });
    });
    kit.registerTool(server, "inputs", { description: "Samples, lists roots, charges", ...order }, async ({ order }, ctx) => {
      counts.runs++;
      const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Capital?" } }], maxTokens: 10 });
      const roots = await ctx.roots();
      const receipt = await ctx.step("charge", () => (charge(order), `receipt-${order}`));
      return jsonResult({ answer: answer.content, roots, receipt });
    });
    kit.registerTool(server, "hold", { description: "Waits after its answer until cancelled" }, async (_args, ctx) => {
      counts.runs++;
      await ctx.elicit("Proceed?", form({ ok: yesNo() }));
      // Read where it is used: after a warm round, the context is the request that resumed the handler.
      const signal = ctx.mcpReq.signal;
      const aborted = new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve(String(signal.reason))));
      held = { aborted };
      heldReady.resolve();
      await aborted;
      return jsonResult({ cancelled: true });
    });
    return server;
  };
  const heldReady = deferred();
  return { factory, counts, store, held: () => held!, heldReady };
}

type Proc = ReturnType<typeof member>;

async function client(proc: Proc, kind: TransportKind = "memory", caps: Record<string, unknown> = { elicitation: { form: {} } }) {
  const conn = await connect(manualClient(caps), proc.factory, "2026-07-28", kind);
  return { conn, call: callWith(conn.client) };
}

const refusal = (reason: string) => (error: any) => {
  assert.equal(error.code, -32602, String(error));
  assert.equal(error.data?.reason, reason, String(error));
  return true;
};

/** Evictions as they are reported, each awaitable by reason. */
function evictions() {
  const seen: EvictReason[] = [];
  const waiting: { reason: EvictReason; resolve: () => void }[] = [];
  const onEvict = (reason: EvictReason) => {
    seen.push(reason);
    for (const w of waiting.filter((w) => w.reason === reason)) w.resolve();
  };
  const next = (reason: EvictReason) => {
    const d = deferred();
    waiting.push({ reason, resolve: d.resolve });
    return within(d.promise, 10_000, `a handler let go for "${reason}"`);
  };
  return { seen, onEvict, next };
}

for (const kind of ["memory", "http"] as const) {
  test(`over ${kind}: a warm retry and a cold one (another process of the fleet) give the same result and charge once`, async () => {
    const a = member();
    const b = member(a.store); // same key, same store: where a retry lands behind a balancer that is not sticky
    const [ca, cb] = [await client(a, kind), await client(b, kind)];
    try {
      const pay = { name: "pay", arguments: { order: 7 } };
      // Warm: every round comes back to a.
      const w1 = await ca.call(pay);
      const w2 = await ca.call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: w1.requestState });
      assert.equal(w2.resultType, "input_required");
      // An earlier round with its answers again (a reply lost) gets the round it led to, as sent; with
      // other answers it is refused. The later round stays held warm either way.
      assert.deepEqual(await ca.call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: w1.requestState }), w2);
      await assert.rejects(
        ca.call({ ...pay, inputResponses: { "elicit-1": { action: "decline" } }, requestState: w1.requestState }),
        refusal("replayed"),
      );
      const warm = await ca.call({ ...pay, inputResponses: { "elicit-1": PROCEED, "elicit-2": RATE }, requestState: w2.requestState });
      assert.equal(a.counts.runs, 1, "resumed twice, never replayed");
      assert.equal(a.counts.charges.get(7), 1);

      // Cold: round 2 lands on b, which replays; round 3 comes back to b, which now holds the handler.
      const c1 = await ca.call(pay);
      const c2 = await cb.call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: c1.requestState });
      assert.deepEqual(c2.inputRequests, w2.inputRequests, "the same question, replayed or resumed");
      // The same resend on either process gets round 2 from the ledger, the state b holds its handler for.
      assert.deepEqual(await cb.call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: c1.requestState }), c2);
      assert.deepEqual(await ca.call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: c1.requestState }), c2);
      await assert.rejects(
        cb.call({ ...pay, inputResponses: { "elicit-1": { action: "decline" } }, requestState: c1.requestState }),
        refusal("replayed"),
      );
      const cold = await cb.call({ ...pay, inputResponses: { "elicit-1": PROCEED, "elicit-2": RATE }, requestState: c2.requestState });
      assert.equal(b.counts.runs, 1, "b replayed once (round 2), then resumed (round 3)");
      assert.deepEqual(cold, warm);
      assert.deepEqual(resultJson(warm), { first: PROCEED, receipt: "receipt-7", second: RATE });
      assert.equal(a.counts.charges.get(7)! + b.counts.charges.get(7)!, 2, "one charge per call, wherever its rounds ran");

      // A finished call answers any of its states with its result, on either process, and charges nothing.
      for (const [c, state] of [
        [ca, w1.requestState],
        [cb, w2.requestState],
        [cb, c2.requestState],
      ] as const)
        assert.deepEqual(await c.call({ ...pay, inputResponses: { "elicit-1": PROCEED, "elicit-2": RATE }, requestState: state }), warm);
      assert.equal(a.counts.runs + b.counts.runs, 3, "the warm call's one start, the cold call's start and replay");
      assert.equal(a.counts.charges.get(7)! + b.counts.charges.get(7)!, 2);
    } finally {
      await ca.conn.close();
      await cb.conn.close();
    }
  });
}

test("a held handler's state is still checked: forged, other arguments, an old round are refused; the rightful retry still resumes", async () => {
  const a = member();
  const { conn, call } = await client(a);
  try {
    const pay = { name: "pay", arguments: { order: 1 } };
    const r1 = await call(pay);
    const state = r1.requestState as string;
    // The second-to-last character (always whole bits of the tag) changed to another one: the state was
    // left unchanged when it was already "A" and the last one was not (1 run in 64).
    const forged = `${state.slice(0, -2)}${state.at(-2) === "A" ? "B" : "A"}${state.slice(-1)}`;
    assert.notEqual(forged, state);
    await assert.rejects(call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: forged }), refusal("tampered"));
    await assert.rejects(
      call({ name: "pay", arguments: { order: 2 }, inputResponses: { "elicit-1": PROCEED }, requestState: state }),
      refusal("arguments"),
    );
    const r2 = await call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: state });
    assert.equal(r2.resultType, "input_required");
    assert.equal(a.counts.runs, 1, "the refusals did not cost the warm round");
    await assert.rejects(call({ ...pay, inputResponses: { "elicit-1": { action: "decline" } }, requestState: state }), refusal("replayed"));
    // The latest state sent twice at once (a reply lost, the client retries): one resumes the held handler,
    // the other replays; one charge, one result. Other answers for that round would be refused.
    const answers = { "elicit-1": PROCEED, "elicit-2": RATE };
    const [x, y] = await Promise.all([1, 2].map(() => call({ ...pay, inputResponses: answers, requestState: r2.requestState })));
    assert.deepEqual(x, y);
    assert.deepEqual(resultJson(x!), { first: PROCEED, receipt: "receipt-1", second: RATE });
    assert.equal(a.counts.charges.get(1), 1);
  } finally {
    await conn.close();
  }
});

test("handlers let go for the count, memory or idle bound fall back to replay: same result, one charge", async () => {
  const pay = (order: number) => ({ name: "pay", arguments: { order } });
  const finish = async (call: ReturnType<typeof callWith>, order: number, state: string) => {
    const r2 = await call({ ...pay(order), inputResponses: { "elicit-1": PROCEED }, requestState: state });
    return call({ ...pay(order), inputResponses: { "elicit-1": PROCEED, "elicit-2": RATE }, requestState: r2.requestState });
  };
  for (const [reason, bounds] of [
    ["count", { maxHandlers: 1 }],
    ["bytes", { maxBytes: 12 * 1024 }],
    ["idle", { idleMs: 30 }],
  ] as const) {
    const events = evictions();
    const a = member(undefined, { ...bounds, onEvict: events.onEvict });
    const { conn, call } = await client(a);
    try {
      const evicted = events.next(reason);
      const first = await call(pay(1));
      // A second call's handler pushes the first one out, or the first one's idle time runs out.
      const second = reason === "idle" ? undefined : await call(pay(2));
      await evicted;
      const done = await finish(call, 1, first.requestState);
      assert.deepEqual(resultJson(done), { first: PROCEED, receipt: "receipt-1", second: RATE }, reason);
      assert.equal(a.counts.charges.get(1), 1, reason);
      if (second) {
        const runsBefore = a.counts.runs;
        await finish(call, 2, second.requestState);
        assert.equal(a.counts.charges.get(2), 1, reason);
        // Bounded by count/bytes the second handler was held: it resumed, unless the first's rounds pushed it out.
        assert.ok(a.counts.runs - runsBefore <= 1, reason);
      }
      // The first call: 1 start + 1 replay after it was let go (the idle one may be let go again before its last round).
      assert.ok(a.counts.runs >= 2, `${reason}: the evicted handler was replayed`);
      assert.ok(events.seen.includes(reason));
    } finally {
      await conn.close();
    }
  }
});

test("two questions in one round (Promise.all), one answered per retry: warm and cold ask the same and end the same", async () => {
  const a = member();
  const b = member(a.store);
  const [ca, cb] = [await client(a), await client(b)];
  try {
    const both = { name: "both", arguments: { order: 3 } };
    const results = [];
    for (const [first, second] of [
      [ca, ca],
      [ca, cb],
    ] as const) {
      const r1 = await first.call(both);
      assert.deepEqual(Object.keys(r1.inputRequests), ["elicit-1", "elicit-2"]);
      const r2 = await second.call({ ...both, inputResponses: { "elicit-1": PROCEED }, requestState: r1.requestState });
      assert.deepEqual(Object.keys(r2.inputRequests), ["elicit-2"], "the unanswered question is asked again");
      results.push(await second.call({ ...both, inputResponses: { "elicit-2": RATE }, requestState: r2.requestState }));
    }
    assert.deepEqual(results[0], results[1]);
    assert.deepEqual(resultJson(results[0]!), { a: PROCEED, b: RATE, receipt: "receipt-3" });
    assert.equal(a.counts.runs, 2, "a: the warm call once, the cold call's first run");
    assert.equal(b.counts.runs, 1, "b: replayed round 2, resumed round 3");
    assert.equal(a.counts.charges.get(3)! + (b.counts.charges.get(3) ?? 0), 2);
  } finally {
    await ca.conn.close();
    await cb.conn.close();
  }
});

test("ctx.sample and ctx.roots rounds resume warm, and end as a cold replay does", async () => {
  const caps = { sampling: {}, roots: {} };
  const a = member();
  const b = member(a.store, false); // every round replayed
  const [ca, cb] = [await client(a, "memory", caps), await client(b, "memory", caps)];
  try {
    const tool = { name: "inputs", arguments: { order: 5 } };
    const ends = [];
    for (const { call } of [ca, cb]) {
      const r1 = await call(tool);
      assert.deepEqual(Object.keys(r1.inputRequests), ["sample-1"]);
      const r2 = await call({ ...tool, inputResponses: { "sample-1": MODEL }, requestState: r1.requestState });
      assert.deepEqual(Object.keys(r2.inputRequests), ["roots-1"]);
      ends.push(await call({ ...tool, inputResponses: { "sample-1": MODEL, "roots-1": ROOTS }, requestState: r2.requestState }));
    }
    assert.deepEqual(ends[0], ends[1]);
    assert.deepEqual(resultJson(ends[0]!), { answer: MODEL.content, roots: ROOTS.roots, receipt: "receipt-5" });
    assert.equal(a.counts.runs, 1, "resumed for the roots and for the end, never replayed");
    assert.equal(b.counts.runs, 3, "replayed for the roots and for the end");
    assert.equal(a.counts.charges.get(5)! + b.counts.charges.get(5)!, 2);
  } finally {
    await ca.conn.close();
    await cb.conn.close();
  }
});

test("a resumed handler hears the cancellation of the request that resumed it", async () => {
  const a = member();
  const { conn, call } = await client(a);
  try {
    const r1 = await call({ name: "hold", arguments: {} });
    const abort = new AbortController();
    const pending = conn.client.callTool(
      { name: "hold", arguments: {}, inputResponses: { "elicit-1": PROCEED }, requestState: r1.requestState } as never,
      { allowInputRequired: true, signal: abort.signal } as never,
    );
    await within(a.heldReady.promise, 10_000, "the handler to resume");
    assert.equal(a.counts.runs, 1, "resumed, not replayed");
    abort.abort("the person closed the dialog");
    await assert.rejects(pending);
    assert.match(await within(a.held().aborted, 10_000, "the handler to hear the cancellation"), /closed the dialog/);
  } finally {
    await conn.close();
  }
});

test("warmRounds: false replays every round, as before", async () => {
  const a = member(undefined, false);
  const { conn, call } = await client(a);
  try {
    const pay = { name: "pay", arguments: { order: 9 } };
    const r1 = await call(pay);
    const r2 = await call({ ...pay, inputResponses: { "elicit-1": PROCEED }, requestState: r1.requestState });
    const done = await call({ ...pay, inputResponses: { "elicit-1": PROCEED, "elicit-2": RATE }, requestState: r2.requestState });
    assert.deepEqual(resultJson(done), { first: PROCEED, receipt: "receipt-9", second: RATE });
    assert.equal(a.counts.runs, 3);
    assert.equal(a.counts.charges.get(9), 1);
    assert.throws(() => createElicitation({ stateKey: KEY, warmRounds: { maxHandlers: -1 } }), /maxHandlers must be a whole number/);
  } finally {
    await conn.close();
  }
});
