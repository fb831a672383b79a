// A 2025-11-25 call whose member dies inside a ctx.step (the step started, its value never recorded) is
// finished by the member that adopts the session with a tool error that says so: the step is not run
// again, since whether it happened is unknown. Two real member processes on a real redis-server behind
// a real HAProxy, sticky on Mcp-Session-Id; the tool says its step started with a progress notification.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createClient } from "redis";
import { startFleet, type Fleet } from "../helpers/fleet.js";
import { clientFor } from "../helpers/mcp.js";
import { deferred, within } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";

const skip = needs("redis-server", "haproxy");
describe("a 2025-11-25 call whose member dies inside a ctx.step", { skip }, () => {
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
    "ends on the adopting member with a tool error saying the step's outcome is unknown; the step is not run again",
    { timeout: 60_000 },
    async () => {
      let holder: string | undefined;
      const transport = new StreamableHTTPClientTransport(fleet.url, {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (!holder && typeof init?.body === "string" && init.body.includes('"initialize"'))
            holder = res.headers.get("x-served-by") ?? undefined;
          return res;
        },
      });
      const client = clientFor("2025-11-25");
      await client.connect(transport);
      try {
        const callId = randomUUID();
        const inStep = deferred();
        const call = client.callTool(
          { name: "charge_stuck", arguments: { callId } },
          { timeout: 50_000, onprogress: () => inStep.resolve() },
        );
        call.catch(() => {}); // awaited below; a rejection before that is not unhandled
        await within(inStep.promise, 20_000, "the step's progress notification");
        const dead = fleet.members.find((m) => m.name === holder);
        assert.ok(dead, `the session's member is known (${holder})`);
        await dead.kill("SIGKILL");

        const result = (await within(call, 45_000, "the call's result")) as { isError?: boolean; content?: { text?: string }[] };
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(
          result.content?.[0]?.text ?? "",
          /ctx\.step\("charge"\) was running on the server instance that stopped; whether it happened is unknown/,
        );

        const counters = createClient({ url: redis.url });
        await counters.connect();
        try {
          assert.equal(await counters.get(`test:charged:${callId}`), "1", "the step ran once, on the dead member");
        } finally {
          await counters.close();
        }
      } finally {
        await client.close();
      }
    },
  );
});
