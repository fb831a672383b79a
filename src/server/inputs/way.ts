// The ways of asking: how one call of a kit's tool reaches its client. The kit (kit/elicitation.ts) only
// registers tools and hands each call to the first way that takes it; each way (live/live-call.ts for
// 2025-era connections, tasks/task-call.ts for tasks, rounds/round-call.ts for 2026-07-28 rounds) owns
// its delivery (delivery.ts), the handler's context it builds over it, and the hooks it needs in front of
// the server's tools/call (the kit's state guard). A new way of asking is one more class of this shape.
import type { CallToolResult, McpServer, ServerContext, StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";
import { clientInputs, type ClientInputs, type InputSettings } from "./client-inputs.js";
import type { Delivery } from "./delivery.js";
import type { UrlCall } from "./url-delivery.js";
import type { Principal } from "../auth/options.js";
import { principalOf as verifiedPrincipal } from "../auth/principal.js";

/**
 * The handler's context: the SDK's, plus from ClientInputs (inputs/client-inputs.ts) straight-line
 * `ctx.elicit(message, form, options?)`, `ctx.step(name, fn)`, `ctx.sample(params, options?)`,
 * `ctx.roots(options?)` and `ctx.supports(feature)`.
 */
export type ElicitContext = ServerContext &
  ClientInputs & {
    /** The revision this call is served on. */
    protocol: ProtocolRevision;
    /**
     * Who is calling, when `serveHttp(factory, { auth })` verified a bearer token for this request
     * (or a verifier of your own reported `extra.sub`); undefined otherwise.
     */
    principal?: Principal;
  };

/** The handler's context over `delivery`: the SDK's, plus what the tool can ask (client-inputs.ts). */
export function handlerContext(
  ctx: ServerContext,
  protocol: ProtocolRevision,
  delivery: Delivery,
  settings: InputSettings,
  url: UrlCall | undefined,
): { ectx: ElicitContext; inputs: ClientInputs } {
  const inputs = clientInputs(delivery, settings, url);
  // Object.assign rather than two spreads: V8 copies into a fresh literal many times faster, and a
  // context is made on every call and every round.
  const ectx = Object.assign({}, ctx, inputs) as ElicitContext;
  ectx.protocol = protocol;
  ectx.principal = verifiedPrincipal(ctx);
  return { ectx, inputs };
}

/** How a tool takes part in tasks: it may run as one when the client can take it, or only as one. */
export type TaskSupport = "optional" | "required";

/** What the kit's guard saw of one tools/call before the tool ran (rounds/guard.ts). */
export interface GuardedCall {
  /** The tool's arguments as the client sent them. */
  args: unknown;
  /** The opened requestState, when the call carried one. */
  opened?: unknown;
  /** The arguments' digest, once computed: opening and sealing one round hash them once. */
  argsDigest?: string;
  /** The call's `task` param (2025-11-25 experimental tasks: the client asks for a task). */
  taskParam?: unknown;
  /**
   * The task the call became (its handle): answered as it is. McpServer would check it as a tool result,
   * which a 2025-11-25 handle (`{ task }`, no content) is not.
   */
  created?: Record<string, unknown>;
}

/** What a way may put in front of one tool's calls, before McpServer runs the tool. */
export interface GuardHooks {
  /** Opens a requestState the call carries; throws (or rejects with) StateError. */
  open?: (ctx: ServerContext, call: GuardedCall, state: string) => unknown;
  /** Refuses a call before its tool runs, by throwing a ProtocolError. */
  admit?: (ctx: ServerContext) => void;
}

/** The kit's guard in front of one server's tools/call, as a way sees it. */
export interface ToolGuard {
  /** Adds `hooks` for `tool`'s calls (each way adds its own; they are kept together). */
  add(tool: string, hooks: GuardHooks): void;
}

/** One tool a kit registered on one server, as the ways of asking see it. */
export interface KitTool {
  readonly server: McpServer;
  readonly name: string;
  readonly inputSchema?: StandardSchemaWithJSON;
  readonly task?: { support: TaskSupport; start?: "call" | "detach" };
  readonly guard: ToolGuard;
  /** The URL-mode inputs' view of one call (when the kit has a urlKit). */
  urlCall(ctx: ServerContext, args: unknown): UrlCall | undefined;
  /** Runs the tool's handler: its result, or its error as a tool error; then the call's URL flows end. */
  handle(args: unknown, ectx: ElicitContext, url: UrlCall | undefined): Promise<CallToolResult>;
}

/** One tools/call of a kit's tool. */
export interface ToolCall {
  readonly tool: KitTool;
  readonly ctx: ServerContext;
  readonly protocol: ProtocolRevision;
  /** The arguments as the tool's schema parsed them. */
  readonly args: unknown;
  /** What the guard saw (undefined if it did not run). */
  readonly guarded: GuardedCall | undefined;
  readonly url: UrlCall | undefined;
}

/** What a call answers: the tool's result, an input_required round, or a task handle. */
export type CallAnswer = CallToolResult | Record<string, unknown>;

/** A way of asking: the kit runs each call with the first way, in its order, that `matches` it. */
export interface WayOfAsking {
  /** Installs what this way needs for `tool` on its server (guard hooks, request handlers, watchers). */
  register(tool: KitTool): void;
  /** Whether this way runs `call`. */
  matches(call: ToolCall): boolean;
  /** Runs `call` with a context whose inputs go over this way's delivery. */
  run(call: ToolCall): Promise<CallAnswer>;
}
