// Sampling review: the person sees a server's model request before any model does (approve, edit,
// deny), and the model's answer before the server does (approve, edit, reject); with no model
// provider, the person writes the answer.
import { select } from "@inquirer/prompts";
import type {
  SamplingAnswerReview,
  SamplingAnswerView,
  SamplingEdit,
  SamplingRequestReview,
  SamplingRequestView,
  UIContext,
} from "../../client/ui.js";
import { Cancelled, type TerminalIO } from "./io.js";
import { indent, inert, inertLine, serverName } from "./style.js";
import { editInEditor, foldText, pageThrough, wantsEditor } from "./long-text.js";
import { textPrompt } from "./text-prompt.js";

const LINE_BREAK_HINT = "Type \\n for a line break. Enter keeps what is shown.";

export async function reviewRequest(io: TerminalIO, request: SamplingRequestView, context: UIContext): Promise<SamplingRequestReview> {
  const server = serverName(context);
  // The edited view: what is shown and what the edit is computed from.
  let systemPrompt = request.systemPrompt === undefined ? undefined : inert(request.systemPrompt);
  const messages = request.messages.map((m) => inert(m.text));
  let maxTokens = request.maxTokens;
  try {
    for (;;) {
      const now = { systemPrompt, messages, maxTokens };
      const folded = showRequest(io, request, now, server);
      const next = await io.ask(
        select<"approve" | "read" | "edit" | "deny">,
        {
          message: "Send this request to the model?",
          choices: [
            {
              name:
                request.model === undefined
                  ? "Approve (then type the answer yourself)"
                  : `Approve (send it to ${inertLine(request.model)})`,
              value: "approve",
            },
            ...(folded ? [{ name: "Read the request in full", value: "read" as const }] : []),
            { name: "Edit the request", value: "edit" },
            { name: "Deny", value: "deny" },
          ],
        },
        context.signal,
      );
      if (next === "read") {
        await pageThrough(io, `Model request from ${server}`, fullText(request, now), context.signal);
        continue;
      }
      if (next === "deny") {
        io.print(`Denied: ${server} gets no answer from a model.`);
        return { action: "deny" };
      }
      if (next === "approve") {
        const edit = editOf(request, { systemPrompt, messages, maxTokens });
        io.print(io.style.ok(edit ? "Approved, with your changes." : "Approved."));
        return edit ? { action: "approve", edit } : { action: "approve" };
      }
      const what = await io.ask(
        select<string>,
        {
          message: "What do you want to change?",
          choices: [
            { name: systemPrompt === undefined ? "System prompt (none yet)" : "System prompt", value: "system" },
            ...messages.map((text, i) => ({
              name: `Message ${i + 1} (${request.messages[i]!.role}): ${preview(text)}`,
              value: `message:${i}`,
            })),
            { name: `Max tokens (${maxTokens})`, value: "maxTokens" },
            { name: "Nothing: back", value: "" },
          ],
          pageSize: 12,
        },
        context.signal,
      );
      if (what === "system") {
        const text = await editText(io, "System prompt", systemPrompt ?? "", context.signal, false);
        systemPrompt = text === "" && request.systemPrompt === undefined ? undefined : text;
      } else if (what.startsWith("message:")) {
        const i = Number(what.slice("message:".length));
        messages[i] = await editText(io, `Message ${i + 1} (${request.messages[i]!.role})`, messages[i]!, context.signal, true);
      } else if (what === "maxTokens") maxTokens = await editMaxTokens(io, maxTokens, context.signal);
    }
  } catch (error) {
    if (!(error instanceof Cancelled)) throw error;
    io.print(
      error.by === "server" ? `Denied: ${server} withdrew the request.` : `Denied (cancelled): ${server} gets no answer from a model.`,
    );
    return { action: "deny" };
  }
}

export async function reviewAnswer(
  io: TerminalIO,
  answer: SamplingAnswerView | undefined,
  request: SamplingRequestView,
  context: UIContext,
): Promise<SamplingAnswerReview> {
  const { style } = io;
  const server = serverName(context);
  try {
    let text: string;
    let edited = false;
    if (answer === undefined) {
      io.print(
        "",
        style.bold(`Your answer for ${style.server(server)}`),
        "  No model provider is configured: type the answer the server will receive (Esc rejects).",
      );
      // What is being answered: the last message of the request (shown in full by reviewRequest).
      const last = request.messages.at(-1);
      if (last) io.print(style.dim(`  Answering the ${last.role}'s message: ${preview(inert(last.text))}`));
      text = await editText(io, "Your answer", "", context.signal, true);
      edited = true;
    } else text = inert(answer.text);
    for (;;) {
      showAnswer(io, answer, text, edited, server);
      const next = await io.ask(
        select<"approve" | "edit" | "reject">,
        {
          message: `Send this answer to ${server}?`,
          choices: [
            { name: "Approve", value: "approve" },
            { name: "Edit the answer", value: "edit" },
            { name: "Reject", value: "reject" },
          ],
        },
        context.signal,
      );
      if (next === "reject") {
        io.print(`Rejected: ${server} gets no answer.`);
        return { action: "reject" };
      }
      if (next === "approve") {
        io.print(style.ok(`Sent the answer to ${server}.`));
        return edited ? { action: "approve", text } : { action: "approve" };
      }
      const changed = await editText(io, "Answer", text, context.signal, true);
      if (changed !== text) {
        text = changed;
        edited = true;
      }
    }
  } catch (error) {
    if (!(error instanceof Cancelled)) throw error;
    io.print(error.by === "server" ? `Rejected: ${server} withdrew the request.` : `Rejected (cancelled): ${server} gets no answer.`);
    return { action: "reject" };
  }
}

