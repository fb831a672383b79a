// FlowStore: opaque ids, one end per flow, expiry, waiting in this process and across stores, and
// flows that survive a new FlowStore over the same SQLite file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { FlowStore, isFlowId, type FlowInit } from "../../../src/server/url/flows.js";
import { memoryStore } from "../../../src/store/memory.js";
import { sqliteStore } from "../../../src/store/sqlite.js";
import { scratchFiles } from "../../helpers/files.js";

const init: FlowInit = {
  kind: "connect",
  principal: { issuer: "https://issuer.test", sub: "alice" },
  server: "travel",
  client: "host",
  message: "Connect your frequent-flyer account",
  provider: "skymiles",
};

test("a flow gets an opaque 32-byte id, is readable while live, and holds what it was created with", async () => {
  const flows = new FlowStore(memoryStore());
  const a = await flows.create(init);
  const b = await flows.create(init);
  assert.ok(isFlowId(a.id) && Buffer.from(a.id, "base64url").length === 32);
  assert.notEqual(a.id, b.id);
  assert.equal(a.expiresAt - a.createdAt, flows.ttlMs);
  assert.deepEqual(await flows.get(a.id), a);
  assert.equal(await flows.outcome(a.id), undefined);
  // Ids of any other shape are never looked up.
  for (const bad of ["", "../x", a.id + "A", a.id.slice(1), "x".repeat(43) + "\n"]) {
    assert.equal(await flows.get(bad), undefined, bad);
    assert.equal(await flows.finish(bad, "completed"), false, bad);
  }
});

test("a flow ends once: the second finish is false and the first outcome stays", async () => {
  const flows = new FlowStore(memoryStore());
  const flow = await flows.create(init);
  assert.equal(await flows.finish(flow.id, "declined"), true);
  assert.equal(await flows.finish(flow.id, "completed"), false);
  assert.equal(await flows.outcome(flow.id), "declined");
  // Concurrent finishes: exactly one wins.
  const other = await flows.create(init);
  const results = await Promise.all([flows.finish(other.id, "completed"), flows.finish(other.id, "cancelled")]);
  assert.deepEqual(results.filter(Boolean).length, 1);
  assert.equal(await flows.outcome(other.id), results[0] ? "completed" : "cancelled");
  await assert.rejects(flows.finish(other.id, "done" as never), /Unknown flow outcome "done"/);
});

test("an expired flow is no longer answered, cannot be completed, and reads as expired", async () => {
  const flows = new FlowStore(memoryStore(), { pollMs: 10 });
  const flow = await flows.create({ ...init, ttlMs: 30 });
  const outcome = await flows.waitFor(flow.id);
  assert.equal(outcome, "expired");
  assert.equal(await flows.get(flow.id), undefined);
  assert.equal(await flows.finish(flow.id, "completed"), false);
  assert.equal(await flows.outcome(flow.id), "expired");
  await assert.rejects(flows.create({ ...init, ttlMs: 0 }), /positive number/);
});

test("waitFor wakes on a finish in this process, on a finish through another store over a shared file, and on abort", async () => {
  const { dir } = scratchFiles("url-flows-");
  const file = join(dir, "flows.db");
  const storeA = sqliteStore(file);
  const storeB = sqliteStore(file);
  try {
    const a = new FlowStore(storeA, { pollMs: 20 });
    const b = new FlowStore(storeB, { pollMs: 20 });
    const flow = await a.create(init);
    const here = a.waitFor(flow.id);
    const elsewhere = b.waitFor(flow.id);
    assert.equal(await b.finish(flow.id, "completed"), true);
    assert.equal(await elsewhere, "completed");
    // `a` never heard an event from `b`: its poll read the shared file.
    assert.equal(await here, "completed");

    const pending = await a.create(init);
    const controller = new AbortController();
    const waiting = a.waitFor(pending.id, controller.signal);
    controller.abort(new Error("the call was cancelled"));
    await assert.rejects(waiting, /the call was cancelled/);
    assert.equal(await a.outcome(pending.id), undefined);
    // An id nobody created reads as expired rather than waiting forever.
    assert.equal(await a.waitFor("A".repeat(43)), "expired");
  } finally {
    await storeA.close();
    await storeB.close();
  }
});

test("flows survive a restart: a new FlowStore over the same SQLite file finds, claims and finishes them", async () => {
  const { dir } = scratchFiles("url-flows-");
  const file = join(dir, "flows.db");
  const first = sqliteStore(file);
  const flow = await new FlowStore(first).create({ ...init, kind: "form", form: { type: "object", properties: {} } });
  assert.equal(await new FlowStore(first).claim(flow.id, "browser-1"), true);
  await first.close();

  const second = sqliteStore(file);
  try {
    const flows = new FlowStore(second);
    assert.deepEqual(await flows.get(flow.id), flow);
    // The claim survived too: the same browser session keeps it, another is refused.
    assert.equal(await flows.claim(flow.id, "browser-1"), true);
    assert.equal(await flows.claim(flow.id, "browser-2"), false);
    assert.equal(await flows.finish(flow.id, "completed"), true);
    assert.equal(await flows.waitFor(flow.id), "completed");
  } finally {
    await second.close();
  }
});
