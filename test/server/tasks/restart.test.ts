// A task outlives the process that ran it: its record, journal and pending question are in the store.
// The server is SIGKILLed while the task waits for a person; a new process on the same SQLite file (or
// another fleet member on the same Redis) takes the answer, and the task completes, its side effect once.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rawRequest } from "../../../src/client/tasks/raw-request.js";
import { scratchFiles, whenFileHas } from "../../helpers/files.js";
import { needs } from "../../helpers/needs.js";
import { exited, stopChild } from "../../helpers/processes.js";
import { pollTask } from "../../helpers/poll-task.js";
import { startRedis } from "../../helpers/redis.js";
import { clientOf, startMember, until, type Raw } from "../../helpers/task-members.js";

/** The task is made and left waiting on the first member, which is killed; `second` takes the answer. */
async function killWhileWaiting(first: Record<string, string>, second: Record<string, string>, charges: string) {
  const a = await startMember(first);
  const alice = await clientOf(a.url);
  const created = (await rawRequest(alice, "tools/call", { name: "approve_payment", arguments: { amount: 120 } })) as Raw;
  assert.equal(created.resultType, "task");
  const waiting = await until(alice, created.taskId, "input_required");
  assert.deepEqual(Object.keys(waiting.inputRequests), ["elicit-1"]);
  a.child.kill("SIGKILL");
  await exited(a.child);
  await alice.close().catch(() => {});

  const b = await startMember(second);
  const again = await clientOf(b.url);
  try {
    const still = await until(again, created.taskId, "input_required");
    assert.deepEqual(still.inputRequests, waiting.inputRequests, "the same question, from the store");
    await rawRequest(again, "tasks/update", {
      taskId: created.taskId,
      inputResponses: { "elicit-1": { action: "accept", content: { approve: true } } },
    });
    const done = await until(again, created.taskId, "completed");
    assert.deepEqual(done.result.content, [{ type: "text", text: "Paid $120: charged by second; finished by second" }]);
    assert.equal(readFileSync(charges, "utf8"), "120 by second\n", "charged once");
  } finally {
    await again.close().catch(() => {});
    await stopChild(b.child);
  }
}

describe("a task survives its process", () => {
  test("SIGKILLed while waiting for a person, restarted on the same SQLite file: the answer completes it once", async () => {
    const { dir } = scratchFiles("tasks-restart-");
    const charges = join(dir, "charges.txt");
    writeFileSync(charges, "");
    const env = { STORE: `sqlite:${join(dir, "tasks.db")}`, CHARGES: charges, MCP_ELICIT_STATE_KEY: randomBytes(32).toString("hex") };
    await killWhileWaiting({ ...env, MEMBER_NAME: "first" }, { ...env, MEMBER_NAME: "second" }, charges);
  });

  test("SIGKILLed while the task is working: the next process picks it up once its runner's lease lapses, and runs it to the end", async () => {
    const { dir } = scratchFiles("tasks-working-");
    const env = {
      STORE: `sqlite:${join(dir, "tasks.db")}`,
      CHARGES: join(dir, "charges.txt"),
      MCP_ELICIT_STATE_KEY: randomBytes(32).toString("hex"),
    };
    const go = join(dir, "go");
    const a = await startMember({ ...env, MEMBER_NAME: "first" });
    const alice = await clientOf(a.url);
    const created = (await rawRequest(alice, "tools/call", { name: "count_down", arguments: { go } })) as Raw;
    assert.equal(((await rawRequest(alice, "tasks/get", { taskId: created.taskId })) as Raw).status, "working");
    a.child.kill("SIGKILL");
    await exited(a.child);
    await alice.close().catch(() => {});
    const b = await startMember({ ...env, MEMBER_NAME: "second" });
    const again = await clientOf(b.url);
    writeFileSync(go, ""); // the work may end now, wherever it runs
    try {
      // Polling is what notices the lapsed lease: the task runs again from the start, here.
      const done = await until(again, created.taskId, "completed");
      assert.deepEqual(done.result.content, [{ type: "text", text: "finished by second" }]);
    } finally {
      await again.close().catch(() => {});
      await stopChild(b.child);
    }
  });

  test(
    "on Redis, a fleet member dies while its task waits; another member takes the answer and completes it once",
    { skip: needs("redis-server") },
    async () => {
      const redis = await startRedis();
      try {
        const { dir } = scratchFiles("tasks-fleet-");
        const charges = join(dir, "charges.txt");
        writeFileSync(charges, "");
        const env = { STORE: `redis:${redis.url}`, CHARGES: charges, MCP_ELICIT_STATE_KEY: randomBytes(32).toString("hex") };
        await killWhileWaiting({ ...env, MEMBER_NAME: "first" }, { ...env, MEMBER_NAME: "second" }, charges);
      } finally {
        await redis.stop();
      }
    },
  );
});

