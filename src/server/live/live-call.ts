// The 2025-era way of asking (2025-06-18, and 2025-11-25 calls that are not tasks): each question is a
// real server→client request sent as part of the tool call (live-delivery.ts), the handler runs once.
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { InputSettings } from "../inputs/client-inputs.js";
import { handlerContext, type CallAnswer, type KitTool, type ToolCall, type WayOfAsking } from "../inputs/way.js";
import { liveDelivery, type LiveConnection, type LiveStep } from "./live-delivery.js";
import { LiveRoots } from "./live-roots.js";

export class LiveCall implements WayOfAsking {
  // By the SDK's McpServer (one per connection or HTTP session), which is not ours to add fields to;
  // weak, so a closed session's connection goes with its server.
  private readonly connections = new WeakMap<McpServer, LiveConnection>();

  constructor(
    private readonly settings: InputSettings,
    /**
     * How a call runs ctx.step: at once, unless a fleet may finish it elsewhere, then through the call
     * ledger (the kit says which, per call: fleet/calls.ts).
     */
    private readonly stepFor: (ctx: ServerContext) => LiveStep | undefined = () => undefined,
  ) {}

  register({ server }: KitTool): void {
    // At registration, before any call: a list_changed that comes before the first ctx.roots counts.
    if (!this.connections.has(server)) this.connections.set(server, { roots: new LiveRoots(server), announced: new Set() });
  }

  matches(call: ToolCall): boolean {
    return call.protocol !== "2026-07-28";
  }

  run({ tool, ctx, protocol, args, url }: ToolCall): Promise<CallAnswer> {
    const connection = this.connections.get(tool.server)!;
    const delivery = liveDelivery(tool.server, connection, ctx, protocol, this.settings, this.stepFor(ctx));
    return tool.handle(args, handlerContext(ctx, protocol, delivery, this.settings, url).ectx, url);
  }
}
