// Dropped-message handling survives a host or server author setting `onerror` after attaching: a
// dropped reply still ends the wait before the request's own timeout, a malformed request is still
// answered -32600 (exactly once), and the author's handler still hears every error.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { rawClient, rawServer } from "../helpers/raw-peers.js";
import { makeFactory } from "../helpers/server-fixtures.js";

/** Long next to the dropped reply's handling, short next to the test's deadline: the tool's timeout loses the race. */
const WAIT_MS = 20_000;
const UNKNOWN = /^Unknown message type: /;

describe("server: the author's server.onerror set after registerTool", () => {
  for (const how of ["replaces it", "chains the one it found"] as const) {
    test(`a dropped reply still ends the tool (the author ${how})`, { timeout: 60_000 }, async () => {
      const { factory } = makeFactory();
      const server = factory();
      const heard: Error[] = [];
      const previous = server.server.onerror;
      server.server.onerror =
        how === "replaces it"
          ? (error) => heard.push(error)
          : (error) => {
              previous?.(error);
              heard.push(error);
            };
      const client = await rawClient(server, (m, send) => void send({ jsonrpc: "2.0", id: m.id, result: null }));
      try {
        const answer = await client.request(2, "tools/call", { name: "wait", arguments: { timeoutMs: WAIT_MS } });
        assert.equal(answer.result?.isError, true, JSON.stringify(answer));
        // Which ended the call: the dropped reply, not the tool's 20 s timeout.
        assert.match(answer.result.content[0].text, /the client's reply was malformed/);
        assert.ok(
          heard.some((e) => UNKNOWN.test(e.message)),
          "the author's handler heard the dropped reply",
        );

        const malformed = await client.request(3, "tools/call", "not an object");
        assert.equal(malformed.error?.code, -32600, JSON.stringify(malformed));
        assert.equal(client.replies.get(3), 1, "answered once, not once per handler");
      } finally {
        await client.close();
      }
    });
  }
});

describe("client: the host's client.onerror set after attachElicitation", () => {
  for (const when of ["before connect", "after connect", "chaining, after connect"] as const) {
    test(`a dropped reply still ends callTool (set ${when})`, { timeout: 60_000 }, async () => {
      const heard: Error[] = [];
      const hostHandler = (error: Error) => void heard.push(error);
      const s = await rawServer(
        (m, send) => {
          if (m.method === "tools/call") void send({ jsonrpc: "2.0", id: m.id, result: null });
        },
        (client) => {
          if (when === "before connect") client.onerror = hostHandler;
        },
      );
      if (when === "after connect") s.client.onerror = hostHandler;
      if (when === "chaining, after connect") {
        const previous = s.client.onerror;
        s.client.onerror = (error) => {
          previous?.(error);
          hostHandler(error);
        };
      }
      try {
        await assert.rejects(
          s.handle.callTool({ name: "anything", arguments: {} }, { timeout: WAIT_MS }),
          // Not the SDK's request timeout: the dropped reply ended the call first.
          /The server's reply was malformed \(neither a result nor an error with a code\) and was dropped/,
        );
        assert.ok(
          heard.some((e) => UNKNOWN.test(e.message)),
          "the host's handler heard the dropped reply",
        );

        const answer = await s.ask(70, "elicitation/create", "a string");
        assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
        assert.equal(s.replies.get(70), 1, "answered once, not once per handler");
      } finally {
        await s.close();
      }
    });
  }

  test("reading onerror gives a handler that can be set back without doubling anything", { timeout: 60_000 }, async () => {
    const s = await rawServer(() => {});
    try {
      // Some hosts save and restore the handler around a section of their own.
      const saved = s.client.onerror;
      s.client.onerror = () => {};
      s.client.onerror = saved;
      const answer = await s.ask(71, "elicitation/create", "a string");
      assert.equal(answer.error?.code, -32600);
      assert.equal(s.replies.get(71), 1);
    } finally {
      await s.close();
    }
  });
});
