// Questions answered in the kit's form app (src/server/apps/), at the real boundary: the travel server over
// Streamable HTTP on 127.0.0.1 and a real SDK client that declares the MCP Apps extension
// (io.modelcontextprotocol/ui with the app MIME type) and no elicitation, as claude.ai does, on 2025-11-25
// and 2026-07-28. The client plays the app: it reads the question and the sealed state from the result's
// _meta and answers through the app-only tool elicit_answer, as the app's callServerTool does through its host.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { DEMO_TRIP } from "../../../src/servers/travel/flights.js";
import type { Booking } from "../../../src/servers/travel/bookings.js";
import type { PaymentRecord } from "../../../src/servers/travel/payment.js";
import { createTravelServer } from "../../../src/servers/travel/server.js";
import { startTravelUrlMode, type TravelUrlMode } from "../../../src/servers/travel/url-mode.js";
import { headlessPages, type HeadlessPages } from "../../../src/cli/demo-browser.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { serveHttp, type HttpServerHandle } from "../../../src/server/http/serve.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";
import { yesNo } from "../../../src/schema/builders.js";
import { ANSWER_TOOL, APP_META_KEY, APP_MIME_TYPE, FORM_APP_URI, UI_EXTENSION } from "../../../src/server/apps/ui-extension.js";
import type { AppAsk } from "../../../src/server/apps/app-result.js";
import { assertWireValid, clientFor, tap, type WireMessage } from "../../helpers/mcp.js";
import { needs } from "../../helpers/needs.js";
import { ensurePageBundles } from "../../helpers/url-pages.js";

const TRIP = { destination: "Barcelona", departDate: DEMO_TRIP.departDate, returnDate: DEMO_TRIP.returnDate };
const APP_HOST = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
const CONFIRM = { confirmBooking: true, seatPreference: "window" };
const CONTACT = { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" };

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
/** Whatever the server reported: nothing, by the end. */
const serverLog: string[] = [];

before(async () => {
  await ensurePageBundles();
  url = await startTravelUrlMode({ identity: "loopback", onerror: (e) => serverLog.push(e.stack ?? e.message) });
  // Who calls is said in each request's _meta, as a verified token would say it.
  const elicitation = createElicitation({
    urlKit: url.kit,
    principal: (ctx) => String((ctx.mcpReq._meta as Record<string, unknown> | undefined)?.["test/who"] ?? "anonymous"),
  });
  const travel = createTravelServer(elicitation, { store: bookings, url: { kit: url.kit, payments } });
  // A second kit on the same servers, registering after the travel kit: its own state guard ends up in front.
  const second = createElicitation();
  const factory = (): McpServer => {
    const server = travel();
    // A tool of the server's own, not the kit's: the form app answers nothing for it.
    server.registerTool("server_time", { description: "The server's clock" }, () => ({
      content: [{ type: "text", text: new Date().toISOString() }],
    }));
    second.registerTool(server, "second_kit_question", { description: "Asks one question, from a second kit" }, async (_args, ctx) => {
      const answer = await ctx.ask("Go ahead?", yesNo());
      return { content: [{ type: "text", text: answer.action === "accept" ? `answered ${String(answer.content)}` : answer.action }] };
    });
    return server;
  };
  http = await serveHttp(factory, { urlKit: url.kit });
});

after(async () => {
  await http?.close();
  await url?.close();
  assert.deepEqual(serverLog, [], "the server reported no error");
});

/** A host that shows apps and cannot be asked, playing its own app: reads the question from _meta, answers through elicit_answer. */
async function appHost(revision: ProtocolRevision, capabilities: Record<string, unknown> = APP_HOST) {
  const wire: WireMessage[] = [];
  const client: Client = clientFor(revision, capabilities);
  await client.connect(tap(new StreamableHTTPClientTransport(http.url), wire));
  const call = async (name: string, args: Record<string, unknown>, who?: string) =>
    (await client.callTool({ name, arguments: args, ...(who ? { _meta: { "test/who": who } } : {}) })) as CallToolResult;
  return {
    client,
    call,
    /** The app's answer to the question `asked` carries: the arguments elicit_answer gets from the app. */
    answer(
      asked: AppAsk,
      action: "accept" | "decline" | "cancel",
      content?: Record<string, unknown>,
      over: Partial<AppAsk> = {},
      who?: string,
    ) {
      const { tool, arguments: args, state, question } = { ...asked, ...over };
      return call(asked.answerTool, { tool, arguments: args, state, key: question.key, action, ...(content ? { content } : {}) }, who);
    },
    async close() {
      await client.close();
      assertWireValid(wire, revision);
    },
  };
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c as { text?: string }).text ?? "").join("\n");

