// `elicit gateway` checks a host's answers against the question the server asked before it hands them
// on, as attachElicitation checks its own UI's answers: a plain SDK server (2025-11-25, in this process,
// over Streamable HTTP) records every answer its handler receives, and never receives an invalid one.
// A 2026-07-28 host (SDK v2 client answering rounds by hand) gets -32602 naming the field and the rule,
// the question stays open, and a valid answer on the same requestState completes the call. A 2025 host
// is asked again. A malformed message from the host is one short line on the gateway's stderr.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { Client, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpServer } from "@modelcontextprotocol/server";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { BIN, CLI_TEST } from "../helpers/cli.js";
import { killOnExit } from "../helpers/cleanup.js";
import { within } from "../helpers/deferred.js";
import { callWith, manualClient } from "../helpers/manual-client.js";
import { stopChild } from "../helpers/processes.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { watchText } from "../helpers/stream-text.js";

const SLOW_MS = 90_000;
const ENV = { ...process.env, ...NO_MODEL_ENV } as Record<string, string>;

/** The form the server asks: an email, a number of nights from 1 to 14, a seat with a default. */
const FORM = {
  type: "object",
  properties: {
    email: { type: "string", format: "email", title: "Email" },
    nights: { type: "integer", minimum: 1, maximum: 14, title: "Nights" },
    seat: { type: "string", enum: ["window", "aisle"], default: "aisle", title: "Seat" },
  },
  required: ["email", "nights"],
} as const;

/** What the server's tool handler received from elicitInput, one entry per answer (or its error). */
const received: unknown[] = [];
let server: HttpServerHandle;

async function startServer(): Promise<HttpServerHandle> {
  server ??= await serveHttp(() => {
    const mcp = new McpServer({ name: "recording-server", version: "1.0.0" });
    mcp.registerTool("book", { description: "asks a form and books" }, async (ctx) => {
      try {
        const answer = await ctx.mcpReq.elicitInput({ mode: "form", message: "Your booking", requestedSchema: FORM as never });
        received.push(answer);
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      } catch (error) {
        received.push({ error: (error as Error).message });
        throw error;
      }
    });
    return mcp;
  });
  return server;
}
after(() => server?.close());

/** The gateway, in front of the recording server, speaking 2025-11-25 to it. */
const gatewayArgs = (url: string) => [BIN, "gateway", "--no-browser", "--protocol", "2025-11-25", "--url", url];

async function connect(client: Client) {
  const { url } = await startServer();
  const transport = new StdioClientTransport({ command: process.execPath, args: gatewayArgs(url.href), env: ENV, stderr: "pipe" });
  const stderr = watchText(transport.stderr as Readable, SLOW_MS);
  await client.connect(transport);
  return stderr;
}

const isInvalidParams = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ProtocolError, `not a ProtocolError: ${String(error)}`);
  assert.equal(error.code, -32602, error.message);
  assert.match(error.message, pattern);
  assert.match(error.message, /not sent to the server/);
  return true;
};

describe("a 2026-07-28 host in front of a 2025 server", () => {
  test(
    "invalid answers get -32602 naming the field and rule and never reach the server; a valid one then completes the call",
    CLI_TEST,
    async () => {
      received.length = 0;
      const host = manualClient();
      await connect(host);
      try {
        const call = callWith(host);
        const first = await call({ name: "book", arguments: {} });
        assert.equal(first.resultType, "input_required", JSON.stringify(first));
        const [key] = Object.keys(first.inputRequests);
        const retry = (answer: unknown) =>
          call({ name: "book", arguments: {}, requestState: first.requestState, inputResponses: { [key!]: answer } });

        // The form broken: an email that is not one, nights over the maximum.
        await assert.rejects(
          retry({ action: "accept", content: { email: "not-an-email", nights: 40 } }),
          isInvalidParams(/field "email": .*\[format\].*field "nights": .*\[maximum\]/),
        );
        // A key the form does not have.
        await assert.rejects(
          retry({ action: "accept", content: { email: "ana@example.com", nights: 2, admin: true } }),
          isInvalidParams(/field "admin" is not in the form \[unknown field\]/),
        );
        // Not an action, and content that is not an object.
        await assert.rejects(
          retry({ action: "yes" }),
          isInvalidParams(/"action" must be "accept", "decline" or "cancel", got `action` "yes" \[action\]/),
        );
        await assert.rejects(retry({ action: "accept", content: "ana" }), isInvalidParams(/"content" must be an object .* \[content\]/));
        assert.deepEqual(received, [], "the server's handler received none of them");

        // The question is still open: a valid answer on the same round completes the call, its default filled in.
        const done = await retry({ action: "accept", content: { email: "ana@example.com", nights: 3 } });
        const answer = { action: "accept", content: { email: "ana@example.com", nights: 3, seat: "aisle" } };
        assert.deepEqual(JSON.parse(done.content[0].text), answer);
        assert.deepEqual(received, [answer], "the server received the valid answer only");
      } finally {
        await host.close();
      }
    },
  );
});

