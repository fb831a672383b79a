// The member that finishes a dead member's 2025-11-25 call asks its question again under a new id, and
// an answer to the dead member's question that arrives late is refused, not taken as the answer to the
// new one. Here the person answers the first question only once the second has arrived, then answers the
// second: the call must end with the second answer. Before the fix the survivor's server numbered its
// requests from 0 like the dead one, so both questions had one id and the late answer ended the call.
// Two real member processes on a real redis-server behind a real HAProxy, sticky on Mcp-Session-Id.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { RequestId } from "@modelcontextprotocol/server";
import { clientFor } from "../helpers/mcp.js";
import { deferred, within } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { chargesFor, holderTracking, stickyFleet, textOf } from "../helpers/sticky-fleet.js";

const skip = needs("redis-server", "haproxy");
describe("a call finished on the member that adopted its session asks again under a new id", { skip }, () => {
  const started = stickyFleet();

  test(
    "the question asked again has an id the dead member never used; a late answer to the old one is refused",
    { timeout: 90_000 },
    async () => {
      const { fleet, redis } = started;
      /** Settles once the late answer's POST has been answered by the fleet. */
      const lateDelivered = deferred();
      let lateStatus: number | undefined;
      const tracked = holderTracking(fleet, (body, res) => {
        if (!body.includes('"answer-late"')) return;
        lateStatus = res.status;
        lateDelivered.resolve();
      });
      const transport = new StreamableHTTPClientTransport(fleet.url, { fetch: tracked.fetch });
      const client = clientFor("2025-11-25");
      const callId = randomUUID();
      const ids: RequestId[] = [];
      const askedOnce = deferred();
      const askedAgain = deferred();
      client.setRequestHandler("elicitation/create", async (_request, ctx) => {
        ids.push(ctx.mcpReq.id);
        if (ids.length === 1) {
          askedOnce.resolve();
          // The person answers the dead member's question only once the survivor has asked again.
          await askedAgain.promise;
          return { action: "accept", content: { answer: "answer-late" } };
        }
        askedAgain.resolve();
        await lateDelivered.promise;
        return { action: "accept", content: { answer: "answer-fresh" } };
      });
      await client.connect(transport);
      try {
        const call = client.callTool({ name: "charge_answer", arguments: { callId } }, { timeout: 80_000 });
        call.catch(() => {}); // awaited below; a rejection before that is not unhandled
        await within(askedOnce.promise, 20_000, "the first question");
        const dead = tracked.holder();
        await dead.kill("SIGKILL");
        const survivor = fleet.members.find((m) => m !== dead)!.name;

        await within(askedAgain.promise, 40_000, "the question asked again by the survivor");
        assert.equal(ids.length, 2);
        assert.notEqual(ids[1], ids[0], "the question asked again has a new id");
        await within(lateDelivered.promise, 20_000, "the late answer reaching the fleet");
        assert.ok(lateStatus! < 300, `the late answer's POST was taken by the survivor (HTTP ${lateStatus})`);

        const text = textOf(await within(call, 40_000, "the call's result"));
        assert.equal(text, `charged=1 answer=answer-fresh by ${survivor}`, "the call ends with the answer to the new question");
        assert.equal(ids.length, 2, "asked once on each member");

        assert.equal(await chargesFor(redis.url, callId), "1", "the charge (ctx.step) ran once");
        // The session goes on on the survivor: a new question, answered, under yet another id.
        const next = textOf(await client.callTool({ name: "charge_answer", arguments: { callId: randomUUID() } }, { timeout: 20_000 }));
        assert.equal(next, `charged=1 answer=answer-fresh by ${survivor}`);
        assert.equal(new Set(ids).size, 3, `three questions, three ids: ${JSON.stringify(ids)}`);
      } finally {
        await client.close();
      }
    },
  );
});
