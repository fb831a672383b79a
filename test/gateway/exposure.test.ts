// What `elicit gateway` exposes beyond the host that launched it, through the built `elicit` bin: the
// --log file (opened once, never through a symbolic link, mode 0600), the desktop notification (the
// server's name never read as an option), and --http (loopback only unless --public, no web page and
// no rebound DNS name on loopback, the bearer secret beyond it).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpServer } from "@modelcontextprotocol/server";
import { serveHttp } from "../../src/server/http/serve.js";
import { questionLog } from "../../src/cli/gateway/question-log.js";
import { BIN, CLI_TEST, runCli } from "../helpers/cli.js";
import { killOnExit } from "../helpers/cleanup.js";
import { within } from "../helpers/deferred.js";
import { scratchFiles, whenFileHas } from "../helpers/files.js";
import { stopChild } from "../helpers/processes.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";

const scratch = scratchFiles("elicit-gateway-exposure-");
const RECORD_NOTIFY = fileURLToPath(new URL("../fixtures/record-notify.mjs", import.meta.url));
const TRAVEL = ["--", process.execPath, BIN, "serve", "travel"];
const SLOW_MS = 90_000;

const form = {
  method: "elicitation/create",
  params: { mode: "form", message: "Pick", requestedSchema: { type: "object", properties: { a: { type: "string" } } } },
};

describe("--log", () => {
  test("a symbolic link is refused, naming the file, and the file it points to is left alone", CLI_TEST, async () => {
    const target = scratch.file("target.txt", "kept\n");
    const link = join(scratch.dir, "link.jsonl");
    symlinkSync(target, link);
    const run = await runCli(["gateway", "--log", link, ...TRAVEL]);
    assert.equal(run.code, 2, run.stderr);
    assert.ok(
      run.stderr.includes(`elicit: --log ${JSON.stringify(link)}: is a symbolic link; give the file itself`),
      `stderr was: ${run.stderr}`,
    );
    assert.equal(readFileSync(target, "utf8"), "kept\n");
  });

  test("the file is opened once: lines go to it after it is renamed, never to a new file or link at its name", async () => {
    const file = join(scratch.dir, "once.jsonl");
    const log = questionLog(file);
    try {
      const moved = join(scratch.dir, "moved.jsonl");
      renameSync(file, moved);
      // Someone who can write the folder puts a link where the log was.
      const elsewhere = scratch.file("elsewhere.txt", "");
      symlinkSync(elsewhere, file);
      log.routed(form, Promise.resolve({ action: "decline" }));
      await whenFileHas(moved, (text) => (text.includes('"action":"decline"') ? text : undefined), "no line", 10_000);
      assert.equal(readFileSync(elsewhere, "utf8"), "", "nothing reached the link's target");
    } finally {
      log.close();
    }
  });

  test("an existing file others could read is made 0600, and the gateway says so", () => {
    const file = scratch.file("wide.jsonl", '{"earlier":true}\n');
    chmodSync(file, 0o644);
    const said: string[] = [];
    const log = questionLog(file, (line) => said.push(line));
    log.close();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(said, [`--log ${JSON.stringify(file)}: others could read it (mode 644); it is 0600 now.`]);
    assert.equal(readFileSync(file, "utf8"), '{"earlier":true}\n', "what was there is kept");
  });
});

describe("desktop notifications", () => {
  test(
    "a server named --icon=… is the notification's text, after --, through elicit gateway with notify-send on the PATH",
    CLI_TEST,
    async () => {
      // A stand-in notify-send on the PATH that records its argv.
      const bin = join(scratch.dir, "bin");
      const notified = join(scratch.dir, "notified.txt");
      mkdirSync(bin);
      writeFileSync(join(bin, "notify-send"), `#!/bin/sh\nexec "${process.execPath}" "${RECORD_NOTIFY}" "$@"\n`, { mode: 0o755 });
      // The server: its name is an option of notify-send's, and its tool asks a form the host cannot answer.
      const server = await serveHttp(() => {
        const mcp = new McpServer({ name: "--icon=/tmp/evil.png", version: "1.0.0" });
        mcp.registerTool("ask", { description: "asks a form" }, async (ctx) => {
          await ctx.mcpReq.elicitInput({ mode: "form", message: "Pick", requestedSchema: { type: "object", properties: {} } });
          return { content: [{ type: "text", text: "answered" }] };
        });
        return mcp;
      });
      const { ELICIT_NOTIFY_SEND: _none, ...env } = process.env as Record<string, string>;
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "gateway", "--no-browser", "--protocol", "2025-11-25", "--url", server.url.href],
        env: { ...env, ...NO_MODEL_ENV, PATH: `${bin}:${env.PATH ?? ""}`, RECORD_NOTIFY_FILE: notified },
        stderr: "pipe",
      });
      const host = new Client({ name: "host-without-elicitation", version: "1.0.0" });
      try {
        await host.connect(transport);
        const call = host.callTool({ name: "ask", arguments: {} }, { timeout: SLOW_MS });
        call.catch(() => {}); // ended when the host closes below
        const line = await whenFileHas(notified, (text) => text.split("\n")[0] || undefined, "no notification", SLOW_MS);
        assert.deepEqual(JSON.parse(line), [
          "--app-name=elicit",
          "--",
          "elicit gateway",
          "--icon=/tmp/evil.png waits for you: a form to fill in, in your browser.",
        ]);
      } finally {
        await host.close().catch(() => {});
        await server.close();
      }
    },
  );
});

