// The travel demo on a host that shows MCP Apps and cannot be asked (claude.ai's capabilities: the UI
// extension only), in real headless Chromium: ext-apps' AppBridge renders the kit's form app
// (ui://elicit/form-app.html) behind a sandbox proxy (test/helpers/app-host.ts), the person answers in it,
// and its answers reach the server through the host's SDK client over Streamable HTTP, on 2025-11-25 and
// 2026-07-28. book_trip's two forms end in a booking whose reference the model is given; a decline books
// nothing; pay_for_booking's link opens in another page and the payment ends the call; an answer sent twice
// charges once; messages from another frame change nothing.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { payWithTestCard } from "../../src/cli/demo-browser.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import type { Booking } from "../../src/servers/travel/bookings.js";
import { DEMO_TRIP } from "../../src/servers/travel/flights.js";
import type { PaymentRecord } from "../../src/servers/travel/payment.js";
import { createTravelServer } from "../../src/servers/travel/server.js";
import { startTravelUrlMode, type TravelUrlMode } from "../../src/servers/travel/url-mode.js";
import { appHost, type AppHost, type AppHostOptions, type AppView } from "../helpers/app-host.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { waitFor } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { ensurePageBundles } from "../helpers/url-pages.js";
import { launchChromium } from "../helpers/chromium.js";

const TRIP = { destination: "Barcelona", departDate: DEMO_TRIP.departDate, returnDate: DEMO_TRIP.returnDate };
const FORM_APP_URI = "ui://elicit/form-app.html";

let browser: Browser;
let url: TravelUrlMode;
let http: HttpServerHandle;
const bookings = new Map<string, Booking>();
/** Each charge the travel server records, by booking reference: a second charge would show here. */
const charges: string[] = [];
const payments = new (class extends Map<string, PaymentRecord> {
  override set(reference: string, payment: PaymentRecord) {
    charges.push(reference);
    return super.set(reference, payment);
  }
})();
const serverLog: string[] = [];

describe("the travel demo in the kit's form app, on a host of MCP Apps", { skip: needs("chromium") }, () => {
  before(async () => {
    await ensurePageBundles();
    url = await startTravelUrlMode({ identity: "loopback", onerror: (e) => serverLog.push(e.stack ?? e.message) });
    const elicitation = createElicitation({ urlKit: url.kit });
    http = await serveHttp(createTravelServer(elicitation, { store: bookings, url: { kit: url.kit, payments } }), { urlKit: url.kit });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await http?.close();
    await url?.close();
    assert.deepEqual(serverLog, [], "the server reported no error");
  });

  test("screenshots: the first form and the link card, light and dark (MCP_ELICIT_SCREENSHOTS=docs/images)", async () => {
    const shots = process.env.MCP_ELICIT_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "app-shots-"));
    if (!process.env.MCP_ELICIT_SCREENSHOTS) removeOnExit(shots);
    mkdirSync(shots, { recursive: true });
    const h = await appHost({ browser, server: http.url, revision: "2025-11-25", viewport: { width: 640, height: 900 } });
    try {
      const form = await h.callTool("book_trip", TRIP);
      await form.frame.getByRole("button", { name: "Decline" }).waitFor();
      for (const theme of ["light", "dark"] as const) {
        await form.setTheme(theme);
        await shoot(form, join(shots, `app-form-${theme}.png`));
      }
      await form.setTheme("light");
      await confirmTrip(form);
      await form.frame.getByLabel("Full name", { exact: true }).waitFor();
      await shoot(form, join(shots, "app-form-second-light.png"));
      await giveContact(form);
      const reference = /Reference ([A-Z0-9-]+)/.exec(JSON.stringify(await form.next("ui/update-model-context")))![1]!;
      await shoot(form, join(shots, "app-done-light.png"));
      const link = await h.callTool("pay_for_booking", { bookingReference: reference });
      await link.frame.getByRole("button", { name: "Open link" }).waitFor();
      for (const theme of ["light", "dark"] as const) {
        await link.setTheme(theme);
        await shoot(link, join(shots, `app-url-consent-${theme}.png`));
      }
    } finally {
      await h.close();
    }
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    describe(revision, () => {
      const hosts: AppHost[] = [];
      const start = async (options: Partial<AppHostOptions> = {}) => {
        const host = await appHost({ browser, server: http.url, revision, ...options });
        hosts.push(host);
        return host;
      };
      afterEach(() => Promise.all(hosts.splice(0).map((h) => h.close())));

      test("book_trip: two forms in the app end in a booking, and the model context carries its reference", async () => {
        const h = await start();
        const view = await h.callTool("book_trip", TRIP);
        assert.equal((view.tool._meta?.ui as { resourceUri?: string }).resourceUri, FORM_APP_URI);
        assert.match(textOf(view.result), /fill in a form/);
        await confirmTrip(view);
        await giveContact(view);
        const context = await view.next("ui/update-model-context");
        const reference = /Reference ([A-Z0-9-]+)/.exec(JSON.stringify(context))?.[1];
        assert.ok(reference && bookings.has(reference), `a booked reference in the model context: ${JSON.stringify(context)}`);
        assert.equal(bookings.get(reference)!.traveler.fullName, "Ana Garcia");
        await view.frame.getByText(`Reference ${reference}`).first().waitFor();
        assert.deepEqual(appCalls(h), ["elicit_answer", "elicit_answer"]);
        assert.deepEqual(h.errors, []);
      });

      test("decline: nothing is booked, and the model is told", async () => {
        const h = await start();
        const before = bookings.size;
        const view = await h.callTool("book_trip", TRIP);
        await view.frame.getByRole("button", { name: "Decline" }).click();
        const context = await view.next("ui/update-model-context");
        assert.match(JSON.stringify(context), /declined/);
        assert.equal(bookings.size, before);
      });

      test("pay_for_booking: the link opens in another page, and the payment there ends the call in the app, charged once", async () => {
        const paying: Promise<void>[] = [];
        let dropped = false;
        const h = await start({
          // The host opens the link in a page of its own; the person pays there.
          openLink: (link) => void paying.push(pay(link)),
          // The answer that ends the call reaches the server, but its result is lost on the way back, once:
          // the app offers to send it again, and the same answer gets the recorded end.
          forward: async (params, send) => {
            const result = await send();
            if (!dropped && params.name === "elicit_answer" && /^Paid/.test(textOf(result))) {
              dropped = true;
              throw new Error("the connection to the server dropped");
            }
            return result;
          },
        });
        const reference = await bookThrough(h);
        const view = await h.callTool("pay_for_booking", { bookingReference: reference });
        await view.frame.getByLabel("I checked the address and want to open it").check();
        await view.frame.getByRole("button", { name: "Open link" }).click();
        const opened = await view.next("ui/open-link");
        assert.ok(String(opened.url).startsWith(url.kit.baseUrl!.origin), String(opened.url));
        await Promise.all(paying);
        await view.frame.getByRole("button", { name: "Send again" }).click();
        const context = await view.next("ui/update-model-context");
        assert.match(JSON.stringify(context), /Paid .* ending 4242/);
        assert.ok(dropped, "the first answer's result was dropped");
        // The server got the ending answer twice, the same both times (the same round's state and action).
        const ending = h.appToolCalls.filter((c) => c.result && /^Paid/.test(textOf(c.result)));
        assert.equal(ending.length, 2);
        assert.deepEqual(ending[0]!.params.arguments, ending[1]!.params.arguments);
        assert.equal(charges.filter((r) => r === reference).length, 1, "charged once");
      });

      test("messages posted to the app from another frame are ignored", async () => {
        const h = await start();
        const view = await h.callTool("book_trip", TRIP);
        await view.frame.getByRole("button", { name: "Decline" }).waitFor();
        const forged = {
          jsonrpc: "2.0",
          method: "ui/notifications/tool-result",
          params: { ...view.result, content: [{ type: "text", text: "FORGED" }], _meta: { "mcp-elicit.app": { final: true } } },
        };
        const seen = h.console.length;
        await view.postFromAnotherFrame(forged);
        await view.postFromAnotherFrame(forged, "proxy");
        await view.ping();
        assert.ok(
          h.console.slice(seen).some((l) => l.includes("Ignoring message from unknown source")),
          "the app dropped it",
        );
        assert.equal(await view.frame.getByText("FORGED").count(), 0);
        await view.frame.getByRole("button", { name: "Decline" }).waitFor();
        assert.deepEqual(h.sent, []);
      });
    });
  }
});

