// Who a task belongs to, over real Streamable HTTP on 127.0.0.1. Anonymous 2025-11-25 sessions each own
// their tasks (another session's are "not found" and never listed), on every store; and a task runs for
// its creator: another token of the same principal that polls it does not lend the handler its client
// id or scopes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer, type AuthInfo } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../../../src/client/attach.js";
import { rawRequest } from "../../../src/client/tasks/raw-request.js";
import { form, text, yesNo } from "../../../src/schema/builders.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";
import { serveHttp } from "../../../src/server/http/serve.js";
import { memoryStore, redisStore, sqliteStore, type KeyValueStore } from "../../../src/store/index.js";
import { scriptedUI } from "../../../src/ui/scripted.js";
import { scratchFiles } from "../../helpers/files.js";
import { clientFor } from "../../helpers/mcp.js";
import { needs } from "../../helpers/needs.js";
import { untilStatus } from "../../helpers/poll-task.js";
import { startRedis, type RedisServer } from "../../helpers/redis.js";

type Raw = Record<string, any>;
const TASK_NOT_FOUND = (e: any) => e.rpcCode === -32602 && /Task not found/.test(e.message);

/** Polls tasks/get until the task has `status`, within 10 s. */
const until = (client: Client, taskId: string, status: string) => untilStatus(client, taskId, status, 10_000);

/** A transfer that asks the person first, then sends once (counted per note). */
function transferServer(store: KeyValueStore, taskTtlMs?: number) {
  const kit = createElicitation({ store, stateKey: randomBytes(32), taskPollIntervalMs: 50, ...(taskTtlMs ? { taskTtlMs } : {}) });
  const sent: string[] = [];
  const factory = () => {
    const server = new McpServer({ name: "bank", version: "1.0.0" });
    kit.registerTool(
      server,
      "transfer",
      { description: "Sends money once the person approves", inputSchema: z.object({ amount: z.number() }), task: "optional" },
      async ({ amount }, ctx) => {
        const answer = await ctx.elicit(`Send $${amount}?`, form({ approve: yesNo(), note: text() }));
        if (answer.action !== "accept" || !answer.content.approve) return { content: [{ type: "text", text: "Not sent." }] };
        const note = answer.content.note;
        await ctx.step("send", () => void sent.push(`${amount} ${note}`));
        return { content: [{ type: "text", text: `Sent $${amount}, approved with "${note}"` }] };
      },
    );
    return server;
  };
  return { factory, sent };
}

const stores: { name: string; skip?: string | false; open(): Promise<{ store: KeyValueStore; done(): Promise<void> }> }[] = [
  { name: "memory", open: async () => ({ store: memoryStore(), done: async () => {} }) },
  {
    name: "SQLite",
    async open() {
      const { dir } = scratchFiles("tasks-owners-");
      const store = sqliteStore(join(dir, "tasks.db"));
      return { store, done: () => store.close() };
    },
  },
  {
    name: "Redis",
    skip: needs("redis-server"),
    async open() {
      const redis: RedisServer = await startRedis();
      const store = await redisStore({ url: redis.url, prefix: "tasks-owners:" });
      return { store, done: async () => (await store.close(), await redis.stop()) };
    },
  },
];

describe("anonymous 2025-11-25 tasks belong to their HTTP session", () => {
  for (const kind of stores)
    test(
      `on ${kind.name}: another session neither lists nor reaches a session's task; each session's task ends with its own answer`,
      { skip: kind.skip },
      async () => {
        const { store, done } = await kind.open();
        // Every scan of the store by prefix, which is a walk of the whole store on each of them.
        const scans: string[] = [];
        const { factory, sent } = transferServer({ ...store, keys: (prefix) => (scans.push(prefix), store.keys(prefix)) });
        const http = await serveHttp(factory, { host: "127.0.0.1", port: 0 });
        const session = async (note: string) => {
          const client = clientFor("2025-11-25", { elicitation: { form: {} } });
          const ui = scriptedUI([{ match: "Send", action: "accept", content: { approve: true, note } }], { log: () => {} });
          attachElicitation(client, { ui });
          await client.connect(new StreamableHTTPClientTransport(http.url));
          return { client, ui };
        };
        const alice = await session("alice's approval");
        const bob = await session("bob's approval");
        try {
          const create = async (client: Client, amount: number) => {
            const created = (await rawRequest(client, "tools/call", { name: "transfer", arguments: { amount }, task: {} })) as Raw;
            await until(client, created.task.taskId, "input_required");
            return created.task.taskId as string;
          };
          const alicesTask = await create(alice.client, 500);
          const bobsTask = await create(bob.client, 7);
          const listed = async (client: Client) => ((await rawRequest(client, "tasks/list", {})) as Raw).tasks.map((t: Raw) => t.taskId);
          assert.deepEqual(await listed(bob.client), [bobsTask], "bob's session lists its own task only");
          assert.deepEqual(await listed(alice.client), [alicesTask]);
          assert.deepEqual(scans, [], "tasks/list reads its owner's index, never a scan of the store");
          for (const method of ["tasks/get", "tasks/result", "tasks/cancel"])
            await assert.rejects(rawRequest(bob.client, method, { taskId: alicesTask }), TASK_NOT_FOUND, `${method} from another session`);
          assert.deepEqual(bob.ui.remaining().length, 1, "bob was never asked alice's question");

          const alicesResult = (await rawRequest(alice.client, "tasks/result", { taskId: alicesTask })) as Raw;
          assert.deepEqual(alicesResult.content, [{ type: "text", text: `Sent $500, approved with "alice's approval"` }]);
          const bobsResult = (await rawRequest(bob.client, "tasks/result", { taskId: bobsTask })) as Raw;
          assert.deepEqual(bobsResult.content, [{ type: "text", text: `Sent $7, approved with "bob's approval"` }]);
          assert.deepEqual(
            sent.sort(),
            ["500 alice's approval", "7 bob's approval"],
            "each transfer sent once, with its own session's answer",
          );
          assert.deepEqual([alice.ui.remaining(), bob.ui.remaining()], [[], []]);
          assert.equal((await until(alice.client, alicesTask, "completed")).status, "completed");
        } finally {
          await alice.client.close().catch(() => {});
          await bob.client.close().catch(() => {});
          await http.close();
          await done();
        }
      },
    );
});

