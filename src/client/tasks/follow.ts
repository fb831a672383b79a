// A tool call that a server answers with a task (io.modelcontextprotocol/tasks, 2026-07-28) is followed
// to its end below the SDK client, and the client is handed the task's final result as the call's
// answer: the host sees an ordinary tools/call, as the extension suggests for clients whose callers
// expect a result. While it runs, the task's questions (its inputRequests on tasks/get) are answered by
// the client's own handlers, those attachElicitation, attachSampling and attachRoots installed, with
// the same checks as any other question; tasks/update sends the answers.
import { setTimeout as delay } from "node:timers/promises";
import type { Client, JSONRPCMessage, Result, Transport } from "@modelcontextprotocol/client";
import { storedRequestHandler } from "../../common/sdk-internals.js";
import { setOwn } from "../../schema/own.js";
import { rawRequest, RawRequestError } from "./raw-request.js";

/** The extension's name, as a client declares it under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** What a task reports on each poll (the extension's DetailedTask, as sent). */
export interface TaskReport {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  pollIntervalMs?: number;
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface FollowTasksOptions {
  /** Called with every report of a task a call turned into (its status, message, pending questions). */
  onReport?: (report: TaskReport) => void;
}

/** The wait before the next poll: the server's suggestion (default 1 s), kept between 100 ms and 30 s. */
const pollDelay = (suggested: number | undefined) => Math.min(Math.max(suggested ?? 1000, 100), 30_000);

type Message = { id?: string | number; method?: string; result?: Record<string, unknown> };

// Stays a WeakSet keyed by the SDK's transport (its onmessage wrapped once): followTasks is a free function
// of an SDK Client, so no object of ours lives across calls to own the mark, and the transport gets no field of ours.
const following = new WeakSet<Transport>();

/**
 * Follows the tasks this client's tool calls turn into (the client must declare the extension:
 * `extensions: { "io.modelcontextprotocol/tasks": {} }` in its capabilities). Call once, after connect.
 * A task is never cancelled for its caller: the extension lets tasks outlive the conversation, so a
 * call given up on leaves its task running (tasks/cancel cancels it); closing the client stops following.
 */
export function followTasks(client: Client, options: FollowTasksOptions = {}): void {
  const transport = client.transport;
  if (!transport) throw new Error("followTasks: connect the client first.");
  if (following.has(transport)) return;
  following.add(transport);
  const closed = new AbortController();
  const onclose = transport.onclose;
  transport.onclose = () => {
    closed.abort(new Error("The client closed."));
    onclose?.();
  };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as Message;
    // Only a tools/call may be answered with a task, and raw requests' answers never get here.
    if (m.method !== undefined || m.id === undefined || !m.result) return deliver?.(message, extra);
    const legacy = legacyTask(m.result);
    if (m.result.resultType !== "task" && !legacy) return deliver?.(message, extra);
    const id = m.id;
    const answer = (body: { result: Result } | { error: { code: number; message: string; data?: unknown } }) =>
      deliver?.({ jsonrpc: "2.0", id, ...body } satisfies JSONRPCMessage, extra);
    const report = (r: TaskReport) => options.onReport?.(r);
    const followed = legacy
      ? followLegacy(client, legacy, closed.signal, report)
      : follow(client, m.result as unknown as TaskReport, closed.signal, report);
    void followed.then(
      (result) => answer({ result: { ...result, resultType: "complete" } }),
      (error: unknown) => !closed.signal.aborted && answer({ error: rpcErrorOf(error) }),
    );
  };
}

function rpcErrorOf(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RawRequestError)
    return { code: error.rpcCode, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return { code: typeof code === "number" ? code : -32603, message: String(message ?? error), ...(data === undefined ? {} : { data }) };
}

