// 2025-11-25's experimental tasks: a task whose runner dies after its question was answered is run again
// by the next poll, tasks/get or tasks/result, on another server of the same store; and an answer that
// does not fit its question is refused before it is stored. The first server "dies" by losing its store:
// every store call it makes from that moment never settles (a partition, or a process frozen for good),
// so its lease lapses, and nothing it would still do reaches the store.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { form, yesNo } from "../../../src/schema/builders.js";
import { createElicitation } from "../../../src/server/index.js";
import { rawRequest } from "../../../src/client/tasks/raw-request.js";
import { memoryStore } from "../../../src/store/memory.js";
import type { KeyValueStore } from "../../../src/store/types.js";
import { waitFor } from "../../helpers/deferred.js";
import { clientFor, connect } from "../../helpers/mcp.js";
import { untilStatus } from "../../helpers/poll-task.js";

type Raw = Record<string, any>;

/** `store` as one server sees it, until `cut()`: from then on, none of its calls settles. */
function cuttable(store: KeyValueStore) {
  let cut = false;
  const never = new Promise<never>(() => {});
  const view = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => (cut ? never : (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
  return { view, cut: () => void (cut = true) };
}

/** A server of `store` whose task asks to go ahead, then charges once (counted in `charges`). */
function approving(store: KeyValueStore, charges: { count: number }) {
  const kit = createElicitation({ store, taskLeaseMs: 300, taskPollIntervalMs: 20 });
  return () => {
    const server = new McpServer({ name: "legacy-restart", version: "1.0.0" });
    kit.registerTool(server, "approve", { description: "Asks, then charges once", task: "optional" }, async (_args, ctx) => {
      const answer = await ctx.elicit("Charge?", form({ go: yesNo() }));
      if (answer.action !== "accept" || !answer.content.go) return { content: [{ type: "text", text: "not charged" }] };
      const receipt = await ctx.step("charge", () => `R-${++charges.count}`);
      return { content: [{ type: "text", text: `charged ${receipt}` }] };
    });
    return server;
  };
}

/**
 * A 2025-11-25 task made on a first server, whose client answers its question in tasks/result with
 * `answer`; the first server's store is cut once `cutWhen(key, value)` holds for a write it makes.
 */
async function answeredThenCut(cutWhen: (key: string, value: string) => boolean) {
  const store = memoryStore();
  const charges = { count: 0 };
  const first = cuttable(store);
  // Watches the first server's writes, and cuts its store right after the one named.
  const watched = new Proxy(first.view, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key !== "add" && key !== "swap" && key !== "set") return value;
      return async (...args: string[]) => {
        const result = await (value as (...a: string[]) => Promise<unknown>)(...args);
        const written = key === "swap" ? args[2] : args[1];
        if (written !== undefined && cutWhen(args[0]!, written)) first.cut();
        return result;
      };
    },
  });
  const client = clientFor("2025-11-25");
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { go: true } }));
  const a = await connect(client, approving(watched as KeyValueStore, charges), "2025-11-25", "memory");
  const created = (await rawRequest(client, "tools/call", { name: "approve", arguments: {}, task: {} })) as Raw;
  const { taskId } = created.task;
  // Its questions go out here; the answer is stored, then the first server's store is cut at the moment chosen.
  void rawRequest(client, "tasks/result", { taskId }).catch(() => {});
  await waitFor(async () => (await store.keys(`task:${taskId}:answer:`)).length > 0, {
    timeoutMs: 10_000,
    what: "the answer to be stored",
  });
  const b = await connect(clientFor("2025-11-25"), approving(store, charges), "2025-11-25", "memory");
  return { taskId, charges, store, b, close: async () => (await b.close(), await a.close().catch(() => {})) };
}

const cutAfterAnswer = (key: string) => /:answer:/.test(key);
const cutOnceWorking = (key: string, value: string) =>
  /^task:[^:]+$/.test(key) && JSON.parse(value).status === "working" && !!JSON.parse(value).answering;

describe("2025-11-25 tasks survive their runner's death after the answer", () => {
  for (const [moment, cutWhen] of [
    ["right after the answer is stored", cutAfterAnswer],
    ["once the run is stored working", cutOnceWorking],
  ] as const) {
    test(`cut ${moment}: polling tasks/get on another server runs it again; the step runs once`, async () => {
      const { taskId, charges, b, close } = await answeredThenCut(cutWhen);
      try {
        // Never run again would leave it working: the wait names the task as last seen.
        await untilStatus(b.client, taskId, "completed", 10_000);
        const result = (await rawRequest(b.client, "tasks/result", { taskId })) as Raw;
        assert.deepEqual(result.content, [{ type: "text", text: "charged R-1" }]);
        assert.equal(charges.count, 1);
      } finally {
        await close();
      }
    });

    test(`cut ${moment}: tasks/result on another server runs it again and ends with its result`, async () => {
      const { taskId, charges, b, close } = await answeredThenCut(cutWhen);
      try {
        const result = (await rawRequest(b.client, "tasks/result", { taskId })) as Raw;
        assert.deepEqual(result.content, [{ type: "text", text: "charged R-1" }]);
        assert.equal(charges.count, 1);
      } finally {
        await close();
      }
    });
  }
});

describe("2025-11-25 answers are checked before they are stored", () => {
  test("an answer that breaks the requested schema ends tasks/result -32602 naming the rule; nothing is stored, the question stays open", async () => {
    const store = memoryStore();
    const charges = { count: 0 };
    const client = clientFor("2025-11-25");
    const answers = [
      { action: "accept", content: { go: "yes" } },
      { action: "accept", content: { go: true } },
    ];
    client.setRequestHandler("elicitation/create", async () => answers.shift() as never);
    const conn = await connect(client, approving(store, charges), "2025-11-25", "memory");
    try {
      const { taskId } = ((await rawRequest(client, "tools/call", { name: "approve", arguments: {}, task: {} })) as Raw).task;
      await assert.rejects(
        rawRequest(client, "tasks/result", { taskId }),
        (e: any) =>
          e.rpcCode === -32602 && /inputResponses\["elicit-1"\] does not fit the requested schema: go breaks "type"/.test(e.message),
      );
      assert.deepEqual(await store.keys(`task:${taskId}:answer:`), [], "nothing of the refused answer was stored");
      assert.equal(((await rawRequest(client, "tasks/get", { taskId })) as Raw).status, "input_required");
      // Asked again by the next tasks/result, answered well: the task completes.
      const result = (await rawRequest(client, "tasks/result", { taskId })) as Raw;
      assert.deepEqual(result.content, [{ type: "text", text: "charged R-1" }]);
    } finally {
      await conn.close();
    }
  });
});
