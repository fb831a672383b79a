// mcp-elicit/cloudflare's routing, with a stand-in Durable Object namespace in this process (each object is
// a separate handler, as a Durable Object is a separate isolate's memory; workerd itself is exercised by the
// Workers template's tests). A real SDK client: its 2025-11-25 session starts in a new object, every later
// request of it reaches that object, an id no object has is 404, and 2026-07-28 stays in the Worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { routeSession, sessionObjectHandler, type DurableObjectNamespaceLike } from "../../../src/cloudflare/index.js";
import { form, text } from "../../../src/schema/index.js";
import { createElicitation, createFetchHandler, type FetchHandler } from "../../../src/server/index.js";

const kit = createElicitation();
const factory = () => {
  const server = new McpServer({ name: "trip", version: "1.0.0" });
  kit.registerTool(server, "where", { description: "Asks where" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Where to?", form({ to: text() }));
    return { content: [{ type: "text", text: `${ctx.protocol}: ${answer.action === "accept" ? answer.content.to : answer.action}` }] };
  });
  return server;
};

/** Objects by id, each with its own handler (its own memory), and the requests each received. */
function standInNamespace() {
  const objects = new Map<string, { handler: FetchHandler; requests: number }>();
  const namespace: DurableObjectNamespaceLike = {
    newUniqueId: () => {
      const id = randomBytes(32).toString("hex");
      return { toString: () => id };
    },
    idFromString: (id) => {
      if (!objects.has(id)) throw new TypeError("Invalid Durable Object ID");
      return { toString: () => id };
    },
    get: (id) => ({
      fetch: async (request) => {
        const key = id.toString();
        let object = objects.get(key);
        if (!object) objects.set(key, (object = { handler: sessionObjectHandler({ id }, factory), requests: 0 }));
        object.requests++;
        return object.handler(request);
      },
    }),
  };
  return { namespace, objects };
}

async function client(route: (request: Request) => Promise<Response>, era: object) {
  const c = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, ...era });
  c.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { to: "Oslo" } }));
  const transport = new StreamableHTTPClientTransport(new URL("https://worker.example/mcp"), {
    fetch: (input, init) => route(new Request(input, init)),
  });
  await c.connect(transport);
  return { client: c, transport };
}

test("2025-11-25 sessions live in a Durable Object each; 2026-07-28 is answered by the Worker; an unknown session id is 404", async () => {
  const { namespace, objects } = standInNamespace();
  const worker = createFetchHandler(factory);
  let workerRequests = 0;
  const route = (request: Request) =>
    routeSession(request, {
      sessions: namespace,
      handler: (r) => {
        workerRequests++;
        return worker(r);
      },
    });
  const a = await client(route, { supportedProtocolVersions: ["2025-11-25"] });
  const b = await client(route, { supportedProtocolVersions: ["2025-11-25"] });
  try {
    assert.equal(objects.size, 2, "one object per session");
    const [objectA] = a.transport.sessionId!.split(".");
    assert.ok(objects.has(objectA!), "the session id begins with its object's id");
    assert.match(a.transport.sessionId!, /^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
    const before = objects.get(objectA!)!.requests;
    assert.equal(textOf(await a.client.callTool({ name: "where", arguments: {} })), "2025-11-25: Oslo");
    assert.ok(objects.get(objectA!)!.requests > before, "the call reached the session's object");
    assert.equal(objects.get(objectA!)!.handler.sessionCount, 1);
    assert.equal(workerRequests, 0, "no 2025 request reached the Worker's handler");

    // An id of no object, and a known object with another secret: answered as an expired session.
    for (const sid of [`${"0".repeat(64)}.x`, "not-an-object-id", `${objectA}.${crypto.randomUUID()}`]) {
      const answer = await route(
        new Request("https://worker.example/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": sid,
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
      );
      assert.equal(answer.status, 404, sid);
      // The object holds its session's every request: the session is gone, not on another instance.
      const { error } = (await answer.json()) as { error: { code: number; message: string } };
      assert.equal(error.code, -32001, sid);
      assert.match(error.message, /^Session not found: it expired or was closed; start a new session/, sid);
    }

    const modern = await client(route, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    assert.equal(textOf(await modern.client.callTool({ name: "where", arguments: {} })), "2026-07-28: Oslo");
    assert.ok(workerRequests > 0, "2026-07-28 was answered by the Worker");
    assert.equal(objects.size, 2, "and made no object");
    await modern.client.close();
  } finally {
    await a.client.close();
    await b.client.close();
    await worker.close();
    for (const { handler } of objects.values()) await handler.close();
  }
});

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

test("on workerd a 2025 question in a session the Worker itself holds is refused with what to do; in a Durable Object it is asked", async (t) => {
  // workerd's user agent: there a promise made in one request cannot be settled from another, except in a Durable Object.
  const described = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  Object.defineProperty(globalThis, "navigator", { value: { userAgent: "Cloudflare-Workers" }, configurable: true, writable: true });
  t.after(() => {
    if (described) Object.defineProperty(globalThis, "navigator", described);
  });
  const legacy = { supportedProtocolVersions: ["2025-11-25"] };

  const worker = createFetchHandler(factory, { warn: () => {} });
  const inWorker = await client((request) => worker(request), legacy);
  let asked = 0;
  inWorker.client.setRequestHandler("elicitation/create", async () => {
    asked++;
    return { action: "accept", content: { to: "Oslo" } };
  });
  const refused = (await inWorker.client.callTool({ name: "where", arguments: {} })) as CallToolResult;
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /inside the Durable Object that holds it/);
  assert.match(textOf(refused), /routeSession and serve them with sessionObjectHandler/);
  assert.deepEqual(refused.structuredContent, { error: "input_unavailable", reason: "worker", request: "Where to?" });
  assert.equal(asked, 0, "nothing was sent that could never be answered");
  await inWorker.client.close();
  await worker.close();

  const { namespace, objects } = standInNamespace();
  const routed = await client(
    (request) => routeSession(request, { sessions: namespace, handler: () => Promise.reject(new Error("not here")) }),
    legacy,
  );
  assert.equal(textOf(await routed.client.callTool({ name: "where", arguments: {} })), "2025-11-25: Oslo");
  await routed.client.close();
  for (const { handler } of objects.values()) await handler.close();
});
