// A 2025-11-25 tool call whose member dies while its person is answering is finished by the member that
// adopts the session: the client resumes the call's stream with Last-Event-ID, the survivor runs the tool
// again from its journal (the ctx.step already done returns its recorded value), asks the question again
// on the resumed stream (a new request of the survivor's), and the call ends with the person's answer. Two real
// member processes on a real redis-server behind a real HAProxy, sticky on Mcp-Session-Id.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { clientFor } from "../helpers/mcp.js";
import { deferred, within } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { chargesFor, holderTracking, stickyFleet, textOf } from "../helpers/sticky-fleet.js";

const skip = needs("redis-server", "haproxy");
describe("a 2025-11-25 call whose member dies mid-question is finished on the member that adopts the session", { skip }, () => {
  const started = stickyFleet();

  test("the step runs once, the question is asked again, the call ends with the answer", { timeout: 60_000 }, async () => {
    const { fleet, redis } = started;
    const tracked = holderTracking(fleet);
    const transport = new StreamableHTTPClientTransport(fleet.url, { fetch: tracked.fetch });
    const client = clientFor("2025-11-25");
    const callId = randomUUID();
    const asks: number[] = [];
    const askedOnce = deferred();
    const killed = deferred();
    client.setRequestHandler("elicitation/create", async () => {
      asks.push(asks.length + 1);
      if (asks.length === 1) {
        // The person is still typing when the member dies; this answer goes to a member that is gone.
        askedOnce.resolve();
        await killed.promise;
      }
      return { action: "accept", content: { answer: `answer-${asks.length}` } };
    });
    await client.connect(transport);
    try {
      const call = client.callTool({ name: "charge_answer", arguments: { callId } }, { timeout: 50_000 });
      call.catch(() => {}); // awaited below; a rejection before that is not unhandled
      await within(askedOnce.promise, 20_000, "the first question");
      const dead = tracked.holder();
      await dead.kill("SIGKILL");
      killed.resolve();
      const survivor = fleet.members.find((m) => m !== dead)!.name;

      const text = textOf(await within(call, 50_000, "the call's result"));
      assert.equal(text, `charged=1 answer=answer-2 by ${survivor}`);
      assert.equal(asks.length, 2, "asked once on each member");

      assert.equal(await chargesFor(redis.url, callId), "1", "the charge (ctx.step) ran once, on the dead member");
      // The session goes on, on the survivor.
      const next = textOf(await client.callTool({ name: "charge_answer", arguments: { callId: randomUUID() } }, { timeout: 20_000 }));
      assert.match(next, new RegExp(`^charged=1 answer=answer-3 by ${survivor}$`));
    } finally {
      await client.close();
    }
  });
});