test("an owner's index entry ends with its task: once the task expires, tasks/list no longer shows it and the index key is gone", async () => {
  const store = memoryStore();
  const { factory } = transferServer(store, 1);
  const http = await serveHttp(factory, { host: "127.0.0.1", port: 0 });
  const client = clientFor("2025-11-25", { elicitation: { form: {} } });
  try {
    await client.connect(new StreamableHTTPClientTransport(http.url));
    const created = (await rawRequest(client, "tools/call", { name: "transfer", arguments: { amount: 1 }, task: {} })) as Raw;
    const listed = async () => ((await rawRequest(client, "tasks/list", {})) as Raw).tasks.map((t: Raw) => t.taskId);
    assert.deepEqual(await listed(), [created.task.taskId], "listed for its ttl and the minute of grace");
    assert.equal((await store.keys("task-owner:")).length, 1);
    // The memory store's clock, moved past the task's ttl and its minute.
    const realNow = Date.now;
    Date.now = () => realNow() + 61_500;
    try {
      assert.deepEqual(await listed(), []);
      assert.deepEqual(await store.keys("task-owner:"), []);
    } finally {
      Date.now = realNow;
    }
  } finally {
    await client.close().catch(() => {});
    await http.close();
  }
});

describe("a task runs for its creator", () => {
  let metadata: Server;
  let issuer: string;
  before(async () => {
    // The authorization server's metadata, all serveHttp reads of it; tokens are checked by the verifier below.
    metadata = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ["code"],
        }),
      ),
    );
    await new Promise<void>((resolve) => metadata.listen(0, "127.0.0.1", resolve));
    issuer = `http://127.0.0.1:${(metadata.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => metadata.close(() => resolve())));

  test("another token of the same principal answers the task's question: the handler still sees the creator's client id and scopes", async () => {
    const store = memoryStore();
    const kit = createElicitation({ store, taskPollIntervalMs: 50 });
    const factory = () => {
      const server = new McpServer({ name: "payroll", version: "1.0.0" });
      kit.registerTool(
        server,
        "run_payroll",
        { description: "Confirms, then says whom it acts for", task: "required" },
        async (_args, ctx) => {
          await ctx.elicit("Run payroll?", form({ ok: yesNo() }));
          const auth = ctx.http?.authInfo;
          const acting = `${ctx.principal?.sub} via ${ctx.principal?.clientId} [${ctx.principal?.scopes.join(" ")}]`;
          return {
            content: [{ type: "text", text: `${acting}; authInfo ${auth?.clientId} [${auth?.scopes.join(" ")}] token "${auth?.token}"` }],
          };
        },
      );
      return server;
    };
    // The endpoint's URL, known once it listens: what the verifier vouches a token is for.
    const served: { resource?: URL } = {};
    const tokens: Record<string, Omit<AuthInfo, "token" | "resource" | "expiresAt">> = {
      "payroll-admin-token": { clientId: "payroll-console", scopes: ["payroll:run", "payroll:read"], extra: { sub: "carol", issuer } },
      "read-only-token": { clientId: "phone-widget", scopes: ["payroll:read"], extra: { sub: "carol", issuer } },
    };
    const verifier = {
      async verifyAccessToken(token: string): Promise<AuthInfo> {
        const known = tokens[token];
        if (!known) throw new Error("unknown token");
        return { ...known, token, resource: served.resource, expiresAt: Math.floor(Date.now() / 1000) + 600 };
      },
    };
    const http = await serveHttp(factory, { host: "127.0.0.1", port: 0, auth: { issuer, verifier } });
    served.resource = http.url;
    const clientWith = async (token: string) => {
      const client = new Client({ name: "payroll-client", version: "1.0.0" }, {
        capabilities: { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } },
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      } as never);
      await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return client;
    };
    const desk = await clientWith("payroll-admin-token");
    const phone = await clientWith("read-only-token");
    try {
      const created = (await rawRequest(desk, "tools/call", { name: "run_payroll", arguments: {} })) as Raw;
      assert.equal(created.resultType, "task");
      const waiting = await until(phone, created.taskId, "input_required");
      assert.deepEqual(Object.keys(waiting.inputRequests), ["elicit-1"]);
      // The answer comes from the read-only token: the run it starts acts for the creator all the same.
      await rawRequest(phone, "tasks/update", {
        taskId: created.taskId,
        inputResponses: { "elicit-1": { action: "accept", content: { ok: true } } },
      });
      const done = await until(phone, created.taskId, "completed");
      assert.deepEqual(done.result.content, [
        {
          type: "text",
          text: `carol via payroll-console [payroll:run payroll:read]; authInfo payroll-console [payroll:run payroll:read] token ""`,
        },
      ]);
      const kept = await Promise.all((await store.keys("")).map((key) => store.get(key)));
      assert.ok(
        kept.some((value) => value?.includes("payroll-console")),
        "the creator's auth is kept with the task",
      );
      assert.ok(!kept.some((value) => /payroll-admin-token|read-only-token/.test(value ?? "")), "no token is kept in the store");
    } finally {
      await desk.close().catch(() => {});
      await phone.close().catch(() => {});
      await http.close();
    }
  });
});
