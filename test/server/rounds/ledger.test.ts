// The call ledger of 2026-07-28: an old requestState replayed against a server never runs a ctx.step
// twice; an earlier round is refused with -32602 "replayed"; a finished call answers with its recorded
// result. The stores behind it (memory, SQLite) keep one contract; SQLite survives a restart.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Booking } from "../../../src/servers/travel/bookings.js";
import { createTravelServer } from "../../../src/servers/travel/server.js";
import { createElicitation } from "../../../src/server/index.js";
import { CallLedger } from "../../../src/server/rounds/ledger.js";
import { memoryStore, sqliteStore, type KeyValueStore } from "../../../src/store/index.js";
import { callWith, manualClient } from "../../helpers/manual-client.js";
import { connect } from "../../helpers/mcp.js";
import { resultJson } from "../../helpers/results.js";
import { makeFactory } from "../../helpers/server-fixtures.js";
import { removeOnExit } from "../../helpers/cleanup.js";

const dir = mkdtempSync(join(tmpdir(), "elicit-ledger-"));
removeOnExit(dir); // also when the file is cut before its after hooks
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const sqliteFile = () => join(dir, `store-${++files}.db`);

describe("stores keep one contract", () => {
  for (const [name, make] of [
    ["memory", () => memoryStore()],
    ["sqlite", () => sqliteStore(sqliteFile())],
  ] as const) {
    test(`${name}: get, add only when absent, set, delete, expiry`, async () => {
      const store: KeyValueStore = make();
      try {
        assert.equal(await store.get("k"), undefined);
        assert.equal(await store.add("k", "one", 60_000), true);
        assert.equal(await store.add("k", "two", 60_000), false, "add never replaces a live key");
        assert.equal(await store.get("k"), "one");
        await store.set("k", "three", 60_000);
        assert.equal(await store.get("k"), "three");
        await store.delete("k");
        assert.equal(await store.get("k"), undefined);
        assert.equal(await store.add("short", "x", 20), true);
        await sleep(40);
        assert.equal(await store.get("short"), undefined, "an expired key reads as absent");
        assert.equal(await store.add("short", "y", 60_000), true, "and can be added again");
        // Of many concurrent adds of one key, exactly one wins.
        const wins = await Promise.all(Array.from({ length: 50 }, (_, i) => store.add("race", String(i), 60_000)));
        assert.equal(wins.filter(Boolean).length, 1);
        assert.equal(await store.get("weird key \u0000 ✓"), undefined);
        await store.set("weird key \u0000 ✓", "v\u0000✓", 60_000);
        assert.equal(await store.get("weird key \u0000 ✓"), "v\u0000✓");
      } finally {
        await store.close();
      }
    });
  }

  test("sqlite: what was stored is there after the file is closed and opened again; expired rows are not", async () => {
    const file = sqliteFile();
    const first = sqliteStore(file);
    await first.set("kept", "yes", 60_000);
    await first.set("gone", "no", 10);
    await first.close();
    await sleep(30);
    const second = sqliteStore(file);
    try {
      assert.equal(await second.get("kept"), "yes");
      assert.equal(await second.get("gone"), undefined);
    } finally {
      await second.close();
    }
  });
});

/** Runs `call` and returns "replayed" when refused as an old round, else the result. */
async function outcome(promise: Promise<Record<string, any>>): Promise<Record<string, any> | "replayed"> {
  try {
    return await promise;
  } catch (error: any) {
    assert.equal(error.code, -32602, String(error));
    assert.equal(error.data?.reason, "replayed");
    assert.match(
      error.message,
      /Invalid requestState: it is from round 1 of this tool call, which has moved on to round 2; use the latest requestState, or call the tool again\./,
    );
    return "replayed";
  }
}

const decline = { "elicit-1": { action: "decline" } };

/** pay_then_ask on a manual client; answering round 1 with `proceed` charges (its ctx.step) and moves on to round 2. */
async function payThenAsk() {
  const made = makeFactory();
  const conn = await connect(manualClient(), made.factory, "2026-07-28", "memory");
  const tool = { name: "pay_then_ask", arguments: {} };
  const proceed = { "elicit-1": { action: "accept", content: { ok: true } } };
  return { made, conn, call: callWith(conn.client), tool, proceed };
}

