// A task's answers are checked before they are stored, bounded in size, and gone once the task ends:
// a client answers part of a task's questions with large (valid) answers, then finishes some tasks and
// cancels the others; the store is back to its keys before the tasks plus their records, and the heap
// after a full collection is back near where it started. An answer over the limit is refused -32602
// naming it, and nothing of it is kept.
import { describe, test } from "node:test";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { form, text, yesNo } from "../../../src/schema/builders.js";
import { createElicitation, type ElicitationOptions } from "../../../src/server/index.js";
import { serveHttp } from "../../../src/server/http/serve.js";
import { rawRequest } from "../../../src/client/tasks/raw-request.js";
import { memoryStore, redisStore, sqliteStore } from "../../../src/store/index.js";
import { manualClient } from "../../helpers/manual-client.js";
import { connect } from "../../helpers/mcp.js";
import { pollTask } from "../../helpers/poll-task.js";
import { scratchFiles } from "../../helpers/files.js";
import { needs } from "../../helpers/needs.js";
import { startRedis } from "../../helpers/redis.js";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

// A full collection on demand, in this process (the server's), without starting node with --expose-gc.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

type Raw = Record<string, any>;
const TASKS = { "io.modelcontextprotocol/tasks": {} };

/** A server whose task asks two questions at once: a note (any length) and a yes/no. */
function twoQuestions(options: ElicitationOptions) {
  const kit = createElicitation({ taskPollIntervalMs: 20, ...options });
  return () => {
    const server = new McpServer({ name: "tasks-answers", version: "1.0.0" });
    kit.registerTool(
      server,
      "two_questions",
      { description: "Asks for a note and a yes/no together", task: "required" },
      async (_args, ctx) => {
        const [note, ok] = await Promise.all([ctx.elicit("A note?", form({ note: text() })), ctx.elicit("Go?", form({ go: yesNo() }))]);
        const length = note.action === "accept" ? note.content.note.length : 0;
        return { content: [{ type: "text", text: `note of ${length}, ${ok.action}` }] };
      },
    );
    return server;
  };
}

const request = (client: Client, method: string, params: Raw) => rawRequest(client, method, params) as Promise<Raw>;

/** Polls tasks/get until `done(task)`, within 10 s. */
const poll = (client: Client, taskId: string, done: (task: Raw) => boolean) =>
  pollTask(client, taskId, done, { timeoutMs: 10_000, what: `task ${taskId}`, intervalMs: 10 });

/** A task of two_questions, asking both. */
async function asking(client: Client): Promise<string> {
  const { taskId } = await request(client, "tools/call", { name: "two_questions", arguments: {} });
  const task = await poll(client, taskId, (t) => t.status === "input_required");
  assert.deepEqual(Object.keys(task.inputRequests).sort(), ["elicit-1", "elicit-2"]);
  return taskId as string;
}

async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    collectGarbage();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

/** A 2026-07-28 client of `factory` in memory, recording nothing (the wire tap of helpers/mcp.ts keeps every message). */
async function untapped(factory: () => McpServer): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(factory, { transport: serverSide } as never);
  const client = manualClient({ elicitation: { form: {} }, extensions: TASKS });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

