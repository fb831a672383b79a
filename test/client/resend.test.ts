// resendingFetch on a real 2026-07-28 connection: serveHttp on 127.0.0.1, the SDK's client with the
// library's handler, and a real HTTP proxy between them that fails the traffic the way a gateway or a
// dying server does. A retry round is sent again, byte for byte, after a 503 and after a connection
// closed before the reply (the server had acted on it: the ledger answers the same round again, and the
// side effect runs once); a server gone for good ends the call with an error that says so, at the
// deadline; a first request, which carries no requestState, is never sent twice.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { Client, ProtocolError, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../../src/client/attach.js";
import { resendingFetch, ServerGoneError, type ResendEvent, type ResendOptions } from "../../src/client/resend.js";
import { choice, form } from "../../src/schema/builders.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { deferred, within } from "../helpers/deferred.js";
import { RecordingUI } from "../helpers/recording-ui.js";
import { listenLocal } from "../helpers/local-server.js";

/** How the proxy treats one POST it forwards (or not); `round` says whether the body echoes a requestState. */
type Fault = (body: string, round: boolean) => "pass" | "503" | "close-after-server" | "502-after-server" | "close" | "cut-stream";

let mcp: HttpServerHandle;
let charges = 0;
/** How many times the tool "note" ran. */
let notes = 0;
let proxy: Awaited<ReturnType<typeof listenLocal>> | undefined;
let proxyUrl: URL;
/** Every POST body that reached the proxy, in order. */
let seen: string[] = [];
let fault: Fault = () => "pass";
/** Streamed answers the proxy cut after their first event. */
let cuts = 0;

before(async () => {
  const elicitation = createElicitation();
  mcp = await serveHttp(
    () => {
      const server = new McpServer({ name: "shop", version: "1.0.0" });
      elicitation.registerTool(server, "order", { description: "Order a shirt", inputSchema: z.object({}) }, async (_args, ctx) => {
        const answer = await ctx.elicit("Which size?", form({ size: choice({ s: "Small", m: "Medium" }) }));
        if (answer.action !== "accept") return { content: [{ type: "text", text: answer.action }] };
        const charge = await ctx.step("charge", () => ++charges);
        return { content: [{ type: "text", text: `charged #${charge} for size ${answer.content.size}` }] };
      });
      // The same, but it tells the client something first: its answer to the round is an event stream.
      elicitation.registerTool(
        server,
        "order_noisy",
        { description: "Order, saying so", inputSchema: z.object({}) },
        async (_args, ctx) => {
          const answer = await ctx.elicit("Which size?", form({ size: choice({ s: "Small", m: "Medium" }) }));
          if (answer.action !== "accept") return { content: [{ type: "text", text: answer.action }] };
          const token = ctx.mcpReq._meta?.progressToken;
          if (token !== undefined)
            await ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken: token, progress: 1, message: "charging the card" },
            });
          const charge = await ctx.step("charge", () => ++charges);
          return { content: [{ type: "text", text: `charged #${charge} for size ${answer.content.size}` }] };
        },
      );
      // A tool with an effect and no question: its whole answer is the call's one reply.
      server.registerTool("note", { description: "Notes something down", inputSchema: z.object({}) }, async () => ({
        content: [{ type: "text", text: `note #${++notes}` }],
      }));
      return server;
    },
    { host: "127.0.0.1", port: 0 },
  );
  proxy = await listenLocal((req, res) => void forward(req, res));
  proxyUrl = proxy.url;
});
after(async () => {
  proxy?.close();
  await mcp?.close();
});

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString();
  const round = req.method === "POST" && /"requestState":/.test(body);
  if (req.method === "POST") seen.push(body);
  const how = req.method === "POST" ? fault(body, round) : "pass";
  if (how === "503") return void res.writeHead(503, { "content-type": "text/plain" }).end("no server behind the gateway");
  if (how === "close") return void req.socket.destroy();
  const upstream = httpRequest(new URL(req.url!, mcp.url), { method: req.method, headers: req.headers }, (reply) => {
    // The server answered, and the connection to the client closes before the answer gets there.
    if (how === "close-after-server") return void reply.resume().on("end", () => req.socket.destroy());
    // The server it was sent to died before answering: a balancer's 502 (HAProxy's, in a fleet).
    if (how === "502-after-server")
      return void reply.resume().on("end", () => res.writeHead(502, { "content-type": "text/html" }).end("<h1>502 Bad Gateway</h1>"));
    res.writeHead(reply.statusCode!, reply.headers);
    if (how === "cut-stream" && String(reply.headers["content-type"]).startsWith("text/event-stream")) {
      // The first event gets through, then the connection breaks (the rest is never sent).
      let head = "";
      const onData = (chunk: Buffer) => {
        head += chunk;
        const end = head.indexOf("\n\n");
        if (end < 0) return;
        reply.off("data", onData);
        cuts++;
        res.write(head.slice(0, end + 2), () => req.socket.destroy());
      };
      return void reply.on("data", onData);
    }
    reply.pipe(res);
  });
  upstream.on("error", () => req.socket.destroy());
  upstream.end(body);
}

