// A 2025-era session is held open from the moment a request's headers name it, not only once its body
// has been read: a body still arriving when the idle window ends no longer finds the session expired
// (404 "Session not found"). The hold ends however the request ends, a dropped connection included.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { request, type IncomingMessage } from "node:http";
import type { McpServer } from "@modelcontextprotocol/server";
import { serveHttp } from "../../../src/server/http/serve.js";
import { within } from "../../helpers/deferred.js";
import { makeFactory } from "../../helpers/server-fixtures.js";

const REVISION = "2025-11-25";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
// Long enough that the slow request's headers reach the server inside session 0's window on a busy
// machine (300 ms was not: under two CI runs at once the session expired first, a 404).
const IDLE_MS = 1000;
/** Generous next to IDLE_MS plus one sweep: a deadline for events, not a pause. */
const DEADLINE_MS = 15_000;

/** A server whose sessions are numbered in the order they open, each with a promise that settles when it closes. */
async function serve() {
  const { factory } = makeFactory();
  const closed: Promise<void>[] = [];
  const handle = await serveHttp(
    () => {
      const server: McpServer = factory();
      closed.push(new Promise<void>((resolve) => (server.server.onclose = resolve)));
      return server;
    },
    { sessionIdleMs: IDLE_MS },
  );
  return { handle, closed };
}

async function initialize(url: URL): Promise<string> {
  const res = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
    }),
  });
  assert.equal(res.status, 200, await res.text());
  return res.headers.get("mcp-session-id")!;
}

/** A POST on session `sid` whose headers are sent now and whose body waits; resolves once the server has seen the headers. */
async function slowPost(handle: Awaited<ReturnType<typeof serve>>["handle"], sid: string, body: string) {
  const seen = new Promise<void>((resolve) => {
    const onRequest = (req: IncomingMessage) => {
      if (req.headers["mcp-session-id"] !== sid) return;
      handle.server.off("request", onRequest);
      resolve();
    };
    handle.server.on("request", onRequest);
  });
  const req = request(handle.url, {
    method: "POST",
    agent: false,
    headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": REVISION, "content-length": Buffer.byteLength(body) },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.once("response", resolve);
    req.once("error", reject); // the dropped-connection test destroys it
  }).then(async (res) => {
    let text = "";
    for await (const chunk of res) text += chunk;
    return { status: res.statusCode, text };
  });
  response.catch(() => {}); // awaited by the tests that send the body
  req.flushHeaders();
  await within(seen, DEADLINE_MS, "the server to see the request's headers");
  return { req, response, finish: () => req.end(body) };
}

const PING = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });

describe("a session held from a request's headers", () => {
  test("a body that arrives after the idle window still finds its session", { timeout: 60_000 }, async () => {
    const { handle, closed } = await serve();
    try {
      const slow = await initialize(handle.url); // session 0: its request's body will be late
      const post = await slowPost(handle, slow, PING); // at once: the hold starts inside session 0's window
      await initialize(handle.url); // session 1: opened later, so it expires no earlier than session 0 would
      let slowClosed = false;
      void closed[0]!.then(() => (slowClosed = true));
      // The idle window has passed for both once the later session has expired.
      await within(closed[1]!, DEADLINE_MS, "the idle session to expire");
      post.finish();
      const { status, text } = await post.response;
      assert.equal(status, 200, text); // was 404 "Session not found: it expired or was closed…"
      assert.match(text, /"result":\{\}/);
      assert.match(text, /"id":2/);
      assert.equal(slowClosed, false, "the session whose request's body was arriving did not expire");
    } finally {
      await handle.close();
    }
  });

  test("a request dropped before its body ends the hold: the session then expires", { timeout: 60_000 }, async () => {
    const { handle, closed } = await serve();
    try {
      const sid = await initialize(handle.url);
      const post = await slowPost(handle, sid, PING);
      post.req.destroy();
      await within(closed[0]!, DEADLINE_MS, "the session to expire once its request was dropped");
      assert.equal(handle.sessionCount, 0);
    } finally {
      await handle.close();
    }
  });
});
