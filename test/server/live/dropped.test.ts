// Messages the SDK drops without answering (a reply that is neither a result nor an error with a code,
// a request whose params are not an object): our side notices and ends the wait at once, or answers
// -32600, instead of leaving the other side waiting for minutes.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { rawClient, rawServer } from "../../helpers/raw-peers.js";
import { makeFactory } from "../../helpers/server-fixtures.js";

describe("server: a malformed reply from the client ends the waiting tool at once", () => {
  for (const [name, reply] of [
    ['"result": null', (id: unknown) => ({ jsonrpc: "2.0", id, result: null })],
    ['"result": true', (id: unknown) => ({ jsonrpc: "2.0", id, result: true })],
    ["an error without a code", (id: unknown) => ({ jsonrpc: "2.0", id, error: { message: "nope" } })],
  ] as const) {
    test(name, async () => {
      const { factory } = makeFactory(); // ctx.elicit waits 10 minutes by default
      const client = await rawClient(factory(), (m, send) => void send(reply(m.id)));
      try {
        const started = Date.now();
        const answer = await client.request(2, "tools/call", { name: "pick_many", arguments: {} });
        assert.equal(answer.result?.isError, true, JSON.stringify(answer));
        assert.match(
          answer.result.content[0].text,
          /the client's reply was malformed \(neither a result nor an error with a code\), so it was dropped/,
        );
        assert.ok(Date.now() - started < 5000, "ended at once, not after the 10-minute wait");
      } finally {
        await client.close();
      }
    });
  }

  test("a malformed request from the client gets -32600 instead of no answer", async () => {
    const { factory } = makeFactory();
    const client = await rawClient(factory(), () => {});
    try {
      const answer = await client.request(5, "tools/call", "not an object");
      assert.equal(answer.error?.code, -32600);
      assert.match(answer.error.message, /tools\/call was malformed/);
    } finally {
      await client.close();
    }
  });
});

describe("client: what a server sends malformed", () => {
  test("a request with params a string, or _meta not an object, gets -32600", async () => {
    const s = await rawServer(() => {});
    try {
      for (const [id, params] of [
        [70, "a string"],
        [71, { _meta: 5, mode: "form", message: "m", requestedSchema: { type: "object", properties: {} } }],
      ] as const) {
        const answer = await s.ask(id, "elicitation/create", params);
        assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
        assert.match(answer.error.message, /elicitation\/create was malformed/);
      }
    } finally {
      await s.close();
    }
  });

  test("a malformed reply to a tool call ends it at once with a clear error", async () => {
    const s = await rawServer((m, send) => {
      if (m.method === "tools/call") void send({ jsonrpc: "2.0", id: m.id, result: null });
    });
    try {
      const started = Date.now();
      await assert.rejects(
        s.handle.callTool({ name: "anything", arguments: {} }),
        /The server's reply was malformed \(neither a result nor an error with a code\) and was dropped/,
      );
      assert.ok(Date.now() - started < 5000, "not after the 30-minute call timeout");
    } finally {
      await s.close();
    }
  });
});
