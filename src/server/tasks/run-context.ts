// The handler's context for one run of a task. A task runs for whoever made it, not for whoever polled
// last: the creator's verified auth (its principal, client id and scopes) comes from the record, and the
// polling request's HTTP request and auth are not handed on. Its envelope is the creating request's.
import type { ServerContext } from "@modelcontextprotocol/server";
import { runAuth, type TaskRecord } from "./records.js";

/**
 * The handler's context for a run: the triggering request's, with the task's envelope, the creator's
 * auth and the run's cancellation. The extension has no progress notifications: a run's progress token
 * is the task id, and what the handler reports becomes the task's statusMessage; its other
 * notifications have no request to go on.
 */
export function runContext(
  base: ServerContext,
  record: TaskRecord,
  signal: AbortSignal,
  progress: (message: string) => Promise<void>,
): ServerContext {
  const notify = async (notification: { method: string; params?: Record<string, unknown> }) => {
    if (notification.method === "notifications/progress") await progress(progressText(notification.params ?? {}));
  };
  const _meta = { ...base.mcpReq._meta, progressToken: record.taskId };
  const mcpReq = {
    ...base.mcpReq,
    _meta,
    signal,
    notify,
    envelope: record.envelope,
    inputResponses: undefined,
    requestState: () => undefined,
  };
  return { ...base, mcpReq, http: record.auth ? { authInfo: runAuth(record.auth) } : undefined } as ServerContext;
}

/** A progress notification as a status line: its message, else "3 of 10" (or "3"). */
function progressText({ progress, total, message }: { progress?: unknown; total?: unknown; message?: unknown }): string {
  if (typeof message === "string" && message.trim()) return message.slice(0, 500);
  return typeof total === "number" ? `${String(progress)} of ${total}` : String(progress ?? "");
}
