// The member that finishes a dead member's 2025-11-25 call asks its question again under a new id, and
// an answer to the dead member's question that arrives late is refused, not taken as the answer to the
// new one. Here the person answers the first question only once the second has arrived, then answers the
// second: the call must end with the second answer. Before the fix the survivor's server numbered its
// requests from 0 like the dead one, so both questions had one id and the late answer ended the call.
// Two real member processes on a real redis-server behind a real HAProxy, sticky on Mcp-Session-Id.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { RequestId } from "@modelcontextprotocol/server";
import { createClient } from "redis";
import { startFleet, type Fleet } from "../helpers/fleet.js";
import { clientFor } from "../helpers/mcp.js";
import { deferred, within } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";

const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? JSON.stringify(result)) as string;

const skip = needs("redis-server", "haproxy");
describe("a call finished on the member that adopted its session asks again under a new id", { skip }, () => {
  let redis: RedisServer;
  let fleet: Fleet;
  before(async () => {
    redis = await startRedis();
    fleet = await startFleet({ size: 2, redisUrl: redis.url, sticky: true });
  });
  after(async () => {
    await fleet?.stop();
    await redis?.stop();
  });

  test(
    "the question asked again has an id the dead member never used; a late answer to the old one is refused",
    { timeout: 90_000 },
    async () => {
      let holder: string | undefined;
      /** Settles once the late answer's POST has been answered by the fleet. */
      const lateDelivered = deferred();
      let lateStatus: number | undefined;
      const transport = new StreamableHTTPClientTransport(fleet.url, {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          const body = typeof init?.body === "string" ? init.body : "";
          if (!holder && body.includes('"initialize"')) holder = res.headers.get("x-served-by") ?? undefined;
          if (body.includes('"answer-late"')) {
            lateStatus = res.status;
            lateDelivered.resolve();
          }
          return res;
        },
      });
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
        const dead = fleet.members.find((m) => m.name === holder);
        assert.ok(dead, `the session's member is known (${holder})`);
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

        const counters = createClient({ url: redis.url });
        await counters.connect();
        try {
          assert.equal(await counters.get(`test:charged:${callId}`), "1", "the charge (ctx.step) ran once");
        } finally {
          await counters.close();
        }
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
