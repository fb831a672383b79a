// The kit's form app in real headless Chromium, hosted by ext-apps' own AppBridge (test/helpers/form-app-host.ts):
// the travel server over Streamable HTTP on 127.0.0.1, a real SDK client in Node that declares the MCP Apps
// extension and no elicitation (the host's connection), and the app answering book_trip's two forms and
// pay_for_booking's link, on 2025-11-25 and 2026-07-28. The model context the app sets is checked, and
// so are the host's theme, a hostile question, and a forged message from a frame that is not the host.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Browser, FrameLocator, Page } from "playwright-core";
import * as z from "zod";
import { DEMO_TRIP } from "../../src/servers/travel/flights.js";
import type { Booking } from "../../src/servers/travel/bookings.js";
import { createTravelServer } from "../../src/servers/travel/server.js";
import { startTravelUrlMode, type TravelUrlMode } from "../../src/servers/travel/url-mode.js";
import { headlessPages, type HeadlessPages } from "../../src/cli/demo-browser.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { form, text } from "../../src/schema/builders.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { APP_MIME_TYPE, FORM_APP_URI, UI_EXTENSION } from "../../src/server/apps/ui-extension.js";
import { clientFor } from "../helpers/mcp.js";
import { needs } from "../helpers/needs.js";
import { waitFor } from "../helpers/deferred.js";
import { ensurePageBundles } from "../helpers/url-pages.js";
import { launchChromium } from "../helpers/chromium.js";

const TRIP = { destination: "Barcelona", departDate: DEMO_TRIP.departDate, returnDate: DEMO_TRIP.returnDate };
const APP_HOST = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
const SLOW = { timeout: 30_000 };
const HOSTILE = `<img src=x onerror="parent.postMessage('pwned','*')"><script>alert(1)</script>\u202Eevil\u202C ${"long ".repeat(4000)}`;

let url: TravelUrlMode;
let http: HttpServerHandle;
let browser: Browser;
let hostScript: string;
const bookings = new Map<string, Booking>();

