// The travel server's fetch entry under Deno and Bun, as examples/serverless/deno.ts and bun.ts serve
// it (Deno.serve, Bun.serve) on a SQLite file each runtime opens with its own driver: book_trip in two
// rounds and pay_for_booking on the hosted page, on 2026-07-28 and 2025-11-25, and a 2026-07-28 round
// sent again returns the recorded booking.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { needs } from "../helpers/needs.js";
import { startRuntime, type RuntimeServer } from "../helpers/runtimes.js";
import { bookTrip, lastRound, payForBooking, referenceOf, resend, textOf, Traveler, travelClient } from "../helpers/travel-calls.js";

/** A call that hangs fails its test by name, long before the file is cut. */
const DEADLINE = { timeout: 120_000 };
const key = () => randomBytes(32).toString("base64url");

for (const runtime of ["deno", "bun"] as const) {
  describe(`the travel server on ${runtime}`, { skip: needs(runtime) }, () => {
    let server: RuntimeServer;
    let dir: string;
    const endpoint = () => new URL("/mcp", server.url);
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), `mcp-elicit-${runtime}-`));
      removeOnExit(dir);
      server = await startRuntime(runtime, `examples/serverless/${runtime}.ts`, {
        env: { MCP_ELICIT_STORE: join(dir, "travel.db"), MCP_ELICIT_STATE_KEY: key(), MCP_ELICIT_VAULT_KEY: key() },
      });
    });
    after(async () => {
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const revision of ["2026-07-28", "2025-11-25"] as ProtocolRevision[]) {
      test(`${revision}: book_trip in two rounds, then pay_for_booking on the hosted page`, DEADLINE, async () => {
        const person = new Traveler();
        const c = await travelClient(endpoint(), revision, person);
        try {
          const reference = await bookTrip(c, person);
          await payForBooking(c, person, reference);
          assert.match(textOf(await c.call("pay_for_booking", { bookingReference: reference })), /is already paid/);
        } catch (error) {
          throw new Error(`${(error as Error).message}\n${runtime} said:\n${server.output()}`, { cause: error });
        } finally {
          await c.close();
        }
      });
    }

    test("2026-07-28: the final round of book_trip sent again returns the recorded booking", DEADLINE, async () => {
      const person = new Traveler();
      const c = await travelClient(endpoint(), "2026-07-28", person);
      try {
        const reference = await bookTrip(c, person);
        const again = await resend(endpoint(), lastRound(c.wire, "book_trip"));
        assert.equal(referenceOf(again), reference, textOf(again));
      } finally {
        await c.close();
      }
    });
  });
}
