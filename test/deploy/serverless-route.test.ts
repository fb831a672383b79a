// The travel server as a serverless route (examples/serverless/app/mcp/route.ts) on two instances,
// two Node processes behind a round-robin balancer, sharing one store (a SQLite file; Redis, as across
// machines, where redis-server is installed): each request of a call lands on the other instance from
// the one before. On 2026-07-28 book_trip's two rounds are answered
// by different instances, and its final round sent again, to either instance, returns the recorded
// booking: the ledger in the shared store runs the booking once.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeOnExit } from "../helpers/cleanup.js";
import { listenLocal } from "../helpers/local-server.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { startRuntime, type RuntimeServer } from "../helpers/runtimes.js";
import { bookTrip, lastRound, referenceOf, resend, textOf, Traveler, travelClient } from "./travel-calls.js";

/** A call that hangs fails its test by name, long before the file is cut. */
const DEADLINE = { timeout: 120_000 };
const key = () => randomBytes(32).toString("base64url");

for (const shared of ["a SQLite file", "Redis"] as const) {
  describe(`the travel route on two instances sharing ${shared}`, { skip: shared === "Redis" && needs("redis-server") }, () => {
    let dir: string;
    let redis: RedisServer | undefined;
    let instances: RuntimeServer[] = [];
    let balancer: Awaited<ReturnType<typeof listenLocal>>;
    /** Which instance took each request, in order. */
    const landed: number[] = [];

    /** Passes each request to the next instance in turn, streaming both ways. */
    function roundRobin(req: IncomingMessage, res: ServerResponse): void {
      const which = landed.length % instances.length;
      landed.push(which);
      const target = instances[which]!.url;
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    }

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), "mcp-elicit-route-"));
      removeOnExit(dir);
      if (shared === "Redis") redis = await startRedis();
      const store: Record<string, string> = redis ? { REDIS_URL: redis.url } : { MCP_ELICIT_STORE: join(dir, "travel.db") };
      const env = { ...store, MCP_ELICIT_STATE_KEY: key(), MCP_ELICIT_VAULT_KEY: key() };
      instances = await Promise.all([0, 1].map(() => startRuntime("node", "test/deploy/fixtures/serve-route.ts", { env })));
      balancer = await listenLocal(roundRobin);
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
          const from = landed.length;
          const reference = await bookTrip(c, person);
          assert.deepEqual(new Set(landed.slice(from)), new Set([0, 1]), "the call's requests went to both instances");
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
  });
}
