// `elicit connect`: an interactive host for any MCP server. List its tools, call one (arguments from a
// form built from its input schema, or as JSON), see the result, manage roots, repeat.
import { input, select } from "@inquirer/prompts";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { browserOpener } from "../common/open-url.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import { checkSchema, hasErrors } from "../schema/check.js";
import { describeFields } from "../schema/compiled.js";
import type { RequestedSchema } from "../schema/types.js";
import { askOwnForm, terminalUI, type TerminalUI } from "../ui/terminal/index.js";
import { hostRequestOf, targetOf, type TargetOptions } from "./call.js";
import { EXIT } from "./exit.js";
import { announceConnection, serverLabel, withHost, type Host } from "./host.js";
import { hideSpinner } from "./host-output.js";
import { whenInterrupted } from "./interrupt.js";
import { hostAuthOf } from "./oauth.js";
import { printResult } from "./result.js";
import { describeTask, goesOn, taskIdText, taskReporter } from "./task-reports.js";
import { rawRequest } from "../client/tasks/raw-request.js";
import type { TaskReport } from "../client/tasks/follow.js";
import { connectWeb } from "./connect-web.js";
import type { WebFlags } from "./web.js";

const line = (text: unknown) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });
const out = (text: string) => process.stdout.write(text + "\n");

/** Ctrl-C or Esc in a prompt of ours rejects with this name: treated as "back" or "quit". */
const isExit = (error: unknown) => error instanceof Error && (error.name === "ExitPromptError" || error.name === "AbortPromptError");

export async function connect(command: string[], options: TargetOptions & WebFlags): Promise<number> {
  if (options.web) return connectWeb(command, options);
  if (!process.stdin.isTTY) {
    process.stderr.write(
      "elicit connect: needs a terminal (or --web, to use it in a browser); use `elicit call` with --answers for scripts.\n",
    );
    return EXIT.usage;
  }
  const terminal = terminalUI({ openUrl: options.browser === false ? false : browserOpener() });
  const calls: Calls = { terminal, waitingOn: undefined };
  // A call the server turns into a task: its status and message, a line each change, as elicit call shows them.
  const tasks = taskReporter(out);
  // Ctrl-C in a prompt is a key (back or quit); while a tool runs it is a signal, and gets a sentence.
  const stopHandling = whenInterrupted({
    clearScreen() {
      hideSpinner();
      terminal.stopWaiting();
    },
    say: (how) =>
      tasks.running
        ? `elicit connect: stopped (${how}); ${goesOn(tasks.running)}`
        : `elicit connect: stopped (${how})${calls.waitingOn ? ` while waiting for ${calls.waitingOn}: no result here` : ""}.`,
    cleanup: () => {},
  });
  return withHost(
    async () => hostRequestOf(options, targetOf(options, command), terminal, hostAuthOf(options, true)),
    async (host, provider) => {
      await announceConnection(host, provider, out);
      host.onTaskReport((report) => tasks.report(report));
      await loop(host, calls, tasks);
      return EXIT.ok;
    },
  ).finally(stopHandling);
}

/** The terminal, and what a tool call in progress waits for (for the sentence Ctrl-C prints). */
interface Calls {
  terminal: TerminalUI;
  waitingOn: string | undefined;
}

async function loop(host: Host, calls: Calls, tasks: ReturnType<typeof taskReporter>): Promise<void> {
  for (;;) {
    const tools = await host.listTools();
    const roots = host.roots.list();
    let choice: string;
    try {
      choice = await select({
        message: "What next?",
        pageSize: 15,
        choices: [
          ...tools.map((t) => ({ name: `Call ${line(t.name)}`, value: `tool:${t.name}`, description: line(t.description ?? "") })),
          // Tasks this session's calls became (and, on 2025-11-25, the server's list of yours).
          ...(tasks.seen.length || host.protocol === "2025-11-25"
            ? [{ name: "Show tasks", value: "tasks", description: "Their status now, and the questions they wait for" }]
            : []),
          {
            name: "Add a root directory",
            value: "root:add",
            description: `Roots now: ${roots.map((r) => line(r.name ?? r.uri)).join(", ") || "none"}`,
          },
          ...roots.map((r) => ({ name: `Remove root ${line(r.name ?? r.uri)}`, value: `root:remove:${r.uri}` })),
          { name: "Quit", value: "quit" },
        ],
      });
    } catch (error) {
      if (isExit(error)) return;
      throw error;
    }
    if (choice === "quit") return;
    try {
      if (choice === "tasks") {
        out(await showTasks(host, tasks.seen));
      } else if (choice === "root:add") {
        const dir = await input({
          message: "Directory to share with the server:",
          validate: (v) => (v.trim() ? true : "Type a directory path"),
        });
        const root = await host.roots.add(dir.trim());
        out(`Added root ${root.uri}`);
      } else if (choice.startsWith("root:remove:")) {
        await host.roots.remove(choice.slice("root:remove:".length));
        out("Removed.");
      } else {
        await callOne(
          host,
          tools.find((t) => `tool:${t.name}` === choice)!,
          calls,
        );
      }
    } catch (error) {
      if (isExit(error)) continue;
      process.stderr.write(`elicit: ${sanitizeText((error as Error).message, { maxLength: 2000 })}\n`);
    }
  }
}

