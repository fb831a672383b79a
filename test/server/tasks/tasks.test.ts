// Tools that run as tasks (the io.modelcontextprotocol/tasks extension, 2026-07-28), driven by a real
// SDK client in memory and over Streamable HTTP: the task handle, its questions on tasks/get, the
// answers through tasks/update, cancellation, the gate for clients without the extension, and the
// same handler code running in the call for those that do not take tasks.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import * as z from "zod";
import { form, text, yesNo } from "../../../src/schema/builders.js";
import { createElicitation, type ElicitationOptions } from "../../../src/server/index.js";
import { rawRequest } from "../../../src/client/tasks/raw-request.js";
import { attachElicitation } from "../../../src/client/attach.js";
import { followTasks } from "../../../src/client/tasks/follow.js";
import { scriptedUI } from "../../../src/ui/scripted.js";
import { memoryStore } from "../../../src/store/memory.js";
import { manualClient } from "../../helpers/manual-client.js";
import { clientFor, connect, type TransportKind } from "../../helpers/mcp.js";

const TASKS = { "io.modelcontextprotocol/tasks": {} };
type Raw = Record<string, any>;

/** A server whose tools run as tasks; `charges` counts the side effect a ctx.step makes. */
function taskServer(options: ElicitationOptions = {}) {
  const kit = createElicitation({ taskPollIntervalMs: 50, store: memoryStore(), ...options });
  const seen = { charges: 0, aborted: 0 };
  const factory = () => {
    const server = new McpServer({ name: "tasks", version: "1.0.0" });
    kit.registerTool(
      server,
      "pay",
      { description: "Asks, charges once, asks again", inputSchema: z.object({ amount: z.number() }), task: "optional" },
      async ({ amount }, ctx) => {
        const ok = await ctx.elicit(`Pay $${amount}?`, form({ ok: yesNo() }));
        if (ok.action !== "accept" || !ok.content.ok) return { content: [{ type: "text", text: "Not paid." }] };
        const receipt = await ctx.step("charge", () => `R-${++seen.charges}`);
        const note = await ctx.elicit("A note for the receipt?", form({ note: text({ maxLength: 20 }) }));
        return { content: [{ type: "text", text: `Paid $${amount}, ${receipt}, ${note.action === "accept" ? note.content.note : "-"}` }] };
      },
    );
    kit.registerTool(server, "wait", { description: "Waits until cancelled", task: "required" }, async (_args, ctx) => {
      await new Promise((_resolve, reject) =>
        ctx.mcpReq.signal.addEventListener("abort", () => (seen.aborted++, reject(new Error("stopped"))), { once: true }),
      );
      return { content: [{ type: "text", text: "never" }] };
    });
    kit.registerTool(
      server,
      "greet_later",
      { description: "Asks in the call, then goes on as a task", task: { support: "optional", start: "detach" } },
      async (_args, ctx) => {
        const name = await ctx.elicit("Your name?", form({ name: text() }));
        await ctx.detach();
        const id = await ctx.step("card", () => `card-${++seen.charges}`);
        return { content: [{ type: "text", text: `${id} for ${name.action === "accept" ? name.content.name : "nobody"}` }] };
      },
    );
    kit.registerTool(server, "halfway", { description: "Reports progress, then waits", task: "required" }, async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined)
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress: 1, total: 2, message: "Halfway there" },
        });
      await new Promise((_resolve, reject) =>
        ctx.mcpReq.signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true }),
      );
      return { content: [] };
    });
    kit.registerTool(server, "broken", { description: "Fails with a JSON-RPC error", task: "optional" }, async () => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, "backend down");
    });
    return server;
  };
  return { factory, seen };
}

// The SDK client cannot decode a task handle (resultType "task"): tasks go through the kit's raw requests.
const request = (client: Client, method: string, params: Raw) => rawRequest(client, method, params) as Promise<Raw>;
const getTask = (client: Client, taskId: string) => request(client, "tasks/get", { taskId });

