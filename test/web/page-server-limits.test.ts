// The loopback page servers (webUI's page for --web, the URL kit's pages beside a stdio server) cut off
// a client that sends its headers or body slowly, and drop connections over their cap, over real
// sockets. The limits are shortened through the options so that the waits stay a few seconds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { DEFAULT_PAGE_SERVER_LIMITS, type PageServerLimits } from "../../src/common/http-limits.js";
import { listenPages } from "../../src/cli/serve-pages.js";
import type { UrlKit } from "../../src/server/url/url-kit.js";
import { webUI } from "../../src/web/index.js";
import { PAGE_PATHS } from "../../src/ui/web/page/protocol.js";

/** A socket to `url`'s port on 127.0.0.1, connected. */
function open(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** What the server sent before it closed the socket, and when it closed (ms after `since`); rejects after `deadlineMs`. */
function closed(socket: Socket, since: number, deadlineMs: number): Promise<{ data: string; ms: number }> {
  let data = "";
  socket.on("data", (chunk) => (data += chunk));
  socket.on("error", () => {}); // a reset is a close too
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${deadlineMs} ms; it sent: ${JSON.stringify(data)}`));
    }, deadlineMs);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ data, ms: Date.now() - since });
    });
  });
}

const SHORT: Partial<PageServerLimits> = { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 };
// Node checks the timeouts once a second, and a loaded machine delays that check: a cut well under the
// defaults (10 s, 30 s) shows the short limit applied, without betting on the scheduler.
const CUT_BEFORE_MS = 8_000;

/** Sends a POST to `url` (a path that reads bodies) whose body never finishes: one byte every 200 ms, as a slow-body attack does. */
async function slowBody(url: URL): Promise<{ data: string; ms: number }> {
  const socket = await open(url);
  const since = Date.now();
  const done = closed(socket, since, 15_000);
  socket.write(
    `POST ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{`,
  );
  const drip = setInterval(() => socket.writable && socket.write(" "), 200);
  try {
    return await done;
  } finally {
    clearInterval(drip);
  }
}

test("the defaults: 10 s for headers, 30 s for a request, 64 connections", () => {
  assert.deepEqual(DEFAULT_PAGE_SERVER_LIMITS, {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnections: 64,
  });
});

test("webUI: a body sent a byte at a time is cut at the request timeout with 408", { timeout: 30_000 }, async (t) => {
  const ui = await webUI({ open: false, log: () => {}, limits: SHORT });
  t.after(() => ui.close());
  const { data, ms } = await slowBody(new URL(PAGE_PATHS.answers, ui.pageUrl));
  t.diagnostic(`closed after ${ms} ms (request timeout 1,500 ms)`);
  assert.match(data, /^HTTP\/1\.1 408 /);
  assert.ok(ms >= 1_000 && ms < CUT_BEFORE_MS, `${ms} ms`);
});

test("webUI: headers that never finish are cut at the headers timeout", { timeout: 30_000 }, async (t) => {
  const ui = await webUI({ open: false, log: () => {}, limits: SHORT });
  t.after(() => ui.close());
  const socket = await open(new URL(ui.pageUrl));
  const since = Date.now();
  const done = closed(socket, since, 10_000);
  socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  const { ms } = await done;
  t.diagnostic(`closed after ${ms} ms (headers timeout 1,000 ms)`);
  assert.ok(ms < CUT_BEFORE_MS, `${ms} ms`);
});

test("webUI: connections over the cap are dropped; one freed lets the next in", { timeout: 30_000 }, async (t) => {
  const ui = await webUI({ open: false, log: () => {}, limits: { maxConnections: 3 } });
  t.after(() => ui.close());
  const url = new URL(ui.pageUrl);
  // Three connections in the middle of their headers (held for the default 10 s).
  const held = await Promise.all([0, 1, 2].map(() => open(url)));
  for (const socket of held) socket.write("GET / HTTP/1.1\r\n");
  const extra = await open(url);
  extra.write(`GET ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\n\r\n`);
  const dropped = await closed(extra, Date.now(), 5_000);
  assert.equal(dropped.data, "", "dropped without an answer");
  held[0]!.destroy();
  await new Promise((resolve) => held[0]!.once("close", resolve));
  // The server counts the freed connection once it has seen it close: retry briefly until it has.
  const deadline = Date.now() + 5_000;
  let status = 0;
  while (Date.now() < deadline && status !== 200) {
    status = await fetch(url, { headers: { connection: "close" } }).then(
      (r) => r.status,
      () => 0,
    );
  }
  assert.equal(status, 200, "the page is served again");
  for (const socket of held) socket.destroy();
});

test("the URL kit's page server (beside a stdio server): a slow body is cut the same way", { timeout: 30_000 }, async (t) => {
  // A stand-in kit that reads the body, as the hosted form's POST does.
  const kit = { fetch: async (request: Request) => new Response(await request.text()), mount: () => {} } as unknown as UrlKit;
  const pages = await listenPages(kit, () => {}, SHORT);
  t.after(() => pages.close());
  const { data, ms } = await slowBody(new URL("form", pages.url));
  t.diagnostic(`closed after ${ms} ms (request timeout 1,500 ms)`);
  assert.match(data, /^HTTP\/1\.1 408 /);
  assert.ok(ms < CUT_BEFORE_MS, `${ms} ms`);
});

test("limits that are not positive whole numbers are refused", async () => {
  await assert.rejects(
    webUI({ open: false, limits: { maxConnections: 0 } }),
    /maxConnections must be a whole number greater than 0; got 0/,
  );
});