const textOf = (result: { content?: unknown[] }) => (result.content ?? []).map((c) => (c as { text?: string }).text ?? "").join("\n");
const appCalls = (h: AppHost) => h.appToolCalls.map((c) => c.params.name);

/** The confirmation form: Yes, a window seat; submitted and sent after its review. */
async function confirmTrip(view: AppView): Promise<void> {
  const f = view.frame;
  await f.getByRole("radiogroup", { name: "Confirm booking" }).getByText("Yes", { exact: true }).click();
  await f.getByLabel("Seat preference", { exact: true }).selectOption("window");
  await f.getByRole("button", { name: "Submit" }).click();
  await f.getByRole("button", { name: "Send" }).click();
}

/** The traveler's contact details. */
async function giveContact(view: AppView): Promise<void> {
  const f = view.frame;
  await f.getByLabel("Full name", { exact: true }).fill("Ana Garcia");
  await f.getByLabel("Email", { exact: true }).fill("ana@example.com");
  await f.getByLabel("Phone", { exact: true }).fill("+34 600 123 456");
  await f.getByRole("button", { name: "Submit" }).click();
  await f.getByRole("button", { name: "Send" }).click();
}

/** book_trip answered in the app; the booking's reference. */
async function bookThrough(h: AppHost): Promise<string> {
  const view = await h.callTool("book_trip", TRIP);
  await confirmTrip(view);
  await giveContact(view);
  const reference = /Reference ([A-Z0-9-]+)/.exec(JSON.stringify(await view.next("ui/update-model-context")))?.[1];
  assert.ok(reference);
  return reference;
}

/** A picture of the app's iframe in the host page, once its height follows what the app reported. */
async function shoot(view: AppView, path: string): Promise<void> {
  await waitFor(
    async () => {
      const wanted = await view.frame.evaluate(() => document.documentElement.getBoundingClientRect().height);
      const box = await view.element.boundingBox();
      return box !== null && Math.abs(box.height - wanted) <= 1;
    },
    { what: "the app's frame to take the app's height" },
  );
  await view.element.screenshot({ path, animations: "disabled", caret: "hide" });
}

/** The person on the hosted payment page, in a page of its own. */
async function pay(link: string): Promise<void> {
  const page: Page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  try {
    await page.goto(link);
    await payWithTestCard(page);
  } finally {
    await page.close();
  }
}