/** `elicit gateway --http …` in front of the travel server; resolves once it serves, with its endpoint and stderr so far. */
async function startGateway(extra: string[]): Promise<{ child: ChildProcess; url: URL; stderr: () => string }> {
  const child = killOnExit(
    spawn(process.execPath, [BIN, "gateway", "--no-browser", ...extra, ...TRAVEL], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ...NO_MODEL_ENV },
    }),
  );
  let stderr = "";
  const served = new Promise<URL>((resolve, reject) => {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      stderr += chunk;
      const url = /served to hosts at (http:\/\/\S+) \(Streamable HTTP\)/.exec(stderr)?.[1];
      // With --public, the secret's line follows the address's.
      if (url && (!extra.includes("--public") || /Authorization: Bearer \S+\n/.test(stderr))) resolve(new URL(url));
    });
    child.once("exit", (code) => reject(new Error(`the gateway exited ${code}:\n${stderr}`)));
  });
  const url = await within(served, SLOW_MS, "the gateway to serve over HTTP").catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return { child, url, stderr: () => stderr };
}

/** One POST of initialize to `url` with these headers (Host included, which fetch cannot set). */
function post(url: URL, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const messageOf = (body: string) => (JSON.parse(body) as { error: { message: string } }).error.message;

describe("elicit gateway --http", () => {
  test("an address beyond this computer is refused without --public, and --public without --http", CLI_TEST, async () => {
    const wide = await runCli(["gateway", "--http", "0.0.0.0:0", ...TRAVEL]);
    assert.equal(wide.code, 2, wide.stderr);
    assert.match(wide.stderr, /^elicit: --http 0\.0\.0\.0: not an address of this computer only\. .*add --public/m);
    assert.match(wide.stderr, /Usage: elicit gateway --http \[HOST:\]PORT \[--public\]/);
    assert.doesNotMatch(wide.stderr, /served to hosts/);
    const alone = await runCli(["gateway", "--public", ...TRAVEL]);
    assert.equal(alone.code, 2, alone.stderr);
    assert.match(alone.stderr, /^elicit: --public goes with --http \[HOST:\]PORT/m);
  });

  test(
    "on loopback, a web page's Origin and a rebound Host are refused 403; the gateway's own origin and a host without Origin are served",
    CLI_TEST,
    async () => {
      const gateway = await startGateway(["--http", "127.0.0.1:0"]);
      try {
        const { url } = gateway;
        const site = await post(url, { origin: "https://attacker.example" });
        assert.equal(site.status, 403, site.body);
        assert.match(messageOf(site.body), /^Forbidden: Origin "https:\/\/attacker\.example" is not this gateway's own/);
        // Another program's page on this computer is not the host either.
        const neighbour = await post(url, { origin: "http://127.0.0.1:9" });
        assert.equal(neighbour.status, 403, neighbour.body);
        assert.equal((await post(url, { origin: "null" })).status, 403);
        // DNS rebinding: the page's own name in Host, pointing at 127.0.0.1.
        const rebound = await post(url, { host: `attacker.example:${url.port}` });
        assert.equal(rebound.status, 403, rebound.body);
        assert.match(messageOf(rebound.body), /^Invalid Host: attacker\.example$/);
        assert.equal((await post(url, { origin: `http://localhost:${url.port}`, host: `localhost:${url.port}` })).status, 200);
        const host = new Client({ name: "http-host", version: "1.0.0" });
        await host.connect(new StreamableHTTPClientTransport(url));
        assert.ok((await host.listTools()).tools.some((tool) => tool.name === "book_trip"));
        await host.close();
      } finally {
        await stopChild(gateway.child);
      }
    },
  );

  test("--public: every request needs the bearer secret printed once at start", CLI_TEST, async () => {
    // On 127.0.0.1 here (tests bind no other address); --public is what turns the secret on.
    const gateway = await startGateway(["--http", "127.0.0.1:0", "--public"]);
    try {
      const { url } = gateway;
      const stderr = gateway.stderr();
      assert.match(stderr, /WARNING: --public: anyone who reaches 127\.0\.0\.1:\d+ and holds the secret below acts with your sign-in/);
      const secret = /Authorization: Bearer (\S+)\n/.exec(stderr)![1]!;
      assert.match(secret, /^[A-Za-z0-9_-]{43}$/, "32 random bytes");
      assert.equal(stderr.split(secret).length - 1, 1, "printed once");

      const none = await post(url, {});
      assert.equal(none.status, 401, none.body);
      assert.equal(none.headers["www-authenticate"], 'Bearer realm="elicit gateway"');
      assert.equal((await post(url, { authorization: `Bearer ${secret.slice(0, -1)}x` })).status, 401);
      assert.equal((await post(url, { authorization: secret })).status, 401, "the scheme is required");

      const anonymous = new Client({ name: "no-secret", version: "1.0.0" });
      await assert.rejects(anonymous.connect(new StreamableHTTPClientTransport(url)));
      const host = new Client({ name: "http-host", version: "1.0.0" });
      await host.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
      assert.ok((await host.listTools()).tools.some((tool) => tool.name === "book_trip"));
      await host.close();
    } finally {
      await stopChild(gateway.child);
    }
  });
});
