// A host whose calls the server turns into tasks: with followTasks, client.callTool resolves with the
// task's result; the task's questions reach the same UI, through the same handler and checks, as a
// question in a call; a task that fails rejects the call with the task's JSON-RPC error, and a call the
// host gives up on cancels its task.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { attachElicitation } from "../../src/client/attach.js";
import { attachRoots } from "../../src/client/roots.js";
import { attachSampling } from "../../src/client/sampling.js";
import { scratchFiles } from "../helpers/files.js";
import { followTasks, type TaskReport } from "../../src/client/tasks/follow.js";
import { form, yesNo } from "../../src/schema/builders.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { scriptedUI } from "../../src/ui/scripted.js";
import { rawRequest } from "../../src/client/tasks/raw-request.js";
import { deferred, within } from "../helpers/deferred.js";
import { clientFor, connect, type TransportKind } from "../helpers/mcp.js";

const TASKS = { "io.modelcontextprotocol/tasks": {} };

function server() {
  const kit = createElicitation({ taskPollIntervalMs: 50 });
  const stopped: string[] = [];
  const stoppedNow = deferred();
  const factory = () => {
    const s = new McpServer({ name: "tasks", version: "1.0.0" });
    kit.registerTool(s, "delete_files", { description: "Asks, then deletes", task: "required" }, async (_args, ctx) => {
      const answer = await ctx.elicit("Delete 3 files?", form({ sure: yesNo() }));
      return { content: [{ type: "text", text: answer.action === "accept" && answer.content.sure ? "Deleted 3 files." : "Kept them." }] };
    });
    kit.registerTool(s, "bad_form", { description: "Asks with a form no client may show", task: "required" }, async (_args, ctx) => {
      await ctx.elicit("Sure?", form({ sure: yesNo() }));
      return { content: [] };
    });
    kit.registerTool(s, "plan", { description: "Asks the model, the folders, then the person", task: "required" }, async (_args, ctx) => {
      const pick = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "Best of BA-1, IB-2?" } }],
        maxTokens: 50,
      });
      const [root] = await ctx.roots();
      const ok = await ctx.elicit("Book it?", form({ sure: yesNo() }));
      const text = `${JSON.stringify(pick.content)} in ${root?.name}: ${ok.action}`;
      return { content: [{ type: "text", text }] };
    });
    kit.registerTool(s, "broken", { description: "Fails", task: "required" }, async () => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, "backend down");
    });
    kit.registerTool(s, "forever", { description: "Runs until cancelled", task: "required" }, async (_args, ctx) => {
      await new Promise((_r, reject) =>
        ctx.mcpReq.signal.addEventListener("abort", () => (stopped.push("forever"), stoppedNow.resolve(), reject(new Error("stop")))),
      );
      return { content: [] };
    });
    return s;
  };
  return { factory, stopped, stoppedNow };
}

for (const kind of ["memory", "http"] as TransportKind[]) {
  describe(`followTasks over ${kind}`, () => {
    test("a task's question reaches the UI; the call resolves with the task's result", async () => {
      const { factory } = server();
      const client = clientFor("2026-07-28", { extensions: TASKS });
      const ui = scriptedUI([{ match: "Delete", action: "accept", content: { sure: true } }], { log: () => {} });
      attachElicitation(client, { ui });
      const conn = await connect(client, factory, "2026-07-28", kind);
      const reports: TaskReport[] = [];
      followTasks(client, { onReport: (r) => reports.push(r) });
      try {
        const result = await client.callTool({ name: "delete_files", arguments: {} });
        assert.deepEqual(result.content, [{ type: "text", text: "Deleted 3 files." }]);
        assert.deepEqual(ui.remaining(), [], "the UI answered the task's question");
        const statuses = reports.map((r) => r.status);
        assert.equal(statuses[0], "working");
        assert.ok(statuses.includes("input_required"));
        assert.equal(statuses.at(-1), "completed");
      } finally {
        await conn.close();
      }
    });
  });
}