/** The question a result carries for the app; fails the test when it carries none. */
function askOf(result: CallToolResult): AppAsk {
  const ask = result._meta?.[APP_META_KEY] as AppAsk | { final: true } | undefined;
  assert.ok(ask && "state" in ask, `a question for the app, got: ${textOf(result)}`);
  return ask;
}

const isFinal = (result: CallToolResult) => (result._meta?.[APP_META_KEY] as { final?: boolean } | undefined)?.final === true;

/** Rejects with the JSON-RPC error `code` whose data.reason is `reason`. */
async function refused(promise: Promise<unknown>, reason: string, message: RegExp) {
  await assert.rejects(promise, (error: { code?: number; data?: { reason?: string }; message?: string }) => {
    assert.equal(error.code, -32602, error.message);
    assert.equal(error.data?.reason, reason, error.message);
    assert.match(error.message ?? "", message);
    return true;
  });
}

/** book_trip through the app: the confirmation, then the traveler's details; returns each step's result. */
async function bookThroughApp(host: Awaited<ReturnType<typeof appHost>>) {
  const first = await host.call("book_trip", TRIP);
  const confirm = askOf(first);
  const second = await host.answer(confirm, "accept", CONFIRM);
  const traveler = askOf(second);
  const final = await host.answer(traveler, "accept", CONTACT);
  return { first, confirm, second, traveler, final };
}

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`an app host on ${revision}: questions answered in the form app`, () => {
    test("tools/list shows the form app on the kit's tools and the app-only answer tool; a host that can be asked sees neither", async () => {
      const host = await appHost(revision);
      const asker = await appHost(revision, { elicitation: { form: {} }, ...APP_HOST });
      try {
        const { tools } = await host.client.listTools();
        const book = tools.find((t) => t.name === "book_trip")!;
        assert.deepEqual((book._meta?.ui as { resourceUri?: string }).resourceUri, FORM_APP_URI);
        assert.equal(book._meta?.["ui/resourceUri"], FORM_APP_URI, "the older flat key too");
        const answer = tools.find((t) => t.name === ANSWER_TOOL)!;
        assert.deepEqual(answer._meta?.ui, { resourceUri: FORM_APP_URI, visibility: ["app"] });
        assert.deepEqual(Object.keys(answer.inputSchema.properties ?? {}).sort(), [
          "action",
          "arguments",
          "content",
          "key",
          "state",
          "tool",
        ]);
        assert.equal(tools.find((t) => t.name === "server_time")?._meta?.ui, undefined, "not the server's own tools");
        const { resources } = await host.client.listResources();
        assert.deepEqual(
          resources.filter((r) => r.uri === FORM_APP_URI).map((r) => r.mimeType),
          [APP_MIME_TYPE],
        );

        const native = (await asker.client.listTools()).tools;
        assert.equal(native.find((t) => t.name === "book_trip")?._meta?.ui, undefined, "a host that asks shows its own form");
        assert.equal(
          native.find((t) => t.name === ANSWER_TOOL),
          undefined,
          "elicit_answer is not offered where the app is not used",
        );
      } finally {
        await host.close();
        await asker.close();
      }
    });

    test("book_trip: two forms in the app, then one booking; the model is told the person answers in the form", async () => {
      const host = await appHost(revision);
      try {
        const before = bookings.size;
        const { first, confirm, traveler, final } = await bookThroughApp(host);
        assert.equal(first.isError, undefined);
        assert.match(
          textOf(first),
          /^The person is being asked to fill in a form, shown with this tool call: "Please confirm your Barcelona/,
        );
        assert.match(textOf(first), /the tool's outcome is added to the conversation when they finish/);
        assert.ok(!textOf(first).includes(confirm.state), "the state is in _meta only");
        assert.equal(confirm.tool, "book_trip");
        assert.deepEqual(confirm.arguments, TRIP);
        assert.equal(confirm.answerTool, ANSWER_TOOL);
        assert.equal(confirm.question.key, "confirm_booking");
        const schema = confirm.question.request.requestedSchema as { properties: Record<string, unknown> };
        assert.ok(schema.properties.confirmBooking, "the confirmation form");
        assert.equal(traveler.question.key, "traveler");
        assert.notEqual(traveler.state, confirm.state, "each round its own state");
        assert.ok(isFinal(final), "the end is marked final");
        const reference = (final.structuredContent as { reference?: string } | undefined)?.reference;
        assert.ok(reference, textOf(final));
        assert.match(textOf(final), new RegExp(`${reference}`));
        assert.equal(bookings.size, before + 1);
        assert.equal(bookings.get(reference)?.traveler.fullName, "Ana Garcia");
      } finally {
        await host.close();
      }
    });

    test("a phone the tool refuses is asked again in the app with the reason, the other answers kept", async () => {
      const host = await appHost(revision);
      try {
        const confirm = askOf(await host.call("book_trip", TRIP));
        const traveler = askOf(await host.answer(confirm, "accept", CONFIRM));
        const again = askOf(await host.answer(traveler, "accept", { ...CONTACT, phone: "call me" }));
        assert.equal(again.question.key, "traveler-2");
        assert.match(String(again.question.request.message), /Phone may only contain digits/);
        const props = (again.question.request.requestedSchema as { properties: Record<string, { default?: unknown }> }).properties;
        assert.equal(props.fullName?.default, "Ana Garcia");
        const final = await host.answer(again, "accept", CONTACT);
        assert.ok((final.structuredContent as { reference?: string }).reference, textOf(final));
      } finally {
        await host.close();
      }
    });

    test("decline in the app books nothing, and the end says so", async () => {
      const host = await appHost(revision);
      try {
        const before = bookings.size;
        const confirm = askOf(await host.call("book_trip", TRIP));
        const final = await host.answer(confirm, "decline");
        assert.ok(isFinal(final));
        assert.match(textOf(final), /^Nothing was booked: you declined the booking confirmation\./);
        const cancelled = await host.answer(askOf(await host.call("book_trip", TRIP)), "cancel");
        assert.match(textOf(cancelled), /^Nothing was booked: the booking confirmation was cancelled\./);
        assert.equal(bookings.size, before);
      } finally {
        await host.close();
      }
    });

    test("the same answer sent twice gets the recorded end: one booking; other answers to a used round are refused", async () => {
      const host = await appHost(revision);
      try {
        const before = bookings.size;
        const { traveler, final } = await bookThroughApp(host);
        const again = await host.answer(traveler, "accept", CONTACT);
        assert.deepEqual(again.structuredContent, final.structuredContent, "the recorded result");
        assert.equal(bookings.size, before + 1, "booked once");
        // A state whose round moved on, answered otherwise: the ledger's word.
        const confirm = askOf(await host.call("book_trip", TRIP));
        askOf(await host.answer(confirm, "accept", CONFIRM));
        await refused(host.answer(confirm, "accept", { ...CONFIRM, seatPreference: "aisle" }), "replayed", /moved on to round 2/);
      } finally {
        await host.close();
      }
    });

    test("a state is refused for another tool, other arguments or another principal (-32602, naming why); elicit_answer answers only the kit's tools", async () => {
      const host = await appHost(revision);
      try {
        const confirm = askOf(await host.call("book_trip", TRIP, "alice"));
        await refused(host.answer(confirm, "accept", CONFIRM, { tool: "pay_for_booking" }, "alice"), "tool", /issued for tool "book_trip"/);
        await refused(
          host.answer(confirm, "accept", CONFIRM, { arguments: { ...TRIP, destination: "Tokyo" } }, "alice"),
          "arguments",
          /other arguments/,
        );
        await refused(host.answer(confirm, "accept", CONFIRM, {}, "mallory"), "principal", /another principal/);
        await refused(host.answer(confirm, "accept", CONFIRM, { tool: "server_time" }, "alice"), "tool", /not a tool whose questions/);
        await refused(
          host.answer(confirm, "accept", CONFIRM, { state: `${confirm.state.slice(0, -4)}AAAA` }, "alice"),
          "tampered",
          /integrity/,
        );
        await assert.rejects(
          host.call(ANSWER_TOOL, { tool: "book_trip", state: confirm.state, key: "confirm_booking", action: "maybe" }, "alice"),
          (e: { code?: number; message?: string }) => e.code === -32602 && /action/.test(e.message ?? ""),
        );
        // None of that used the round: its owner still answers it.
        const traveler = askOf(await host.answer(confirm, "accept", CONFIRM, {}, "alice"));
        assert.equal(traveler.question.key, "traveler");
      } finally {
        await host.close();
      }
    });

    describe("pay_for_booking: the card on the hosted page, opened from the app", { skip: needs("chromium") }, () => {
      let pages: HeadlessPages;
      before(async () => {
        const headless = await headlessPages();
        assert.ok(!("unavailable" in headless), "the headless browser starts");
        pages = headless;
      });
      after(() => pages?.close());

      test("the link comes to the app; once the page is done the answer ends the call paid, once, however often it is sent", async () => {
        const host = await appHost(revision);
        try {
          const { final: booked } = await bookThroughApp(host);
          const reference = (booked.structuredContent as { reference: string }).reference;
          const asked = await host.call("pay_for_booking", { bookingReference: reference });
          const link = askOf(asked);
          assert.equal(link.question.request.mode, "url");
          assert.match(textOf(asked), /^The person is being asked to open a link and finish there/);
          const address = String(link.question.request.url);
          assert.ok(address.startsWith(url.kit.baseUrl!.origin), address);
          // The app opened the link (ui/open-link); the person pays there.
          assert.match(await pages.complete(address), /paid with the test card/);
          const paid = await host.answer(link, "accept");
          assert.ok(isFinal(paid));
          assert.match(textOf(paid), /^Paid .* ending 4242/);
          const again = await host.answer(link, "accept");
          assert.equal(textOf(again), textOf(paid), "the recorded end");
          assert.equal(charges.filter((r) => r === reference).length, 1, "charged once");
        } finally {
          await host.close();
        }
      });
    });
  });
}

