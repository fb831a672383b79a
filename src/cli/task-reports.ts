// What `elicit` says about a task a call became: a line each time its status or message changes (the
// message is the server's text, made inert), and, when the person stops elicit, how to come back to it.
import type { TaskReport } from "../client/tasks/follow.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** A task id as printed: inert, and short enough for a line (ids are opaque, but chosen by the server). */
export const taskIdText = (id: string) => sanitizeText(id, { maxLength: 80, multiline: false });

/** What stopping elicit leaves running, and how to come back to it. */
export const goesOn = (id: string) =>
  `task ${taskIdText(id)} goes on on the server: \`elicit tasks result ${taskIdText(id)}\` with the same server comes back to it.`;

/** A task as one readable line (or several: its pending questions); every server text made inert. */
export function describeTask(task: TaskReport): string {
  const inert = (text: string) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });
  const lines = [`${taskIdText(task.taskId)}  ${task.status}${task.statusMessage ? `  ${inert(task.statusMessage)}` : ""}`];
  for (const [key, request] of Object.entries(task.inputRequests ?? {}))
    lines.push(`  waiting for ${inert(key)}: ${inert(String(request?.params?.message ?? request?.method ?? ""))}`);
  return lines.join("\n");
}

/** A status as words for the person (the server's own status string, made inert, when it is not one of the spec's). */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  working: "The task is running on the server",
  input_required: "The task is waiting for your answer",
  completed: "The task is finished",
  failed: "The task failed",
  cancelled: "The task was cancelled",
};

/** One status line: what happened in words first, then the server's message, then the id to come back with. */
export function taskStatusLine(task: Pick<TaskReport, "taskId" | "status" | "statusMessage">): string {
  const words = Object.hasOwn(STATUS_WORDS, task.status)
    ? STATUS_WORDS[task.status]
    : `The task's status is "${sanitizeText(String(task.status), { maxLength: 40, multiline: false })}"`;
  const message = task.statusMessage ? `: ${sanitizeText(task.statusMessage, { maxLength: MAX_LABEL_LENGTH, multiline: false })}` : "";
  return `elicit: ${words}${message} (task ${taskIdText(task.taskId)})`;
}

export function taskReporter(print: (line: string) => void) {
  let last = "";
  let open: string | undefined;
  const seen = new Set<string>();
  return {
    report(task: TaskReport) {
      seen.add(task.taskId);
      const line = taskStatusLine(task);
      open = TERMINAL.has(task.status) ? undefined : task.taskId;
      if (line !== last) print((last = line));
    },
    /** The ids of the tasks reported so far, oldest first. */
    get seen(): string[] {
      return [...seen];
    },
    /** The task still running, if any: stopping elicit leaves it running on the server. */
    get running(): string | undefined {
      return open;
    },
  };
}
