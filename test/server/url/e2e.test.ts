// URL mode end to end, as the travel demo uses it: the travel server over Streamable HTTP with its URL
// kit (loopback identity) and SkyMiles (a second local OpenID provider), the library's client, and
// the kit's pages driven in headless Chromium. Each revision's path (2025-11-25 request and -32042,
// 2026-07-28 input_required, 2025-06-18 refusal), with connect, decline, cancel, timeout and a retry
// before the page was done. The whole wire is recorded: the card and the SkyMiles tokens never cross it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Browser, Page } from "playwright-core";
import * as z from "zod";
import { attachElicitation } from "../../../src/client/attach.js";
import type { ElicitationUI, FormAnswer, FormRequest, UrlAnswer, UrlRequest } from "../../../src/client/ui.js";
import { DEMO_CARD, headlessPages, type HeadlessPages } from "../../../src/cli/demo-browser.js";
import { DEMO_TRIP } from "../../../src/servers/travel/flights.js";
import type { Booking } from "../../../src/servers/travel/bookings.js";
import { paymentForm, type PaymentRecord } from "../../../src/servers/travel/payment.js";
import { createTravelServer } from "../../../src/servers/travel/server.js";
import { startTravelUrlMode, type TravelUrlMode } from "../../../src/servers/travel/url-mode.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { serveHttp, type HttpServerHandle } from "../../../src/server/http/serve.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";
import { LOCAL_PRINCIPAL } from "../../../src/server/url/identity.js";
import type { OAuthCredential } from "../../../src/server/url/vault.js";
import { launchChromium } from "../../helpers/chromium.js";
import { has, needs } from "../../helpers/needs.js";
import { waitFor } from "../../helpers/deferred.js";
import { assertWireValid, tap, type WireMessage } from "../../helpers/mcp.js";
import { ensurePageBundles } from "../../helpers/url-pages.js";
import { removeOnExit } from "../../helpers/cleanup.js";

const TRIP = { destination: "Barcelona", departDate: DEMO_TRIP.departDate, returnDate: DEMO_TRIP.returnDate };
const CARD_DIGITS = DEMO_CARD.cardNumber.replace(/\s/g, "");

let url: TravelUrlMode;
let http: HttpServerHandle;
let browser: Browser;
let pages: HeadlessPages;
let scratch: string;
let shots: string;
const bookings = new Map<string, Booking>();
const payments = new Map<string, PaymentRecord>();
/** Everything the server reported: no secret may be in it. */
const serverLog: string[] = [];
/** Every message of every client of this file. */
const wires: WireMessage[][] = [];

before(async () => {
  await ensurePageBundles();
  scratch = mkdtempSync(join(tmpdir(), "mcp-elicit-url-e2e-"));
  removeOnExit(scratch); // also when the file is cut before its after hooks
  shots = process.env.MCP_ELICIT_SCREENSHOTS ?? join(scratch, "shots");
  mkdirSync(shots, { recursive: true });
  const onerror = (error: Error) => serverLog.push(error.stack ?? error.message);
  url = await startTravelUrlMode({ identity: "loopback", onerror });
  const elicitation = createElicitation({ urlKit: url.kit, progressIntervalMs: 50 });
  const travel = createTravelServer(elicitation, {
    store: bookings,
    url: { kit: url.kit, skymilesIssuer: url.skymilesIssuer, payments },
  });
  // A deposit on the same hosted form, with the per-call choices the travel tools leave at their defaults.
  const factory = (): McpServer => {
    const server = travel();
    elicitation.registerTool(
      server,
      "pay_deposit",
      {
        description: "A deposit, for the paths the travel tools do not take",
        inputSchema: z.object({
          via: z.enum(["request", "error"]).optional(),
          timeoutMs: z.number().optional(),
          retryWaitMs: z.number().optional(),
        }),
      },
      async ({ via, timeoutMs, retryWaitMs }, ctx) => {
        const options = { ...(via ? { via } : {}), ...(timeoutMs ? { timeoutMs } : {}), ...(retryWaitMs ? { retryWaitMs } : {}) };
        const { outcome, flowId } = await ctx.collect("Pay a $50 deposit on the secure payment page.", paymentForm(), options);
        const card = outcome === "completed" ? await url.kit.vault.get<{ cardNumber: string }>(LOCAL_PRINCIPAL, flowId) : undefined;
        if (card) await url.kit.vault.revoke(LOCAL_PRINCIPAL, flowId);
        return { content: [{ type: "text", text: `${outcome}${card ? `, card ending ${card.cardNumber.slice(-4)}` : ""}` }] };
      },
    );
    return server;
  };
  http = await serveHttp(factory, { urlKit: url.kit, onerror });
  // Without Chromium the groups that open pages are skipped (needs("chromium")); the others still run.
  if (!has("chromium")) return;
  browser = await launchChromium();
  const headless = await headlessPages();
  assert.ok(!("unavailable" in headless), "the demo's headless browser starts");
  pages = headless;
});