test("the form app resource: one HTML page whose CSP runs only its own inline script and reaches nothing", async () => {
  const host = await appHost("2026-07-28");
  try {
    const { contents } = await host.client.readResource({ uri: FORM_APP_URI });
    assert.equal(contents.length, 1);
    const [page] = contents as [{ uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> }];
    assert.equal(page.mimeType, APP_MIME_TYPE);
    assert.deepEqual(page._meta?.ui, { csp: {}, prefersBorder: true }, "no outside domain asked of the host");
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page.text)?.[1];
    assert.ok(csp, "a CSP in the page itself");
    const scripts = [...page.text.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    assert.equal(scripts.length, 1, "one inline script, nothing loaded");
    const hash = createHash("sha256").update(scripts[0]!, "utf8").digest("base64");
    assert.equal(csp, `default-src 'none'; script-src 'sha256-${hash}'; style-src 'none'; base-uri 'none'; form-action 'none'`);
    assert.doesNotMatch(page.text, /<script[^>]+src=|<link /, "nothing from outside");
  } finally {
    await host.close();
  }
});

test("a tool of a second kit on the same server is answered through the one elicit_answer, its state opened by its own kit", async () => {
  const host = await appHost("2025-11-25");
  try {
    const asked = askOf(await host.call("second_kit_question", {}));
    assert.equal(asked.question.key, "elicit-1");
    const final = await host.answer(asked, "accept", { answer: true });
    assert.ok(isFinal(final));
    assert.equal(textOf(final), "answered true");
  } finally {
    await host.close();
  }
});

