// createFetchHandler at its boundary: Web-standard Requests in, Responses out. 2026-07-28 rounds and the URL
// kit's pages with no socket at all (the SDK client's fetch is the handler); a 2025-11-25 session behind
// @hono/node-server on 127.0.0.1 with a real SDK client; and a 2025 call that reaches a kit tool through a
// stateless handler (the SDK's createMcpHandler, legacy stateless) is told it needs a session.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { getRequestListener } from "@hono/node-server";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { form, text } from "../../../src/schema/index.js";
import { createElicitation, createFetchHandler, createUrlKit, type FetchHandler } from "../../../src/server/index.js";
import { serveHttp } from "../../../src/node/index.js";
import { memoryStore } from "../../../src/store/index.js";
import { listenLocal } from "../../helpers/local-server.js";

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;
const LEGACY = { supportedProtocolVersions: ["2025-11-25"] };

/** A kit tool that asks twice and says what it got. */
function twoQuestions(kit: ReturnType<typeof createElicitation>) {
  return () => {
    const server = new McpServer({ name: "trip", version: "1.0.0" });
    kit.registerTool(server, "plan", { description: "Asks twice" }, async (_args, ctx) => {
      const from = await ctx.elicit("From?", form({ from: text() }));
      const to = await ctx.elicit("To?", form({ to: text() }));
      const said = (o: { action: string; content?: Record<string, unknown> }) =>
        o.action === "accept" ? Object.values(o.content!)[0] : o.action;
      return { content: [{ type: "text", text: `${ctx.protocol}: ${String(said(from))} -> ${String(said(to))}` }] };
    });
    return server;
  };
}

/** An SDK client whose fetch is the handler: what it sends is counted, and no socket is opened. */
function inProcessClient(
  handler: FetchHandler,
  era: object,
  answer: (params: Record<string, unknown>) => Promise<object> | object,
  origin = "https://worker.example",
) {
  const sent: { method: string; body: string }[] = [];
  const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {}, url: {} } }, ...era });
  client.setRequestHandler("elicitation/create", async (request) => answer(request.params as Record<string, unknown>) as never);
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", origin), {
    fetch: async (input, init) => {
      sent.push({ method: init?.method ?? "GET", body: typeof init?.body === "string" ? init.body : "" });
      return handler(new Request(input, init));
    },
  });
  return { client, transport, sent };
}

describe("Request → Response, no socket", () => {
  test("2026-07-28: a two-question call is three POSTs of tools/call (two input_required rounds), no session held", async () => {
    const handler = createFetchHandler(twoQuestions(createElicitation()));
    const { client, transport, sent } = inProcessClient(handler, MODERN, (params) => {
      const field = Object.keys((params.requestedSchema as { properties: object }).properties)[0]!;
      return { action: "accept", content: { [field]: field === "from" ? "Lyon" : "Oslo" } };
    });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: "plan", arguments: {} })) as CallToolResult;
      assert.equal(textOf(result), "2026-07-28: Lyon -> Oslo");
      const calls = sent.filter((s) => s.body.includes('"tools/call"'));
      assert.equal(calls.length, 3, "the call and its two retries");
      assert.ok(calls[2]!.body.includes("requestState"), "the retries carry the requestState");
      assert.equal(handler.sessionCount, 0);
    } finally {
      await client.close();
      await handler.close();
    }
  });

  test("2026-07-28 URL mode: the kit's pages are served by the same handler, mounted at the first request's origin (a local one: loopback identity)", async () => {
    const urlKit = createUrlKit({ identity: "loopback", serverName: "shop" });
    const kit = createElicitation({ urlKit });
    const handler = createFetchHandler(
      () => {
        const server = new McpServer({ name: "shop", version: "1.0.0" });
        kit.registerTool(server, "pay", { description: "Pay" }, async (_args, ctx) => {
          const { outcome } = await ctx.elicitUrl("Pay for order 42", (id) => `https://pay.example/checkout?flow=${id}`, {
            retryWaitMs: 5_000,
          });
          return { content: [{ type: "text", text: outcome }] };
        });
        return server;
      },
      { urlKit },
    );
    let page: Response | undefined;
    const { client, transport } = inProcessClient(
      handler,
      MODERN,
      async (params) => {
        // The person's browser opens the link (from this machine: the loopback identity), then the author's page ends the flow.
        const link = String(params.url);
        page = await handler(new Request(link, { headers: { host: "localhost" } }), { remoteAddress: "127.0.0.1" });
        await urlKit.flows.finish(new URL(link).pathname.split("/").pop()!, "completed");
        return { action: "accept" };
      },
      "http://localhost",
    );
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: "pay", arguments: {} })) as CallToolResult;
      assert.equal(textOf(result), "completed");
      assert.equal(urlKit.baseUrl?.href, "http://localhost/elicit/");
      assert.ok(page, "the link was opened");
      assert.ok([200, 302, 303].includes(page.status), `the connect page answered ${page.status}`);
      if (page.status !== 200) assert.ok(page.headers.get("location")?.startsWith("https://pay.example/checkout?flow="));
      const missing = await handler(new Request("http://localhost/elsewhere"));
      assert.equal(missing.status, 404);
    } finally {
      await client.close();
      await handler.close();
      await urlKit.close();
    }
  });

  test("auth without auth.resource is refused at once: a fetch handler does not know its own address", () => {
    assert.throws(
      () => createFetchHandler(twoQuestions(createElicitation()), { auth: { issuer: "https://id.example" } }),
      /auth\.resource/,
    );
  });

  test("allowedHosts answers 403 to another Host (DNS rebinding)", async () => {
    const handler = createFetchHandler(twoQuestions(createElicitation()), { allowedHosts: ["localhost"] });
    const refused = await handler(new Request("http://evil.example/mcp", { method: "POST", body: "{}" }));
    assert.equal(refused.status, 403);
    await handler.close();
  });
});

