// `elicit tasks get|result|cancel|list`: coming back to tasks that calls became, on the same server
// (a task outlives the conversation that made it). `result` follows the task to its end, answering its
// questions as `elicit call` does; the others are one request each.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { followTask, type TaskReport } from "../client/tasks/follow.js";
import { rawRequest, RawRequestError } from "../client/tasks/raw-request.js";
import { sanitizeText } from "../common/sanitize.js";
import { scriptedUI } from "../ui/scripted.js";
import { hostRequestOf, targetOf, uiFor, atTerminal, type CallOptions } from "./call.js";
import { EXIT, HostError, inertJson } from "./exit.js";
import { withHost, type Host } from "./host.js";
import { printLine } from "./host-output.js";
import { hostAuthOf } from "./oauth.js";
import { describeTask, taskIdText, taskReporter } from "./task-reports.js";

export type TasksAction = "get" | "result" | "cancel" | "list";

export interface TasksOptions extends CallOptions {
  json?: boolean;
}

/** The server's refusal of a task request, as elicit says it (an unknown id is the usual one). */
function refusal(error: unknown, id: string | undefined): never {
  if (error instanceof RawRequestError) {
    const what =
      error.rpcCode === -32602 && id
        ? `no task ${taskIdText(id)} on this server (unknown, expired, or another caller's)`
        : sanitizeText(error.message, { maxLength: 300, multiline: false });
    throw new HostError(`${what} (${error.rpcCode}).`);
  }
  throw error;
}

export async function tasks(action: TasksAction, id: string | undefined, command: string[], options: TasksOptions): Promise<number> {
  return withHost(
    async () => {
      const target = targetOf(options, command);
      if (action !== "list" && !id) throw new HostError(`elicit tasks ${action} needs the task's id.`);
      // Only `result` may meet the task's questions: it answers them as elicit call does.
      const ui = action === "result" ? await uiFor(options.answers, options.browser === false) : scriptedUI([], { log: printLine });
      return hostRequestOf(options, target, ui, hostAuthOf(options, action === "result" && options.answers === undefined && atTerminal()));
    },
    async (host: Host) => {
      const client = host.client;
      try {
        switch (action) {
          case "get": {
            const task = (await rawRequest(client, "tasks/get", { taskId: id })) as unknown as TaskReport;
            process.stdout.write((options.json ? inertJson(task) : describeTask(task)) + "\n");
            return EXIT.ok;
          }
          case "cancel":
            await rawRequest(client, "tasks/cancel", { taskId: id });
            printLine(`elicit: asked the server to cancel task ${taskIdText(id!)}; \`elicit tasks get\` shows when it has.`);
            return EXIT.ok;
          case "list": {
            if (host.protocol === "2026-07-28")
              throw new HostError(
                "2026-07-28 servers list no tasks (the tasks extension has no tasks/list): use the id elicit call printed.",
              );
            const { tasks: list = [] } = (await rawRequest(client, "tasks/list", {})) as { tasks?: TaskReport[] };
            process.stdout.write((options.json ? inertJson(list) : list.map(describeTask).join("\n") || "(no tasks)") + "\n");
            return EXIT.ok;
          }
          case "result": {
            const reporter = taskReporter(printLine);
            const result = (await followTask(client, id!, { onReport: (r) => reporter.report(r) })) as CallToolResult;
            process.stdout.write(inertJson(result) + "\n");
            return result.isError ? EXIT.toolError : EXIT.ok;
          }
        }
      } catch (error) {
        refusal(error, id);
      }
    },
  );
}
