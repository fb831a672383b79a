// The -32042 URLElicitationRequired flow and completion notifications, against a raw-SDK server on
// 2025-11-25 (the only revision that has them), over in-memory and Streamable HTTP transports.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, UrlElicitationRequiredError, type CallToolResult } from "@modelcontextprotocol/server";
import { attachElicitation } from "../../src/client/attach.js";
import { UrlElicitationEndedError } from "../../src/client/url-flow.js";
import { deferred, waitFor, within } from "../helpers/deferred.js";
import { clientFor, connect, type TransportKind, type WireMessage } from "../helpers/mcp.js";
import { UrlWaitingUI } from "../helpers/recording-ui.js";
import { assertWire } from "../helpers/wire.js";

const PAY_URL = "https://xn--pypal-4ve.com/checkout?order=42"; // pаypal.com with a Cyrillic а

interface ShopState {
  paid: boolean;
  calls: number;
  /** Resolves when the person is on the page: the client consented, tracks the id and waits. */
  onPage: Promise<void>;
}

/**
 * `pay` answers -32042 until the payment flow completed; once the person is on the page it sends a
 * completion for an unknown id, then the real one. `loop` always answers -32042 for the same URL, and
 * completes it.
 *
 * The page reports completion only once the person is on it, as a real one does. Sent on a timer from
 * the tool's throw, it could overtake the -32042 itself over HTTP (the notification rides the GET stream,
 * the error the POST's response, and nothing orders the two): the client, not yet tracking the id,
 * ignored it as the spec asks, and the wait never ended (1 run in 3 on a busy machine).
 */
function paymentServer(state: ShopState) {
  return () => {
    const server = new McpServer({ name: "shop", version: "2.0.0" });
    const complete = (ids: string[]) =>
      void state.onPage.then(() => {
        // The client may be gone by then (tests that end before the completion): nothing to tell.
        for (const elicitationId of ids)
          server.server.notification({ method: "notifications/elicitation/complete", params: { elicitationId } }).catch(() => {});
      });
    server.registerTool("pay", {}, async (): Promise<CallToolResult> => {
      state.calls++;
      if (state.paid) return { content: [{ type: "text", text: "paid, order 42" }] };
      state.paid = true;
      complete(["unknown-id", "pay-1"]);
      throw new UrlElicitationRequiredError([
        { mode: "url", message: "Pay for order 42 at our payment page.", url: PAY_URL, elicitationId: "pay-1" },
      ]);
    });
    server.registerTool("loop", {}, async (): Promise<CallToolResult> => {
      state.calls++;
      complete(["loop-1"]);
      throw new UrlElicitationRequiredError([
        { mode: "url", message: "Sign in again.", url: "https://example.com/login", elicitationId: "loop-1" },
      ]);
    });
    return server;
  };
}

/** The person: answers as scripted, and is on the page (which may then complete) once the client waits for it. */
class Shopper extends UrlWaitingUI {
  readonly page = deferred();
  override waitForUrl(...args: Parameters<UrlWaitingUI["waitForUrl"]>) {
    this.page.resolve();
    return super.waitForUrl(...args);
  }
}

async function withShop(
  kind: TransportKind,
  ui: Shopper,
  body: (call: (name: string) => Promise<CallToolResult>, wire: WireMessage[], state: ShopState) => Promise<void>,
  via: "handle" | "client" = "handle",
) {
  const state: ShopState = { paid: false, calls: 0, onPage: ui.page.promise };
  const client = clientFor("2025-11-25", {});
  const handle = attachElicitation(client, { ui });
  const connection = await connect(client, paymentServer(state), "2025-11-25", kind);
  try {
    // A completion the server sends before the client's GET stream is open is dropped by the server.
    await within(connection.notificationsOpen, 10_000, "the client's stream for notifications");
    const call = (name: string) =>
      via === "handle" ? handle.callTool({ name, arguments: {} }) : (client.callTool({ name, arguments: {} }) as Promise<CallToolResult>);
    await body(call, connection.wire, state);
    // A flow the person retried before it completed stays pending until the page's completion arrives.
    await waitFor(() => handle.pending.size === 0, { what: "no URL flow left pending" });
  } finally {
    await connection.close();
  }
}

const errorsOn = (wire: WireMessage[]) => wire.filter((w) => w.dir === "in" && w.message.error).map((w) => w.message.error);

