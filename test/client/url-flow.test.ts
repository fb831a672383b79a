// The -32042 URLElicitationRequired flow and completion notifications, against a raw-SDK server on
// 2025-11-25 (the only revision that has them), over in-memory and Streamable HTTP transports.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, UrlElicitationRequiredError, type CallToolResult } from "@modelcontextprotocol/server";
import { attachElicitation } from "../../src/client/attach.js";
import { UrlElicitationEndedError } from "../../src/client/url-flow.js";
import { clientFor, connect, type TransportKind, type WireMessage } from "../helpers/mcp.js";
import { UrlWaitingUI } from "../helpers/recording-ui.js";
import { assertWire } from "../helpers/wire.js";

const PAY_URL = "https://xn--pypal-4ve.com/checkout?order=42"; // pаypal.com with a Cyrillic а

/**
 * `pay` answers -32042 until the payment flow completed; after the error it sends a completion for an
 * unknown id, then the real one. `loop` always answers -32042 for the same URL, and completes it.
 */
function paymentServer(state: { paid: boolean; calls: number }) {
  return () => {
    const server = new McpServer({ name: "shop", version: "2.0.0" });
    const complete = (ids: string[]) =>
      setTimeout(() => {
        // The client may be gone by then (tests that end before the completion): nothing to tell.
        for (const elicitationId of ids)
          server.server.notification({ method: "notifications/elicitation/complete", params: { elicitationId } }).catch(() => {});
      }, 20);
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

async function withShop(
  kind: TransportKind,
  ui: UrlWaitingUI,
  body: (call: (name: string) => Promise<CallToolResult>, wire: WireMessage[], state: { paid: boolean; calls: number }) => Promise<void>,
  via: "handle" | "client" = "handle",
) {
  const state = { paid: false, calls: 0 };
  const client = clientFor("2025-11-25", {});
  const handle = attachElicitation(client, { ui });
  const connection = await connect(client, paymentServer(state), "2025-11-25", kind);
  try {
    const call = (name: string) =>
      via === "handle" ? handle.callTool({ name, arguments: {} }) : (client.callTool({ name, arguments: {} }) as Promise<CallToolResult>);
    await body(call, connection.wire, state);
    assert.equal(handle.pending.size, 0, "no URL flow is left pending");
  } finally {
    await connection.close();
  }
}

const errorsOn = (wire: WireMessage[]) => wire.filter((w) => w.dir === "in" && w.message.error).map((w) => w.message.error);

for (const kind of ["memory", "http"] as const) {
  describe(`-32042 URLElicitationRequired (2025-11-25, ${kind})`, () => {
    test("consent with the punycode analysis, wait for the completion, retry once: the tool result comes back", async () => {
      const ui = new UrlWaitingUI(["accept"]);
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
      const ui = new UrlWaitingUI(["decline"]);
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
      const ui = new UrlWaitingUI(["accept"]);
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
      const ui = new UrlWaitingUI(["accept"], "cancel");
      await withShop(kind, ui, async (call, _wire, state) => {
        await assert.rejects(call("pay"), (e: unknown) => e instanceof UrlElicitationEndedError && e.reason === "cancelled");
        assert.equal(state.calls, 1);
      });
    });

    test("the person's retry (before any completion) retries the call", async () => {
      const ui = new UrlWaitingUI(["accept"], "retry");
      await withShop(kind, ui, async (call, _wire, state) => {
        const result = await call("pay");
        assert.deepEqual(result.content, [{ type: "text", text: "paid, order 42" }]);
        assert.equal(state.calls, 2);
        // The completion still arrives afterwards and clears the pending id (checked by withShop).
        await new Promise((r) => setTimeout(r, 100));
      });
    });

    test("a server that asks again for the same completed URL is not retried a second time", async () => {
      const ui = new UrlWaitingUI(["accept", "accept"]);
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
      const ui = new UrlWaitingUI(["accept", "accept"], "retry");
      await withShop(kind, ui, async (call, _wire, state) => {
        await assert.rejects(call("loop"), (e: unknown) => {
          assert.ok(e instanceof UrlElicitationEndedError && e.reason === "repeated");
          assert.match(e.message, /still needs the URL flow at https:\/\/example\.com\/login: the retry came before the flow was finished/);
          return true;
        });
        assert.equal(state.calls, 2);
        await new Promise((r) => setTimeout(r, 100)); // the server's late completion clears the pending id
      });
    });
  });
}
