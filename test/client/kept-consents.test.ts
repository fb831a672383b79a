// A URL the person accepted, asked for again on 2026-07-28 while its page is unfinished, is answered
// without a second question; anything else is asked as before. A raw SDK server plays the server that
// asks again: its tool asks for the listed URLs, one per input_required round, whatever the answers were
// (so it also plays a server that keeps asking after a no), and returns the answers it got.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { inputRequired, McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../../src/client/attach.js";
import { KeptUrlConsents, KEPT_CONSENT_MAX_AGE_MS, MAX_KEPT_CONSENTS } from "../../src/client/kept-consents.js";
import type { UIContext, UrlRequest } from "../../src/client/ui.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { clientFor, connect, elicitationsOn, type TransportKind, type WireMessage } from "../helpers/mcp.js";
import { RecordingUI } from "../helpers/recording-ui.js";
import { jsonResult, resultJson, sendToClient } from "../helpers/results.js";

const PAY = "https://pay.example.com/checkout?order=42";
const PAY_WRITTEN_OTHERWISE = "HTTPS://PAY.Example.com:443/checkout?order=42"; // the same URL once normalized
const SIGN_IN = "https://miles.example.com/sign-in";

/** `rounds` asks for `urls[i]` in round i (2026-07-28); `live` sends each as a live request (2025-11-25). */
function shop() {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  server.registerTool("rounds", { inputSchema: z.object({ urls: z.array(z.string()) }) }, async ({ urls }, ctx) => {
    const actions: string[] = JSON.parse(ctx.mcpReq.requestState<string>() ?? "[]");
    for (const response of Object.values(ctx.mcpReq.inputResponses ?? {})) actions.push((response as { action: string }).action);
    if (actions.length === urls.length) return jsonResult(actions);
    const url = urls[actions.length]!;
    return inputRequired({
      inputRequests: { [`url-${actions.length + 1}`]: inputRequired.elicitUrl({ message: "Pay for order 42 on our page.", url }) },
      requestState: JSON.stringify(actions),
    });
  });
  server.registerTool("live", { inputSchema: z.object({ urls: z.array(z.string()) }) }, async ({ urls }, ctx) => {
    const actions: unknown[] = [];
    for (const [i, url] of urls.entries()) {
      const sent = await sendToClient(ctx, "elicitation/create", {
        mode: "url",
        message: "Pay for order 42 on our page.",
        url,
        elicitationId: `pay-${i + 1}`,
      });
      actions.push((sent.result as { action?: string } | undefined)?.action ?? sent.error);
    }
    return jsonResult(actions);
  });
  return server;
}

async function withShop(
  revision: ProtocolRevision,
  kind: TransportKind,
  ui: RecordingUI,
  body: (call: (tool: string, urls: string[]) => Promise<unknown>, wire: WireMessage[]) => Promise<void>,
) {
  const client = clientFor(revision, {});
  const handle = attachElicitation(client, { ui });
  const connection = await connect(client, shop, revision, kind);
  try {
    await body(
      async (tool, urls) => resultJson((await handle.callTool({ name: tool, arguments: { urls } })) as CallToolResult),
      connection.wire,
    );
  } finally {
    await connection.close();
  }
}

const asked = (ui: RecordingUI) => ui.urls.map((u) => u.request.analysis.url);
const STILL_WAITING = /^shop is still waiting for the page at pay\.example\.com that you already opened: finish it there\.$/;

for (const kind of ["memory", "http"] as const) {
  describe(`2026-07-28 (${kind}): the same page asked for again in the same call`, () => {
    test("one consent for two rounds with the same URL: the second is answered accept, and the person told the server still waits", async () => {
      const ui = new RecordingUI([], ["accept"]);
      await withShop("2026-07-28", kind, ui, async (call, wire) => {
        assert.deepEqual(await call("rounds", [PAY, PAY]), ["accept", "accept"]);
        assert.deepEqual(asked(ui), [PAY], "asked once");
        assert.equal(ui.notices.length, 1);
        assert.match(ui.notices[0]!.message, STILL_WAITING);
        assert.deepEqual(
          elicitationsOn(wire).map((r) => r.url),
          [PAY, PAY],
          "the server did ask twice",
        );
      });
    });

    test("a different URL is asked; the first, written otherwise but the same once normalized, is still kept", async () => {
      const ui = new RecordingUI([], ["accept", "accept"]);
      await withShop("2026-07-28", kind, ui, async (call) => {
        assert.deepEqual(await call("rounds", [PAY, SIGN_IN, PAY_WRITTEN_OTHERWISE]), ["accept", "accept", "accept"]);
        assert.deepEqual(asked(ui), [PAY, SIGN_IN]);
        assert.equal(ui.notices.length, 1);
        assert.match(ui.notices[0]!.message, STILL_WAITING);
      });
    });

    test("a declined or cancelled URL is asked again: a server that keeps asking gets the person's answers, never an accept they did not give", async () => {
      const ui = new RecordingUI([], ["decline", "cancel", "decline"]);
      await withShop("2026-07-28", kind, ui, async (call) => {
        assert.deepEqual(await call("rounds", [PAY, PAY, PAY]), ["decline", "cancel", "decline"]);
        assert.deepEqual(asked(ui), [PAY, PAY, PAY]);
        assert.deepEqual(ui.notices, []);
      });
    });

    test("the consent ends with its call: the next call asking for the same URL is asked", async () => {
      const ui = new RecordingUI([], ["accept", "decline"]);
      await withShop("2026-07-28", kind, ui, async (call) => {
        assert.deepEqual(await call("rounds", [PAY, PAY]), ["accept", "accept"]);
        assert.deepEqual(await call("rounds", [PAY]), ["decline"]);
        assert.deepEqual(asked(ui), [PAY, PAY]);
      });
    });
  });
}

