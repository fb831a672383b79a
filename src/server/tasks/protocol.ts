// The wire side of tasks: the extension advertised under capabilities.extensions, and tasks/get,
// tasks/update and tasks/cancel answered for the clients that declared it (-32021 for the others, as
// the extension says). The requests' shapes come from @modelcontextprotocol/ext-tasks.
import {
  CancelTaskRequestV2Schema,
  GetTaskRequestV2Schema,
  TASKS_EXTENSION_ID_V2,
  UpdateTaskRequestV2Schema,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
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
  // Each answer is checked when the tool reaches it, as in a round; answers to keys not outstanding are ignored unread.
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "inputResponses must be an object mapping each request key to its response.");
  return value as Record<string, unknown>;
}

const served = new WeakSet<McpServer>();

/** Answers the extension's methods on `server` from `tasks`; once per server. */
export function serveTasks(server: McpServer, tasks: Tasks, ownerOf: (ctx: ServerContext) => string): void {
  if (served.has(server)) return;
  served.add(server);
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const gated = <P extends { taskId: string }, R>(method: string, answer: (ctx: ServerContext, params: P, owner: string) => Promise<R>) => {
    return async (params: P, ctx: ServerContext) => {
      if (!declaresTasks(ctx)) throw missingTasksExtension(method);
      return answer(ctx, params, ownerOf(ctx));
    };
  };
  const set = server.server.setRequestHandler.bind(server.server) as (
    method: string,
    schemas: object,
    handler: (params: never, ctx: ServerContext) => unknown,
  ) => void;
  set(
    "tasks/get",
    { params: GetTaskRequestV2Schema.shape.params },
    gated("tasks/get", (ctx, { taskId }, owner) => tasks.get(ctx, taskId, owner)),
  );
  set(
    "tasks/update",
    // The SDK lifts inputResponses out of the params (as for a tools/call round) into ctx.mcpReq.
    { params: UpdateTaskRequestV2Schema.shape.params.partial({ inputResponses: true }) },
    gated("tasks/update", async (ctx, { taskId, inputResponses }: { taskId: string; inputResponses?: unknown }, owner) => {
      await tasks.update(ctx, taskId, owner, checkedResponses(ctx.mcpReq.inputResponses ?? inputResponses));
      return {};
    }),
  );
  set(
    "tasks/cancel",
    { params: CancelTaskRequestV2Schema.shape.params },
    gated("tasks/cancel", async (ctx, { taskId }, owner) => {
      await tasks.cancel(ctx, taskId, owner);
      return {};
    }),
  );
}