test("apps: false: an app host's question fails as on any client without elicitation, and nothing of the app is listed", async () => {
  const kit = createElicitation({ apps: false });
  const off = await serveHttp(() => {
    const server = new McpServer({ name: "no-apps", version: "1.0.0" });
    kit.registerTool(server, "ask_once", { description: "Asks one question" }, async (_args, ctx) => {
      const answer = await ctx.ask("Go ahead?", yesNo());
      return { content: [{ type: "text", text: answer.action }] };
    });
    return server;
  });
  const client = clientFor("2025-11-25", APP_HOST);
  try {
    await client.connect(new StreamableHTTPClientTransport(off.url));
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t._meta?.ui]),
      [["ask_once", undefined]],
    );
    const result = (await client.callTool({ name: "ask_once", arguments: {} })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /elicitation/);
    assert.equal(result._meta?.[APP_META_KEY], undefined);
  } finally {
    await client.close();
    await off.close();
  }
});

test("a host that can be asked still gets native elicitation, not the app", async () => {
  const host = await appHost("2025-11-25", { elicitation: { form: {} }, ...APP_HOST });
  try {
    let asked = 0;
    host.client.setRequestHandler("elicitation/create", async () => {
      asked++;
      return { action: "decline" };
    });
    const result = await host.call("book_trip", TRIP);
    assert.equal(asked, 1);
    assert.equal(result._meta?.[APP_META_KEY], undefined);
    assert.match(textOf(result), /^Nothing was booked: you declined/);
  } finally {
    await host.close();
  }
});