/** Polls the task to its end, answering its questions; resolves with its result or rejects with its error. */
async function follow(
  client: Client,
  created: TaskReport,
  signal: AbortSignal,
  report: (r: TaskReport) => void,
): Promise<Record<string, unknown>> {
  const { taskId } = created;
  const answered = new Set<string>();
  let task = created;
  for (;;) {
    report(task);
    switch (task.status) {
      case "completed":
        return task.result ?? { content: [] };
      case "failed":
        throw new RawRequestError(task.error?.code ?? -32603, task.error?.message ?? "The task failed.", task.error?.data);
      case "cancelled":
        throw new RawRequestError(-32603, `The server cancelled the task${task.statusMessage ? `: ${task.statusMessage}` : "."}`);
      case "input_required": {
        // A request is shown once: a poll that comes before the server took the answer lists it again.
        const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
        if (fresh.length) {
          const inputResponses: Record<string, unknown> = {};
          for (const [key, request] of fresh) {
            // Keys are the server's: "__proto__" is a key like any other here.
            setOwn(inputResponses, key, await answerInput(client, key, request, signal));
            answered.add(key);
          }
          await rawRequest(client, "tasks/update", { taskId, inputResponses }, signal);
        }
        break;
      }
    }
    await delay(pollDelay(task.pollIntervalMs), undefined, { signal });
    task = (await rawRequest(client, "tasks/get", { taskId }, signal)) as unknown as TaskReport;
  }
}

/** The task of a 2025-11-25 CreateTaskResult (`{ task: { taskId, status, ... } }`), if that is what `result` is. */
function legacyTask(result: Record<string, unknown>): TaskReport | undefined {
  const task = result.task as Partial<TaskReport> | undefined;
  return task && typeof task === "object" && typeof task.taskId === "string" && !("content" in result) ? (task as TaskReport) : undefined;
}

/**
 * A 2025-11-25 task (experimental tasks): tasks/result waits for the end, and the server sends the
 * task's questions as requests while it waits, which the client's handlers answer as any other;
 * tasks/get is polled beside it for the reports.
 */
async function followLegacy(
  client: Client,
  created: TaskReport,
  signal: AbortSignal,
  report: (r: TaskReport) => void,
): Promise<Record<string, unknown>> {
  const { taskId } = created;
  let last = created.status;
  report(created);
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  const result = rawRequest(client, "tasks/result", { taskId }, signal);
  const polling = (async () => {
    let interval = (created as { pollInterval?: number }).pollInterval;
    for (;;) {
      await delay(pollDelay(interval), undefined, { signal: both });
      const task = (await rawRequest(client, "tasks/get", { taskId }, both)) as unknown as TaskReport & { pollInterval?: number };
      interval = task.pollInterval;
      last = task.status;
      report(task);
    }
  })().catch(() => {});
  try {
    const final = await result;
    // The result came before a poll saw the end: the end is reported all the same.
    if (last !== "completed") report({ taskId, status: "completed" });
    return final;
  } catch (error) {
    if (!signal.aborted && last !== "failed") report({ taskId, status: "failed" });
    throw error;
  } finally {
    stop.abort();
    await polling;
  }
}

/**
 * Comes back to a task by its id (one a call became earlier, maybe in another process): follows it to
 * its end as followTasks does, answering its questions, and resolves with its result.
 */
export async function followTask(client: Client, taskId: string, options: FollowTasksOptions & { signal?: AbortSignal } = {}) {
  const signal = options.signal ?? new AbortController().signal;
  const report = (r: TaskReport) => options.onReport?.(r);
  const task = (await rawRequest(client, "tasks/get", { taskId }, signal)) as unknown as TaskReport;
  const modern = client.getNegotiatedProtocolVersion() === "2026-07-28";
  return modern ? follow(client, task, signal, report) : followLegacy(client, task, signal, report);
}

/** One of the task's questions, answered by the client's handler for its method, as an embedded request is. */
async function answerInput(
  client: Client,
  key: string,
  request: { method: string; params?: Record<string, unknown> },
  signal: AbortSignal,
) {
  const handler = typeof request?.method === "string" ? storedRequestHandler(client, request.method) : undefined;
  if (!handler)
    throw new RawRequestError(
      -32601,
      `The task asked ${JSON.stringify(String(request?.method)).slice(0, 80)}, which this client does not answer.`,
    );
  const unavailable = () => {
    throw new Error("A task's question has no request to send related messages on.");
  };
  const mcpReq = {
    id: key,
    method: request.method,
    _meta: request.params?._meta,
    requestState: () => undefined,
    signal,
    send: unavailable,
    notify: unavailable,
  };
  return handler({ jsonrpc: "2.0", id: key, method: request.method, ...(request.params ? { params: request.params } : {}) }, { mcpReq });
}
