// Calls that become tasks: a 2025-11-25 call that asks for one (its `task` param), and a 2026-07-28
// call of a client that declared the tasks extension (at once, or on ctx.detach() after the call's own
// rounds with `start: "detach"`). A task's runs ask the way rounds do (rounds/round-delivery.ts), their
// journal kept in the store (tasks.ts).
import { ProtocolError, ProtocolErrorCode, type ServerContext, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { InputSettings } from "../inputs/client-inputs.js";
import { handlerContext, type CallAnswer, type KitTool, type ToolCall, type WayOfAsking } from "../inputs/way.js";
import { requestRevision } from "../base/capabilities.js";
import type { RoundCall } from "../rounds/round-call.js";
import { roundDelivery } from "../rounds/round-delivery.js";
import type { Journal } from "../rounds/replay.js";
import { declaresTasks, missingTasksExtension, serveTasks } from "./protocol.js";
import type { Tasks } from "./tasks.js";

/** A task's arguments as its tool's schema parses them (again on each run: the task keeps them as sent). */
async function parseArguments(schema: StandardSchemaWithJSON, tool: string, raw: unknown): Promise<unknown> {
  const parsed = await schema["~standard"].validate(raw ?? {});
  if (parsed.issues) {
    const problems = parsed.issues.map((issue) => issue.message).join("; ");
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for tool ${tool}: ${problems}`);
  }
  return parsed.value;
}

export class TaskCall implements WayOfAsking {
  constructor(
    private readonly settings: InputSettings,
    private readonly tasks: Tasks,
    /** Whose a task is: its creator's principal, or an anonymous one's 2025-era session. */
    private readonly ownerOf: (ctx: ServerContext) => string,
    /** The rounds a `start: "detach"` call asks in before it becomes a task. */
    private readonly rounds: RoundCall,
  ) {}

  register(tool: KitTool): void {
    const { server, name, task } = tool;
    if (!task) return;
    if (task.support === "required")
      tool.guard.add(name, {
        admit: (ctx) => {
          if (requestRevision(server, ctx) === "2026-07-28" && !declaresTasks(ctx)) throw missingTasksExtension(`the tool "${name}"`);
        },
      });
    this.tasks.define(name, async (run, ctx, raw, protocol) => {
      const args = tool.inputSchema ? await parseArguments(tool.inputSchema, name, raw) : {};
      const url = tool.urlCall(ctx, args);
      // Its questions are not gated by the SDK as a round's are: refused here when the client cannot take them.
      const delivery = roundDelivery(server, ctx, run, { protocol });
      return tool.handle(args, handlerContext(ctx, protocol, delivery, this.settings, url).ectx, url);
    });
    serveTasks(server, this.tasks, this.ownerOf);
  }

  matches({ tool, protocol, ctx }: ToolCall): boolean {
    return tool.task !== undefined && protocol === "2026-07-28" && declaresTasks(ctx);
  }

  run(call: ToolCall): Promise<CallAnswer> {
    const { tool, ctx, guarded } = call;
    // A task is bound to the arguments as sent, as requestState is; its runs parse them again.
    const toTask = async (journal?: Journal) => {
      const handle = await this.tasks.create(ctx, tool.name, guarded?.args ?? {}, this.ownerOf(ctx), { journal });
      if (guarded) guarded.created = handle;
      return handle;
    };
    return tool.task!.start === "detach" ? this.rounds.run(call, toTask) : toTask();
  }
}

/** A 2025-11-25 client asks for a task with the call's `task` param (experimental tasks, legacy.ts). */
export class LegacyTaskCall implements WayOfAsking {
  constructor(
    private readonly tasks: Tasks,
    private readonly ownerOf: (ctx: ServerContext) => string,
  ) {}

  register(): void {} // TaskCall defines the tool's task and serves the task methods

  matches({ tool, protocol, guarded }: ToolCall): boolean {
    return tool.task !== undefined && protocol === "2025-11-25" && guarded?.taskParam !== undefined;
  }

  async run({ tool, ctx, guarded }: ToolCall): Promise<CallAnswer> {
    const clientCapabilities = tool.server.server.getClientCapabilities();
    const protocol = "2025-11-25"; // as matched
    guarded!.created = await this.tasks.create(ctx, tool.name, guarded!.args, this.ownerOf(ctx), { protocol, clientCapabilities });
    return { content: [] }; // what McpServer checks; the guard answers with the handle
  }
}