describe("a task's stored answers", () => {
  test("finished and cancelled tasks free their answers: store keys back to the start plus the records, heap back near the start", async () => {
    const store = memoryStore();
    const conn = await untapped(twoQuestions({ store }));
    try {
      await asking(conn.client); // warms the server's code paths up, outside the measure
      const keysBefore = new Set(await store.keys(""));
      const heapBefore = await heapAfterGc();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const taskId = await asking(conn.client);
        // 200,000 characters: valid, and under the default limit of 256 KiB.
        await request(conn.client, "tasks/update", {
          taskId,
          inputResponses: { "elicit-1": { action: "accept", content: { note: String(i % 10).repeat(200_000) } } },
        });
        // The task still waits for its second answer; the first is kept meanwhile.
        assert.deepEqual(Object.keys((await poll(conn.client, taskId, (t) => t.status === "input_required")).inputRequests), ["elicit-2"]);
        ids.push(taskId);
      }
      const heapHeld = await heapAfterGc();
      assert.ok(heapHeld - heapBefore > 3_000_000, `the twenty answers held ${heapHeld - heapBefore} bytes: the measure sees them`);
      assert.equal((await store.keys("")).filter((k) => /^task:.*:answer:/.test(k)).length, 20);

      for (const [i, taskId] of ids.entries()) {
        if (i % 2 === 0) {
          await request(conn.client, "tasks/update", {
            taskId,
            inputResponses: { "elicit-2": { action: "accept", content: { go: true } } },
          });
          const done = await poll(conn.client, taskId, (t) => t.status === "completed");
          assert.deepEqual(done.result.content, [{ type: "text", text: "note of 200000, accept" }]);
        } else {
          await request(conn.client, "tasks/cancel", { taskId });
          await poll(conn.client, taskId, (t) => t.status === "cancelled");
        }
      }
      const added = (await store.keys("")).filter((k) => !keysBefore.has(k)).sort();
      assert.deepEqual(
        added,
        ids.map((id) => `task:${id}`).sort(),
        "only the tasks' records are left (they answer tasks/get until their ttl)",
      );
      const heapAfter = await heapAfterGc();
      assert.ok(
        heapAfter - heapBefore < (heapHeld - heapBefore) / 4,
        `heap ${heapBefore} before, ${heapHeld} with the answers, ${heapAfter} after the tasks ended`,
      );
    } finally {
      await conn.close();
    }
  });

  test("an answer over the limit is refused -32602 naming the limit; nothing is stored and the question stays open", async () => {
    const store = memoryStore();
    const conn = await connect(
      manualClient({ elicitation: { form: {} }, extensions: TASKS }),
      twoQuestions({ store, maxTaskAnswerBytes: 10_000 }),
      "2026-07-28",
      "memory",
    );
    try {
      const taskId = await asking(conn.client);
      const keysBefore = (await store.keys("")).sort();
      await assert.rejects(
        request(conn.client, "tasks/update", {
          taskId,
          inputResponses: {
            "elicit-1": { action: "accept", content: { note: "x".repeat(20_000) } },
            "elicit-2": { action: "accept", content: { go: true } },
          },
        }),
        (e: any) =>
          e.rpcCode === -32602 &&
          /inputResponses\["elicit-1"\] is 2\d{4} bytes; the limit of one task answer is 10000 bytes \(maxTaskAnswerBytes\)/.test(
            e.message,
          ),
      );
      assert.deepEqual((await store.keys("")).sort(), keysBefore, "neither answer of the refused update was stored");
      const still = await poll(conn.client, taskId, (t) => t.status === "input_required");
      assert.deepEqual(Object.keys(still.inputRequests).sort(), ["elicit-1", "elicit-2"]);
      // The same questions, answered within the limit, complete the task.
      await request(conn.client, "tasks/update", {
        taskId,
        inputResponses: {
          "elicit-1": { action: "accept", content: { note: "x".repeat(5_000) } },
          "elicit-2": { action: "accept", content: { go: true } },
        },
      });
      const done = await poll(conn.client, taskId, (t) => t.status === "completed");
      assert.deepEqual(done.result.content, [{ type: "text", text: "note of 5000, accept" }]);
    } finally {
      await conn.close();
    }
  });

  test("the default limit is 256 KiB", async () => {
    const conn = await connect(
      manualClient({ elicitation: { form: {} }, extensions: TASKS }),
      twoQuestions({ store: memoryStore() }),
      "2026-07-28",
      "memory",
    );
    try {
      const taskId = await asking(conn.client);
      await assert.rejects(
        request(conn.client, "tasks/update", {
          taskId,
          inputResponses: { "elicit-1": { action: "accept", content: { note: "x".repeat(300_000) } } },
        }),
        (e: any) => e.rpcCode === -32602 && /the limit of one task answer is 262144 bytes \(maxTaskAnswerBytes\)/.test(e.message),
      );
    } finally {
      await conn.close();
    }
  });

  for (const kind of [
    { name: "SQLite", skip: false as const },
    { name: "Redis", skip: needs("redis-server") },
  ])
    test(
      `over Streamable HTTP on ${kind.name}: answers are stored until their task finishes or is cancelled, then deleted`,
      { skip: kind.skip },
      async () => {
        const { dir } = scratchFiles("tasks-answers-");
        const redis = kind.name === "Redis" ? await startRedis() : undefined;
        const store = redis ? await redisStore({ url: redis.url, prefix: "tasks-answers:" }) : sqliteStore(join(dir, "tasks.db"));
        const client = manualClient({ elicitation: { form: {} }, extensions: TASKS });
        let http: Awaited<ReturnType<typeof serveHttp>> | undefined;
        try {
          // A shared store needs the members' common key (here one member).
          http = await serveHttp(twoQuestions({ store, stateKey: randomBytes(32) }), { host: "127.0.0.1", port: 0 });
          await client.connect(new StreamableHTTPClientTransport(http.url));
          const keysBefore = new Set(await store.keys(""));
          const answerKeys = async () => (await store.keys("")).filter((k) => /^task:.*:answer:/.test(k)).length;
          const ids: string[] = [];
          for (let i = 0; i < 4; i++) {
            const taskId = await asking(client);
            await request(client, "tasks/update", {
              taskId,
              inputResponses: { "elicit-1": { action: "accept", content: { note: "n".repeat(10_000) } } },
            });
            await poll(client, taskId, (t) => t.status === "input_required" && Object.keys(t.inputRequests).join() === "elicit-2");
            ids.push(taskId);
          }
          assert.equal(await answerKeys(), 4, "each waiting task keeps its first answer");
          for (const [i, taskId] of ids.entries()) {
            if (i % 2 === 0) {
              await request(client, "tasks/update", {
                taskId,
                inputResponses: { "elicit-2": { action: "accept", content: { go: true } } },
              });
              await poll(client, taskId, (t) => t.status === "completed");
            } else {
              await request(client, "tasks/cancel", { taskId });
              await poll(client, taskId, (t) => t.status === "cancelled");
            }
          }
          assert.equal(await answerKeys(), 0, "no answer is left");
          // The records answer tasks/get until their ttl, and the owner's index of them lives as long.
          const added = (await store.keys("")).filter((k) => !keysBefore.has(k) && !k.startsWith("task-owner:")).sort();
          assert.deepEqual(added, ids.map((id) => `task:${id}`).sort(), "only the tasks' records are left");
        } finally {
          await client.close();
          await http?.close();
          await store.close();
          await redis?.stop();
        }
      },
    );
});
