// Fuzzing the client: malformed and adversarial elicitation/create params (wrong types, deep and huge
// schemas, prototype keys, escapes and bidi characters, megabyte strings, unknown modes and field types,
// NaN and Infinity, duplicate and huge enums, hostile URLs) reach attachElicitation's handler on a real
// SDK Client. Each is answered with a valid result or a -32602 (-32600 for params that are not an
// object); nothing throws out, nothing hangs, and the UI only ever sees checked forms, analysed URLs
// and inert text. Most cases come from a hand-written peer on the live 2025-11-25 path; a sample is
// embedded in 2026-07-28 input_required results from a real McpServer.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { inputRequired, McpServer } from "@modelcontextprotocol/server";
import { attachElicitation } from "../../src/client/attach.js";
import { validateContent } from "../../src/schema/validate.js";
import type { RequestedSchema } from "../../src/schema/types.js";
import { clientFor, connect, type Connection } from "../helpers/mcp.js";
import { jsonResult } from "../helpers/results.js";
import { elicitParams } from "../helpers/fuzz/arbitraries.js";
import { BENIGN, HOSTILE } from "./corpus/urls.js";
import { FuzzUI } from "../helpers/fuzz/fuzz-ui.js";
import { rawPeer, type RawPeer } from "../helpers/fuzz/raw-peer.js";
import { fcParams, measured, runs, settlesWithin } from "../helpers/fuzz/settings.js";

const URLS = [...HOSTILE, ...BENIGN].map((c) => c.url).filter((u) => u.length < 5000);
// No per-server limit while fuzzing: every request must reach the checks, not the rate limiter.
const policy = { rateLimit: { max: Number.MAX_SAFE_INTEGER } };
const HANG_MS = 20_000;

/** What a valid answer to `params` looks like: an action, and for an accepted form content its schema accepts. */
function assertValidResult(params: any, result: Record<string, any>) {
  assert.ok(["accept", "decline", "cancel"].includes(result.action), `unknown action ${JSON.stringify(result.action)}`);
  if (result.action !== "accept" || params.mode === "url") {
    assert.equal(result.content, undefined, `content sent with ${result.action}`);
    return;
  }
  const checked = validateContent(params.requestedSchema as RequestedSchema, result.content);
  assert.ok(checked.ok, `accepted content fails its schema: ${JSON.stringify(checked).slice(0, 300)}`);
}

const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

describe("elicitation/create from a hostile 2025-11-25 peer", () => {
  const ui = new FuzzUI();
  const client = clientFor("2025-11-25", {});
  attachElicitation(client, { ui, policy });
  let peer: RawPeer;
  before(async () => {
    // A server name built to fool a terminal and a reader: it must reach the UI inert.
    peer = await rawPeer(client, "2025-11-25", { name: "\u001B]0;pwned\u0007Trusted\u202E Bank\u200B<img src=x>", version: "1\u0000" });
  });
  after(() => peer.close());

  test("every request is answered with a valid result or -32602, and the UI sees only checked, inert requests", async () => {
    const n = runs(2000);
    const codes = new Map<number, number>();
    await measured("client elicitation/create (2025-11-25)", n, () =>
      fc.assert(
        fc.asyncProperty(elicitParams(URLS), fc.gen(), async (params, g) => {
          ui.pick = (arb) => g(() => arb);
          const response = await settlesWithin(peer.request("elicitation/create", params), HANG_MS, "elicitation/create");
          if (response.error) {
            codes.set(response.error.code, (codes.get(response.error.code) ?? 0) + 1);
            const notAnObject = !isObject(params) || ((params as any)._meta !== undefined && !isObject((params as any)._meta));
            assert.ok(
              response.error.code === -32602 || (notAnObject && response.error.code === -32600),
              `answered ${response.error.code}: ${response.error.message.slice(0, 300)}`,
            );
            // One clear message naming the field, never the SDK's dump of zod issues.
            assert.doesNotMatch(response.error.message, /invalid_union|"code":/, response.error.message.slice(0, 300));
            return;
          }
          assertValidResult(params, response.result!);
        }),
        fcParams(n),
      ),
    );
    process.stderr.write(`  forms shown ${ui.forms}, URLs shown ${ui.urls}, errors ${JSON.stringify([...codes])}\n`);
    // The run reached every part of the client: forms and URLs shown, and refusals.
    assert.ok(ui.forms > n / 20, `only ${ui.forms} forms reached the UI`);
    assert.ok(ui.urls > 0, "no URL reached the UI");
    assert.ok((codes.get(-32602) ?? 0) > n / 20, `only ${codes.get(-32602)} refusals`);
  });
});

