// A 2026-07-28 retry routed back to the member that asked: each member tags the requestState it seals
// with its name (`<tag>.<sealed>`, MCP_ELICIT_ROUTE_TAG), and HAProxy reads the tag from the buffered
// body (test/helpers/haproxy.ts, routeTags) and sends the retry to that member, where the handler waits
// (a warm round). A tag naming another member, or none, only changes where the retry goes: it replays
// there. A member killed between rounds is routed around and the retry replays on another member.
// `book_counted` counts each start of its handler in Redis: started=1 in the result is a warm round,
// started=2 a replay.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { issuerKey, open, routeTagOf, seal, StateError, toStateKey, type SealOptions } from "../../src/server/base/sealed-state.js";
import { fleetClient as fleetClientOf, fleetForFile } from "../helpers/fleet.js";

describe("route tags in requestState", () => {
  const key = issuerKey(toStateKey(undefined), "fleet");
  const binding = { principal: "anonymous", tool: "book", args: {} };
  const options = (routeTag?: string): SealOptions => ({ key, ttlMs: 60_000, ...(routeTag ? { routeTag } : {}) });

  test("a tagged state opens whatever its tag says; its sealed part still decides", () => {
    const token = seal({ round: 1 }, binding, options("member-1"));
    assert.match(token, /^member-1\.[A-Za-z0-9_-]+$/);
    assert.equal(routeTagOf(token), "member-1");
    assert.deepEqual(open(token, binding, options()), { round: 1 });
    // Another member's tag, or none: the same state (the tag is a routing hint, not part of the seal).
    const sealedPart = token.slice("member-1.".length);
    assert.deepEqual(open(`member-2.${sealedPart}`, binding, options()), { round: 1 });
    assert.deepEqual(open(sealedPart, binding, options()), { round: 1 });
    assert.equal(routeTagOf(sealedPart), undefined);
    // A changed sealed part is refused as before; a tag of other characters is not a state of ours.
    const flipped = `member-1.${sealedPart.slice(0, -2)}${sealedPart.at(-2) === "A" ? "B" : "A"}${sealedPart.at(-1)}`;
    assert.throws(
      () => open(flipped, binding, options()),
      (e: unknown) => e instanceof StateError && e.problem === "tampered",
    );
    for (const bad of [`.${sealedPart}`, `member 1.${sealedPart}`, `${"x".repeat(33)}.${sealedPart}`, `a.b.${sealedPart}`])
      assert.throws(
        () => open(bad, binding, options()),
        (e: unknown) => e instanceof StateError && e.problem === "malformed",
        bad,
      );
  });

  test("a tag that is not 1-32 of A-Z a-z 0-9 _ - is refused when the kit is made", async () => {
    const { createElicitation } = await import("../../src/server/kit/elicitation.js");
    for (const routeTag of ["", "a.b", "x".repeat(33), "m/1"])
      assert.throws(() => createElicitation({ routeTag }), /routeTag .* must be 1 to 32 characters/, routeTag);
  });
});

// Without redis-server or HAProxy the file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const shared = fleetForFile({ routeTags: true });
const { skip } = shared;

const yes = { "elicit-1": { action: "accept", content: { confirm: true } } };
const textOf = (result: Record<string, any>) => (result.content as { text: string }[])[0]!.text;

/** A 2026-07-28 client through HAProxy (test/helpers/fleet.ts); `servedBy` lists the member of each tools/call. */
const fleetClient = () => fleetClientOf(shared.fleet.url, "fleet-routing");

/** Round 1 of `book_counted`: the member that asked and the state it sealed. */
async function firstRound(client: Awaited<ReturnType<typeof fleetClient>>, callId: string) {
  const result = await client.call({ name: "book_counted", arguments: { callId } });
  assert.equal(result.resultType, "input_required");
  const asker = client.servedBy.at(-1)!;
  const state = result.requestState as string;
  assert.equal(routeTagOf(state), asker, "the state carries the asking member's tag");
  return { asker, state, sealedPart: state.slice(asker.length + 1) };
}

const retry = (client: Awaited<ReturnType<typeof fleetClient>>, callId: string, requestState: string) =>
  client.call({ name: "book_counted", arguments: { callId }, inputResponses: yes, requestState });

describe("retries routed by tag across a fleet", { skip }, () => {
  test("each retry goes back to the member that asked and resumes warm, whichever member round 1 reached", async () => {
    const client = await fleetClient();
    try {
      const askers = new Set<string>();
      // Round robin spreads the first rounds over the members; every retry follows its tag home.
      for (let i = 0; i < 2 * shared.fleet.members.length; i++) {
        const callId = randomUUID();
        const { asker, state } = await firstRound(client, callId);
        askers.add(asker);
        const done = await retry(client, callId, state);
        assert.equal(client.servedBy.at(-1), asker);
        assert.equal(textOf(done), `started=1 booked=true by ${asker}`);
      }
      // At least two members asked (round robin gives all three, unless a health check blinked on a busy machine).
      assert.ok(askers.size >= 2, `first rounds on ${[...askers]}`);
    } finally {
      await client.close();
    }
  });

  test("a retry whose tag names another member, or no member, goes elsewhere and replays there to the same result", async () => {
    const client = await fleetClient();
    try {
      const callId = randomUUID();
      const { asker, sealedPart } = await firstRound(client, callId);
      const other = shared.fleet.members.find((m) => m.name !== asker)!.name;
      const done = await retry(client, callId, `${other}.${sealedPart}`);
      assert.equal(client.servedBy.at(-1), other);
      assert.equal(textOf(done), `started=2 booked=true by ${other}`);

      const second = randomUUID();
      const first = await firstRound(client, second);
      const nowhere = await retry(client, second, `member-99.${first.sealedPart}`);
      assert.match(textOf(nowhere), /^started=[12] booked=true by member-\d$/);
      assert.equal(textOf(nowhere).endsWith(`by ${client.servedBy.at(-1)}`), true);
    } finally {
      await client.close();
    }
  });

  test("a member killed between rounds: its tagged retry is redispatched and replays on another member, once", async () => {
    const client = await fleetClient();
    try {
      const callId = randomUUID();
      const { asker, state } = await firstRound(client, callId);
      // Killed outright, and the retry sent at once: HAProxy's health check has not yet seen it go, so the
      // connection is refused and HAProxy redispatches to a member that is up.
      await shared.fleet.members.find((m) => m.name === asker)!.kill();
      const done = await retry(client, callId, state);
      const served = client.servedBy.at(-1)!;
      assert.notEqual(served, asker);
      assert.equal(textOf(done), `started=2 booked=true by ${served}`);
      // The finished call's state again: its result, from the ledger, not a third start.
      const again = await retry(client, callId, state);
      assert.equal(textOf(again), `started=2 booked=true by ${served}`);
    } finally {
      await client.close();
    }
  });
});
