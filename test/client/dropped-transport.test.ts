// What the SDK's client transports drop, over real transports: the client kit (attachElicitation,
// attachRoots) on Streamable HTTP through screenedFetch, against a raw server on 127.0.0.1, and on
// stdio against a raw child process. The transport parses each message first and loses the id of one
// it refuses, so the server waited for an answer and the tool call for its 30-minute timeout.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { attachElicitation, attachRoots, screenedFetch } from "../../src/client/index.js";
import { RecordingUI } from "../helpers/recording-ui.js";
import { within } from "../helpers/deferred.js";
import { MALFORMED_REPLIES, MALFORMED_REQUESTS } from "../helpers/raw-wire.js";

const AT_ONCE_MS = 1000;
const LEGACY = { versionNegotiation: { mode: "legacy" } } as never;
const MALFORMED = /The server's reply was malformed \(.+\)(, so it| and) was dropped/;

const readJson = async (req: IncomingMessage): Promise<Record<string, any>> => {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, any>;
};

/**
 * A raw 2025-11-25 Streamable HTTP server. tools/call "reply:N" answers with malformed reply N as a
 * JSON body, "sse-reply:N" as an SSE event; "ask:METHOD" streams each malformed request shape for
 * METHOD and waits for the client's answers. Every reply the client POSTs lands in `answers`.
 */
async function rawHttpServer() {
  const answers = new Map<unknown, { message: Record<string, any>; at: number }>();
  const answered: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== "POST") return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
      const m = await readJson(req);
      const json = (body: string) => res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(body);
      if (m.id === undefined || m.method === undefined) {
        if (m.method === undefined) answers.set(m.id, { message: m, at: Date.now() });
        answered.splice(0).forEach((f) => f());
        return void res.writeHead(202).end();
      }
      if (m.method === "initialize")
        return json(
          JSON.stringify({
            jsonrpc: "2.0",
            id: m.id,
            result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "raw", version: "1" } },
          }),
        );
      const [kind, arg] = String(m.params?.name ?? "").split(":");
      if (kind === "reply") return json(MALFORMED_REPLIES[Number(arg)]![1](m.id));
      res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s1" });
      if (kind === "sse-reply") return void res.end(`event: message\ndata: ${MALFORMED_REPLIES[Number(arg)]![1](m.id)}\n\n`);
      // ask: every malformed shape, then the result once each was answered.
      const ids = MALFORMED_REQUESTS.map((_, i) => `${arg}-${i}`);
      for (const [i, [, request]] of MALFORMED_REQUESTS.entries()) res.write(`id: e${i}\ndata: ${request(ids[i]!, arg!)}\n\n`);
      const sent = Date.now();
      while (!ids.every((id) => answers.has(id))) await new Promise<void>((resolve) => answered.push(resolve));
      res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: String(sent) }] } })}\n\n`);
    })().catch((error: Error) => res.destroy(error));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  return { url, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("client kit over Streamable HTTP (screenedFetch): what a server sends malformed", { timeout: 60_000 }, () => {
  let raw: Awaited<ReturnType<typeof rawHttpServer>>;
  let client: Client;
  before(async () => {
    raw = await rawHttpServer();
    client = new Client({ name: "kit", version: "1.0.0" }, LEGACY);
    attachElicitation(client, { ui: new RecordingUI() });
    attachRoots(client, [tmpdir()]);
    const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(raw.url, {
      fetch: screenedFetch({ refuse: (reply) => void transport.send(reply).catch(() => {}) }),
    });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    await raw.close();
  });

  for (const method of ["elicitation/create", "roots/list"])
    test(`each malformed ${method} is answered -32600 with its id within a second`, async () => {
      const result = await within(client.callTool({ name: `ask:${method}` }), 10_000, "the tool call that asks");
      const sent = Number((result.content as { text: string }[])[0]!.text);
      for (const [i, [name]] of MALFORMED_REQUESTS.entries()) {
        const answer = raw.answers.get(`${method}-${i}`)!;
        assert.equal(answer.message.error?.code, -32600, `${name}: ${JSON.stringify(answer.message)}`);
        assert.match(answer.message.error.message, new RegExp(`${method} was malformed \\(.+\\) and was not processed`));
        assert.ok(answer.at - sent < AT_ONCE_MS, `${name}: answered after ${answer.at - sent} ms`);
      }
    });

  for (const [i, [name]] of MALFORMED_REPLIES.entries())
    for (const kind of ["reply", "sse-reply"])
      test(`a reply with ${name} (${kind === "reply" ? "JSON" : "SSE"}) ends the tool call at once`, async () => {
        const started = Date.now();
        await assert.rejects(within(client.callTool({ name: `${kind}:${i}` }), AT_ONCE_MS, "the call to end"), MALFORMED);
        assert.ok(Date.now() - started < AT_ONCE_MS);
      });
});

describe("client kit over stdio: a malformed reply ends the tool call at once", { timeout: 60_000 }, () => {
  const SERVER = fileURLToPath(new URL("../fixtures/malformed-reply-server.mjs", import.meta.url));
  for (const shape of ["result-null", "jsonrpc-1.0", "result-and-error", "deep"])
    test(shape, async () => {
      const client = new Client({ name: "kit", version: "1.0.0" }, LEGACY);
      attachElicitation(client, { ui: new RecordingUI() });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER, shape], stderr: "ignore" }));
      try {
        const started = Date.now();
        await assert.rejects(within(client.callTool({ name: "echo" }), AT_ONCE_MS, "the call to end"), MALFORMED);
        assert.ok(Date.now() - started < AT_ONCE_MS);
      } finally {
        await client.close();
      }
    });
});