interface Current {
  systemPrompt: string | undefined;
  messages: string[];
  maxTokens: number;
}

/** Prints the request with long texts folded; true when something was folded. */
function showRequest(io: TerminalIO, request: SamplingRequestView, now: Current, server: string): boolean {
  const { style } = io;
  let folded = false;
  const fold = (text: string, by: string) => {
    const f = foldText(io, text, by);
    folded ||= f.folded;
    return f.shown;
  };
  const changed = (yes: boolean) => (yes ? style.warning(" (edited)") : "");
  io.print("", style.bold(`Model request from ${style.server(server)}`));
  io.print(
    request.model === undefined
      ? style.warning("  No model is configured: if you approve, you type the answer yourself.")
      : `  Model:       ${inertLine(request.model)} (the model that will answer)`,
  );
  if (now.systemPrompt !== undefined)
    io.print(`  System prompt${changed(now.systemPrompt !== orig(request.systemPrompt))}:`, fold(now.systemPrompt, "    "));
  io.print(`  Messages:`);
  now.messages.forEach((text, i) => {
    const m = request.messages[i]!;
    io.print(`    [${i + 1}] ${m.role}${changed(text !== inert(m.text))}:`, fold(text, "      "));
  });
  if (request.modelHints.length) io.print(`  Model hints: ${request.modelHints.map(inertLine).join(", ")}`);
  io.print(`  Max tokens:  ${now.maxTokens}${changed(now.maxTokens !== request.maxTokens)}`);
  const p = request.priorities;
  const priorities = (["cost", "speed", "intelligence"] as const).filter((k) => p[k] !== undefined).map((k) => `${k} ${p[k]}`);
  if (priorities.length) io.print(`  Priorities:  ${priorities.join(", ")} (0 to 1: how much it matters)`);
  if (request.tools.length) io.print(`  Tools:       ${request.tools.map(inertLine).join(", ")}`);
  return folded;
}

/** The system prompt and every message, unfolded, for reading page by page. */
function fullText(request: SamplingRequestView, now: Current): string {
  const parts = now.systemPrompt === undefined ? [] : ["System prompt:", indent(now.systemPrompt, "  ")];
  now.messages.forEach((text, i) => parts.push(`[${i + 1}] ${request.messages[i]!.role}:`, indent(text, "  ")));
  return parts.join("\n");
}

function showAnswer(io: TerminalIO, answer: SamplingAnswerView | undefined, text: string, edited: boolean, server: string): void {
  const { style } = io;
  io.print("", style.bold(`Answer for ${style.server(server)}`));
  io.print(answer ? `  Model:       ${inertLine(answer.model)}` : "  Written by you (no model provider).");
  io.print(`  Text${answer && edited ? style.warning(" (edited)") : ""}:`, indent(text || "(empty)", "    "));
  if (answer?.stopReason) io.print(`  Stop reason: ${inertLine(answer.stopReason)}`);
  if (answer?.toolCalls.length) io.print("  Tool calls:", ...answer.toolCalls.map((c) => `    ${inertLine(c)}`));
}

/** The changes against the request, or undefined when there are none. */
function editOf(request: SamplingRequestView, now: Current): SamplingEdit | undefined {
  const edit: SamplingEdit = {};
  if (now.systemPrompt !== undefined && now.systemPrompt !== orig(request.systemPrompt)) edit.systemPrompt = now.systemPrompt;
  now.messages.forEach((text, i) => {
    if (text !== inert(request.messages[i]!.text)) (edit.messages ??= {})[i] = text;
  });
  if (now.maxTokens !== request.maxTokens) edit.maxTokens = now.maxTokens;
  return Object.keys(edit).length ? edit : undefined;
}

const orig = (text: string | undefined) => (text === undefined ? undefined : inert(text));

/**
 * Edits a text: a long or multi-line one in the person's editor when they have one, else on one line,
 * where line breaks show as \n (and a backslash as \\).
 */
async function editText(io: TerminalIO, label: string, current: string, signal: AbortSignal, required: boolean): Promise<string> {
  const check = (s: string) => (required && !s.trim() ? `${label} cannot be empty (Esc to give up)` : undefined);
  if (wantsEditor(current)) return inert((await editInEditor(io, label, current, signal, check)).replace(/\n$/, ""));
  const value = await io.ask(
    textPrompt,
    {
      message: `${label}:`,
      initial: escapeLines(current),
      hint: io.style.dim(LINE_BREAK_HINT),
      validate: (s) => check(unescapeLines(s)),
      error: (m) => io.style.error(`Error: ${m}`),
      format: (s) => preview(unescapeLines(s)),
    },
    signal,
  );
  return inert(unescapeLines(value));
}

async function editMaxTokens(io: TerminalIO, current: number, signal: AbortSignal): Promise<number> {
  const value = await io.ask(
    textPrompt,
    {
      message: "Max tokens:",
      initial: String(current),
      validate: (s) =>
        /^\s*[1-9]\d*\s*$/.test(s) && Number.isSafeInteger(Number(s)) ? undefined : "Max tokens must be a whole number of at least 1",
      error: (m) => io.style.error(`Error: ${m}`),
    },
    signal,
  );
  return Number(value.trim());
}

export const escapeLines = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
export const unescapeLines = (text: string) => text.replace(/\\(\\|n)/g, (_m, c: string) => (c === "n" ? "\n" : "\\"));

/** The first line of a text, cut short, for a menu entry. */
function preview(text: string): string {
  const line = inertLine(text);
  return line.length > 50 ? `${line.slice(0, 49)}…` : line;
}
