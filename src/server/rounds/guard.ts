// Refuses a bad requestState with JSON-RPC -32602 and a message saying what is wrong with it.
// McpServer turns every error thrown inside a tool into an `isError` result, and the SDK's own
// requestState.verify hook answers a fixed "Invalid or expired requestState"; so we check the
// state in front of McpServer's stored tools/call handler instead (common/sdk-internals.ts).
// The guard also hands the handler the raw arguments (which requestState is bound to) and the
// journal it opened, so the state is decrypted once per call; each kit has its own guard per server.
import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from "@modelcontextprotocol/server";
import { describeProblem, MESSAGE_LIMITS, shapeProblem } from "../../schema/limits.js";
import { requestHandlers, SdkInternalsError } from "../../common/sdk-internals.js";
import type { ElicitError } from "../../schema/errors.js";
import { StateError } from "../base/sealed-state.js";
import type { GuardedCall, GuardHooks, ToolGuard } from "../inputs/way.js";

export type { GuardedCall } from "../inputs/way.js";

/** The SDK answers a handler's ProtocolError with its code, message and data, as the error says it should be. */
function refusal(error: ElicitError): ProtocolError {
  const { code, message, data } = error.toJsonRpc();
  return new ProtocolError(code, message, data);
}

/** A task handle as the tasks extension shapes it: McpServer gives every tool result a `content` list, which a handle has not. */
function withoutContent({ content: _content, ...handle }: Record<string, unknown>) {
  return handle;
}

type Handler = (request: { params?: Record<string, unknown> }, ctx: ServerContext) => Promise<unknown>;

/** One kit's guard in front of one server's tools/call: it opens the states of the kit's tools. */
export class StateGuard implements ToolGuard {
  private readonly hooks = new Map<string, GuardHooks>();
  // What the guard saw, for the tool's handler, keyed by the request's mcpReq object (which the SDK passes
  // unchanged to the tool callback). A Map whose entry lives exactly as long as the request's handler, not
  // a WeakMap: an ephemeron per request costs every garbage collection.
  private readonly calls = new Map<object, GuardedCall>();

  constructor(server: McpServer) {
    const handlers = requestHandlers(server.server) as unknown as Map<string, Handler>;
    const inner = handlers.get("tools/call");
    if (!inner) throw new SdkInternalsError("tools/call handler of McpServer");
    handlers.set("tools/call", (request, ctx) => {
      const hooks = this.hooks.get(request.params?.name as string);
      return hooks ? this.guarded(hooks, inner, request, ctx) : inner(request, ctx);
    });
  }

  /**
   * Guards `tool`: `admit` (when given) may refuse a call first, then a requestState the call carries is
   * opened with `open` (when given) before the tool runs. Hooks added for one tool are kept together.
   */
  add(tool: string, hooks: GuardHooks): void {
    this.hooks.set(tool, { ...this.hooks.get(tool), ...hooks });
  }

  /** What the guard saw for this call (undefined if it did not run). */
  callOf(ctx: ServerContext): GuardedCall | undefined {
    return this.calls.get(ctx.mcpReq);
  }

  private async guarded({ open, admit }: GuardHooks, inner: Handler, request: { params?: Record<string, unknown> }, ctx: ServerContext) {
    admit?.(ctx);
    const params = request.params ?? {};
    // Answers are sealed and validated below: bound them first, so nothing recurses without end.
    const problem = shapeProblem(ctx.mcpReq.inputResponses ?? params.inputResponses, MESSAGE_LIMITS);
    if (problem)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses is ${describeProblem(problem)}; refused unread.`, {
        reason: "too-large",
      });
    const call: GuardedCall = { args: params.arguments ?? {}, ...(params.task !== undefined ? { taskParam: params.task } : {}) };
    this.calls.set(ctx.mcpReq, call);
    try {
      // The SDK lifts requestState out of the params into the context before handlers run.
      const state = ctx.mcpReq.requestState() as unknown;
      if (state !== undefined) {
        if (typeof state !== "string") {
          throw refusal(new StateError("malformed", "it must be the string this server issued."));
        }
        try {
          call.opened = await open?.(ctx, call, state);
        } catch (error) {
          throw error instanceof StateError ? refusal(error) : error;
        }
      }
      const result = (await inner(request, ctx)) as Record<string, unknown>;
      if (call.created) return call.created;
      return result?.resultType === "task" ? withoutContent(result) : result;
    } finally {
      this.calls.delete(ctx.mcpReq);
    }
  }
}