for (const kind of ["memory", "http"] as const) {
  describe(`-32042 URLElicitationRequired (2025-11-25, ${kind})`, () => {
    test("consent with the punycode analysis, wait for the completion, retry once: the tool result comes back", async () => {
      const ui = new Shopper(["accept"]);
      await withShop(kind, ui, async (call, wire, state) => {
        const result = await call("pay");
        assert.deepEqual(result.content, [{ type: "text", text: "paid, order 42" }]);
        assert.equal(state.calls, 2, "the call ran twice: the -32042, then the retry");
        // What the person saw: the server's message, the analysed URL with the punycode warning, the wait.
        assert.equal(ui.urls.length, 1);
        const request = ui.urls[0]?.request;
        assert.equal(request!.message, "Pay for order 42 at our payment page.");
        assert.equal(request!.elicitationId, "pay-1");
        assert.ok(
          request!.analysis.warnings.some((w) => w.code === "punycode"),
          JSON.stringify(request!.analysis.warnings),
        );
        assert.equal(ui.waits.length, 1);
        assert.equal(ui.waits[0]!.host, "pаypal.com (xn--pypal-4ve.com)", "what it reads as, and what opens");
        // The completion for the unknown id was ignored: no notice, no second wait, nothing sent back.
        assert.deepEqual(ui.notices, []);
        const [error] = errorsOn(wire);
        assert.equal(error.code, -32042);
        assertWire("2025-11-25", "URLElicitationRequiredError", { jsonrpc: "2.0", id: 1, error });
        const completions = wire.filter((w) => w.dir === "in" && w.message.method === "notifications/elicitation/complete");
        assert.deepEqual(
          completions.map((w) => w.message.params.elicitationId),
          ["unknown-id", "pay-1"],
        );
        for (const c of completions) assertWire("2025-11-25", "ElicitationCompleteNotification", c.message);
      });
    });

    test("declining the URL ends the call without a retry, with a clear error", async () => {
      const ui = new Shopper(["decline"]);
      await withShop(kind, ui, async (call, _wire, state) => {
        await assert.rejects(
          call("pay"),
          (e: unknown) => e instanceof UrlElicitationEndedError && e.reason === "declined" && /declined the URL/.test(e.message),
        );
        assert.equal(state.calls, 1);
        assert.equal(ui.waits.length, 0, "no wait after a decline");
      });
    });

    test("a host calling client.callTool directly gets the same flow (attachElicitation routes it)", async () => {
      const ui = new Shopper(["accept"]);
      await withShop(
        kind,
        ui,
        async (call, _wire, state) => {
          const result = await call("pay");
          assert.deepEqual(result.content, [{ type: "text", text: "paid, order 42" }]);
          assert.equal(state.calls, 2);
          assert.equal(ui.urls.length, 1);
        },
        "client",
      );
    });

    test("cancelling the wait ends the call without a retry", async () => {
      const ui = new Shopper(["accept"], "cancel");
      await withShop(kind, ui, async (call, _wire, state) => {
        await assert.rejects(call("pay"), (e: unknown) => e instanceof UrlElicitationEndedError && e.reason === "cancelled");
        assert.equal(state.calls, 1);
      });
    });

    test("the person's retry (before any completion) retries the call", async () => {
      const ui = new Shopper(["accept"], "retry");
      await withShop(kind, ui, async (call, _wire, state) => {
        const result = await call("pay");
        assert.deepEqual(result.content, [{ type: "text", text: "paid, order 42" }]);
        assert.equal(state.calls, 2);
        // The completion still arrives afterwards and clears the pending id (withShop waits for it).
      });
    });

    test("a server that asks again for the same completed URL is not retried a second time", async () => {
      const ui = new Shopper(["accept", "accept"]);
      await withShop(kind, ui, async (call, _wire, state) => {
        await assert.rejects(
          call("loop"),
          (e: unknown) => e instanceof UrlElicitationEndedError && e.reason === "repeated" && /avoid a loop/.test(e.message),
        );
        assert.equal(state.calls, 2, "one retry for the set, then stop");
        assert.equal(ui.urls.length, 1, "the person was asked once");
      });
    });

    test("asked again after a retry with no completion: the error says the flow was not finished, not a loop", async () => {
      const ui = new Shopper(["accept", "accept"], "retry");
      await withShop(kind, ui, async (call, _wire, state) => {
        await assert.rejects(call("loop"), (e: unknown) => {
          assert.ok(e instanceof UrlElicitationEndedError && e.reason === "repeated");
          assert.match(e.message, /still needs the URL flow at https:\/\/example\.com\/login: the retry came before the flow was finished/);
          return true;
        });
        assert.equal(state.calls, 2); // the server's late completion clears the pending id (withShop waits for it)
      });
    });
  });
}