describe("a kit whose call ledger stays in one instance", () => {
  const answerAll = (params: Record<string, unknown>) => {
    const field = Object.keys((params.requestedSchema as { properties: object }).properties)[0]!;
    return { action: "accept", content: { [field]: "x" } };
  };
  async function callTwice(handler: FetchHandler) {
    for (let i = 0; i < 2; i++) {
      const { client, transport } = inProcessClient(handler, MODERN, answerAll);
      await client.connect(transport);
      await client.callTool({ name: "plan", arguments: {} });
      await client.close();
    }
    await handler.close();
  }

  test("the fetch handler warns once, at the first request, naming the store to set", async () => {
    const warnings: string[] = [];
    await callTwice(createFetchHandler(twoQuestions(createElicitation()), { warn: (m) => warnings.push(m) }));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /keeps its call ledger in this instance's memory/);
    assert.match(warnings[0]!, /createElicitation a store every instance shares/);
  });

  test("a kit on a shared store is not warned about", async () => {
    const warnings: string[] = [];
    const shared = Object.assign(memoryStore(), { shared: true as const });
    const kit = createElicitation({ store: shared, stateKey: Buffer.alloc(32, 7) });
    await callTwice(createFetchHandler(twoQuestions(kit), { warn: (m) => warnings.push(m) }));
    assert.deepEqual(warnings, []);
    await shared.close();
  });

  test("serveHttp, one process, does not warn", async () => {
    const warnings: string[] = [];
    const http = await serveHttp(twoQuestions(createElicitation()), { warn: (m) => warnings.push(m) });
    const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, ...MODERN });
    client.setRequestHandler("elicitation/create", async (request) => answerAll(request.params as Record<string, unknown>) as never);
    await client.connect(new StreamableHTTPClientTransport(http.url));
    try {
      await client.callTool({ name: "plan", arguments: {} });
      assert.deepEqual(warnings, []);
    } finally {
      await client.close();
      await http.close();
    }
  });
});

describe("a 2025-11-25 session behind @hono/node-server on 127.0.0.1", () => {
  test("a real SDK client opens a session, is asked twice on the call's stream, and DELETE ends the session", async () => {
    const handler = createFetchHandler(twoQuestions(createElicitation()));
    const http = await listenLocal(getRequestListener((request) => handler(request), { overrideGlobalObjects: false }));
    const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, ...LEGACY });
    client.setRequestHandler("elicitation/create", async (request) => {
      const field = Object.keys(request.params.mode === "url" ? {} : request.params.requestedSchema.properties)[0]!;
      return { action: "accept", content: { [field]: field === "from" ? "Lyon" : "Oslo" } };
    });
    const transport = new StreamableHTTPClientTransport(http.url);
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: "plan", arguments: {} })) as CallToolResult;
      assert.equal(textOf(result), "2025-11-25: Lyon -> Oslo");
      assert.equal(handler.sessionCount, 1);
      const sid = transport.sessionId!;
      await transport.terminateSession();
      assert.equal(handler.sessionCount, 0);
      const gone = await fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sid,
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      assert.equal(gone.status, 404);
      assert.equal(((await gone.json()) as { error: { code: number } }).error.code, -32001);
    } finally {
      await client.close();
      await handler.close();
      http.close();
    }
  });
});

describe("a 2025 call without a session (a stateless handler)", () => {
  test("ctx.elicit says the server cannot ask on that revision without a session, not that the client lacks elicitation", async () => {
    const kit = createElicitation();
    // The SDK's own entry serves 2025-era requests statelessly by default: a fresh server per request, no initialize seen.
    const stateless = createMcpHandler(twoQuestions(kit));
    const http = await listenLocal(toNodeHandler(stateless));
    const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, ...LEGACY });
    let asked = 0;
    client.setRequestHandler("elicitation/create", async () => {
      asked++;
      return { action: "decline" };
    });
    await client.connect(new StreamableHTTPClientTransport(http.url));
    try {
      const result = (await client.callTool({ name: "plan", arguments: {} })) as CallToolResult;
      assert.equal(result.isError, true);
      const said = textOf(result);
      assert.match(said, /cannot ask on a 2025 protocol revision without a session/);
      assert.match(said, /createFetchHandler/);
      assert.match(said, /Durable Object/);
      assert.doesNotMatch(said, /does not support/);
      assert.deepEqual(result.structuredContent, { error: "input_unavailable", reason: "no_session", request: "From?" });
      assert.equal(asked, 0, "nothing was sent to the client");
    } finally {
      await client.close();
      await stateless.close();
      http.close();
    }
  });
});