/** Polls tasks/get until the task leaves "working" (or reaches `until`), within 10 s. */
async function settle(client: Client, taskId: string, until?: string): Promise<Raw> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = await getTask(client, taskId);
    if (task.status !== "working" && (until === undefined || task.status === until)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status} after 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const kind of ["memory", "http"] as TransportKind[]) {
  describe(`tasks over ${kind}`, () => {
    test("a task asks on tasks/get, takes its answers through tasks/update, runs its step once and completes", async () => {
      const { factory, seen } = taskServer();
      const conn = await connect(manualClient({ elicitation: { form: {} }, extensions: TASKS }), factory, "2026-07-28", kind);
      try {
        const created = await request(conn.client, "tools/call", { name: "pay", arguments: { amount: 40 } });
        assert.equal(created.resultType, "task");
        assert.equal(created.status, "working");
        assert.equal(created.pollIntervalMs, 50);
        assert.ok(Number.isInteger(created.ttlMs) && created.ttlMs > 0);
        for (const absent of ["content", "requestState", "inputRequests", "result", "task"]) assert.ok(!(absent in created), absent);
        const { taskId } = created;

        const asking = await settle(conn.client, taskId);
        assert.equal(asking.status, "input_required");
        assert.deepEqual(Object.keys(asking.inputRequests), ["elicit-1"]);
        assert.equal(asking.inputRequests["elicit-1"].method, "elicitation/create");
        assert.equal(asking.inputRequests["elicit-1"].params.message, "Pay $40?");
        assert.equal(
          (await getTask(conn.client, taskId)).inputRequests["elicit-1"].params.message,
          "Pay $40?",
          "asked again until answered",
        );

        const ack = await request(conn.client, "tasks/update", {
          taskId,
          inputResponses: { "elicit-1": { action: "accept", content: { ok: true } }, "never-asked": { action: "accept" } },
        });
        assert.deepEqual(
          Object.keys(ack).filter((k) => k !== "_meta"),
          ["resultType"],
        );
        const second = await settle(conn.client, taskId, "input_required");
        assert.ok(second.inputRequests["elicit-2"], JSON.stringify(second));
        assert.ok(!("elicit-1" in second.inputRequests), "an answered request is not asked again");

        // An answer that breaks the requested schema is refused before it is stored: -32602 naming the key and
        // the rule, never the value; the same question stays open under the same key.
        await assert.rejects(
          request(conn.client, "tasks/update", {
            taskId,
            inputResponses: { "elicit-2": { action: "accept", content: { note: "x".repeat(50) } } },
          }),
          (e: any) =>
            e.rpcCode === -32602 &&
            /inputResponses\["elicit-2"\] does not fit the requested schema: note breaks "maxLength"/.test(e.message) &&
            !/xxxx/.test(e.message),
        );
        const again = await settle(conn.client, taskId, "input_required");
        const [key] = Object.keys(again.inputRequests);
        assert.equal(key, "elicit-2");

        await request(conn.client, "tasks/update", {
          taskId,
          inputResponses: { [key!]: { action: "accept", content: { note: "thanks" } } },
        });
        const done = await settle(conn.client, taskId, "completed");
        assert.equal(done.resultType, "complete");
        assert.deepEqual(done.result.content, [{ type: "text", text: "Paid $40, R-1, thanks" }]);
        assert.equal(seen.charges, 1, "the step ran once across the task's three runs");
        // Finished: a late answer or cancel changes nothing.
        await request(conn.client, "tasks/cancel", { taskId });
        assert.equal((await getTask(conn.client, taskId)).status, "completed");
      } finally {
        await conn.close();
      }
    });

    test("tasks/cancel stops a running task through its signal; it ends cancelled", async () => {
      const { factory, seen } = taskServer();
      const conn = await connect(manualClient({ extensions: TASKS }), factory, "2026-07-28", kind);
      try {
        const { taskId } = await request(conn.client, "tools/call", { name: "wait", arguments: {} });
        assert.equal((await getTask(conn.client, taskId)).status, "working");
        assert.deepEqual(
          Object.keys(await request(conn.client, "tasks/cancel", { taskId })).filter((k) => k !== "_meta"),
          ["resultType"],
        );
        const ended = await settle(conn.client, taskId);
        assert.equal(ended.status, "cancelled");
        assert.equal(seen.aborted, 1);
      } finally {
        await conn.close();
      }
    });
  });
}

