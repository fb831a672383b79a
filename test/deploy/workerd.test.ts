// The travel Worker (examples/cloudflare-worker/) in real workerd, as `wrangler dev --local` runs it,
// with its Durable Objects: book_trip in two rounds and pay_for_booking on the hosted payment page, on
// 2026-07-28 (stateless, the rounds and steps in the store's Durable Object) and on 2025-11-25 (a
// session in a Durable Object of its own). A round sent again returns the recorded booking, and
// workerd stopped and started again while the payment page is open still completes the payment. Where
// Chromium is installed, the hosted form is also filled in the browser, its scripts served by the Worker.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { payWithTestCard } from "../../src/cli/demo-browser.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { launchChromium } from "../helpers/chromium.js";
import { needs } from "../helpers/needs.js";
import { startWorker, type LocalWorker } from "../helpers/workerd.js";
import { bookTrip, lastRound, payForBooking, referenceOf, resend, textOf, Traveler, travelClient } from "../helpers/travel-calls.js";

/** A call that hangs fails its test by name, long before the file is cut. */
const DEADLINE = { timeout: 120_000 };
const key = () => randomBytes(32).toString("base64url");

describe("the travel Worker in workerd", { skip: needs("workerd") }, () => {
  let worker: LocalWorker;
  const endpoint = () => new URL("/mcp", worker.url);
  before(async () => {
    worker = await startWorker("examples/cloudflare-worker/wrangler.jsonc", {
      bindings: { MCP_ELICIT_STATE_KEY: key(), MCP_ELICIT_VAULT_KEY: key() },
    });
  });
  after(async () => {
    // Nothing the runtime forbids was tried, and no promise crossed requests (warm rounds are off there).
    const logs = worker?.logs.join("") ?? "";
    await worker?.stop();
    assert.doesNotMatch(logs, /Disallowed operation|different request context|Uncaught/);
  });

  for (const revision of ["2026-07-28", "2025-11-25"] as ProtocolRevision[]) {
    test(`${revision}: book_trip in two rounds, then pay_for_booking on the hosted page`, DEADLINE, async () => {
      const person = new Traveler();
      const c = await travelClient(endpoint(), revision, person);
      try {
        const reference = await bookTrip(c, person);
        const paid = await payForBooking(c, person, reference);
        assert.equal((paid.structuredContent as { last4?: string }).last4, "4242");
        // The payment is recorded in the store: paying again is refused without another page.
        assert.match(textOf(await c.call("pay_for_booking", { bookingReference: reference })), /is already paid/);
        assert.equal(person.pages.length, 1);
      } finally {
        await c.close();
      }
    });
  }

  test("2026-07-28: the final round of book_trip sent again returns the recorded booking, not a second one", DEADLINE, async () => {
    const person = new Traveler();
    const c = await travelClient(endpoint(), "2026-07-28", person);
    try {
      const reference = await bookTrip(c, person);
      const round = lastRound(c.wire, "book_trip");
      for (let i = 0; i < 3; i++) {
        const again = await resend(endpoint(), round);
        assert.equal(referenceOf(again), reference, textOf(again));
      }
    } finally {
      await c.close();
    }
  });

  describe("the payment page in Chromium", { skip: needs("chromium") }, () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
    });
    after(() => browser?.close());

    test(
      "2026-07-28: the hosted form renders in the browser with its scripts from the Worker, and the card typed there pays",
      DEADLINE,
      async () => {
        const person = new Traveler(undefined, async (link) => {
          const context = await browser.newContext();
          try {
            const page = await context.newPage();
            page.setDefaultTimeout(30_000);
            await page.goto(link);
            await page.getByRole("heading", { name: /Secure form from mcp-elicit-travel/ }).waitFor();
            await payWithTestCard(page);
            return { message: "", fields: ["cardNumber", "expiry", "cvc", "nameOnCard"], status: 200 };
          } finally {
            await context.close();
          }
        });
        const c = await travelClient(endpoint(), "2026-07-28", person);
        try {
          await payForBooking(c, person, await bookTrip(c, person));
        } finally {
          await c.close();
        }
      },
    );
  });

  test(
    "2026-07-28: workerd stopped and started again while the payment page is open; the page and the retry complete the payment",
    DEADLINE,
    async () => {
      let restarts = 0;
      const person = new Traveler(async () => {
        restarts++;
        await worker.restart();
      });
      const c = await travelClient(endpoint(), "2026-07-28", person);
      try {
        const reference = await bookTrip(c, person);
        await payForBooking(c, person, reference);
        assert.equal(restarts, 1);
      } finally {
        await c.close();
      }
    },
  );
});