describe("2026-07-28: a UI that knows the page can no longer be finished", () => {
  test("urlAskedAgain answering cancel ends the flow, and the URL asked for once more is put to the person", async () => {
    class GaveUp extends RecordingUI {
      again: { request: UrlRequest; context: UIContext }[] = [];
      urlAskedAgain(request: UrlRequest, context: UIContext): "accept" | "cancel" {
        this.again.push({ request, context });
        return "cancel";
      }
    }
    const ui = new GaveUp([], ["accept", "decline"]);
    await withShop("2026-07-28", "memory", ui, async (call) => {
      assert.deepEqual(await call("rounds", [PAY, PAY, PAY]), ["accept", "cancel", "decline"]);
      assert.deepEqual(asked(ui), [PAY, PAY]);
      assert.deepEqual(
        ui.again.map((a) => [a.request.analysis.url, a.context.server.name, a.context.protocol]),
        [[PAY, "shop", "2026-07-28"]],
      );
      assert.deepEqual(ui.notices, [], "the UI tells the person itself");
    });
  });
});

describe("2025-11-25: unchanged", () => {
  for (const kind of ["memory", "http"] as const)
    test(`(${kind}) the same URL sent twice as live requests in one call is asked twice`, async () => {
      const ui = new RecordingUI([], ["accept", "decline"]);
      await withShop("2025-11-25", kind, ui, async (call) => {
        assert.deepEqual(await call("live", [PAY, PAY]), ["accept", "decline"]);
        assert.deepEqual(asked(ui), [PAY, PAY]);
        assert.deepEqual(
          ui.urls.map((u) => u.request.elicitationId),
          ["pay-1", "pay-2"],
        );
        assert.deepEqual(ui.notices, []);
      });
    });
});

describe("KeptUrlConsents: what is remembered, and for how long", () => {
  const connection = {};

  test("nothing is kept outside a call; within one, only for its connection", async () => {
    const kept = new KeptUrlConsents();
    kept.keep(PAY, connection);
    assert.equal(kept.has(PAY, connection), false);
    await kept.during(async () => {
      kept.keep(PAY, connection);
      assert.equal(kept.has(PAY, {}), false, "another connection");
      kept.keep(PAY, connection);
      assert.equal(kept.has(PAY, connection), true);
      assert.equal(kept.has(SIGN_IN, connection), false);
    });
    assert.equal(kept.size, 0, "gone with the call");
  });

  test(`at most ${MAX_KEPT_CONSENTS} URLs, the oldest going first; none older than ${KEPT_CONSENT_MAX_AGE_MS} ms`, async () => {
    let now = 0;
    const kept = new KeptUrlConsents(() => now);
    await kept.during(async () => {
      for (let i = 0; i <= MAX_KEPT_CONSENTS; i++) kept.keep(`${PAY}&item=${i}`, connection);
      assert.equal(kept.size, MAX_KEPT_CONSENTS);
      assert.equal(kept.has(`${PAY}&item=0`, connection), false);
      assert.equal(kept.has(`${PAY}&item=${MAX_KEPT_CONSENTS}`, connection), true);
      now = KEPT_CONSENT_MAX_AGE_MS + 1;
      assert.equal(kept.has(`${PAY}&item=${MAX_KEPT_CONSENTS}`, connection), false);
    });
  });

  test("a consent given while two calls run lasts until both have ended", async () => {
    const kept = new KeptUrlConsents();
    let endFirst!: () => void;
    const first = kept.during(() => new Promise<void>((resolve) => (endFirst = resolve)));
    await kept.during(async () => {
      kept.keep(PAY, connection);
    });
    assert.equal(kept.has(PAY, connection), true, "the first call still runs");
    endFirst();
    await first;
    assert.equal(kept.has(PAY, connection), false);
  });
});