// Requests the fuzzer found answered with the SDK's dump of zod issues (every union branch it tried)
// instead of one -32602 naming the field; each is now refused before the SDK's parse.
const REGRESSIONS: [string, Record<string, unknown>, RegExp][] = [
  [
    "an unknown mode",
    { mode: "FORM", message: "x", requestedSchema: { type: "object", properties: {} } },
    /"mode" must be "form" or "url", got "FORM"/,
  ],
  [
    "a null mode",
    { mode: null, message: "x", requestedSchema: { type: "object", properties: {} } },
    /"mode" must be "form" or "url", got null/,
  ],
  [
    "a message that is not text",
    { mode: "form", message: 42, requestedSchema: { type: "object", properties: {} } },
    /"message" must be a string in form mode, got 42/,
  ],
  [
    "a URL request without its id",
    { mode: "url", message: "x", url: "https://example.com/" },
    /"elicitationId" must be a string in url mode/,
  ],
  [
    "a URL the SDK's parser refuses",
    { mode: "url", message: "x", url: "example", elicitationId: "1" },
    /Refused URL elicitation: This is not a valid absolute URL/,
  ],
];

test("regressions: malformed request fields are refused with one -32602 naming the field", async () => {
  const client = clientFor("2025-11-25", {});
  const ui = new FuzzUI();
  attachElicitation(client, { ui, policy });
  const peer = await rawPeer(client, "2025-11-25");
  try {
    for (const [what, params, message] of REGRESSIONS) {
      const response = await peer.request("elicitation/create", params);
      assert.equal(response.error?.code, -32602, what);
      assert.match(response.error.message, message, what);
      assert.doesNotMatch(response.error.message, /invalid_union|"code":/, what);
    }
    assert.equal(ui.forms + ui.urls, 0);
  } finally {
    await peer.close();
  }
});

// Found at case 49,934 of a 100,000-case run (seed 20260728): on Node 20, URL.canParse (the SDK's URL check)
// refuses a host with Latin-1 letters once V8 has optimized it, so after a few thousand URL requests an
// internationalized URL got the SDK's zod dump. It must be shown, however warm the process is.
test("regression: an internationalized host is accepted after thousands of URL checks", async () => {
  for (let i = 0; i < 20_000; i++) URL.canParse(i % 2 ? "https://münchen.de/" : "https://example.com/");
  const client = clientFor("2025-11-25", {});
  const ui = new FuzzUI();
  ui.pick = (() => "accept") as never;
  attachElicitation(client, { ui, policy });
  const peer = await rawPeer(client, "2025-11-25");
  try {
    const params = { mode: "url", message: "", url: "https://münchen.de/", elicitationId: "00000000-0000-1000-8000-000000000000" };
    const response = await peer.request("elicitation/create", params);
    assert.equal(response.error, undefined, response.error?.message.slice(0, 300));
    assertValidResult(params, response.result!);
    assert.equal(ui.urls, 1);
  } finally {
    await peer.close();
  }
});

describe("elicitation requests embedded in 2026-07-28 input_required results", () => {
  let current: unknown;
  const factory = () => {
    const server = new McpServer({ name: "embedding-server", version: "1.0.0" });
    server.registerTool("ask26", {}, async (ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      if (!responses) return inputRequired({ inputRequests: { k: inputRequired.elicit(current as never) }, requestState: "s" });
      return jsonResult({ responses });
    });
    return server;
  };
  const ui = new FuzzUI();
  const client = clientFor("2026-07-28", {});
  attachElicitation(client, { ui, policy });
  let connection: Connection;
  before(async () => {
    connection = await connect(client, factory, "2026-07-28", "memory");
  });
  // The wire checks of connect()'s close do not apply: the server sends invalid requests on purpose.
  after(() => client.close());

  test("each is answered with valid inputResponses or ends the call with -32602, and the UI sees only checked, inert requests", async () => {
    const n = runs(200, 0.02);
    await measured("client embedded requests (2026-07-28)", n, () =>
      fc.assert(
        fc.asyncProperty(elicitParams(URLS), fc.gen(), async (params, g) => {
          current = params;
          ui.pick = (arb) => g(() => arb);
          const outcome = await settlesWithin(
            client.callTool({ name: "ask26", arguments: {} }).then(
              (result) => ({ result }),
              (error: { code?: number; message?: string }) => ({ error }),
            ),
            HANG_MS,
            "tools/call with an embedded request",
          );
          if ("error" in outcome) {
            assert.ok([-32602, -32600].includes(outcome.error.code!), `ended with ${outcome.error.code}: ${outcome.error.message}`);
            return;
          }
          const result = outcome.result as { isError?: boolean; content: { type: string; text: string }[] };
          // A request the server's own SDK would not build ends the tool on the server's side.
          if (result.isError) return;
          const { responses } = JSON.parse(result.content[0]!.text);
          assertValidResult(params, responses.k);
        }),
        fcParams(n),
      ),
    );
    assert.ok(ui.forms > 0, "no embedded form reached the UI");
    void connection;
  });
});
