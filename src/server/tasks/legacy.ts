// 2025-11-25's experimental tasks (SEP-1686), for the clients of that revision: a tools/call with a
// `task` param makes the task (elicitation.ts); tasks/get and tasks/cancel answer the Task with ttl and
// pollInterval, tasks/list the caller's tasks, and tasks/result waits for the end, sending the task's
// questions to the client as requests related to the task while it waits (no tasks/update in that
// revision). The task itself runs exactly as a 2026-07-28 one does (tasks.ts).
import { ProtocolError, ProtocolErrorCode, type ServerContext } from "@modelcontextprotocol/server";
import { legacyView, type Tasks } from "./tasks.js";

/** The _meta key that relates a request or result to its task. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** The capabilities a 2025-11-25 server declares for tasks on tools/call. */
export const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

export async function legacyGet(ctx: ServerContext, tasks: Tasks, taskId: string, owner: string) {
  return legacyView(await tasks.poll(ctx, taskId, owner));
}

export async function legacyCancel(ctx: ServerContext, tasks: Tasks, taskId: string, owner: string) {
  await tasks.cancel(ctx, taskId, owner);
  return legacyView(await tasks.record(taskId, owner));
}

export async function legacyList(tasks: Tasks, owner: string) {
  return { tasks: (await tasks.list(owner)).map(legacyView) };
}

type Send = (request: { method: string; params: unknown }, options: object) => Promise<unknown>;

/** tasks/result: the task's result once it ends; its questions, meanwhile, go to the client over this request. */
export async function legacyResult(ctx: ServerContext, tasks: Tasks, taskId: string, owner: string) {
  const related = { [RELATED_TASK]: { taskId } };
  const asked = new Set<string>();
  for (;;) {
    // Each look is a poll: a task whose runner died is run again from here.
    const record = await tasks.poll(ctx, taskId, owner);
    switch (record.status) {
      case "completed":
        return { ...record.result, _meta: { ...record.result?._meta, ...related } };
      case "failed":
        throw new ProtocolError(
          record.error?.code ?? ProtocolErrorCode.InternalError,
          record.error?.message ?? "The task failed.",
          record.error?.data,
        );
      case "cancelled":
        throw new ProtocolError(ProtocolErrorCode.InternalError, "The task was cancelled.", { taskId });
      case "input_required":
        // Only what is still unanswered: an answer given in another tasks/result stands.
        for (const key of await tasks.pending(record)) {
          const request = record.inputRequests![key]!;
          if (asked.has(key)) continue;
          asked.add(key);
          const params = { ...request.params, _meta: { ...(request.params._meta as object | undefined), ...related } };
          const timeout = Math.min(Date.parse(record.createdAt) + record.ttlMs - Date.now(), 2 ** 31 - 1);
          const answer = await (ctx.mcpReq.send as Send)({ method: request.method, params }, { timeout, signal: ctx.mcpReq.signal });
          // An answer that does not fit its question ends this tasks/result -32602; the question stays open.
          await tasks.update(ctx, taskId, owner, { [key]: answer });
        }
        break;
    }
    await tasks.changed(taskId, record.pollIntervalMs, ctx.mcpReq.signal);
    if (ctx.mcpReq.signal.aborted) throw new ProtocolError(ProtocolErrorCode.InternalError, "tasks/result was cancelled.");
  }
}
