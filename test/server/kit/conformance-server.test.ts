// The conformance server (src/servers/conformance/) over real Streamable HTTP with real SDK v2
// clients: the suite's elicitation tools on 2025-11-25 (live elicitation/create) and on
// 2026-07-28 (input_required, auto-fulfilled by the client), one URL for both.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type ElicitResult } from "@modelcontextprotocol/client";
import { createConformanceServer } from "../../../src/servers/conformance/index.js";
import { serveHttp, type HttpServerHandle } from "../../../src/server/http/serve.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";

type Revision = "2025-11-25" | "2026-07-28";

/** A client that answers every form like a person would: the suite's user, or "Ada". */
function makeClient(revision: Revision, asked: Record<string, unknown>[]): Client {
  const client = new Client({ name: "conformance-server-test", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    ...(revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
  } as never);
  client.setRequestHandler("elicitation/create", async (request): Promise<ElicitResult> => {
    const params = request.params as { message: string; requestedSchema: { properties: Record<string, unknown> } };
    asked.push(params);
    const fields = Object.keys(params.requestedSchema.properties);
    if (fields.includes("username")) return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    if (fields.includes("name")) return { action: "accept", content: { name: "Ada" } };
    return { action: "decline" };
  });
  return client;
}

function textOf(result: unknown): string {
  const r = result as { content?: { type: string; text?: string }[]; isError?: boolean };
  assert.notEqual(r.isError, true, `tool failed: ${JSON.stringify(r)}`);
  assert.equal(r.content?.[0]?.type, "text");
  return r.content[0]!.text!;
}

describe("conformance server over HTTP", () => {
  let http: HttpServerHandle;
  const clients: Client[] = [];

  before(async () => {
    const kit = createElicitation();
    http = await serveHttp(({ era }) => createConformanceServer(kit, { era }), { host: "127.0.0.1", port: 0 });
  });

  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await http.close();
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    describe(`a client on ${revision}`, () => {
      const asked: Record<string, unknown>[] = [];
      let client: Client;

      before(async () => {
        client = makeClient(revision, asked);
        clients.push(client);
        await client.connect(new StreamableHTTPClientTransport(http.url));
        assert.equal(client.getNegotiatedProtocolVersion(), revision);
      });

      test("test_elicitation asks for username and email and reports the answer", async () => {
        asked.length = 0;
        const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
        assert.equal(textOf(result), 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
        assert.equal(asked.length, 1);
        assert.equal(asked[0]!.message, "Who are you?");
        assert.deepEqual(asked[0]!.requestedSchema, {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        });
      });

      test("test_input_required_result_elicitation asks for a name and greets", async () => {
        asked.length = 0;
        const result = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
        assert.equal(textOf(result), "Hello, Ada!");
        assert.equal(asked.length, 1);
        assert.equal(asked[0]!.message, "What is your name?");
        assert.deepEqual(asked[0]!.requestedSchema, { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
      });
    });
  }
});