/** Each task's status now (tasks/get), those seen here first, then the server's list on 2025-11-25. */
async function showTasks(host: Host, seen: string[]): Promise<string> {
  const ids = [...seen];
  if (host.protocol === "2025-11-25") {
    const listed = (await rawRequest(host.client, "tasks/list", {}).catch(() => ({}))) as { tasks?: TaskReport[] };
    for (const task of listed.tasks ?? []) if (typeof task?.taskId === "string" && !ids.includes(task.taskId)) ids.push(task.taskId);
  }
  if (!ids.length) return "No tasks.";
  const lines = await Promise.all(
    ids.map((taskId) =>
      rawRequest(host.client, "tasks/get", { taskId }).then(
        (task) => describeTask(task as unknown as TaskReport),
        () => `${taskIdText(taskId)}  (the server no longer has it)`,
      ),
    ),
  );
  return lines.join("\n");
}

async function callOne(host: Host, tool: Tool, calls: Calls): Promise<void> {
  const args = await argumentsFor(host, tool);
  if (args === undefined) return;
  // After 2 s with no question open, a spinner says what the call waits for.
  const what = `${serverLabel(host.serverInfo(), "the server")} (${line(tool.name)})`;
  calls.waitingOn = what;
  try {
    const work = host.elicitation.callTool({ name: tool.name, arguments: args }) as Promise<CallToolResult>;
    printResult(await calls.terminal.waitingFor(what, work), out);
  } finally {
    calls.waitingOn = undefined;
  }
}

/** Arguments from a form when the input schema is a flat form the renderer can show; else typed JSON. */
async function argumentsFor(host: Host, tool: Tool): Promise<Record<string, unknown> | undefined> {
  const schema = tool.inputSchema as unknown as RequestedSchema;
  const properties = Object.keys(schema.properties ?? {});
  if (properties.length === 0) return {};
  const formable = !hasErrors(checkSchema(schema, { protocol: "2025-11-25" }));
  if (formable) {
    // Our own form, not the server's request: worded so (no "Form from …", no Decline that tells the server no).
    const info = host.serverInfo();
    const name = line(tool.name);
    const server = serverLabel(info, "the server");
    const answer = await askOwnForm(
      {
        message: sanitizeText(tool.description || "(the tool has no description)", { maxLength: 2000 }),
        fields: describeFields(schema).map((f) => ({ ...f, label: line(f.label) })),
        schema,
        warnings: [],
      },
      {
        server: { name: line(info?.name ?? "server"), version: line(info?.version ?? "") },
        protocol: "2025-11-25",
        signal: new AbortController().signal,
      },
      {
        title: `Arguments for ${name} (a tool of ${server})`,
        cancel: `do not call ${name}`,
        cancelled: `Cancelled: ${name} was not called.`,
        sent: `Calling ${name} on ${server}…`,
      },
    );
    return answer.action === "accept" ? answer.content : undefined;
  }
  const text = await input({
    message: `Arguments for ${line(tool.name)} as JSON (fields: ${properties.map(line).join(", ")}):`,
    default: "{}",
    validate: (value) => {
      try {
        const parsed = JSON.parse(value);
        return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? true : "Must be a JSON object";
      } catch (error) {
        return `Not JSON: ${(error as Error).message}`;
      }
    },
  });
  return JSON.parse(text) as Record<string, unknown>;
}
