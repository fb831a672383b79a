// The wire side of tasks: the extension advertised under capabilities.extensions, and tasks/get,
// tasks/update and tasks/cancel answered for the clients that declared it (-32021 for the others, as
// the extension says); 2025 sessions get 2025-11-25's experimental tasks (legacy.ts). The requests'
// shapes come from @modelcontextprotocol/ext-tasks.
import {
  CancelTaskRequestV2Schema,
  GetTaskRequestV2Schema,
  TASKS_EXTENSION_ID_V2,
  UpdateTaskRequestV2Schema,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { LEGACY_TASKS_CAPABILITY, legacyCancel, legacyGet, legacyList, legacyResult } from "./legacy.js";
import { describeProblem, MESSAGE_LIMITS, shapeProblem } from "../../schema/limits.js";
import type { Tasks } from "./tasks.js";

export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;

/** How a tool takes part in tasks: it may run as one when the client can take it, or only as one. */
export type TaskSupport = "optional" | "required";

/** Whether this request's client declared the tasks extension (2026-07-28 declares per request). */
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  const entry = declared?.extensions?.[TASKS_EXTENSION];
  return entry !== undefined && entry !== null;
}

/** -32021 naming the extension, for a client that did not declare it. */
export function missingTasksExtension(what: string): ProtocolError {
  return new ProtocolError(-32021, `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

/** tasks/update's answers, bounded before anything walks them (-32602 otherwise). */
function checkedResponses(value: unknown): Record<string, unknown> {
  const problem = shapeProblem(value, MESSAGE_LIMITS);
  if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses is ${describeProblem(problem)}; refused unread.`);
  // Each answer is checked against its question before it is stored (answer-check.ts); answers to keys not outstanding are ignored unread.
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "inputResponses must be an object mapping each request key to its response.");
  return value as Record<string, unknown>;
}

// Stays a module WeakSet: a server's tasks/* handlers are installed once, by whichever kit comes first, on
// the SDK's McpServer (not ours to add a field to); a field per kit would let a second kit replace them.
const served = new WeakSet<McpServer>();

/** Whether a request comes on 2026-07-28 (its envelope says so); 2025 sessions have no envelope. */
const modern = (ctx: ServerContext) =>
  (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] === "2026-07-28";

/**
 * Answers the task methods on `server` from `tasks`, once per server: the extension's for 2026-07-28
 * requests, 2025-11-25's experimental ones (legacy.ts) for 2025 sessions.
 */
export function serveTasks(server: McpServer, tasks: Tasks, ownerOf: (ctx: ServerContext) => string): void {
  if (served.has(server)) return;
  served.add(server);
  // 2026-07-28's discovery drops the `tasks` slot (the SDK strips it); 2025 sessions read it.
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} }, tasks: LEGACY_TASKS_CAPABILITY });
  type Answer<P> = (ctx: ServerContext, params: P, owner: string) => Promise<unknown>;
  const byEra = <P extends { taskId?: string }>(method: string, extension: Answer<P> | undefined, legacy: Answer<P> | undefined) => {
    return async (params: P, ctx: ServerContext) => {
      const answer = modern(ctx) ? extension : legacy;
      if (!answer) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
      if (answer === extension && !declaresTasks(ctx)) throw missingTasksExtension(method);
      return answer(ctx, params, ownerOf(ctx));
    };
  };
  const set = server.server.setRequestHandler.bind(server.server) as (
    method: string,
    schemas: object,
    handler: (params: never, ctx: ServerContext) => unknown,
  ) => void;
  const taskId = { params: GetTaskRequestV2Schema.shape.params };
  set(
    "tasks/get",
    taskId,
    byEra<{ taskId: string }>(
      "tasks/get",
      (ctx, { taskId }, owner) => tasks.get(ctx, taskId, owner),
      (ctx, { taskId }, owner) => legacyGet(ctx, tasks, taskId, owner),
    ),
  );
  set(
    "tasks/update",
    // The SDK lifts inputResponses out of the params (as for a tools/call round) into ctx.mcpReq.
    { params: UpdateTaskRequestV2Schema.shape.params.partial({ inputResponses: true }) },
    byEra<{ taskId: string; inputResponses?: unknown }>(
      "tasks/update",
      async (ctx, { taskId, inputResponses }, owner) => {
        await tasks.update(ctx, taskId, owner, checkedResponses(ctx.mcpReq.inputResponses ?? inputResponses));
        return {};
      },
      undefined,
    ),
  );
  set(
    "tasks/cancel",
    { params: CancelTaskRequestV2Schema.shape.params },
    byEra<{ taskId: string }>(
      "tasks/cancel",
      async (ctx, { taskId }, owner) => {
        await tasks.cancel(ctx, taskId, owner);
        return {};
      },
      (ctx, { taskId }, owner) => legacyCancel(ctx, tasks, taskId, owner),
    ),
  );
  // 2025-11-25 only: on 2026-07-28 the SDK answers both -32601 before any handler runs.
  set(
    "tasks/result",
    taskId,
    byEra<{ taskId: string }>("tasks/result", undefined, (ctx, { taskId }, owner) => legacyResult(ctx, tasks, taskId, owner)),
  );
  set(
    "tasks/list",
    { params: z.object({ cursor: z.string().optional() }).optional() },
    byEra("tasks/list", undefined, (_ctx, _params, owner) => legacyList(tasks, owner)),
  );
}
