// A member of a fleet dies (SIGKILL) in the middle of a 2025-11-25 session: the client's reconnect
// reaches another member, which adopts the session; the client's Last-Event-ID resume replays what
// the dead member had sent after the client's stream dropped, the call that was running there ends
// with the documented error, and the session goes on serving on the new member.
// Members are separate Node processes (this file in member mode) on one real Redis, behind a real
// HAProxy with sticky sessions; the client knows only HAProxy's address.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer, type ServerContext } from "@modelcontextprotocol/server";
import { createElicitation } from "../../src/server/index.js";
import { serveHttp } from "../../src/server/http/serve.js";
import { LOST_CALL_CODE } from "../../src/server/fleet/registry.js";
import { redisStore } from "../../src/store/index.js";
import type { FleetStore } from "../../src/store/types.js";
import { form, yesNo } from "../../src/schema/index.js";
import { startHaproxy } from "../helpers/haproxy.js";
import { needs } from "../helpers/needs.js";
import { exited, stopChild } from "../helpers/processes.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { jsonResult, resultJson } from "../helpers/results.js";
import { killOnExit } from "../helpers/cleanup.js";

const REVISION = "2025-11-25";
const PREFIX = "fleet-failover:";

// ---- member mode: one serveHttp of the fleet, in a process the test may kill ----------------------

async function memberMode(name: string) {
  const store = await redisStore({ url: process.env.REDIS_URL!, prefix: PREFIX });
  const kit = createElicitation();
  const factory = () => {
    const server = new McpServer({ name: "fleet-member", version: "1.0.0" }, { capabilities: { logging: {} } });
    kit.registerTool(server, "book", { description: "One form" }, async (_args, ctx) => {
      const answer = await ctx.elicit("Confirm?", form({ confirmBooking: yesNo() }));
      return jsonResult({ action: answer.action, member: name });
    });
    // Tells the client one thing, drops the call's stream (the client reconnects later), tells it a
    // second thing it can only get by replay, then runs until its member dies.
    const register = server.registerTool.bind(server) as (n: string, c: object, cb: (ctx: ServerContext) => unknown) => unknown;
    register("report", { description: "Reports, drops its stream, never ends" }, async (ctx) => {
      const say = (data: string) => ctx.mcpReq.notify({ method: "notifications/message", params: { level: "info", data } });
      await say("before the drop");
      ctx.http?.closeSSE?.();
      await say("after the drop");
      await store.set("test:reported", name, 60_000);
      return new Promise(() => {});
    });
    return server;
  };
  const http = await serveHttp(factory, { fleet: { store, instance: name }, onerror: () => {} });
  process.on("SIGTERM", () => void http.close().finally(() => process.exit(0)));
  process.send!({ url: http.url.href });
}

if (process.env.FLEET_FAILOVER_MEMBER) {
  await memberMode(process.env.FLEET_FAILOVER_MEMBER);
} else {
  let redis: RedisServer;
  let control: FleetStore;
  const children: ChildProcess[] = [];

  async function startMember(name: string): Promise<{ child: ChildProcess; url: URL }> {
    const child = killOnExit(
      fork(fileURLToPath(import.meta.url), [], {
        execArgv: ["--import", "tsx"],
        env: { ...process.env, FLEET_FAILOVER_MEMBER: name, REDIS_URL: redis.url },
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      }),
    );
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      child.once("message", (m: { url: string }) => resolve(m.url));
      child.once("exit", (code) => reject(new Error(`member ${name} exited with ${code}`)));
    });
    return { child, url: new URL(url) };
  }

  async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 20_000) {
    const end = Date.now() + ms;
    while (!(await cond())) {
      if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
      await sleep(20);
    }
  }

  // Without redis-server or HAProxy the file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
  const skip = needs("redis-server", "haproxy");
  before(async () => {
    if (skip) return;
    redis = await startRedis();
    control = await redisStore({ url: redis.url, prefix: PREFIX });
  });
  after(async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    await control?.close();
    await redis?.stop();
  });

  describe("a member dies in the middle of a session", { skip }, () => {
    test("SIGKILL on A: B adopts the session, the resume replays the missed notification, the lost call gets the documented error, the next call works", async (t) => {
      const started = { a: await startMember("a"), b: await startMember("b") };
      const proxy = await startHaproxy({
        backends: Object.entries(started).map(([name, m]) => ({ name, port: Number(m.url.port) })),
        sticky: true,
      });
      const servedBy: string[] = [];
      const tracking: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        servedBy.push(res.headers.get("x-served-by") ?? "?");
        return res;
      };
      // Reconnections wait until the test lets them go, so the client's stream is down while A dies.
      const held: (() => void)[] = [];
      const transport = new StreamableHTTPClientTransport(new URL("/mcp", proxy.url), {
        fetch: tracking,
        reconnectionScheduler: (reconnect) => void held.push(reconnect),
      });
      const client = new Client({ name: "test-client", version: "1.0.0" }, {
        capabilities: { elicitation: { form: {} } },
        supportedProtocolVersions: [REVISION],
      } as never);
      const logs: unknown[] = [];
      client.setNotificationHandler("notifications/message", (n: { params: { data: unknown } }) => void logs.push(n.params.data));
      client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirmBooking: true } }));
      await client.connect(transport);
      const sessionId = transport.sessionId!;
      // A is whichever member HAProxy gave the session to; B is the other one.
      const aName = servedBy[0] as "a" | "b";
      const bName = aName === "a" ? "b" : "a";
      const a = started[aName];
      const b = started[bName];

      assert.deepEqual(resultJson(await client.callTool({ name: "book", arguments: {} })), { action: "accept", member: aName });
      const lost = client.callTool({ name: "report", arguments: {} }).then(
        () => assert.fail("the call running on the dead member answered"),
        (error: Error & { code?: number }) => error,
      );
      await until("A reported after the drop", async () => (await control.get("test:reported")) === aName && held.length > 0);
      assert.deepEqual(logs, ["before the drop"], "the client has not heard what A said after its stream dropped");

      a.child.kill("SIGKILL");
      const killedAt = performance.now();
      await exited(a.child);
      const beforeKill = servedBy.length;
      // Let every reconnection the client schedules from now on go at once.
      const pump = setInterval(() => held.splice(0).forEach((reconnect) => reconnect()), 20);
      try {
        const error = await lost;
        // A number for the record (not a check): the heartbeat's lifetime bounds most of it.
        const report = `from SIGKILL to the lost call's error on the client: ${Math.round(performance.now() - killedAt)} ms`;
        t.diagnostic(report);
        console.log(report);
        assert.equal(error.code, LOST_CALL_CODE);
        assert.match(error.message, /Request lost: the server instance that was handling it stopped before it answered/);
        assert.deepEqual(logs, ["before the drop", "after the drop"], "the resume replayed exactly the missed notification");

        assert.deepEqual(resultJson(await client.callTool({ name: "book", arguments: {} })), { action: "accept", member: bName });
        assert.equal(transport.sessionId, sessionId, "the same session, now on B");
        const record = JSON.parse((await control.get(`fleet:session:${sessionId}`))!);
        assert.equal(record.instance, bName);
        assert.deepEqual(new Set(servedBy.slice(beforeKill)), new Set([bName]), "after the kill, HAProxy sent everything to B");
      } finally {
        clearInterval(pump);
        await client.close();
        await proxy.stop();
        await stopChild(b.child);
      }
    });
  });
}
