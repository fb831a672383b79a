// 2025-era HTTP sessions are bounded: idle ones expire (never while a request or an elicitation is
// pending on them), their ids then get 404, at most maxSessions exist, and abandoned sessions give
// their memory back. The leak and burst checks run against a server in a child process started
// with --expose-gc (this same file, in server mode), so its heap holds only the server.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp } from "../../../src/server/http/serve.js";
import { resultJson } from "../../helpers/results.js";
import { killOnExit } from "../../helpers/cleanup.js";
import { answerWith, makeFactory } from "../../helpers/server-fixtures.js";

const REVISION = "2025-11-25";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const initialize = (id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: REVISION, capabilities: { elicitation: { form: {} } }, clientInfo: { name: "raw", version: "1.0.0" } },
});

/** Opens a session with a bare initialize (no initialized notification, no GET stream) and leaves. */
async function rawInitialize(url: URL | string): Promise<string> {
  const res = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(initialize()) });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  return res.headers.get("mcp-session-id")!;
}

function post(url: URL | string, sid: string, message: unknown, signal?: AbortSignal) {
  return fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": REVISION },
    body: JSON.stringify(message),
    signal: signal ?? null,
  });
}

async function until(what: string, cond: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

async function sdkClient(url: URL) {
  const client = new Client({ name: "test-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    supportedProtocolVersions: [REVISION],
  } as never);
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { client, sessionId: transport.sessionId! };
}

// ---- server mode: a child process holding one serveHttp, measured on request -------------------

async function serverMode() {
  const idle = Number(process.env.SESSIONS_IDLE_MS);
  const handle = await serveHttp(makeFactory().factory, { sessionIdleMs: idle, onerror: () => {} });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("server mode needs --expose-gc");
  const heap = async () => {
    handle.server.closeIdleConnections();
    for (let i = 0; i < 5; i++) {
      gc();
      await sleep(40);
    }
    return process.memoryUsage().heapUsed;
  };
  process.on("message", async (message: { cmd: string }) => {
    if (message.cmd === "heap") process.send!({ heap: await heap(), sessions: handle.sessionCount });
    if (message.cmd === "sessions") process.send!({ sessions: handle.sessionCount });
    if (message.cmd === "close") {
      await handle.close();
      process.exit(0);
    }
  });
  process.send!({ url: handle.url.href });
}

if (process.env.SESSIONS_TEST_SERVER) {
  await serverMode();
} else {
  describe("2025-era session expiry", () => {
    test("an idle session expires after sessionIdleMs, and its id then gets 404", async () => {
      // 1 s, not less: on a busy machine the handshake's requests can be further apart than a short idle time.
      const http = await serveHttp(makeFactory().factory, { sessionIdleMs: 1000 });
      try {
        const { client, sessionId } = await sdkClient(http.url);
        await client.listTools();
        await client.close(); // goes away without DELETE
        assert.equal(http.sessionCount, 1, "the session outlives its client until it has been idle");
        await until("the idle session expired", () => http.sessionCount === 0);
        const res = await post(http.url, sessionId, { jsonrpc: "2.0", id: 2, method: "tools/list" });
        assert.equal(res.status, 404);
        const body = (await res.json()) as { error: { code: number; message: string } };
        assert.equal(body.error.code, -32001);
        assert.match(body.error.message, /Session not found.*initialize/);
      } finally {
        await http.close();
      }
    });

    test("an SDK client whose session expired gets SdkHttpError with status 404", async () => {
      const http = await serveHttp(makeFactory().factory, { sessionIdleMs: 1000 });
      try {
        // A client without its GET stream (as after a dropped connection): nothing is open on the session.
        const noGet: typeof fetch = (input, init) =>
          init?.method === "GET" ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init);
        const client = new Client({ name: "test-client", version: "1.0.0" }, {
          capabilities: {},
          supportedProtocolVersions: [REVISION],
        } as never);
        await client.connect(new StreamableHTTPClientTransport(http.url, { fetch: noGet }));
        await until("the idle session expired", () => http.sessionCount === 0);
        const error = await client.listTools().then(
          () => assert.fail("the expired session answered"),
          (e: unknown) => e as Error & { status?: number },
        );
        assert.ok(error instanceof SdkHttpError, String(error));
        assert.equal(error.status, 404);
        assert.match(error.message, /Session not found/);
        await client.close();
      } finally {
        await http.close();
      }
    });

    test("a session whose tool call waits on an elicitation longer than the idle time does not expire", async () => {
      // Idle times of 1 s and more: on a busy machine a handshake's requests can be further apart than a short one.
      const http = await serveHttp(makeFactory().factory, { sessionIdleMs: 1000 });
      try {
        const { client } = await sdkClient(http.url);
        // The person answers once a session opened after this one, and left idle, has expired: this session
        // has then waited on the question for longer than the idle time (an event, not a guess at the clock).
        answerWith(client, [
          async () => {
            await rawInitialize(http.url);
            await until("the idle control session expired", () => http.sessionCount === 1);
            return { action: "accept", content: { confirmBooking: true } };
          },
        ]);
        const result = await client.callTool({ name: "book", arguments: { city: "Oslo" } });
        assert.equal(resultJson(result).action, "accept");
        assert.equal(http.sessionCount, 1);
        assert.equal((await client.listTools()).tools.length > 0, true, "the session still serves");
        await client.close();
        await until("the session expired once its client left", () => http.sessionCount === 0);
      } finally {
        await http.close();
      }
    });

    test("a pending elicitation keeps a session with no open stream alive; once answered, it expires", async () => {
      const errors: Error[] = [];
      const http = await serveHttp(makeFactory().factory, { sessionIdleMs: 1000, onerror: (e) => errors.push(e) });
      try {
        const sid = await rawInitialize(http.url);
        const controller = new AbortController();
        const res = await post(
          http.url,
          sid,
          { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "book", arguments: { city: "Oslo" } } },
          controller.signal,
        );
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        let text = "";
        let match: RegExpMatchArray | null = null;
        while (!(match = text.match(/^data: (.*"elicitation\/create".*)$/m))) {
          const { value, done } = await reader.read();
          assert.equal(done, false, "the stream ended before the elicitation");
          text += decoder.decode(value, { stream: true });
        }
        const asked = JSON.parse(match[1]!);
        controller.abort(); // the client drops the call's stream: only the pending requests remain
        // A session opened now and left idle expires; this one, idle longer but with a question pending, must not.
        await rawInitialize(http.url);
        await until("the idle control session expired", () => http.sessionCount === 1);
        assert.equal(http.sessionCount, 1, "the session outlived a whole idle period while the question was pending");
        const answer = await post(http.url, sid, {
          jsonrpc: "2.0",
          id: asked.id,
          result: { action: "accept", content: { confirmBooking: true } },
        });
        assert.equal(answer.status, 202);
        await until("the answered session expired", () => http.sessionCount === 0);
        assert.equal((await post(http.url, sid, { jsonrpc: "2.0", id: 3, method: "tools/list" })).status, 404);
      } finally {
        await http.close();
      }
    });

    test("DELETE still ends a session at once", async () => {
      const http = await serveHttp(makeFactory().factory);
      try {
        const sid = await rawInitialize(http.url);
        assert.equal(http.sessionCount, 1);
        const res = await fetch(http.url, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": REVISION } });
        assert.equal(res.status, 200);
        assert.equal(http.sessionCount, 0);
        assert.equal((await post(http.url, sid, { jsonrpc: "2.0", id: 3, method: "tools/list" })).status, 404);
      } finally {
        await http.close();
      }
    });
  });

  describe("limits of one process", () => {
    test("past maxSessions a new session gets 503 with a JSON-RPC error; a freed slot is reused", async () => {
      const http = await serveHttp(makeFactory().factory, { maxSessions: 3, sessionIdleMs: 2000 });
      try {
        const sids = [await rawInitialize(http.url), await rawInitialize(http.url), await rawInitialize(http.url)];
        const full = await fetch(http.url, { method: "POST", headers: HEADERS, body: JSON.stringify(initialize("full-1")) });
        assert.equal(full.status, 503);
        const body = (await full.json()) as { id: unknown; error: { code: number; message: string } };
        assert.equal(body.id, "full-1");
        assert.equal(body.error.code, -32000);
        assert.match(body.error.message, /limit of 3 sessions/);
        // Existing sessions keep working.
        assert.equal((await post(http.url, sids[0]!, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status, 200);
        await until("the idle sessions expired", () => http.sessionCount === 0);
        await rawInitialize(http.url);
        assert.equal(http.sessionCount, 1);
      } finally {
        await http.close();
      }
    });

    test("options are checked", async () => {
      await assert.rejects(serveHttp(makeFactory().factory, { sessionIdleMs: 0 }), /sessionIdleMs must be a positive number/);
      await assert.rejects(serveHttp(makeFactory().factory, { maxSessions: -1 }), /maxSessions must be a positive number/);
      await assert.rejects(serveHttp(makeFactory().factory, { backlog: 1.5 }), /backlog must be an integer/);
      await assert.rejects(serveHttp(makeFactory().factory, { keepAliveTimeoutMs: -5 }), RangeError);
      await assert.rejects(
        serveHttp(makeFactory().factory, { keepAliveTimeoutMs: Infinity }),
        /keepAliveTimeoutMs must be a finite number/,
      );
      await assert.rejects(
        serveHttp(makeFactory().factory, { headersTimeoutMs: Number.NaN }),
        /headersTimeoutMs must be a positive number/,
      );
      const http = await serveHttp(makeFactory().factory, { sessionIdleMs: Infinity, backlog: 64 });
      await rawInitialize(http.url);
      await http.close();
      assert.equal(http.sessionCount, 0, "close() closes every session");
    });
  });

  describe("connections and bodies", () => {
    test("an idle keep-alive connection outlives Node's 5 s default, so a client reusing it after 5.5 s gets no ECONNRESET", async () => {
      const http = await serveHttp(makeFactory().factory);
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const send = () =>
        new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
          const body = JSON.stringify(initialize());
          const req = request(
            http.url,
            { method: "POST", agent, headers: { ...HEADERS, "content-length": Buffer.byteLength(body) } },
            (res) => res.resume().on("end", () => resolve({ status: res.statusCode!, reused: req.reusedSocket })),
          );
          req.on("error", reject);
          req.end(body);
        });
      try {
        assert.equal(http.server.keepAliveTimeout, 65_000);
        assert.equal(http.server.headersTimeout, 66_000);
        assert.deepEqual(await send(), { status: 200, reused: false });
        await sleep(5500); // longer than Node's default keep-alive timeout, which would have closed the socket
        assert.deepEqual(await send(), { status: 200, reused: true });
      } finally {
        agent.destroy();
        await http.close();
      }
    });

    test("a shorter keepAliveTimeoutMs closes idle connections, and headersTimeoutMs follows it", async () => {
      const http = await serveHttp(makeFactory().factory, { keepAliveTimeoutMs: 100 });
      try {
        assert.equal(http.server.keepAliveTimeout, 100);
        assert.equal(http.server.headersTimeout, 1100);
        const socket = connect(Number(http.url.port), "127.0.0.1");
        const body = JSON.stringify(initialize());
        socket.write(
          `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        socket.resume();
        await once(socket, "close"); // the server ends the idle connection by itself
      } finally {
        await http.close();
      }
    });

    test("a body is read once and answered at its boundary: too large 413, not JSON 400 -32700, another media type 415", async () => {
      const http = await serveHttp(makeFactory().factory);
      try {
        const big = await fetch(http.url, { method: "POST", headers: HEADERS, body: JSON.stringify({ pad: "x".repeat(4 * 1024 * 1024) }) });
        assert.equal(big.status, 413);
        assert.match(((await big.json()) as { error: { message: string } }).error.message, /Payload Too Large/);
        const broken = await fetch(http.url, { method: "POST", headers: HEADERS, body: '{"jsonrpc": "2.0", "id": 1, "method": "init' });
        assert.equal(broken.status, 400);
        assert.equal(((await broken.json()) as { error: { code: number } }).error.code, -32700);
        const textBody = await fetch(http.url, { method: "POST", headers: { ...HEADERS, "content-type": "text/plain" }, body: "hello" });
        assert.equal(textBody.status, 415);
        // The same server still serves: the body read of one request never leaks into the next.
        assert.ok(await rawInitialize(http.url));
        assert.equal(http.sessionCount, 1);
      } finally {
        await http.close();
      }
    });
  });

  describe("one server process under load (child process with --expose-gc)", () => {
    const IDLE_MS = 6000; // long enough to hold (nearly) all 1,000 at once while they are opened
    let child: ChildProcess;
    let url: string;
    const replies: ((m: Record<string, number>) => void)[] = [];
    const ask = (cmd: string) => new Promise<Record<string, number>>((resolve) => (replies.push(resolve), child.send({ cmd })));
    const sessions = async () => (await ask("sessions")).sessions!;
    const openSessions = async (n: number, parallel = 50) => {
      let left = n;
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (left-- > 0) await rawInitialize(url);
        }),
      );
    };
    const expired = async () => {
      const end = Date.now() + 60_000;
      while ((await sessions()) > 0) {
        if (Date.now() > end) assert.fail("sessions did not expire");
        await sleep(100);
      }
    };

    before(async () => {
      child = killOnExit(
        fork(fileURLToPath(import.meta.url), [], {
          execArgv: ["--expose-gc", "--import", "tsx"],
          env: { ...process.env, SESSIONS_TEST_SERVER: "1", SESSIONS_IDLE_MS: String(IDLE_MS) },
          stdio: ["ignore", "inherit", "inherit", "ipc"],
        }),
      );
      url = await new Promise<string>((resolve, reject) => {
        child.once("message", (m: { url: string }) => resolve(m.url));
        child.once("exit", (code) => reject(new Error(`server child exited with ${code}`)));
      });
      child.on("message", (m: Record<string, number>) => replies.shift()?.(m));
    });
    after(async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.send({ cmd: "close" });
        await exited;
      }
    });

    test("1,000 abandoned sessions expire and the heap returns to its baseline", { timeout: 180_000 }, async (t) => {
      // Warm up first, so one-time costs (lazily compiled code and schemas) land in the baseline.
      await openSessions(50);
      await expired();
      const baseline = (await ask("heap")).heap!;
      await openSessions(1000);
      const peak = await ask("heap");
      await expired();
      const afterExpiry = (await ask("heap")).heap!;
      const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
      const report = `heap after gc: baseline ${mb(baseline)}, peak ${mb(peak.heap!)} with ${peak.sessions} of the 1,000 sessions held (${((peak.heap! - baseline) / Math.max(1, peak.sessions!) / 1024).toFixed(1)} KB each), after expiry ${mb(afterExpiry)} (${(((afterExpiry - baseline) / baseline) * 100).toFixed(1)} %)`;
      t.diagnostic(report);
      console.log(report);
      assert.ok(peak.heap! > baseline, "the sessions were held while open");
      assert.ok(afterExpiry <= baseline * 1.1, report);
    });

    test("a burst of 1,000 concurrent connections gets no ECONNRESET", { timeout: 180_000 }, async (t) => {
      const body = JSON.stringify(initialize());
      const statuses: Record<number, number> = {};
      const errors: Record<string, number> = {};
      await Promise.all(
        Array.from(
          { length: 1000 },
          () =>
            new Promise<void>((resolve) => {
              // agent: false gives every request its own connection, all opened at once.
              const req = request(
                url,
                { method: "POST", agent: false, headers: { ...HEADERS, "content-length": Buffer.byteLength(body) } },
                (res) => {
                  statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
                  res
                    .resume()
                    .on("end", resolve)
                    .on(
                      "error",
                      (e: NodeJS.ErrnoException) => ((errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1), resolve()),
                    );
                },
              );
              req.on(
                "error",
                (e: NodeJS.ErrnoException) => ((errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1), resolve()),
              );
              req.end(body);
            }),
        ),
      );
      const report = `1,000 concurrent connections: statuses ${JSON.stringify(statuses)}, errors ${JSON.stringify(errors)} (ECONNRESET: ${errors.ECONNRESET ?? 0})`;
      t.diagnostic(report);
      console.log(report);
      assert.equal(errors.ECONNRESET ?? 0, 0, report);
      assert.deepEqual(errors, {}, report);
      assert.deepEqual(statuses, { 200: 1000 }, report);
    });
  });
}
