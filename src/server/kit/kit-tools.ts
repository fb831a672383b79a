// A kit's tools on each server: registered with McpServer, then each call handed to the first way of
// asking that takes it (inputs/way.ts). Nothing here asks anything: the ways do.
import type { CallToolResult, McpServer, RegisteredTool, ServerContext, StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { requestRevision } from "../base/capabilities.js";
import { watchDroppedMessages } from "../base/dropped.js";
import { noteKitStore } from "../base/kit-stores.js";
import { toToolError } from "../base/tool-errors.js";
import type { UrlCall } from "../inputs/url-delivery.js";
import type { CallAnswer, ElicitContext, KitTool, ToolCall, WayOfAsking } from "../inputs/way.js";
import { StateGuard } from "../rounds/guard.js";
import type { UrlKit } from "../url/url-kit.js";
import type { ElicitToolConfig, ElicitToolHandler } from "./tool-types.js";

type SdkRegister = (name: string, config: object, callback: (...args: unknown[]) => unknown) => RegisteredTool;

export class KitTools {
  // This kit's guard in front of each server's tools/call, made with the server's first tool. Keyed by
  // the SDK's McpServer, which is not ours to add fields to; weak, so a closed session's server goes.
  private readonly guards = new WeakMap<McpServer, StateGuard>();

  constructor(
    /** The ways of asking, in the order they are offered each call: the first that matches runs it. */
    private readonly ways: readonly WayOfAsking[],
    private readonly store: { readonly shared?: boolean },
    private readonly principalOf: (ctx: ServerContext) => string,
    private readonly urlKit?: UrlKit,
  ) {}

  register<In extends StandardSchemaWithJSON | undefined>(
    server: McpServer,
    name: string,
    config: ElicitToolConfig<In>,
    handler: ElicitToolHandler<In>,
  ): RegisteredTool {
    noteKitStore(server, this.store);
    const task = typeof config.task === "string" ? { support: config.task } : config.task;
    const { task: _task, ...sdkConfig } = config;
    const register = server.registerTool.bind(server) as SdkRegister;
    const registered = config.inputSchema
      ? register(name, sdkConfig, (args, ctx) => this.dispatch(tool, guard, args, ctx as ServerContext))
      : register(name, sdkConfig, (ctx) => this.dispatch(tool, guard, {}, ctx as ServerContext));
    // McpServer.registerTool takes no `execution`; tools/list shows the registered tool's (2025-11-25
    // clients read it to ask for a task; the 2026-07-28 wire drops it).
    if (task) registered.execution = { taskSupport: task.support };
    // After the first registerTool: McpServer installs its tools/call handler then, and the guard wraps it.
    const guard = this.guardOf(server);
    const tool: KitTool = {
      server,
      name,
      inputSchema: config.inputSchema,
      task,
      guard,
      urlCall: (ctx, args) => this.urlCall(ctx, name, args),
      handle: (args, ectx, url) => this.handle(handler as ElicitToolHandler<undefined>, args, ectx, url),
    };
    for (const way of this.ways) way.register(tool);
    watchDroppedMessages(server);
    return registered;
  }

  /** Hands one call to the first way of asking that takes it. */
  private dispatch(tool: KitTool, guard: StateGuard, args: unknown, ctx: ServerContext): Promise<CallAnswer> {
    const call: ToolCall = {
      tool,
      ctx,
      protocol: requestRevision(tool.server, ctx),
      args,
      guarded: guard.callOf(ctx),
      url: tool.urlCall(ctx, args),
    };
    for (const way of this.ways) if (way.matches(call)) return way.run(call);
    throw new Error(`No way of asking takes this ${call.protocol} call of ${tool.name}.`);
  }

  /** Runs the handler: a thrown error becomes a tool error; once it returns, the call's URL flows end. */
  private async handle(
    handler: ElicitToolHandler<undefined>,
    args: unknown,
    ectx: ElicitContext,
    url: UrlCall | undefined,
  ): Promise<CallToolResult> {
    let result: CallToolResult;
    try {
      result = await handler(args as Record<string, never>, ectx);
    } catch (error) {
      return toToolError(error);
    }
    // The call is over: a later call with the same arguments starts new URL flows.
    if (url) await Promise.all([...url.used].map((key) => url.kit.flows.unalias(key)));
    return result;
  }

  private urlCall(ctx: ServerContext, tool: string, args: unknown): UrlCall | undefined {
    return this.urlKit && { kit: this.urlKit, tool, args, who: this.principalOf(ctx), used: new Set() };
  }

  private guardOf(server: McpServer): StateGuard {
    let guard = this.guards.get(server);
    if (!guard) this.guards.set(server, (guard = new StateGuard(server)));
    return guard;
  }
}