/** A client through the proxy, pinned to 2026-07-28, whose person picks Medium; `events` gets every resend. */
async function connect(options: Partial<ResendOptions> = {}) {
  const events: ResendEvent[] = [];
  const first = deferred();
  const client = new Client({ name: "host", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  const ui = new RecordingUI([{ action: "accept", content: { size: "m" } }]);
  const handle = attachElicitation(client, { ui });
  const fetch = resendingFetch({
    onResend: (e) => {
      events.push(e);
      first.resolve();
    },
    initialDelayMs: 20,
    maxDelayMs: 200,
    ...options,
  });
  await client.connect(new StreamableHTTPClientTransport(proxyUrl, { fetch }));
  const order = async (name = "order", onprogress?: () => void) =>
    (await handle.callTool({ name, arguments: {} }, { timeout: 30_000, ...(onprogress ? { onprogress } : {}) })) as CallToolResult;
  return { client, handle, ui, events, order, firstResend: first.promise };
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe("2026-07-28 rounds sent again when the server goes away", () => {
  test("a 503 on the round: the same round again, the call completes, one charge", { timeout: 60_000 }, async () => {
    seen = [];
    const before = charges;
    let failed = 0;
    fault = (_body, round) => (round && failed++ === 0 ? "503" : "pass");
    const { client, events, order } = await connect();
    try {
      assert.match(text(await order()), /^charged #\d+ for size m$/);
      assert.equal(charges - before, 1);
      assert.deepEqual(
        events.map((e) => [e.attempt, e.reason]),
        [[1, "HTTP 503"]],
      );
      const rounds = seen.filter((b) => b.includes('"requestState":'));
      assert.equal(rounds.length, 2);
      assert.equal(rounds[0], rounds[1], "the resend is the same round, byte for byte");
    } finally {
      await client.close();
    }
  });

  test("the connection closed after the server took the round: sent again, the same result, one charge", { timeout: 60_000 }, async () => {
    seen = [];
    const before = charges;
    let failed = 0;
    fault = (_body, round) => (round && failed++ === 0 ? "close-after-server" : "pass");
    const { client, events, order } = await connect();
    try {
      assert.match(text(await order()), /^charged #\d+ for size m$/);
      assert.equal(charges - before, 1, "the server's ledger answered the resent round without charging again");
      assert.equal(events.length, 1);
      assert.match(events[0]!.reason, /closed|reset/);
    } finally {
      await client.close();
    }
  });

  test(
    "a streamed answer cut after its first event: the round is sent again and the stream goes on, one charge",
    { timeout: 60_000 },
    async () => {
      seen = [];
      const before = charges;
      const cutsBefore = cuts;
      let failed = 0;
      fault = (_body, round) => (round && failed++ === 0 ? "cut-stream" : "pass");
      const { client, events, order } = await connect();
      try {
        let progress = 0;
        assert.match(text(await order("order_noisy", () => progress++)), /^charged #\d+ for size m$/);
        assert.equal(cuts - cutsBefore, 1, "the answer was a stream, and it was cut");
        assert.ok(progress >= 1, "the event before the cut reached the client");
        assert.equal(charges - before, 1);
        assert.equal(events.length, 1);
        assert.match(events[0]!.reason, /before the answer/);
      } finally {
        await client.close();
      }
    },
  );

  test("a server gone for good: the call ends at the deadline, saying why", { timeout: 60_000 }, async () => {
    seen = [];
    fault = (_body, round) => (round ? "close" : "pass");
    const { client, events, order } = await connect({ deadlineMs: 1000 });
    const started = Date.now();
    try {
      await assert.rejects(order(), (error: unknown) => {
        assert.ok(error instanceof ServerGoneError, String(error));
        assert.equal(error.server, proxyUrl.host);
        assert.match(
          error.message,
          new RegExp(`^The server at ${proxyUrl.host} went away during the tool call and did not answer within 1 s`),
        );
        assert.match(error.message, /last: .*(closed|reset)/);
        assert.match(error.message, /did not complete/);
        return true;
      });
      const took = Date.now() - started;
      assert.ok(took >= 1000 && took < 10_000, `gave up after ${took} ms`);
      assert.ok(events.length >= 2, `resent ${events.length} times`);
      assert.ok(
        events.every((e, i) => i === 0 || e.delayMs <= 200),
        "the pauses stay under maxDelayMs",
      );
    } finally {
      await client.close();
    }
  });

  test(
    "a streamed answer cut, then the server gone for good: the call ends at the deadline with the reason, not at its timeout",
    { timeout: 60_000 },
    async () => {
      seen = [];
      let rounds = 0;
      fault = (_body, round) => (!round ? "pass" : rounds++ === 0 ? "cut-stream" : "close");
      const { client, order } = await connect({ deadlineMs: 1000 });
      const started = Date.now();
      try {
        await assert.rejects(
          order("order_noisy", () => {}),
          (error: unknown) => {
            assert.ok(error instanceof ProtocolError, String(error));
            assert.match(error.message, new RegExp(`The server at ${proxyUrl.host} went away during the tool call`));
            assert.equal((error.data as { reason?: unknown }).reason, "server-gone");
            return true;
          },
        );
        assert.ok(Date.now() - started < 15_000, `ended after ${Date.now() - started} ms`);
      } finally {
        await client.close();
      }
    },
  );

  test("a first request is never sent twice: a 503 on it ends the call", { timeout: 60_000 }, async () => {
    seen = [];
    const before = charges;
    fault = (body) => (body.includes('"tools/call"') ? "503" : "pass");
    const { client, events, order } = await connect();
    try {
      await assert.rejects(order(), /no server behind the gateway/);
      assert.equal(seen.filter((b) => b.includes('"tools/call"')).length, 1);
      assert.equal(events.length, 0);
      assert.equal(charges, before);
    } finally {
      await client.close();
    }
  });

  test("the call cancelled while a round waits to be sent again: it ends at once, not at the deadline", { timeout: 60_000 }, async () => {
    seen = [];
    fault = (_body, round) => (round ? "503" : "pass");
    const { client, firstResend, handle } = await connect({ initialDelayMs: 60_000, maxDelayMs: 60_000 });
    const controller = new AbortController();
    try {
      const call = handle.callTool({ name: "order", arguments: {} }, { signal: controller.signal, timeout: 30_000 });
      await within(firstResend, 10_000, "the first resend");
      const cancelled = Date.now();
      controller.abort(new Error("the person cancelled"));
      await assert.rejects(call);
      assert.ok(Date.now() - cancelled < 5000, "the pause before the resend ended with the call");
      assert.equal(seen.filter((b) => b.includes('"requestState":')).length, 1, "nothing was sent after the cancel");
    } finally {
      await client.close();
    }
  });
});

describe("a first 2025 tools/call whose server goes away under it", () => {
  /** A 2025-11-25 client through the proxy, with resendingFetch. */
  async function connect2025() {
    const client = new Client({ name: "host", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] } as never);
    await client.connect(new StreamableHTTPClientTransport(proxyUrl, { fetch: resendingFetch({ initialDelayMs: 20, maxDelayMs: 200 }) }));
    assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25");
    return client;
  }

  const requestLost = (error: unknown) => {
    assert.ok(error instanceof ProtocolError, `not a ProtocolError: ${String(error)}`);
    assert.equal(error.code, -32000);
    assert.match(
      error.message,
      /^Request lost: the server at 127\.0\.0\.1:\d+ went away before it answered \(.+\), and the call cannot be sent again\. Whether its effects happened is unknown/,
    );
    assert.deepEqual({ ...(error.data as object), server: undefined }, { reason: "instance-lost", why: "no-answer", server: undefined });
    return true;
  };

  for (const how of ["502-after-server", "close-after-server", "close"] as const)
    test(`${how}: the call ends with the documented "Request lost" error, sent once`, { timeout: 60_000 }, async () => {
      seen = [];
      fault = (body) => (body.includes('"tools/call"') ? how : "pass");
      const client = await connect2025();
      const before = notes;
      try {
        await assert.rejects(client.callTool({ name: "note", arguments: {} }, { timeout: 30_000 }), requestLost);
        assert.equal(seen.filter((b) => b.includes('"tools/call"')).length, 1, "never sent again");
        assert.equal(notes, before + (how === "close" ? 0 : 1), "the tool ran as often as the server was reached");
      } finally {
        fault = () => "pass";
        await client.close();
      }
    });
});