after(async () => {
  await pages?.close();
  await browser?.close();
  await http?.close();
  await url?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  // Nothing secret in the server's reports either.
  const logged = serverLog.join("\n");
  assert.ok(!logged.includes(CARD_DIGITS) && !logged.includes(DEMO_CARD.cardNumber), "no card number in the server's log");
});

/** What the page does after the person consents in the client. */
type PageStep = (address: string, seen: { flow: number }) => Promise<void> | void;

/** The person: books with the forms, answers URL consents from a script, and does `page` in Chromium after each accept. */
class Traveler implements ElicitationUI {
  urls: UrlRequest[] = [];
  pageWork: Promise<unknown>[] = [];
  constructor(
    private consents: UrlAnswer[],
    private page: PageStep = () => {},
  ) {}
  async form(request: FormRequest): Promise<FormAnswer> {
    const names = request.fields.map((f) => f.name);
    if (names.includes("confirmBooking")) return { action: "accept", content: { confirmBooking: true, seatPreference: "window" } };
    if (names.includes("phone"))
      return { action: "accept", content: { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" } };
    return { action: "cancel" };
  }
  /** The distinct links asked for (a link is asked once: attachElicitation keeps the consent for 2026-07-28's next round). */
  private asked = new Set<string>();
  notices: string[] = [];
  async url(request: UrlRequest): Promise<UrlAnswer> {
    this.urls.push(request);
    this.asked.add(request.analysis.url);
    const answer = this.consents.shift() ?? "cancel";
    // flow: which distinct link this is (1-based).
    if (answer === "accept") this.pageWork.push(Promise.resolve(this.page(request.analysis.url, { flow: this.asked.size })));
    return answer;
  }
  notice(message: string): void {
    this.notices.push(message);
  }
}

function versionOptions(revision: ProtocolRevision) {
  if (revision === "2026-07-28") return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  return { supportedProtocolVersions: revision === "2025-06-18" ? ["2025-06-18"] : ["2025-11-25", "2025-06-18"] };
}

async function connectAs(revision: ProtocolRevision, person: ElicitationUI & { pageWork?: Promise<unknown>[] }) {
  const wire: WireMessage[] = [];
  wires.push(wire);
  const client = new Client({ name: "Trip planner", version: "1.0.0" }, versionOptions(revision) as never);
  const handle = attachElicitation(client, { ui: person, ...(revision === "2025-06-18" ? { modes: ["form" as const] } : {}) });
  await client.connect(tap(new StreamableHTTPClientTransport(http.url), wire));
  const call = async (name: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}) =>
    (await handle.callTool({ name, arguments: args }, options)) as CallToolResult;
  return {
    wire,
    call,
    /** A fresh booking for this client's tests. */
    async book(): Promise<string> {
      const booked = await call("book_trip", TRIP);
      const reference = (booked.structuredContent as { reference?: string } | undefined)?.reference;
      assert.ok(reference, textOf(booked));
      return reference;
    },
    async close() {
      // The browser's last steps (reading the done page) may still run after the tool returned.
      await Promise.allSettled(person.pageWork ?? []);
      await client.close();
      assertWireValid(wire, revision);
    },
  };
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const flowIdOf = (address: string) => new URL(address).pathname.split("/").pop()!;

/** The URL requests the client received (elicitation/create, -32042 data or input_required), in order. */
const urlRequests = (wire: WireMessage[]) =>
  wire
    .flatMap(({ dir, message }) => {
      if (dir !== "in") return [];
      if (message.method === "elicitation/create") return [message.params];
      if (message.error?.code === -32042) return message.error.data.elicitations;
      const requests = message.result?.resultType === "input_required" ? Object.values(message.result.inputRequests ?? {}) : [];
      return (requests as { method: string; params: Record<string, unknown> }[])
        .filter((r) => r.method === "elicitation/create")
        .map((r) => r.params);
    })
    .filter((params) => params.mode === "url") as Array<{ mode: string; url: string; message: string; elicitationId?: string }>;

/** A fresh browser (its own cookies) on `address`. */
async function open(address: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(address);
  return page;
}

async function fillCard(page: Page, card: typeof DEMO_CARD): Promise<void> {
  await page.getByLabel("Card number", { exact: true }).fill(card.cardNumber);
  await page.getByLabel("Expiry (MM/YY)", { exact: true }).fill(card.expiry);
  await page.getByLabel("CVC", { exact: true }).fill(card.cvc);
  await page.getByLabel("Name on card", { exact: true }).fill(card.nameOnCard);
}

async function submitCard(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForURL(/\/elicit\/done\//);
}

/** Neither the card (any spelling) nor `secrets` appears anywhere on the wire. */
function assertNothingSecret(wire: WireMessage[], secrets: string[] = []): void {
  const text = JSON.stringify(wire);
  for (const secret of [CARD_DIGITS, DEMO_CARD.cardNumber, ...secrets]) assert.ok(!text.includes(secret), "a secret crossed the wire");
  assert.ok(!/\b\d{3}\b.*"cvc"|"cvc"\s*:/.test(text), "no CVC field crossed the wire");
}

describe("2025-11-25, the request path", { skip: needs("chromium") }, () => {
  test("pay_for_booking: the card goes into the hosted form in Chromium, the tool charges it; the client sees only the last four digits", async () => {
    let shown = "";
    const person = new Traveler(["accept"], async (address) => {
      const page = await open(address);
      await page.getByRole("heading", { name: /Secure form from mcp-elicit-travel/ }).waitFor();
      shown = (await page.locator("body").innerText()).replace(/\s+/g, " ");
      await fillCard(page, DEMO_CARD);
      await page.screenshot({ path: join(shots, "url-travel-payment.png"), fullPage: true });
      await submitCard(page);
      await page.context().close();
    });
    const c = await connectAs("2025-11-25", person);
    try {
      const reference = await c.book();
      const paid = await c.call("pay_for_booking", { bookingReference: reference });
      assert.equal(paid.isError, undefined, textOf(paid));
      assert.match(textOf(paid), new RegExp(`^Paid \\$3,\\d{3} for booking ${reference} with the Visa card ending 4242 \\(a test card`));
      assert.deepEqual(
        { ...(paid.structuredContent as object), paidAt: undefined },
        {
          paid: true,
          reference,
          paidAt: undefined,
          amountUsd: bookings.get(reference)!.price.totalUsd,
          brand: "Visa",
          last4: "4242",
        },
      );
      // The page said who asks and that the client does not see what is typed.
      assert.match(shown, /mcp-elicit-travel/);
      assert.match(shown, /Trip planner does not see it/);
      // The request was the kit's opaque connect page, with an elicitationId, and the completion was announced.
      const [request] = urlRequests(c.wire);
      assert.equal(request?.mode, "url");
      assert.match(request!.url, /^http:\/\/127\.0\.0\.1:\d+\/elicit\/connect\/[A-Za-z0-9_-]{43}$/);
      assert.equal(request!.elicitationId, flowIdOf(request!.url));
      const completions = c.wire.filter((w) => w.dir === "in" && w.message.method === "notifications/elicitation/complete");
      assert.deepEqual(
        completions.map((w) => w.message.params),
        [{ elicitationId: request!.elicitationId }],
      );
      // The card was forgotten once charged: the vault holds nothing of it.
      assert.equal(await url.kit.vault.get(LOCAL_PRINCIPAL, request!.elicitationId!), undefined);
      assert.equal(payments.get(reference)?.last4, "4242");
      // Paying again is refused without another page.
      assert.match(textOf(await c.call("pay_for_booking", { bookingReference: reference })), /is already paid/);
      assert.equal(person.urls.length, 1);
      assertNothingSecret(c.wire);
    } finally {
      await c.close();
    }
  });

  test("a card with a typo (Luhn) is asked for again with the reason; the second card is charged", async () => {
    const typo = { ...DEMO_CARD, cardNumber: "4242 4242 4242 4241" };
    const person = new Traveler(["accept", "accept"], async (address, { flow }) => {
      const page = await open(address);
      await fillCard(page, flow === 1 ? typo : DEMO_CARD);
      await submitCard(page);
      await page.context().close();
    });
    const c = await connectAs("2025-11-25", person);
    try {
      const reference = await c.book();
      const paid = await c.call("pay_for_booking", { bookingReference: reference });
      assert.match(textOf(paid), /^Paid .* ending 4242/);
      const [first, second] = urlRequests(c.wire);
      assert.notEqual(first!.url, second!.url, "a new flow, a new link");
      assert.match(second!.message, /^The card number is not valid \(its check digit does not match\)/);
      assertNothingSecret(c.wire, ["4242424242424241"]);
    } finally {
      await c.close();
    }
  });

  test("connect_frequent_flyer: SkyMiles sign-in in Chromium, the member named from SkyMiles; the tokens stay in the vault", async () => {
    let what = "";
    const person = new Traveler(["accept"], async (address) => void (what = await pages.complete(address)));
    const c = await connectAs("2025-11-25", person);
    try {
      const reference = await c.book();
      const connected = await c.call("connect_frequent_flyer", { bookingReference: reference });
      assert.equal(
        textOf(connected),
        `SkyMiles account connected: Demo Traveler (member demo). The miles for booking ${reference} will be credited to it.`,
      );
      await Promise.all(person.pageWork);
      assert.match(what, /signed in at SkyMiles as demo; the page says "SkyMiles is connected"/);
      const credential = await url.kit.vault.get<OAuthCredential>(LOCAL_PRINCIPAL, "skymiles");
      assert.ok(credential?.accessToken, "the access token is in the vault");
      // The account is used again without a page: no second URL request.
      const again = await c.call("connect_frequent_flyer", { bookingReference: reference });
      assert.match(textOf(again), /^SkyMiles account connected: Demo Traveler/);
      assert.equal(person.urls.length, 1);
      assertNothingSecret(c.wire, [credential.accessToken, ...(credential.refreshToken ? [credential.refreshToken] : [])]);
      assert.ok(!serverLog.join("\n").includes(credential.accessToken), "no token in the server's log");
    } finally {
      await url.kit.vault.revoke(LOCAL_PRINCIPAL, "skymiles");
      await c.close();
    }
  });

  test("decline on the page, decline and cancel in the client: nothing is charged or connected, and the pages say so", async () => {
    const person = new Traveler(["accept", "decline", "cancel"], async (address) => {
      const page = await open(address);
      await page.getByRole("button", { name: "Decline" }).click();
      await page.getByRole("heading", { name: "You declined" }).waitFor();
      await page.context().close();
    });
    const c = await connectAs("2025-11-25", person);
    try {
      const reference = await c.book();
      const declined = await c.call("connect_frequent_flyer", { bookingReference: reference });
      assert.equal(textOf(declined), `No SkyMiles account was connected (declined); booking ${reference} earns no miles.`);
      assert.equal(
        textOf(await c.call("pay_for_booking", { bookingReference: reference })),
        "Nothing was charged: you declined to pay; the booking stays unpaid.",
      );
      assert.equal(
        textOf(await c.call("pay_for_booking", { bookingReference: reference })),
        "Nothing was charged: the payment was cancelled; the booking stays unpaid.",
      );
      assert.equal(payments.has(reference), false);
      assert.equal(await url.kit.vault.get(LOCAL_PRINCIPAL, "skymiles"), undefined);
      // A link the client declined cannot be used afterwards.
      const page = await open(urlRequests(c.wire)[1]!.url);
      await page.getByRole("heading", { name: "This link was already used" }).waitFor();
      await page.context().close();
    } finally {
      await c.close();
    }
  });

  test("the client cancels the call while the page is open: the flow ends cancelled and the page refuses the card", async () => {
    const controller = new AbortController();
    let address = "";
    const person = new Traveler(["accept"], (at) => void (address = at));
    const c = await connectAs("2025-11-25", person);
    try {
      const reference = await c.book();
      const call = c.call("pay_for_booking", { bookingReference: reference }, { signal: controller.signal });
      // Wait until the flow exists (the consent came), then open the page and stop the call.
      await waitFor(() => address !== "", { timeoutMs: 60_000, what: "the person's consent to the payment page" });
      const page = await open(address);
      await fillCard(page, DEMO_CARD);
      controller.abort(new Error("the host stopped the call"));
      await assert.rejects(call, /the host stopped the call/);
      assert.equal(await url.kit.flows.waitFor(flowIdOf(address), AbortSignal.timeout(10_000)), "cancelled");
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("alert").filter({ hasText: /./ }).waitFor();
      assert.equal(payments.has(reference), false);
      await page.context().close();
      assertNothingSecret(c.wire);
    } finally {
      await c.close();
    }
  });

  test("nobody finishes the page in time: the tool hears timed out, and the link then says it expired", async () => {
    const person = new Traveler(["accept"]);
    const c = await connectAs("2025-11-25", person);
    try {
      const result = await c.call("pay_deposit", { timeoutMs: 300 });
      assert.equal(textOf(result), "timed out");
      const page = await open(person.urls[0]!.analysis.url);
      await page.getByRole("heading", { name: "This link has expired" }).waitFor();
      await page.context().close();
    } finally {
      await c.close();
    }
  });
});

describe("2025-11-25, the -32042 path", { skip: needs("chromium") }, () => {
  test("the call fails with the URL, the page completes in Chromium, the completion arrives and the client's retry finds the flow", async () => {
    const person = new Traveler(["accept"], async (address) => {
      const page = await open(address);
      await fillCard(page, DEMO_CARD);
      await submitCard(page);
      await page.context().close();
    });
    const c = await connectAs("2025-11-25", person);
    try {
      const result = await c.call("pay_deposit", { via: "error" });
      assert.equal(textOf(result), "completed, card ending 4242");
      const errors = c.wire.filter((w) => w.dir === "in" && w.message.error?.code === -32042);
      assert.equal(errors.length, 1, "one -32042, then the retry succeeded");
      const [request] = urlRequests(c.wire);
      const completions = c.wire.filter((w) => w.dir === "in" && w.message.method === "notifications/elicitation/complete");
      assert.deepEqual(
        completions.map((w) => w.message.params),
        [{ elicitationId: request!.elicitationId }],
      );
      const calls = c.wire.filter((w) => w.dir === "out" && w.message.method === "tools/call" && w.message.params.name === "pay_deposit");
      assert.equal(calls.length, 2, "the call and its retry");
      assertNothingSecret(c.wire);
    } finally {
      await c.close();
    }
  });
});

describe("2026-07-28, input_required", { skip: needs("chromium") }, () => {
  test("pay_for_booking: the URL rides in input_required (no elicitationId), the page completes, the retried call charges", async () => {
    const person = new Traveler(["accept"], async (address) => {
      const page = await open(address);
      await fillCard(page, DEMO_CARD);
      await submitCard(page);
      await page.context().close();
    });
    const c = await connectAs("2026-07-28", person);
    try {
      const reference = await c.book();
      const paid = await c.call("pay_for_booking", { bookingReference: reference });
      assert.match(textOf(paid), new RegExp(`^Paid .* for booking ${reference} with the Visa card ending 4242`));
      const [request] = urlRequests(c.wire);
      assert.equal(request?.mode, "url");
      assert.equal(request?.elicitationId, undefined);
      assert.equal(c.wire.filter((w) => w.dir === "in" && w.message.method === "notifications/elicitation/complete").length, 0);
      assertNothingSecret(c.wire);
    } finally {
      await c.close();
    }
  });

  test("a retry before the page is done: the server asks again with the same URL, the client answers accept without asking twice, and the page finished then ends the call", async () => {
    // The person says yes once, and is slow: they type the card only after the server asked again.
    const person = new Traveler(["accept"]);
    const c = await connectAs("2026-07-28", person);
    try {
      const paying = (async () => {
        await waitFor(() => person.notices.length > 0, { timeoutMs: 60_000, what: "the notice that the server asked again" });
        const page = await open(person.urls[0]!.analysis.url);
        await fillCard(page, DEMO_CARD);
        await submitCard(page);
        await page.context().close();
      })();
      // 1 s a round: the client gives up after 10 rounds, and Chromium typing the card on a busy machine takes seconds.
      const result = await c.call("pay_deposit", { retryWaitMs: 1000 });
      await paying;
      assert.equal(textOf(result), "completed, card ending 4242");
      const asked = urlRequests(c.wire);
      assert.ok(asked.length >= 2, "the server asked again");
      assert.equal(new Set(asked.map((r) => r.url)).size, 1, "always the same URL");
      assert.equal(person.urls.length, 1, "the person was asked once");
      assert.match(
        person.notices[0]!,
        /^mcp-elicit-travel is still waiting for the page at 127\.0\.0\.1 that you already opened: finish it there\.$/,
      );
    } finally {
      await c.close();
    }
  });

  test("connect_frequent_flyer through input_required, and decline in the client", async () => {
    const person = new Traveler(["accept", "decline"], async (address) => void (await pages.complete(address)));
    const c = await connectAs("2026-07-28", person);
    try {
      const reference = await c.book();
      assert.match(
        textOf(await c.call("connect_frequent_flyer", { bookingReference: reference })),
        /^SkyMiles account connected: Demo Traveler/,
      );
      const credential = await url.kit.vault.get<OAuthCredential>(LOCAL_PRINCIPAL, "skymiles");
      await url.kit.vault.revoke(LOCAL_PRINCIPAL, "skymiles");
      assert.match(textOf(await c.call("connect_frequent_flyer", { bookingReference: reference })), /\(declined\)/);
      assertNothingSecret(c.wire, [credential!.accessToken, ...(credential!.refreshToken ? [credential!.refreshToken] : [])]);
    } finally {
      await c.close();
    }
  });
});

describe("2025-06-18, no URL mode", () => {
  test("pay_for_booking is refused with a tool error naming what is needed; no flow, no page", async () => {
    const person = new Traveler([]);
    const c = await connectAs("2025-06-18", person);
    try {
      const reference = await c.book();
      const refused = await c.call("pay_for_booking", { bookingReference: reference });
      assert.equal(refused.isError, true);
      assert.match(
        textOf(refused),
        /needs a client that supports URL-mode elicitation \(2025-11-25 or later, capability elicitation\.url\)/,
      );
      assert.equal(person.urls.length, 0);
      assert.equal(urlRequests(c.wire).length, 0);
    } finally {
      await c.close();
    }
  });
});

// The wires of the groups above that open pages: without Chromium there is nothing to look at.
describe("the whole wire", { skip: needs("chromium") }, () => {
  test("no client of this file ever received the card or a SkyMiles token", () => {
    assert.ok(wires.length >= 8);
    for (const wire of wires) assertNothingSecret(wire);
  });
});
