// 2025-era waits: human-scale timeouts, progress while waiting, cancellation with the tool call,
// and a v1 SDK client as a legacy peer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as V1InMemory } from "@modelcontextprotocol/sdk/inMemory.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp } from "../../../src/server/http/serve.js";
import { clientFor, connect, type TransportKind } from "../../helpers/mcp.js";
import { deferred, waitFor, within } from "../../helpers/deferred.js";
import { assertWire } from "../../helpers/wire.js";
import { resultJson } from "../../helpers/results.js";
import { answerWith, makeFactory } from "../../helpers/server-fixtures.js";

for (const kind of ["memory", "http"] as TransportKind[]) {
  describe(`waiting for a person on 2025-11-25 over ${kind}`, () => {
    test("progress notifications flow to a caller that gave a progress token, while the person thinks", async () => {
      const made = makeFactory({ progressIntervalMs: 25 });
      const conn = await connect(clientFor("2025-11-25"), made.factory, "2025-11-25", kind);
      try {
        // The person answers once three notifications came (not after a fixed time: a loaded machine sends fewer).
        const thought = deferred();
        answerWith(conn.client, [
          async () => (
            await within(thought.promise, 60_000, "three progress notifications"),
            { action: "accept", content: { confirmBooking: true } }
          ),
        ]);
        const progress: { progress: number; message?: string }[] = [];
        const result = await conn.client.callTool({ name: "book", arguments: { city: "Porto" } }, {
          onprogress: (p: { progress: number; message?: string }) => {
            if (progress.push(p) >= 3) thought.resolve();
          },
          resetTimeoutOnProgress: true,
        } as never);
        assert.equal(resultJson(result).action, "accept");
        assert.ok(progress.length >= 3, `got ${progress.length} progress notifications`);
        assert.deepEqual(
          progress.map((p) => p.progress),
          progress.map((_, i) => i + 1),
          "progress increases by one each time",
        );
        assert.match(progress[0]!.message!, /^Waiting for the user: Confirm your Porto trip/);
      } finally {
        await conn.close();
      }
    });

    test("no progress is sent when the caller gave no token", async () => {
      const made = makeFactory({ progressIntervalMs: 20 });
      const conn = await connect(clientFor("2025-11-25"), made.factory, "2025-11-25", kind);
      try {
        answerWith(conn.client, [async () => (await sleep(120), { action: "decline" })]);
        await conn.client.callTool({ name: "book", arguments: { city: "Porto" } });
        assert.equal(conn.wire.filter((w) => w.message.method === "notifications/progress").length, 0);
      } finally {
        await conn.close();
      }
    });

    test("an unanswered request times out after the configured wait, withdrawing it from the client", async () => {
      const made = makeFactory();
      const conn = await connect(clientFor("2025-11-25"), made.factory, "2025-11-25", kind);
      try {
        let withdrawn = false;
        answerWith(conn.client, [
          (_p, ctx) =>
            new Promise((resolve) =>
              ctx.mcpReq.signal.addEventListener("abort", () => {
                withdrawn = true;
                resolve({ action: "cancel" });
              }),
            ),
        ]);
        const result = (await conn.client.callTool({ name: "wait", arguments: { timeoutMs: 150 } })) as Record<string, any>;
        assert.equal(result.isError, true);
        assert.equal(result.content[0].text, 'No answer to "Anyone there?" within 150 ms; the request was withdrawn.');
        await waitFor(() => withdrawn, { timeoutMs: 5_000, what: "the client to see the request cancelled" });
      } finally {
        await conn.close();
      }
    });

    test("cancelling the tool call ends the wait and withdraws the question", async () => {
      const made = makeFactory();
      const conn = await connect(clientFor("2025-11-25"), made.factory, "2025-11-25", kind);
      try {
        const asked = deferred();
        const withdrawn = deferred();
        answerWith(conn.client, [
          (_p, ctx) =>
            new Promise((resolve) => {
              asked.resolve();
              ctx.mcpReq.signal.addEventListener("abort", () => {
                withdrawn.resolve();
                resolve({ action: "cancel" });
              });
            }),
        ]);
        const controller = new AbortController();
        const call = conn.client.callTool({ name: "book", arguments: { city: "Oslo" } }, { signal: controller.signal } as never);
        await asked.promise;
        controller.abort("user gave up");
        await assert.rejects(call);
        await Promise.race([withdrawn.promise, sleep(2000).then(() => assert.fail("the elicitation was not withdrawn"))]);
      } finally {
        await conn.close();
      }
    });
  });
}

describe("a v1 @modelcontextprotocol/sdk client as a legacy peer", () => {
  const v1Client = () => {
    const client = new V1Client({ name: "v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const seen: any[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      seen.push(request);
      return { action: "accept", content: { confirmBooking: true, seatPreference: "window" } };
    });
    return { client, seen };
  };

  test("over in-memory", async () => {
    const made = makeFactory();
    const { client, seen } = v1Client();
    const [clientSide, serverSide] = V1InMemory.createLinkedPair();
    await made.factory().connect(serverSide as never);
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name: "book", arguments: { city: "Lisbon" } });
      assert.deepEqual(resultJson(result).content, { confirmBooking: true, seatPreference: "window", travelInsurance: false });
      assertWire("2025-11-25", "ElicitRequestParams", seen[0].params);
    } finally {
      await client.close();
    }
  });

  test("over Streamable HTTP", async () => {
    const made = makeFactory();
    const http = await serveHttp(made.factory);
    const { client, seen } = v1Client();
    await client.connect(new V1Http(http.url));
    try {
      const result = await client.callTool({ name: "book", arguments: { city: "Lisbon" } });
      assert.equal(resultJson(result).seat, "window");
      assert.equal(seen.length, 1);
    } finally {
      await client.close();
      await http.close();
    }
  });
});
