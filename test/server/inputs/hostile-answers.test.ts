// Answers no person would give: nested 5,000 levels deep, or a megabyte of escape sequences. The
// server answers with the spec's -32602 or a short, inert tool error; it never crashes, and never
// echoes the junk into the re-ask or the error.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { callWith, manualClient } from "../../helpers/manual-client.js";
import { clientFor, connect } from "../../helpers/mcp.js";
import { resultJson } from "../../helpers/results.js";
import { makeFactory } from "../../helpers/server-fixtures.js";

let deep: unknown = "x";
for (let i = 0; i < 5000; i++) deep = [deep];
const JUNK = "\u001b]0;owned\u0007\u001b[2J\u009b31m\u202e" + "A".repeat(1 << 20);
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("2026-07-28: hostile inputResponses", () => {
  test("a 5,000-level array as an answer is refused -32602 naming the limit, before anything reads it", async () => {
    const made = makeFactory();
    const conn = await connect(manualClient(), made.factory, "2026-07-28", "memory");
    const call = callWith(conn.client);
    try {
      const first = await call({ name: "pick_many", arguments: {} });
      await assert.rejects(
        call({
          name: "pick_many",
          arguments: {},
          inputResponses: { "elicit-1": { action: "accept", content: { toppings: deep } } },
          requestState: first.requestState,
        }),
        (e: any) => {
          assert.equal(e.code, -32602);
          assert.equal(e.data?.reason, "too-large");
          assert.match(e.message, /inputResponses is nested more than 64 levels deep; refused unread\./);
          return true;
        },
      );
      // The call itself is unharmed: the right answer still completes it.
      const done = await call({
        name: "pick_many",
        arguments: {},
        inputResponses: { "elicit-1": { action: "accept", content: { toppings: ["ham"] } } },
        requestState: first.requestState,
      });
      assert.deepEqual(resultJson(done), { action: "accept", content: { toppings: ["ham"] } });
    } finally {
      // The refused request breaks the spec on purpose: out of the wire check that closing runs.
      const i = conn.wire.findIndex((w) => w.message.params?.inputResponses?.["elicit-1"]?.content?.toppings === deep);
      assert.ok(i >= 0);
      conn.wire.splice(i, 1);
      await conn.close();
    }
  });

  test("a 1 MiB invalid multi-select value: the re-ask and the final error quote a short, inert excerpt", async () => {
    const made = makeFactory();
    const conn = await connect(manualClient(), made.factory, "2026-07-28", "memory");
    const call = callWith(conn.client);
    const bad = { action: "accept", content: { toppings: [JUNK] } };
    try {
      const first = await call({ name: "pick_many", arguments: {} });
      const again = await call({ name: "pick_many", arguments: {}, inputResponses: { "elicit-1": bad }, requestState: first.requestState });
      const message = again.inputRequests["elicit-2"].params.message as string;
      assert.ok(message.length < 400, `re-ask of ${message.length} characters`);
      assert.doesNotMatch(message, CONTROLS);
      assert.match(
        message,
        /Toppings cannot include "\\u001b\]0;owned\\u0007\\u001b\[2J\\u009b31m\\u202eA+…" \(1048595 characters\); choose from: cheese, ham$/,
      );
      const final = await call({
        name: "pick_many",
        arguments: {},
        inputResponses: { "elicit-1": bad, "elicit-2": bad },
        requestState: again.requestState,
      });
      assert.equal(final.isError, true);
      const text = final.content[0].text as string;
      assert.ok(text.length < 400, `tool error of ${text.length} characters`);
      assert.doesNotMatch(text, CONTROLS);
      assert.match(text, /still invalid after 2 attempts: Toppings cannot include/);
    } finally {
      await conn.close();
    }
  });
});

describe("2025-11-25: a hostile live answer", () => {
  // (A deeply nested live answer cannot reach a tool: the SDK's client refuses to send it and its server
  // refuses to read it, both by their ElicitResult schema, which allows no nested values.)
  test("a 1 MiB invalid value: the live re-ask quotes a short, inert excerpt", async () => {
    const made = makeFactory();
    const client = clientFor("2025-11-25");
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { toppings: asked.length === 1 ? [JUNK] : ["cheese"] } };
    });
    const conn = await connect(client, made.factory, "2025-11-25", "memory");
    try {
      const result = (await client.callTool({ name: "pick_many", arguments: {} })) as Record<string, any>;
      assert.deepEqual(resultJson(result), { action: "accept", content: { toppings: ["cheese"] } });
      assert.equal(asked.length, 2);
      assert.ok(asked[1]!.length < 400);
      assert.doesNotMatch(asked[1]!, CONTROLS);
    } finally {
      await conn.close();
    }
  });
});