test("an earlier round's state replayed 10 times runs the ctx.step side effect once, not 11 times", async () => {
  const { made, conn, call, tool, proceed } = await payThenAsk();
  try {
    const round1 = await call(tool);
    const round2 = await call({ ...tool, inputResponses: proceed, requestState: round1.requestState });
    assert.equal(round2.resultType, "input_required");
    assert.equal(made.counters.sideEffects, 1, "charged once on the way to round 2");

    // The round-1 state again with its answers, ten times (a reply lost): round 2 as it was sent, the
    // same requestState; with other answers, ten times: refused. Nothing is charged again.
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(await call({ ...tool, inputResponses: proceed, requestState: round1.requestState }), round2);
      assert.equal(await outcome(call({ ...tool, inputResponses: decline, requestState: round1.requestState })), "replayed");
    }
    assert.equal(made.counters.sideEffects, 1);

    // The round-2 state may be used again (a lost response): still the same receipt.
    const rate = { ...proceed, "elicit-2": { action: "accept", content: { stars: "5" } } };
    const done = await call({ ...tool, inputResponses: rate, requestState: round2.requestState });
    const receipt = resultJson(done).receipt;
    assert.equal(receipt, "receipt-1");
    // Once finished, any state of the call answers with the recorded result, and charges nothing.
    for (const state of [round2.requestState, round1.requestState, round2.requestState]) {
      const again = await call({ ...tool, inputResponses: rate, requestState: state });
      assert.deepEqual(again, done);
    }
    assert.equal(made.counters.sideEffects, 1);
  } finally {
    await conn.close();
  }
});

test("two requests racing with the same state run the step once", async () => {
  const { made, conn, call, tool, proceed } = await payThenAsk();
  try {
    const round1 = await call(tool);
    const both = await Promise.all([1, 2, 3].map(() => call({ ...tool, inputResponses: proceed, requestState: round1.requestState })));
    assert.ok(both.every((r) => r.resultType === "input_required"));
    assert.equal(made.counters.sideEffects, 1);
  } finally {
    await conn.close();
  }
});

// ---------------------------------------------------------------------------------------------
// book_trip, the travel example: every round's state replayed, before and after a restart.

