// URL flows across processes on Redis: each FlowStore on its own connection (as each fleet member has),
// an end written through one wakes a waiter on the other through pub/sub (the poll is set to a minute,
// so nothing else could), and two racing ends agree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FLOW_END_CHANNEL, FlowStore, type FlowOutcome } from "../../src/server/url/flows.js";
import { redisMembers } from "../helpers/redis.js";

// Without redis-server the file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const members = redisMembers("flows");
const { skip } = members;

const init = { kind: "url" as const, server: "fleet", client: "test", message: "Open the page", target: "https://example.com/" };
const MINUTE = 60_000;

test("an end written on one member wakes a waiter on another, by pub/sub (the poll is a minute away)", { skip }, async () => {
  const onA = new FlowStore(members.a, { pollMs: MINUTE });
  const onB = new FlowStore(members.b, { pollMs: MINUTE });
  for (const outcome of ["completed", "declined", "cancelled"] as FlowOutcome[]) {
    const flow = await onA.create(init);
    const controller = new AbortController();
    const waiting = onA.waitFor(flow.id, controller.signal);
    // Let the waiter's first read find the flow pending, so only a message can wake it.
    assert.equal(await onA.outcome(flow.id), undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await onB.finish(flow.id, outcome), true);
    // A minute-long poll cannot have woken it; the test runner's timeout would end a wait for the poll.
    assert.equal(await waiting, outcome);
  }
});

test("two members racing to end one flow: exactly one wins, and both wait to the same outcome", { skip }, async () => {
  const onA = new FlowStore(members.a, { pollMs: MINUTE });
  const onB = new FlowStore(members.b, { pollMs: MINUTE });
  for (let round = 0; round < 20; round++) {
    const flow = await onA.create(init);
    const waits = [onA.waitFor(flow.id), onB.waitFor(flow.id)];
    const [wonA, wonB] = await Promise.all([onA.finish(flow.id, "completed"), onB.finish(flow.id, "declined")]);
    assert.equal(Number(wonA) + Number(wonB), 1, "exactly one end is written");
    const expected = wonA ? "completed" : "declined";
    assert.deepEqual(await Promise.all(waits), [expected, expected]);
    assert.equal(await onB.outcome(flow.id), expected);
    assert.equal(await onA.outcome(flow.id), expected);
  }
});

test("messages on the flow-end channel decide nothing: malformed ones are ignored, a forged end is checked against the store", async (t) => {
  // Skipped from inside: as an option, the skip would make prettier re-wrap this long-named test whole.
  if (skip) return t.skip(skip);
  const onA = new FlowStore(members.a, { pollMs: MINUTE });
  const onB = new FlowStore(members.b, { pollMs: MINUTE });
  const flow = await onA.create(init);
  const waiting = onA.waitFor(flow.id);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const forgedEnd = JSON.stringify({ id: flow.id, outcome: "completed" });
  for (const hostile of [
    "not json",
    "null",
    "[]",
    JSON.stringify({ id: flow.id, outcome: "toString" }),
    JSON.stringify({ id: "../x", outcome: "completed" }),
    forgedEnd,
  ])
    await members.b.publish(FLOW_END_CHANNEL, hostile);
  // The forged end named a real flow, but nothing was stored: the waiter reads the store and keeps waiting.
  assert.equal(await onB.outcome(flow.id), undefined);
  assert.equal(await onB.finish(flow.id, "cancelled"), true);
  assert.equal(await waiting, "cancelled");
});
