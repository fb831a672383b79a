// The tools the suite's tasks scenarios call (io.modelcontextprotocol/tasks, 2026-07-28): the same kit
// handlers, registered with `task`, so each runs as a task for a client that takes tasks.
import { setTimeout as delay } from "node:timers/promises";
import { ProtocolError, ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

import { form, text, yesNo } from "../../schema/builders.js";
import type { Elicitation } from "../../server/kit/elicitation.js";
import { describe, nameForm, say } from "./fixtures.js";

const deleteForm = form({ confirm: yesNo({ description: "Delete the file?" }) });
// Both parts of multi_input take the same fields, so one answer fits either.
const partForm = form({ name: text().optional(), confirm: yesNo().optional() });

export function registerTaskTools(s: McpServer, kit: Elicitation): void {
  s.registerTool("greet", { description: "Says hello (never a task)", inputSchema: z.object({ name: z.string() }) }, ({ name }) =>
    say(`Hello, ${name}!`),
  );
  kit.registerTool(
    s,
    "slow_compute",
    {
      description: "Waits `seconds`, then answers (a task for clients that take tasks)",
      inputSchema: z.object({ seconds: z.number().min(0).max(3600), label: z.string().optional() }),
      task: "optional",
    },
    async ({ seconds, label }, ctx) => {
      await delay(seconds * 1000, undefined, { signal: ctx.mcpReq.signal });
      return say(`Computed ${label ?? "result"} after ${seconds} s`);
    },
  );
  kit.registerTool(
    s,
    "failing_job",
    { description: "Runs about a second, then reports a tool error (tasks only)", task: "required" },
    async (_args, ctx) => {
      await delay(1000, undefined, { signal: ctx.mcpReq.signal });
      return { ...say("The job failed: the input could not be processed."), isError: true };
    },
  );
  kit.registerTool(s, "protocol_error_job", { description: "Fails with a JSON-RPC error (a failed task)", task: "optional" }, async () => {
    throw new ProtocolError(ProtocolErrorCode.InternalError, "The job's backend is unavailable.");
  });
  kit.registerTool(
    s,
    "confirm_delete",
    { description: "Asks before deleting a file", inputSchema: z.object({ filename: z.string() }), task: "optional" },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit(`Delete ${filename}?`, deleteForm);
      return say(answer.action === "accept" && answer.content.confirm ? `Deleted ${filename}` : `Kept ${filename} (${describe(answer)})`);
    },
  );
  kit.registerTool(s, "multi_input", { description: "Asks two questions at once", task: "optional" }, async (_args, ctx) => {
    const [first, second] = await Promise.all([ctx.elicit("First part", partForm), ctx.elicit("Second part", partForm)]);
    return say(`Both answered: ${describe(first)}; ${describe(second)}`);
  });
  kit.registerTool(
    s,
    "test_tool_with_task",
    { description: "Asks for a name in the call's rounds, then goes on as a task", task: { support: "required", start: "detach" } },
    async (_args, ctx) => {
      const answer = await ctx.elicit("What is your name?", nameForm, { key: "user_name" });
      await ctx.detach();
      return say(answer.action === "accept" ? `Hello from the task, ${answer.content.name}!` : `No name given (${answer.action})`);
    },
  );
}