const TRIP = { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" };
const KEY = "cd".repeat(32);
const answers = {
  confirm_booking: { action: "accept", content: { confirmBooking: true, seatPreference: "window" } },
  traveler: { action: "accept", content: { fullName: "Ana García", email: "ana@example.com", phone: "+34 600 123 456" } },
};

/** A travel server on a kit with the given store; bookings go to `bookings` (shared, like a database). */
async function travel(store: KeyValueStore, bookings: Map<string, Booking>) {
  const kit = createElicitation({ stateKey: KEY, store });
  return connect(manualClient(), createTravelServer(kit, { store: bookings }), "2026-07-28", "memory");
}

/** Walks book_trip to the end, returning every round's state and the result. */
async function book(call: ReturnType<typeof callWith>) {
  const tool = { name: "book_trip", arguments: TRIP };
  const states: string[] = [];
  let result = await call(tool);
  while (result.resultType === "input_required") {
    states.push(result.requestState);
    const inputResponses = Object.fromEntries(Object.keys(result.inputRequests).map((k) => [k, answers[k as keyof typeof answers]]));
    result = await call({ ...tool, inputResponses, requestState: result.requestState });
  }
  return { tool, states, result };
}

for (const [name, makeStore] of [
  ["memory", () => memoryStore()],
  ["sqlite", () => sqliteStore(sqliteFile())],
] as const) {
  test(`book_trip (${name} store): replaying any round's state books once`, async () => {
    const bookings = new Map<string, Booking>();
    const store = makeStore();
    const conn = await travel(store, bookings);
    try {
      const call = callWith(conn.client);
      const { tool, states, result } = await book(call);
      assert.match(result.content[0].text, /^Booked! Reference ELC-/);
      assert.equal(states.length, 2, "confirm, then the traveler");
      for (let i = 0; i < 5; i++) {
        for (const state of states) {
          const again = await call({ ...tool, inputResponses: answers, requestState: state });
          assert.deepEqual(again, result, "the recorded result, the same reference");
        }
      }
      assert.equal(bookings.size, 1, "one booking, not two");
    } finally {
      await conn.close();
      await store.close();
    }
  });
}

test("a finished call keeps one record (its result): its claims and round record are let go, and any of its states, with other answers too, still gets the result", async () => {
  const bookings = new Map<string, Booking>();
  const store = memoryStore();
  const conn = await travel(store, bookings);
  try {
    const call = callWith(conn.client);
    // Warm rounds on (the default): each retry resumed the held handler on this process.
    const { tool, states, result } = await book(call);
    assert.equal(states.length, 2);
    assert.deepEqual(await store.keys("claim:"), [], "no claim outlives the call's result");
    assert.deepEqual(await store.keys("round:"), []);
    assert.equal((await store.keys("done:")).length, 1);
    const other = {
      confirm_booking: { action: "decline" },
      traveler: { action: "accept", content: { fullName: "Eve", email: "eve@example.com", phone: "+34 600 000 000" } },
    };
    for (const state of [...states, ...states].reverse()) {
      assert.deepEqual(
        await call({ ...tool, inputResponses: other, requestState: state }),
        result,
        "a second answer is refused: the result again",
      );
    }
    assert.equal(bookings.size, 1);
    assert.deepEqual(await store.keys("claim:"), [], "and the refused answers claimed nothing");
  } finally {
    await conn.close();
    await store.close();
  }
});

test("CallLedger: a claim won after the call's records were let go yields its result; the result expires with the ledger's TTL", async () => {
  const store = memoryStore({ sweepMs: 10 });
  const ledger = new CallLedger(store, 80);
  const result = { content: [{ type: "text" as const, text: "done" }] };
  try {
    assert.deepEqual(await ledger.admit("c", 1, "a"), { claimed: true, latest: 0 });
    assert.deepEqual(await ledger.admit("c", 1, "a"), { claimed: true, latest: 0 }, "the same answers again (a lost reply)");
    assert.deepEqual(await ledger.admit("c", 1, "b"), { claimed: false, latest: 0 }, "other answers, call running: refused");
    await ledger.recordRound("c", 2);
    assert.deepEqual(await ledger.admit("c", 2, "a"), { claimed: true, latest: 2 });
    await ledger.recordResult("c", result, 2);
    assert.deepEqual(await store.keys(""), ["done:c"], "one record for the finished call");
    // A request that read nothing before the call finished now wins a let-go claim: it gets the result.
    assert.deepEqual(await ledger.admit("c", 1, "b"), { claimed: true, done: result, latest: 0 });
    assert.deepEqual(await ledger.admit("c", 2, "a"), { claimed: true, done: result, latest: 0 });
    assert.deepEqual(await store.keys(""), ["done:c"], "the claims won that way are let go again");
    const deadline = Date.now() + 5_000;
    while ((await ledger.status("c")).done !== undefined) {
      assert.ok(Date.now() < deadline, "the result outlived its TTL");
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(await store.keys(""), []);
  } finally {
    await store.close();
  }
});

test("book_trip on SQLite: after a restart, replaying the states still books once", async () => {
  const file = sqliteFile();
  const bookings = new Map<string, Booking>();
  let store = sqliteStore(file);
  let conn = await travel(store, bookings);
  const { tool, states, result } = await book(callWith(conn.client));
  await conn.close();
  await store.close();

  // A new process would open the same file with the same key: a new kit, a new server.
  store = sqliteStore(file);
  conn = await travel(store, bookings);
  try {
    const call = callWith(conn.client);
    for (const state of states) assert.deepEqual(await call({ ...tool, inputResponses: answers, requestState: state }), result);
    assert.equal(bookings.size, 1);
  } finally {
    await conn.close();
    await store.close();
  }
});

test("without the ledger's memory (a restart on the memory store) the same replay books again: why a durable store matters", async () => {
  const bookings = new Map<string, Booking>();
  let conn = await travel(memoryStore(), bookings);
  const { tool, states } = await book(callWith(conn.client));
  await conn.close();
  conn = await travel(memoryStore(), bookings);
  try {
    await callWith(conn.client)({ ...tool, inputResponses: answers, requestState: states.at(-1) });
    assert.equal(bookings.size, 2, "the documented limit of the default store");
  } finally {
    await conn.close();
  }
});

test("CallLedger: a round's answers led to the next round, which answers them again (and only them), until the call moves on or ends", async () => {
  const store = memoryStore();
  const ledger = new CallLedger(store, 60_000);
  const next = {
    resultType: "input_required" as const,
    inputRequests: { "elicit-2": { method: "elicitation/create" } },
    requestState: "s2",
  };
  const result = { content: [{ type: "text" as const, text: "done" }] };
  try {
    assert.deepEqual(await ledger.admit("c", 1, "a"), { claimed: true, latest: 0 });
    await ledger.recordRound("c", 2, { answers: "a", next: next as never });
    assert.deepEqual(await ledger.admit("c", 1, "a"), { claimed: true, latest: 2, next }, "the same answers: the round they led to");
    assert.deepEqual(await ledger.admit("c", 1, "b"), { claimed: false, latest: 2 }, "other answers: nothing");
    assert.equal(await ledger.latestRound("c"), 2);
    // A second request with the same answers issued round 2 too: the first record stays.
    await ledger.recordRound("c", 2, { answers: "a", next: { ...next, requestState: "s2-again" } as never });
    assert.equal((await ledger.admit("c", 1, "a")).next?.requestState, "s2");
    // Round 2 answered, round 3 issued: round 1's answers no longer get anything (the call moved on).
    assert.deepEqual(await ledger.admit("c", 2, "x"), { claimed: true, latest: 2 });
    await ledger.recordRound("c", 3, { answers: "x", next: { ...next, requestState: "s3" } as never });
    assert.deepEqual(await ledger.admit("c", 1, "a"), { claimed: true, latest: 3 });
    assert.equal((await ledger.admit("c", 2, "x")).next?.requestState, "s3");
    await ledger.recordResult("c", result, 3);
    assert.deepEqual(await store.keys(""), ["done:c"], "the round record, and what it answered, went with the call's result");
  } finally {
    await store.close();
  }
});
