// What a person reviews of a sampling request and of the model's answer: sanitized views of the
// server's params and the model's result, and the person's edits applied back onto the real params.
import type { SamplingParams, SamplingResult } from "./providers/provider.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import type { SamplingAnswerView, SamplingEdit, SamplingMessageView, SamplingRequestView } from "./ui.js";

/** Bound for one message or a system prompt as shown: long enough for a list of 50 flights. */
export const MAX_SAMPLING_TEXT = 20_000;

type Block = { type: string; [k: string]: unknown };

const blocks = (content: unknown): Block[] =>
  (Array.isArray(content) ? content : [content]).filter((b): b is Block => typeof b === "object" && b !== null);

const kb = (base64: unknown) => (typeof base64 === "string" ? `${Math.ceil((base64.length * 3) / 4 / 1024)} KB` : "? KB");

/** One content block as text: text as is, anything else described in brackets. */
function describeBlock(block: Block): string {
  switch (block.type) {
    case "text":
      return String(block.text ?? "");
    case "image":
    case "audio":
      return `[${block.type}, ${String(block.mimeType ?? "unknown type")}, ${kb(block.data)}]`;
    case "tool_use":
      return `[tool call ${String(block.name)}(${JSON.stringify(block.input ?? {})})]`;
    case "tool_result":
      return `[tool result for ${String(block.toolUseId)}: ${blocks(block.content).map(describeBlock).join(" ")}]`;
    default:
      return `[${String(block.type)} content]`;
  }
}

const inert = (text: string, maxLength = MAX_SAMPLING_TEXT) => sanitizeText(text, { maxLength });
const label = (text: unknown) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });

export function requestView(params: SamplingParams, model: string | undefined): SamplingRequestView {
  const p = params as SamplingParams & { tools?: { name: string }[] };
  const messages: SamplingMessageView[] = p.messages.map((m) => ({
    role: m.role,
    text: inert(blocks(m.content).map(describeBlock).join("\n")),
  }));
  const prefs = p.modelPreferences ?? {};
  const priorities: SamplingRequestView["priorities"] = {};
  if (typeof prefs.costPriority === "number") priorities.cost = prefs.costPriority;
  if (typeof prefs.speedPriority === "number") priorities.speed = prefs.speedPriority;
  if (typeof prefs.intelligencePriority === "number") priorities.intelligence = prefs.intelligencePriority;
  return {
    ...(p.systemPrompt !== undefined ? { systemPrompt: inert(p.systemPrompt) } : {}),
    messages,
    maxTokens: p.maxTokens,
    modelHints: (prefs.hints ?? []).map((h) => label(h.name ?? "")).filter(Boolean),
    priorities,
    tools: (p.tools ?? []).map((t) => label(t.name)),
    ...(model !== undefined ? { model: label(model) } : {}),
  };
}

/**
 * The person's edits applied to the server's params. Only text messages can be rewritten: edits to
 * messages with other content (an image, a tool result) are left out and listed in `ignored`.
 */
export function applyEdit(params: SamplingParams, edit: SamplingEdit | undefined): { params: SamplingParams; ignored: number[] } {
  if (!edit) return { params, ignored: [] };
  const out: SamplingParams = { ...params };
  const ignored: number[] = [];
  if (edit.systemPrompt !== undefined) out.systemPrompt = edit.systemPrompt;
  if (edit.maxTokens !== undefined && Number.isInteger(edit.maxTokens) && edit.maxTokens > 0) out.maxTokens = edit.maxTokens;
  if (edit.messages) {
    out.messages = params.messages.map((m, i) => {
      const text = edit.messages![i];
      if (text === undefined) return m;
      if (blocks(m.content).some((b) => b.type !== "text")) {
        ignored.push(i);
        return m;
      }
      return { ...m, content: { type: "text" as const, text } };
    });
  }
  return { params: out, ignored };
}

export function answerView(result: SamplingResult): SamplingAnswerView {
  const all = blocks(result.content);
  return {
    model: label(result.model),
    text: inert(
      all
        .filter((b) => b.type !== "tool_use")
        .map(describeBlock)
        .join("\n"),
    ),
    ...(result.stopReason !== undefined ? { stopReason: label(result.stopReason) } : {}),
    toolCalls: all.filter((b) => b.type === "tool_use").map((b) => label(`${String(b.name)}(${JSON.stringify(b.input ?? {})})`)),
  };
}

/** The answer that goes back when the person wrote or rewrote it. */
export const typedAnswer = (text: string, model: string): SamplingResult => ({
  role: "assistant",
  content: { type: "text", text },
  model,
  stopReason: "endTurn",
});