describe("tasks: progress and expiry", () => {
  test("progress the handler reports becomes the task's statusMessage", async () => {
    const { factory } = taskServer();
    const conn = await connect(manualClient({ extensions: TASKS }), factory, "2026-07-28", "memory");
    try {
      const { taskId } = await request(conn.client, "tools/call", { name: "halfway", arguments: {} });
      const deadline = Date.now() + 10_000;
      let task = await getTask(conn.client, taskId);
      while (task.statusMessage !== "Halfway there" && Date.now() < deadline) task = await getTask(conn.client, taskId);
      assert.equal(task.status, "working");
      assert.equal(task.statusMessage, "Halfway there");
      await request(conn.client, "tasks/cancel", { taskId });
      assert.equal((await settle(conn.client, taskId)).status, "cancelled");
    } finally {
      await conn.close();
    }
  });

  test("a task is kept for its ttlMs and a minute after; then tasks/get says it is not found", async () => {
    const store = memoryStore();
    const { factory } = taskServer({ store, taskTtlMs: 1 });
    const conn = await connect(manualClient({ elicitation: { form: {} }, extensions: TASKS }), factory, "2026-07-28", "memory");
    try {
      const { taskId, ttlMs } = await request(conn.client, "tools/call", { name: "pay", arguments: { amount: 1 } });
      assert.equal(ttlMs, 1);
      assert.equal((await getTask(conn.client, taskId)).taskId, taskId, "kept past its ttl, for the minute of grace");
      // The store forgets it when its time is up (the memory store's clock, moved past the minute).
      const realNow = Date.now;
      Date.now = () => realNow() + 61_500;
      try {
        await assert.rejects(getTask(conn.client, taskId), (e: any) => e.rpcCode === -32602);
      } finally {
        Date.now = realNow;
      }
    } finally {
      await conn.close();
    }
  });
});

describe("tasks on 2025-11-25 (experimental tasks)", () => {
  for (const kind of ["memory", "http"] as TransportKind[])
    test(`over ${kind}: a call with a task param makes a task; tasks/result sends its questions and ends with its result`, async () => {
      const { factory, seen } = taskServer();
      const client = clientFor("2025-11-25", { elicitation: { form: {} } });
      const ui = scriptedUI(
        [
          { match: "Pay", action: "accept", content: { ok: true } },
          { match: "note", action: "accept", content: { note: "legacy" } },
        ],
        { log: () => {} },
      );
      attachElicitation(client, { ui });
      const conn = await connect(client, factory, "2025-11-25", kind);
      const reports: string[] = [];
      followTasks(client, { onReport: (r) => reports.push(r.status) });
      try {
        const listed = await client.listTools();
        assert.deepEqual(listed.tools.find((t) => t.name === "pay")?.execution, { taskSupport: "optional" });
        const result = await client.callTool({ name: "pay", arguments: { amount: 7 }, task: {} } as never);
        assert.deepEqual(result.content, [{ type: "text", text: "Paid $7, R-1, legacy" }]);
        assert.deepEqual((result._meta as Raw)["io.modelcontextprotocol/related-task"].taskId.length, 36);
        assert.equal(reports[0], "working");
        assert.equal(reports.at(-1), "completed");
        assert.deepEqual(ui.remaining(), []);
        assert.equal(seen.charges, 1);
        const { tasks } = (await rawRequest(client, "tasks/list", {})) as { tasks: Raw[] };
        assert.equal(tasks.length, 1);
        assert.deepEqual(Object.keys(tasks[0]!).sort(), ["createdAt", "lastUpdatedAt", "pollInterval", "status", "taskId", "ttl"]);
        assert.equal(tasks[0]!.status, "completed");
        await assert.rejects(
          rawRequest(client, "tasks/update", { taskId: tasks[0]!.taskId, inputResponses: {} }),
          (e: any) => e.rpcCode === -32601,
        );
      } finally {
        await conn.close();
      }
    });

  test("without a task param, the same tool runs as an ordinary call (its question sent live)", async () => {
    const { factory } = taskServer();
    const client = clientFor("2025-11-25", { elicitation: { form: {} } });
    attachElicitation(client, { ui: scriptedUI([{ action: "decline" }], { log: () => {} }) });
    const conn = await connect(client, factory, "2025-11-25", "memory");
    try {
      const result = await client.callTool({ name: "pay", arguments: { amount: 7 } });
      assert.deepEqual(result.content, [{ type: "text", text: "Not paid." }]);
    } finally {
      await conn.close();
    }
  });
});

