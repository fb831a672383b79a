// A task's status is learned only by asking (tasks/get): polling it is how a client sees a task move,
// and, once a runner's lease has lapsed, what makes a server run it again. Written once, on waitFor.
import type { Client } from "@modelcontextprotocol/client";
import { rawRequest } from "../../src/client/tasks/raw-request.js";
import { waitFor } from "./deferred.js";

export type Raw = Record<string, any>;

/**
 * Polls tasks/get until `done(task)` holds; resolves with that task, or rejects after `timeoutMs`
 * naming `what` and the task as last seen. `done` may throw to end the wait early (a task that ended too soon).
 */
export async function pollTask(
  client: Client,
  taskId: string,
  done: (task: Raw) => boolean,
  { timeoutMs, what, intervalMs = 20 }: { timeoutMs: number; what: string; intervalMs?: number },
): Promise<Raw> {
  let task: Raw | undefined;
  try {
    await waitFor(
      async () => {
        task = (await rawRequest(client, "tasks/get", { taskId })) as Raw;
        return done(task);
      },
      { timeoutMs, what, intervalMs },
    );
  } catch (error) {
    if (error instanceof Error && /^Timed out/.test(error.message))
      throw new Error(`${error.message}; the task is ${JSON.stringify(task ?? null).slice(0, 300)}`);
    throw error;
  }
  return task!;
}

/** Polls tasks/get until the task has `status`, within `timeoutMs` (20 s). */
export const untilStatus = (client: Client, taskId: string, status: string, timeoutMs = 20_000) =>
  pollTask(client, taskId, (task) => task.status === status, { timeoutMs, what: `task ${taskId} to be ${status}` });