/** Resolves once `file` has a line matching `line` (watching its folder), within `ms`. */
const lineIn = (file: string, line: RegExp, ms = 20_000) =>
  whenFileHas(file, (text) => (text.split("\n").some((l) => line.test(l)) ? true : undefined), `no line ${line}`, ms);

/**
 * Two members on one SQLite file with a client each; the first starts charge_when_told, whose step
 * waits for the file `go`, and has started it ("started by first" in `charges`).
 */
async function stepStartedOnFirst(prefix: string) {
  const { dir } = scratchFiles(prefix);
  const charges = join(dir, "charges.txt");
  const go = join(dir, "go");
  const env = { STORE: `sqlite:${join(dir, "tasks.db")}`, CHARGES: charges, MCP_ELICIT_STATE_KEY: randomBytes(32).toString("hex") };
  const a = await startMember({ ...env, MEMBER_NAME: "first" });
  const b = await startMember({ ...env, MEMBER_NAME: "second" });
  try {
    const alice = await clientOf(a.url);
    const again = await clientOf(b.url);
    const created = (await rawRequest(alice, "tools/call", { name: "charge_when_told", arguments: { go } })) as Raw;
    await lineIn(charges, /^started by first$/);
    return { charges, go, a, b, alice, again, created };
  } catch (error) {
    await stopChild(a.child);
    await stopChild(b.child);
    throw error;
  }
}

describe("a task's lease is fenced", () => {
  test("a runner paused past its lease while its step runs: the next runner waits for that step, never ends the task on it, and completes it; the step runs once", async () => {
    const { charges, go, a, b, alice, again, created } = await stepStartedOnFirst("tasks-fenced-");
    try {
      // The first runner stops mid-step (a GC pause, a VM migration, a partition): its lease lapses.
      a.child.kill("SIGSTOP");
      // Polling the second member makes it take the task over; it finds the step still claimed by the first.
      const seen = await pollTask(
        again,
        created.taskId,
        (task) => {
          assert.equal(task.status, "working", `the task ended while its step was still running elsewhere: ${JSON.stringify(task)}`);
          return /still running elsewhere/.test(task.statusMessage ?? "");
        },
        { timeoutMs: 45_000, what: "a runner to take the task over", intervalMs: 50 },
      );
      assert.match(seen.statusMessage, /Waiting for the step "charge"/);
      // The first runner comes back and finishes its step; its own end of the task is fenced off.
      writeFileSync(go, "");
      a.child.kill("SIGCONT");
      const done = await until(again, created.taskId, "completed");
      assert.deepEqual(done.result.content, [{ type: "text", text: "charged by first; finished by second" }]);
      await lineIn(charges, /^returned by first$/);
      await stopChild(a.child);
      const after = (await rawRequest(again, "tasks/get", { taskId: created.taskId })) as Raw;
      assert.deepEqual(after.result, done.result, "the paused runner's late end did not replace the task's");
      const lines = readFileSync(charges, "utf8").trim().split("\n");
      assert.deepEqual(
        lines.filter((l) => l.startsWith("charged")),
        ["charged by first"],
        "the step ran once",
      );
      assert.deepEqual(
        lines.filter((l) => l.startsWith("started")),
        ["started by first"],
      );
    } finally {
      if (a.child.signalCode === null && a.child.exitCode === null) a.child.kill("SIGCONT");
      await alice.close().catch(() => {});
      await again.close().catch(() => {});
      await stopChild(a.child);
      await stopChild(b.child);
    }
  });

  test("a runner killed mid-step: the task waits for that step for ten leases, then ends saying whether it happened is unknown; the step never runs twice", async () => {
    const { charges, go, a, b, alice, again, created } = await stepStartedOnFirst("tasks-orphaned-");
    try {
      a.child.kill("SIGKILL");
      await exited(a.child);
      writeFileSync(go, ""); // the second member would charge at once, if it ever ran the step
      // Ten leases of 1 s, on a machine that may be busy.
      const done = await until(again, created.taskId, "completed", 60_000);
      assert.equal(done.result.isError, true);
      assert.match(
        done.result.content[0].text,
        /ctx\.step\("charge"\) was running on the server instance that stopped; whether it happened is unknown/,
      );
      assert.equal(readFileSync(charges, "utf8"), "started by first\n", "the step was not run again");
    } finally {
      await alice.close().catch(() => {});
      await again.close().catch(() => {});
      await stopChild(b.child);
    }
  });
});
