// Flow ends across members, signed: two FlowStores on one real Redis (as two members' url kits, which
// pass their vault ring as endKeys). A signed end wakes the other member's waiter from the message alone,
// without reading the end back from Redis; an end signed with another key, or not signed, is read back
// and decides nothing by itself; a ring verifies ends signed with an older key.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { FLOW_END_CHANNEL, FlowStore } from "../../src/server/url/flows.js";
import type { FleetStore } from "../../src/store/index.js";
import { redisMembers } from "../helpers/redis.js";

// Without redis-server the file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const members = redisMembers("flow-end-signed");
const { skip } = members;

const init = { kind: "url" as const, server: "fleet", client: "test", message: "Open the page", target: "https://example.com/" };
const MINUTE = 60_000;

/** `store` with its reads of flow ends counted; `firstEndRead` resolves at the first (the waiter's own check, after it subscribed). */
function counting(store: FleetStore) {
  let endReads = 0;
  let first: () => void;
  const firstEndRead = new Promise<void>((resolve) => (first = resolve));
  const spied = new Proxy(store, {
    get(target, prop) {
      if (prop === "get")
        return (key: string) => {
          if (key.startsWith("url-flow-end:")) {
            endReads++;
            first();
          }
          return target.get(key);
        };
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: spied, firstEndRead, endReads: () => endReads };
}

test("a signed end from another member wakes the waiter without a read of the store", { skip }, async () => {
  const key = randomBytes(32);
  const a = counting(members.a);
  const onA = new FlowStore(a.store, { pollMs: MINUTE, endKeys: [key] });
  const onB = new FlowStore(members.b, { pollMs: MINUTE, endKeys: [key] });
  const flow = await onA.create(init);
  const waiting = onA.waitFor(flow.id);
  await a.firstEndRead;
  assert.equal(await onB.finish(flow.id, "completed"), true);
  // The poll is a minute away: only the message can have woken it, and nothing read the end back.
  assert.equal(await waiting, "completed");
  assert.equal(a.endReads(), 1, "only the waiter's first check read the end");
});

test("an end signed with another key, or unsigned, is checked against the store and decides nothing by itself", { skip }, async () => {
  const a = counting(members.a);
  const onA = new FlowStore(a.store, { pollMs: MINUTE, endKeys: [randomBytes(32)] });
  const flow = await onA.create(init);
  const waiting = onA.waitFor(flow.id);
  await a.firstEndRead;
  // Strangers on the channel: an end signed with a key this member does not hold, and one not signed.
  // Heard first (one channel, in order): taken at their word, the waiter would end "completed".
  const mac = randomBytes(32).toString("base64url");
  await members.b.publish(FLOW_END_CHANNEL, JSON.stringify({ id: flow.id, outcome: "completed", mac }));
  await members.b.publish(FLOW_END_CHANNEL, JSON.stringify({ id: flow.id, outcome: "declined" }));
  // Each message about our flow was read back (nothing stored), and the waiter kept waiting.
  assert.equal(await onA.outcome(flow.id), undefined);
  // The member that reads the store decides: ended for real now, by a store without keys (an unsigned end).
  assert.equal(await new FlowStore(members.b).finish(flow.id, "cancelled"), true);
  assert.equal(await waiting, "cancelled");
  // The waiter's first check, outcome() above, and one read back for each of the three messages.
  assert.equal(a.endReads(), 5);
});

test("a ring verifies ends signed with its older key (a fleet rolled one member at a time)", { skip }, async () => {
  const [newer, older] = [randomBytes(32), randomBytes(32)];
  const a = counting(members.a);
  const onA = new FlowStore(a.store, { pollMs: MINUTE, endKeys: [newer, older] });
  const onB = new FlowStore(members.b, { pollMs: MINUTE, endKeys: [older] });
  const flow = await onA.create(init);
  const waiting = onA.waitFor(flow.id);
  await a.firstEndRead;
  assert.equal(await onB.finish(flow.id, "declined"), true);
  assert.equal(await waiting, "declined");
  assert.equal(a.endReads(), 1);
});
