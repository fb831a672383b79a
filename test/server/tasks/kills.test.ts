// A task survives a death at any moment after its question was answered: the process running it is
// SIGKILLed right after the answer (before or after its run was stored) and again between its steps,
// over and over, on SQLite and on Redis. A new process on the same store is polled: once the dead
// runner's lease lapses, the poll runs the task again from its journal. Every task completes with
// every step's value, and every ctx.step ran exactly once. (A kill inside a step itself, between its
// effect and its record, is the one moment whose outcome is unknown: tasks-restart.test.ts shows that
// case ending with a clear error, never a second run; here kills land in the work around the steps.)
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/client";
import { rawRequest } from "../../../src/client/tasks/raw-request.js";
import { scratchFiles } from "../../helpers/files.js";
import { needs } from "../../helpers/needs.js";
import { pollTask } from "../../helpers/poll-task.js";
import { exited, stopChild } from "../../helpers/processes.js";
import { startRedis } from "../../helpers/redis.js";
import { clientOf, startMember, until, type Raw } from "../../helpers/task-members.js";

/**
 * Per store: TASKS tasks of STEPS steps, killed after the answer and in the work before steps 2..STEPS:
 * TASKS x STEPS kills, or one fewer for a task whose first kill came late (a busy machine delays the
 * timer past the first step, which then needs no kill of its own): at least TASKS x (STEPS - 1).
 */
const TASKS = 4;
const STEPS = 4;
const LEAST_KILLS = TASKS * (STEPS - 1);
/** The work before each step; kills land up to half of it after the work started. */
const GAP_MS = 600;

/**
 * A kill's moment, drawn at random up to half a gap ahead: this waits for nothing (the test's point is
 * that no moment is safe to kill at), and whatever the task did by then is what the next runner finds.
 */
const randomMoment = () => sleep(randomInt(0, GAP_MS / 2));

type Member = { child: ChildProcess; url: URL; name: string };

/**
 * Polls tasks/get on `client` (which runs the task again once the dead runner's lease lapses) until
 * `line` is in `file`; fails if the task ends first or `ms` passes.
 */
async function pollUntilLine(client: Client, taskId: string, file: string, line: string, ms = 30_000): Promise<void> {
  await pollTask(
    client,
    taskId,
    (task) => {
      assert.ok(task.status === "working" || task.status === "input_required", `the task ended early: ${JSON.stringify(task)}`);
      return readFileSync(file, "utf8").split("\n").includes(line);
    },
    { timeoutMs: ms, what: `"${line}" (never run again?)` },
  );
}

/** Runs TASKS tasks one after another, killing their members as the header says; returns how many kills there were. */
async function killAfterAnswers(env: Record<string, string>, charges: string): Promise<number> {
  let lives = 0;
  // The next member starts while the current one runs (idle, nobody polls it), so a kill need not wait for a start.
  const spawnNext = () => {
    const name = `m${++lives}`;
    return startMember({ ...env, MEMBER_NAME: name }).then((m) => ({ ...m, name }));
  };
  let next: Promise<Member> = spawnNext();
  /** The member polled now and its client: stopped in the end whatever happened. */
  let live: { member: Member; client: Client } | undefined;
  let kills = 0;
  const kill = async (member: Member, client: Client) => {
    member.child.kill("SIGKILL");
    await exited(member.child);
    kills++;
    await client.close().catch(() => {});
    live = undefined;
  };
  const stepsDone = (tag: string) =>
    readFileSync(charges, "utf8")
      .split("\n")
      .filter((l) => l.startsWith(`step ${tag} `)).length;
  try {
    for (let t = 0; t < TASKS; t++) {
      const tag = `t${t}`;
      let member = await next;
      next = spawnNext();
      let client = await clientOf(member.url);
      live = { member, client };
      const created = (await rawRequest(client, "tools/call", {
        name: "steps_after_answer",
        arguments: { tag, steps: STEPS, gapMs: GAP_MS },
      })) as Raw;
      const { taskId } = created;
      await until(client, taskId, "input_required");
      await rawRequest(client, "tasks/update", { taskId, inputResponses: { "elicit-1": { action: "accept", content: { go: true } } } });
      // Right after the answer: before the run is stored, while it is stored, or as its work starts.
      await randomMoment();
      await kill(member, client);
      for (;;) {
        const done = stepsDone(tag);
        member = await next;
        next = spawnNext();
        client = await clientOf(member.url);
        live = { member, client };
        if (done >= STEPS - 1) {
          const ended = await until(client, taskId, "completed", 60_000);
          assert.deepEqual(ended.result.content, [
            { type: "text", text: `${tag}: steps ${Array.from({ length: STEPS }, (_, i) => i + 1).join(",")}` },
          ]);
          await client.close().catch(() => {});
          await stopChild(member.child);
          live = undefined;
          break;
        }
        // Step done+1 runs in this life (the poll restarts the task once the lease lapses); the work
        // before the step after it has started only once that step is recorded: the kill lands in it.
        await pollUntilLine(client, taskId, charges, `gap ${tag} ${done + 2} by ${member.name}`);
        await randomMoment();
        await kill(member, client);
      }
    }
  } finally {
    await live?.client.close().catch(() => {});
    if (live) await stopChild(live.member.child);
    await next.then((m) => stopChild(m.child)).catch(() => {});
  }
  const lines = readFileSync(charges, "utf8").split("\n");
  for (let t = 0; t < TASKS; t++)
    for (let i = 1; i <= STEPS; i++) {
      const ran = lines.filter((l) => l.startsWith(`step t${t} ${i} by `));
      assert.equal(ran.length, 1, `step ${i} of task t${t} ran ${ran.length} times: ${ran.join("; ")}`);
    }
  return kills;
}

describe("a task killed at random moments after its answer", () => {
  test(`on SQLite: ${LEAST_KILLS} kills or more, every task completes, every step runs once`, async () => {
    const { dir } = scratchFiles("tasks-kills-");
    const charges = join(dir, "charges.txt");
    writeFileSync(charges, "");
    const env = { STORE: `sqlite:${join(dir, "tasks.db")}`, CHARGES: charges, MCP_ELICIT_STATE_KEY: randomBytes(32).toString("hex") };
    const kills = await killAfterAnswers(env, charges);
    assert.ok(kills >= LEAST_KILLS && kills <= TASKS * STEPS, `${kills} kills`);
  });

  test(`on Redis: ${LEAST_KILLS} kills or more, every task completes, every step runs once`, { skip: needs("redis-server") }, async () => {
    const redis = await startRedis();
    try {
      const { dir } = scratchFiles("tasks-kills-redis-");
      const charges = join(dir, "charges.txt");
      writeFileSync(charges, "");
      const env = { STORE: `redis:${redis.url}`, CHARGES: charges, MCP_ELICIT_STATE_KEY: randomBytes(32).toString("hex") };
      const kills = await killAfterAnswers(env, charges);
      assert.ok(kills >= LEAST_KILLS && kills <= TASKS * STEPS, `${kills} kills`);
    } finally {
      await redis.stop();
    }
  });
});