describe("the form app in Chromium, hosted by AppBridge", { skip: needs("chromium") }, () => {
  before(async () => {
    await ensurePageBundles();
    url = await startTravelUrlMode({ identity: "loopback" });
    const elicitation = createElicitation({ urlKit: url.kit });
    const travel = createTravelServer(elicitation, { store: bookings, url: { kit: url.kit } });
    const factory = (): McpServer => {
      const server = travel();
      elicitation.registerTool(
        server,
        "hostile_question",
        { description: "Asks with text a page must never run", inputSchema: z.object({}) },
        async (_args, ctx) => {
          const answer = await ctx.elicit(HOSTILE, form({ note: text({ title: `<b>bold</b>\u202Etitle` }) }));
          return { content: [{ type: "text", text: `${answer.action}: <i>${HOSTILE.slice(0, 80)}</i>` }] };
        },
      );
      return server;
    };
    http = await serveHttp(factory, { urlKit: url.kit });
    const built = await build({
      entryPoints: [fileURLToPath(new URL("../helpers/form-app-host.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      logLevel: "error",
    });
    hostScript = built.outputFiles[0]!.text;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await http?.close();
    await url?.close();
  });

  /** A host page with the app of `tool`'s call: the call made by the Node client, the app shown with its result. */
  async function host(
    revision: ProtocolRevision,
    tool: string,
    args: Record<string, unknown>,
    context: Record<string, unknown> = {},
    messagesOnly = false,
  ) {
    const client: Client = clientFor(revision, APP_HOST);
    await client.connect(new StreamableHTTPClientTransport(http.url));
    const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
    const { contents } = await client.readResource({ uri: FORM_APP_URI });
    const html = (contents[0] as { text: string }).text;
    const page: Page = await browser.newPage({ viewport: { width: 760, height: 960 } });
    page.setDefaultTimeout(SLOW.timeout);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    const links: string[] = [];
    const told: Array<{
      content?: Array<{ text?: string }>;
      structuredContent?: Record<string, unknown>;
      viaMessage?: boolean;
      role?: string;
    }> = [];
    const calls: unknown[] = [];
    await page.exposeFunction("hostCallTool", async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params);
      return client.callTool(params);
    });
    await page.exposeFunction("hostOpenLink", (href: string) => void links.push(href));
    await page.exposeFunction("hostModelContext", (params: (typeof told)[number]) => void told.push(params));
    await page.setContent(`<!doctype html><html><body><script type="module">${hostScript}</script></body></html>`);
    await page.waitForFunction(() => typeof window.showApp === "function");
    const hostContext = { theme: "light", toolInfo: { tool: { name: tool, inputSchema: { type: "object" } } }, ...context };
    await page.evaluate(([h, c, a, r, m]) => window.showApp(h as string, c as never, a as never, r, m as boolean), [
      html,
      hostContext,
      args,
      result,
      messagesOnly,
    ] as const);
    const app: FrameLocator = page.frameLocator("iframe[title='form app']");
    return {
      page,
      app,
      links,
      told,
      calls,
      errors,
      async close() {
        await page.close();
        await client.close();
      },
    };
  }

  /** The person answers book_trip's two forms in the app. */
  async function answerBooking(app: FrameLocator) {
    await app.getByText(/Please confirm your Barcelona vacation booking details/).waitFor(SLOW);
    await app.getByRole("radiogroup", { name: "Confirm booking" }).getByLabel("Yes").check();
    await app.getByLabel("Seat preference").selectOption({ label: "aisle" });
    await app.getByRole("button", { name: "Submit" }).click();
    await app.getByRole("button", { name: "Send" }).click();
    await app.getByText(/Who is traveling\?/).waitFor(SLOW);
    await app.getByLabel("Full name").fill("Ana Garcia");
    await app.getByLabel("Email").fill("ana@example.com");
    await app.getByLabel("Phone").fill("+34 600 123 456");
    await app.getByRole("button", { name: "Submit" }).click();
    await app.getByRole("button", { name: "Send" }).click();
  }

  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    test(`${revision}: book_trip's two forms in the app make one booking; the model context carries the reference`, async () => {
      const before = bookings.size;
      const h = await host(revision, "book_trip", TRIP);
      try {
        await answerBooking(h.app);
        await h.app.getByRole("heading", { name: "Done" }).waitFor(SLOW);
        const shown = (await h.app.locator(".result p").textContent()) ?? "";
        const reference = /ELC-[0-9A-Z]{6}/.exec(shown)?.[0];
        assert.ok(reference, shown);
        assert.equal(bookings.size, before + 1);
        assert.ok(bookings.has(reference));
        await waitFor(() => h.told.length > 0, { timeoutMs: 15_000, what: "the model context update" });
        assert.match(
          h.told[0]!.content?.[0]?.text ?? "",
          new RegExp(`The person answered in the form; book_trip finished:[\\s\\S]*${reference}`),
        );
        assert.equal((h.told[0]!.structuredContent as { reference?: string } | undefined)?.reference, reference);
        assert.equal(h.calls.length, 2, "one elicit_answer per form");
        assert.deepEqual(h.errors, []);
      } finally {
        await h.close();
      }
    });

    test(`${revision}: Decline in the app books nothing, and the model is told`, async () => {
      const before = bookings.size;
      const h = await host(revision, "book_trip", TRIP);
      try {
        await h.app.getByText(/Please confirm your Barcelona vacation booking details/).waitFor(SLOW);
        await h.app.getByRole("button", { name: "Decline" }).click();
        await h.app.getByText(/Nothing was booked: you declined the booking confirmation/).waitFor(SLOW);
        await waitFor(() => h.told.length > 0, { timeoutMs: 15_000, what: "the model context update" });
        assert.match(h.told[0]!.content?.[0]?.text ?? "", /Nothing was booked/);
        assert.equal(bookings.size, before);
      } finally {
        await h.close();
      }
    });
  }

  test("a host that offers only messages is told the end as a message", async () => {
    const h = await host("2026-07-28", "book_trip", TRIP, {}, true);
    try {
      await h.app.getByText(/Please confirm your Barcelona vacation booking details/).waitFor(SLOW);
      await h.app.getByRole("button", { name: "Decline" }).click();
      await waitFor(() => h.told.length > 0, { timeoutMs: 15_000, what: "the message" });
      assert.equal(h.told[0]!.viaMessage, true);
      assert.equal(h.told[0]!.role, "user");
      assert.match(h.told[0]!.content?.[0]?.text ?? "", /^The person answered in the form; book_trip finished:\nNothing was booked/);
    } finally {
      await h.close();
    }
  });

  describe("pay_for_booking's link, opened by the host", () => {
    let pages: HeadlessPages;
    before(async () => {
      const headless = await headlessPages();
      assert.ok(!("unavailable" in headless), "the headless browser starts");
      pages = headless;
    });
    after(() => pages?.close());

    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      test(`${revision}: consent in the app, the link opened through ui/open-link, paid once the page is done`, async () => {
        const booker = await host(revision, "book_trip", TRIP);
        let reference: string;
        try {
          await answerBooking(booker.app);
          await booker.app.getByRole("heading", { name: "Done" }).waitFor(SLOW);
          reference = /ELC-[0-9A-Z]{6}/.exec((await booker.app.locator(".result p").textContent()) ?? "")![0];
        } finally {
          await booker.close();
        }
        const h = await host(revision, "pay_for_booking", { bookingReference: reference });
        try {
          await h.app.getByText(/on the secure payment page/).waitFor(SLOW);
          await h.app.getByLabel("I checked the address and want to open it").check();
          await h.app.getByRole("button", { name: "Open link" }).click();
          await waitFor(() => h.links.length === 1, { timeoutMs: 15_000, what: "the host asked to open the link" });
          assert.ok(h.links[0]!.startsWith(url.kit.baseUrl!.origin), h.links[0]);
          await h.app.getByRole("heading", { name: /^Waiting for / }).waitFor(SLOW);
          assert.match(await pages.complete(h.links[0]!), /paid with the test card/);
          await h.app.getByText(/^Paid .* ending 4242/).waitFor(SLOW);
          await waitFor(() => h.told.length > 0, { timeoutMs: 15_000, what: "the model context update" });
          assert.match(h.told[0]!.content?.[0]?.text ?? "", /Paid .* ending 4242/);
          assert.deepEqual(h.errors, []);
        } finally {
          await h.close();
        }
      });
    }
  });

  test("the host's theme: dark without variables, and the host's own colours where it gives them", async () => {
    const background = async (context: Record<string, unknown>) => {
      const h = await host("2026-07-28", "book_trip", TRIP, context);
      try {
        const formElement = h.app.locator("mcp-elicit-form");
        await h.app.getByText(/Please confirm your Barcelona/).waitFor(SLOW);
        // $MCP_ELICIT_SCREENSHOTS: what the person sees, for the docs.
        const shots = process.env.MCP_ELICIT_SCREENSHOTS;
        if (shots) await h.page.screenshot({ path: join(shots, `form-app-${String(context.theme)}${context.styles ? "-host" : ""}.png`) });
        return await formElement.evaluate((el) => getComputedStyle(el).backgroundColor);
      } finally {
        await h.close();
      }
    };
    assert.equal(await background({ theme: "light" }), "rgb(255, 255, 255)");
    assert.equal(await background({ theme: "dark" }), "rgb(30, 31, 34)");
    assert.equal(
      await background({ theme: "dark", styles: { variables: { "--color-background-primary": "#102030" } } }),
      "rgb(16, 32, 48)",
    );
  });

  test("hostile server text is inert in the app, its buttons reachable; a message from another frame is ignored", async () => {
    const h = await host("2025-11-25", "hostile_question", {});
    try {
      const formElement = h.app.locator("mcp-elicit-form");
      await h.app
        .getByText(/<img src=x onerror=/)
        .first()
        .waitFor(SLOW);
      assert.equal(await formElement.locator("img, script, b").count(), 0, "markup stays text");
      const bidi = await formElement.evaluate((el) => (el.shadowRoot?.textContent ?? "").includes("\u202E"));
      assert.equal(bidi, false, "bidi overrides removed");
      h.page.evaluate(() => window.forgeFromSibling("FORGED by a sibling frame")).catch(() => {});
      const decline = h.app.getByRole("button", { name: "Decline" });
      await decline.scrollIntoViewIfNeeded();
      await decline.click();
      await h.app.getByRole("heading", { name: "Done" }).waitFor(SLOW);
      const shown = (await h.app.locator(".result p").textContent()) ?? "";
      assert.match(shown, /^decline: <i><img src=x/, "the end is text too");
      assert.equal(await h.app.locator(".result i, .result img").count(), 0);
      assert.equal(await h.app.getByText("FORGED by a sibling frame").count(), 0, "the forged result was not shown");
      assert.deepEqual(h.errors, []);
    } finally {
      await h.close();
    }
  });
});
