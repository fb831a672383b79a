// What Cloudflare Workers forbid in global scope: the kit is made at module scope with timers and random
// numbers refused (test/fixtures/module-scope.ts, its own process), and still answers a call afterwards.
// Warm rounds are off where a promise cannot cross requests (workerd's user agent), unless forced.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { createElicitation, createFetchHandler, type FetchHandler } from "../../../src/server/index.js";
import { form, text } from "../../../src/schema/index.js";

const run = (args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile(process.execPath, args, { timeout: 120_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
const FIXTURE = fileURLToPath(new URL("../../fixtures/module-scope.ts", import.meta.url));

test("createElicitation, createUrlKit, memoryStore and createFetchHandler made at module scope draw no random number and set no timer", async () => {
  const stdout = await run(["--import", "tsx", FIXTURE]);
  assert.deepEqual(stdout.trim().split("\n"), ["attempts in global scope: none", "call: hello Ada"]);
});

describe("warm rounds where a promise cannot cross requests", () => {
  const described = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  const asWorkerd = () =>
    Object.defineProperty(globalThis, "navigator", { value: { userAgent: "Cloudflare-Workers" }, configurable: true, writable: true });
  const restore = () => {
    if (described) Object.defineProperty(globalThis, "navigator", described);
  };
  after(restore);

  /** A two-question call on 2026-07-28 through a fetch handler; how many times the handler's first line ran. */
  async function twoRounds(warmRounds?: { force: true }): Promise<{ text: string; starts: number }> {
    let starts = 0;
    const kit = createElicitation(warmRounds ? { warmRounds } : {});
    const handler: FetchHandler = createFetchHandler(() => {
      const server = new McpServer({ name: "warm", version: "1.0.0" });
      kit.registerTool(server, "two", { description: "Asks twice" }, async (_args, ctx) => {
        starts++;
        const first = await ctx.elicit("First?", form({ a: text() }));
        const second = await ctx.elicit("Second?", form({ b: text() }));
        const a = first.action === "accept" ? first.content.a : first.action;
        const b = second.action === "accept" ? second.content.b : second.action;
        return { content: [{ type: "text", text: `${a}+${b}` }] };
      });
      return server;
    });
    const client = new Client(
      { name: "host", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      const field = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;
      return { action: "accept", content: { [field]: field.toUpperCase() } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("https://worker.example/mcp"), {
        fetch: (input, init) => handler(new Request(input, init)),
      }),
    );
    try {
      const result = await client.callTool({ name: "two", arguments: {} });
      return { text: (result.content as { text: string }[])[0]!.text, starts };
    } finally {
      await client.close();
      await handler.close();
    }
  }

  test("elsewhere the retry resumes the held handler: its first line runs once", async () => {
    assert.deepEqual(await twoRounds(), { text: "A+B", starts: 1 });
  });

  test("on workerd each retry replays instead (no promise is settled from another request): its first line runs once per round", async () => {
    asWorkerd();
    try {
      assert.deepEqual(await twoRounds(), { text: "A+B", starts: 3 });
    } finally {
      restore();
    }
  });

  test("warmRounds: { force: true } holds handlers on workerd too", async () => {
    asWorkerd();
    try {
      assert.deepEqual(await twoRounds({ force: true }), { text: "A+B", starts: 1 });
    } finally {
      restore();
    }
  });
});
