// A 2025-11-25 call whose member dies inside a ctx.step (the step started, its value never recorded) is
// finished by the member that adopts the session with a tool error that says so: the step is not run
// again, since whether it happened is unknown. Two real member processes on a real redis-server behind
// a real HAProxy, sticky on Mcp-Session-Id; the tool says its step started with a progress notification.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { clientFor } from "../helpers/mcp.js";
import { deferred, within } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { chargesFor, holderTracking, stickyFleet } from "../helpers/sticky-fleet.js";

const skip = needs("redis-server", "haproxy");
describe("a 2025-11-25 call whose member dies inside a ctx.step", { skip }, () => {
  const started = stickyFleet();

  test(
    "ends on the adopting member with a tool error saying the step's outcome is unknown; the step is not run again",
    { timeout: 60_000 },
    async () => {
      const { fleet, redis } = started;
      const tracked = holderTracking(fleet);
      const transport = new StreamableHTTPClientTransport(fleet.url, { fetch: tracked.fetch });
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
        const dead = tracked.holder();
        await dead.kill("SIGKILL");

        const result = (await within(call, 45_000, "the call's result")) as { isError?: boolean; content?: { text?: string }[] };
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(
          result.content?.[0]?.text ?? "",
          /ctx\.step\("charge"\) was running on the server instance that stopped; whether it happened is unknown/,
        );

        assert.equal(await chargesFor(redis.url, callId), "1", "the step ran once, on the dead member");
      } finally {
        await client.close();
      }
    },
  );
});
