// What a kit's tool is registered with: its config and its handler.
import type { CallToolResult, StandardSchemaV1, StandardSchemaWithJSON, ToolAnnotations } from "@modelcontextprotocol/server";
import type { ElicitContext, TaskSupport } from "../inputs/way.js";

type Args<In> = In extends StandardSchemaWithJSON ? StandardSchemaV1.InferOutput<In> : Record<string, never>;

export interface ElicitToolConfig<In extends StandardSchemaWithJSON | undefined> {
  title?: string;
  description: string;
  inputSchema?: In;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  /**
   * Runs the tool as a task (the io.modelcontextprotocol/tasks extension, on 2026-07-28) for clients that
   * take tasks: "optional" runs it in the call for the others, "required" refuses them (-32021). `start`:
   * "call" (default) makes the task at once; "detach" asks the first questions in the call's own rounds
   * and makes the task when the handler calls `ctx.detach()`.
   */
  task?: TaskSupport | { support: TaskSupport; start?: "call" | "detach" };
}

export type ElicitToolHandler<In extends StandardSchemaWithJSON | undefined> = (
  args: Args<In>,
  ctx: ElicitContext,
) => CallToolResult | Promise<CallToolResult>;