describe("tasks: ctx.detach", () => {
  test("the first question is asked in the call's rounds; the answered round becomes a task, once, however often it is sent", async () => {
    const { factory, seen } = taskServer();
    const conn = await connect(manualClient({ elicitation: { form: {} }, extensions: TASKS }), factory, "2026-07-28", "memory");
    try {
      const round = await request(conn.client, "tools/call", { name: "greet_later", arguments: {} });
      assert.equal(round.resultType, "input_required");
      assert.ok(!("taskId" in round));
      const answer = {
        name: "greet_later",
        arguments: {},
        inputResponses: { "elicit-1": { action: "accept", content: { name: "Ada" } } },
        requestState: round.requestState,
      };
      const created = await request(conn.client, "tools/call", answer);
      assert.equal(created.resultType, "task");
      assert.ok(!("requestState" in created) && !("inputRequests" in created));
      assert.equal((await request(conn.client, "tools/call", answer)).taskId, created.taskId, "the same state again: the same task");
      const done = await settle(conn.client, created.taskId);
      assert.deepEqual(done.result.content, [{ type: "text", text: "card-1 for Ada" }]);
      assert.equal(seen.charges, 1);
    } finally {
      await conn.close();
    }
  });

  test("for a client without tasks, ctx.detach() goes on in the call", async () => {
    const { factory } = taskServer();
    const conn = await connect(manualClient({ elicitation: { form: {} } }), factory, "2026-07-28", "memory");
    try {
      const round = await request(conn.client, "tools/call", { name: "greet_later", arguments: {} });
      const done = await request(conn.client, "tools/call", {
        name: "greet_later",
        arguments: {},
        inputResponses: { "elicit-1": { action: "accept", content: { name: "Lin" } } },
        requestState: round.requestState,
      });
      assert.equal(done.resultType, "complete");
      assert.deepEqual(done.content, [{ type: "text", text: "card-1 for Lin" }]);
    } finally {
      await conn.close();
    }
  });
});

describe("tasks: errors and clients without the extension", () => {
  test("a JSON-RPC error ends the task failed with that error; an unknown task id is -32602", async () => {
    const { factory } = taskServer();
    const conn = await connect(manualClient({ extensions: TASKS }), factory, "2026-07-28", "memory");
    try {
      const { taskId } = await request(conn.client, "tools/call", { name: "broken", arguments: {} });
      const failed = await settle(conn.client, taskId);
      assert.equal(failed.status, "failed");
      assert.deepEqual(failed.error, { code: -32603, message: "backend down" });
      assert.ok(!("result" in failed));
      await assert.rejects(getTask(conn.client, "no-such-task"), (e: any) => e.rpcCode === -32602);
      await assert.rejects(request(conn.client, "tasks/result", { taskId }), (e: any) => e.rpcCode === -32601);
    } finally {
      await conn.close();
    }
  });

  test("without the extension: an optional task tool runs in the call, a required one and tasks/* are -32021", async () => {
    const { factory } = taskServer();
    const conn = await connect(manualClient({ elicitation: { form: {} } }), factory, "2026-07-28", "memory");
    try {
      const round = await conn.client.callTool({ name: "pay", arguments: { amount: 5 } } as never, { allowInputRequired: true } as never);
      assert.equal((round as Raw).resultType, "input_required", "the same handler asks in the call's own rounds");
      const required = (e: any) => {
        assert.equal(e.rpcCode, -32021);
        assert.deepEqual(e.data?.requiredCapabilities, { extensions: TASKS });
        return true;
      };
      await assert.rejects(request(conn.client, "tools/call", { name: "wait", arguments: {} }), required);
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"])
        await assert.rejects(request(conn.client, method, { taskId: "x", inputResponses: {} }), required);
    } finally {
      await conn.close();
    }
  });

  test("another caller's task is not found", async () => {
    // The principal from the request's _meta, standing in for a verified token's subject.
    const { factory } = taskServer({ principal: (ctx) => String((ctx.mcpReq._meta as Raw | undefined)?.["test/who"] ?? "anonymous") });
    const conn = await connect(manualClient({ elicitation: { form: {} }, extensions: TASKS }), factory, "2026-07-28", "memory");
    try {
      const { taskId } = await request(conn.client, "tools/call", {
        name: "pay",
        arguments: { amount: 1 },
        _meta: { "test/who": "alice" },
      });
      assert.equal((await request(conn.client, "tasks/get", { taskId, _meta: { "test/who": "alice" } })).taskId, taskId);
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"])
        await assert.rejects(request(conn.client, method, { taskId, inputResponses: {}, _meta: { "test/who": "mallory" } }), (e: any) => {
          assert.equal(e.rpcCode, -32602);
          assert.match(e.message, /Task not found/);
          return true;
        });
    } finally {
      await conn.close();
    }
  });
});
