// The travel server as a serverless route (examples/serverless/app/mcp/route.ts) on two instances,
// two Node processes behind a round-robin balancer, sharing one store (a SQLite file; Redis, as across
// machines, where redis-server is installed): each request of a call lands on the other instance from
// the one before. On 2026-07-28 book_trip's two rounds are answered
// by different instances, and its final round sent again, to either instance, returns the recorded
// booking: the ledger in the shared store runs the booking once. On 2025-11-25 the session's second
// request lands on the instance that does not hold it, which says the session may live on another one.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeOnExit } from "../helpers/cleanup.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { roundRobin, type RoundRobin } from "../helpers/round-robin.js";
import { startRuntime, type RuntimeServer } from "../helpers/runtimes.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { bookTrip, clientOptions, lastRound, referenceOf, resend, textOf, Traveler, travelClient } from "../helpers/travel-calls.js";

/** A call that hangs fails its test by name, long before the file is cut. */
const DEADLINE = { timeout: 120_000 };
const key = () => randomBytes(32).toString("base64url");

for (const shared of ["a SQLite file", "Redis"] as const) {
  describe(`the travel route on two instances sharing ${shared}`, { skip: shared === "Redis" && needs("redis-server") }, () => {
    let dir: string;
    let redis: RedisServer | undefined;
    let instances: RuntimeServer[] = [];
    let balancer: RoundRobin;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), "mcp-elicit-route-"));
      removeOnExit(dir);
      if (shared === "Redis") redis = await startRedis();
      const store: Record<string, string> = redis ? { REDIS_URL: redis.url } : { MCP_ELICIT_STORE: join(dir, "travel.db") };
      const env = { ...store, MCP_ELICIT_STATE_KEY: key(), MCP_ELICIT_VAULT_KEY: key() };
      instances = await Promise.all([0, 1].map(() => startRuntime("node", "test/deploy/fixtures/serve-route.ts", { env })));
      balancer = await roundRobin(() => instances.map((i) => i.url), { ownHost: true });
    });
    after(async () => {
      balancer?.close();
      await Promise.all(instances.map((i) => i.stop()));
      await redis?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test(
      "2026-07-28: book_trip's rounds land on both instances and book once; the final round sent again to each returns the recorded booking",
      DEADLINE,
      async () => {
        const person = new Traveler();
        const c = await travelClient(balancer.url, "2026-07-28", person);
        try {
          const from = balancer.landed.length;
          const reference = await bookTrip(c, person);
          assert.deepEqual(
            new Set(balancer.landed.slice(from).map((l) => l.instance)),
            new Set([0, 1]),
            "the call's requests went to both instances",
          );
          const round = lastRound(c.wire, "book_trip");
          for (const instance of instances) {
            const again = await resend(new URL("/mcp", instance.url), round);
            assert.equal(referenceOf(again), reference, textOf(again));
          }
        } finally {
          await c.close();
        }
      },
    );

    test(
      "2025-11-25: the session's next request lands on the instance that does not hold it, and is told the session may live on another instance",
      DEADLINE,
      async () => {
        const from = balancer.landed.length;
        const client = new Client({ name: "Trip planner", version: "1.0.0" }, clientOptions("2025-11-25"));
        let failure: Error | undefined;
        try {
          await client.connect(new StreamableHTTPClientTransport(balancer.url));
          await client.listTools();
        } catch (error) {
          failure = error as Error;
        } finally {
          await client.close();
        }
        const went = balancer.landed.slice(from);
        assert.ok(
          went.length >= 2 && went[0]!.instance !== went[1]!.instance,
          "initialize and the next request went to different instances",
        );
        assert.ok(failure, "the session's request on the other instance failed");
        assert.match(failure.message, /Session not found on this instance: it expired or was closed, or it lives on another instance/);
        assert.match(failure.message, /sticky routing to it, a Durable Object per session on Workers, or clients on 2026-07-28/);
        assert.match(failure.message, /"code":-32001/, "the spec's code for an unknown session is kept");
      },
    );
  });
}