describe("followTasks: sampling and roots inside a task", () => {
  test("the task's sampling, roots and form requests are answered by attachSampling, attachRoots and attachElicitation", async () => {
    const { factory } = server();
    const client = clientFor("2026-07-28", { extensions: TASKS });
    const ui = scriptedUI([{ sample: { text: "IB-2" } }, { match: "Book it", action: "accept", content: { sure: true } }], {
      log: () => {},
    });
    attachElicitation(client, { ui });
    attachSampling(client, { ui });
    const { dir } = scratchFiles("task-roots-");
    attachRoots(client, [{ path: dir, name: "Trips" }]);
    const conn = await connect(client, factory, "2026-07-28", "memory");
    followTasks(client);
    try {
      const result = await client.callTool({ name: "plan", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: '{"type":"text","text":"IB-2"} in Trips: accept' }]);
      assert.deepEqual(ui.remaining(), []);
    } finally {
      await conn.close();
    }
  });
});

describe("followTasks: failures and cancellation", () => {
  test("a failed task rejects the call with its JSON-RPC error", async () => {
    const { factory } = server();
    const client = clientFor("2026-07-28", { extensions: TASKS });
    attachElicitation(client, { ui: scriptedUI([], { log: () => {} }) });
    const conn = await connect(client, factory, "2026-07-28", "memory");
    followTasks(client);
    try {
      await assert.rejects(
        client.callTool({ name: "broken", arguments: {} }),
        (e: any) => e.code === -32603 && /backend down/.test(e.message),
      );
    } finally {
      await conn.close();
    }
  });

  test("a call the host gives up on leaves its task running on the server, for tasks/cancel or a later tasks/get", async () => {
    const { factory, stopped, stoppedNow } = server();
    const client = clientFor("2026-07-28", { extensions: TASKS });
    attachElicitation(client, { ui: scriptedUI([], { log: () => {} }) });
    const conn = await connect(client, factory, "2026-07-28", "memory");
    const started = deferred();
    let taskId = "";
    followTasks(client, { onReport: (r) => ((taskId = r.taskId), started.resolve()) });
    try {
      const abort = new AbortController();
      const call = client.callTool({ name: "forever", arguments: {} }, { signal: abort.signal });
      await started.promise;
      abort.abort(new Error("enough"));
      await assert.rejects(call);
      assert.equal((await rawRequest(client, "tasks/get", { taskId })).status, "working");
      await rawRequest(client, "tasks/cancel", { taskId });
      await within(stoppedNow.promise, 10_000, "the handler's signal to fire");
      assert.deepEqual(stopped, ["forever"], "tasks/cancel reached the handler's signal");
    } finally {
      await conn.close();
    }
  });
  test("raw requests on one signal: an abort while the send is pending rejects with its reason, and no listener stays behind", async () => {
    const { factory } = server();
    const client = clientFor("2026-07-28", { extensions: TASKS });
    const conn = await connect(client, factory, "2026-07-28", "http");
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const polls = new AbortController();
      for (let i = 0; i < 20; i++)
        await assert.rejects(
          rawRequest(client, "tasks/get", { taskId: "none" }, polls.signal),
          (e: Error & { rpcCode?: number }) => e.rpcCode !== undefined,
        );
      assert.equal(getEventListeners(polls.signal, "abort").length, 0, "each request took its abort listener off");
      // Over HTTP the send is a fetch: aborting before it settles must reject the request, not leave a rejection unhandled.
      const abort = new AbortController();
      const request = rawRequest(client, "tasks/get", { taskId: "none" }, abort.signal);
      abort.abort(new Error("given up"));
      await assert.rejects(request, /given up/);
      await assert.rejects(
        rawRequest(client, "tasks/get", { taskId: "none" }, abort.signal),
        /given up/,
        "an aborted signal sends nothing",
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off("unhandledRejection", record);
      await conn.close();
    }
  });
});
