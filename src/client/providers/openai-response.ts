// An OpenAI chat completion → the CreateMessageResult the server gets.
import type { ToolUseContent } from "@modelcontextprotocol/client";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { clip } from "./clip.js";
import { ProviderError, type ProviderTarget, type SamplingResult } from "./provider.js";

/** The most of a model's text an error quotes. */
const MAX_QUOTED = 200;

/**
 * Maps the first choice:
 * - text only → one text block; refusal (no text) → its text with stopReason "refusal";
 * - tool calls → an array of tool_use blocks (after the text, if any) and stopReason "toolUse",
 *   whatever the finish_reason says (some servers, e.g. Ollama, report "stop" with tool calls);
 * - finish_reason stop → "endTurn", length → "maxTokens", tool_calls → "toolUse" (with calls), anything else
 *   (content_filter…) passes through as is, as the spec's open stopReason allows;
 * - model: the one the API reports, else the one requested.
 * Compatible servers vary, so the body is checked rather than trusted to match the types.
 */
export function fromChatCompletion(completion: ChatCompletion, requested: string, target: ProviderTarget): SamplingResult {
  const fail = (detail: string): never => {
    throw new ProviderError({ kind: "bad_response", detail, ...target });
  };
  const choices = (completion as Partial<ChatCompletion> | null)?.choices;
  // Some gateways answer errors with a 200.
  const error = (completion as { error?: { message?: unknown } } | null)?.error;
  if (typeof error?.message === "string") fail(`The model provider answered with an error: ${clip(error.message, MAX_QUOTED)}`);
  if (!Array.isArray(choices) || choices.length === 0) fail("The model provider's answer has no choices");
  const choice = choices![0]!;
  const message = choice.message;
  if (!message || typeof message !== "object") fail("The model provider's answer has no message");

  const text = typeof message.content === "string" ? message.content : "";
  const refusal = typeof message.refusal === "string" ? message.refusal : "";
  const uses = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((call, i): ToolUseContent => {
    if (call.type !== "function" || !call.function)
      return fail(`The model made a ${String(call.type)} tool call; only function calls are supported`);
    const name = call.function.name;
    if (typeof name !== "string" || name === "") return fail("The model called a tool without a name");
    // Some local servers omit call ids; the server still needs one to send the result back.
    const id = typeof call.id === "string" && call.id !== "" ? call.id : `call_${i}`;
    return { type: "tool_use", id, name, input: parseArguments(call.function.arguments, name, fail) };
  });

  const model = typeof completion.model === "string" && completion.model !== "" ? completion.model : requested;
  if (uses.length > 0) {
    return { role: "assistant", content: [...(text ? [{ type: "text" as const, text }] : []), ...uses], model, stopReason: "toolUse" };
  }
  const stopReason = !text && refusal ? "refusal" : stopReasonOf(choice.finish_reason);
  return { role: "assistant", content: { type: "text", text: text || refusal }, model, ...(stopReason ? { stopReason } : {}) };
}

function parseArguments(raw: unknown, tool: string, fail: (detail: string) => never): Record<string, unknown> {
  // No arguments at all is how some servers call a tool that takes none.
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return {};
  let input: unknown = raw;
  // The protocol says a JSON string; a few servers send the object itself, which is just as clear.
  if (typeof raw === "string") {
    try {
      input = JSON.parse(raw);
    } catch (error) {
      return fail(`The model sent malformed JSON arguments for tool "${tool}": ${(error as Error).message}: ${clip(raw, MAX_QUOTED)}`);
    }
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return fail(
      `The model sent arguments for tool "${tool}" that are not a JSON object: ${clip(typeof raw === "string" ? raw : JSON.stringify(raw), MAX_QUOTED)}`,
    );
  }
  return input as Record<string, unknown>;
}

function stopReasonOf(finish: string | null | undefined): string | undefined {
  switch (finish) {
    // "tool_calls" is reached only without tool calls: a "toolUse" with nothing to run would leave the server stuck.
    case "stop":
    case "tool_calls":
      return "endTurn";
    case "length":
      return "maxTokens";
    default:
      return typeof finish === "string" && finish !== "" ? finish : undefined;
  }
}