describe("a 2025 host answering the forwarded elicitation/create", () => {
  /** An SDK v2 client on 2025-11-25 that declares forms and gives `answers` in turn. */
  function host2025(answers: unknown[]) {
    const asked: unknown[] = [];
    const client = new Client({ name: "host-2025", version: "1.0.0" }, {
      capabilities: { elicitation: { form: {} } },
      supportedProtocolVersions: ["2025-11-25"],
    } as never);
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return answers[Math.min(asked.length, answers.length) - 1] as never;
    });
    return { client, asked };
  }

  test("an invalid answer is not sent: the host is asked again, and its valid answer is what the server receives", CLI_TEST, async () => {
    received.length = 0;
    const valid = { action: "accept", content: { email: "ana@example.com", nights: 1, seat: "window" } };
    const { client, asked } = host2025([{ action: "accept", content: { email: "ana@example.com", nights: 0, extra: 1 } }, valid]);
    const stderr = await connect(client);
    try {
      const result = (await client.callTool({ name: "book", arguments: {} }, { timeout: SLOW_MS })) as { content: Array<{ text: string }> };
      assert.deepEqual(received, [valid], "the server received the valid answer only");
      assert.deepEqual(JSON.parse(result.content[0]!.text), valid);
      assert.equal(asked.length, 2, "asked again once");
      const line = (await stderr.waitFor(/elicit gateway: the host's answer was refused[^\n]*\n/))[0];
      assert.match(line, /field "extra" is not in the form \[unknown field\]; field "nights": .*\[minimum\]/);
      assert.match(line, /put to the host again \(2 of 3\)/);
    } finally {
      await client.close();
    }
  });

  test("a host that answers invalid three times: the server receives cancel, never the answers", CLI_TEST, async () => {
    received.length = 0;
    const { client, asked } = host2025([{ action: "accept", content: { email: 5, nights: 2 } }]);
    const stderr = await connect(client);
    try {
      const result = (await client.callTool({ name: "book", arguments: {} }, { timeout: SLOW_MS })) as { content: Array<{ text: string }> };
      assert.deepEqual(received, [{ action: "cancel" }], "the server received cancel only");
      assert.deepEqual(JSON.parse(result.content[0]!.text), { action: "cancel" });
      assert.equal(asked.length, 3);
      await stderr.waitFor(/after 3 invalid answers the server is answered cancel/);
    } finally {
      await client.close();
    }
  });
});

describe("a malformed message from the host", () => {
  test("is one short line on stderr naming the problem, never its content", CLI_TEST, async () => {
    const { url } = await startServer();
    const child = killOnExit(spawn(process.execPath, gatewayArgs(url.href), { stdio: ["pipe", "pipe", "pipe"], env: ENV }));
    try {
      const stderr = watchText(child.stderr, SLOW_MS);
      const stdout = watchText(child.stdout, SLOW_MS);
      const send = (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n");
      await stderr.waitFor(/served to the host on stdio/);
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      await stdout.waitFor(/"id":1/);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const before = stderr.text().length;
      // Params that are not an object, carrying a long text with a terminal escape in it.
      const payload = `\u001b]52;c;${"A".repeat(5000)}\u0007 secret-payload`;
      send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: payload });
      // A request after it is still answered: the line is written by then.
      send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
      await stdout.waitFor(/"id":3/);
      await within(stderr.waitFor(/dropped[^\n]*\n/), SLOW_MS, "no line for the malformed message");
      const said = stderr.text().slice(before);
      const lines = said.split("\n").filter(Boolean);
      assert.equal(lines.length, 1, `one line, got:\n${said}`);
      assert.match(lines[0]!, /^elicit gateway: a malformed message from the host was dropped: params: .*expected object.*\.$/);
      assert.ok(lines[0]!.length < 300, `a short line: ${lines[0]!.length} characters`);
      assert.ok(!said.includes("\u001b") && !said.includes("secret-payload") && !said.includes("AAAA"), "nothing of the message itself");
    } finally {
      child.stdin.end();
      await stopChild(child);
    }
  });
});
