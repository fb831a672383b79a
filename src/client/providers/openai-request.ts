// CreateMessageRequest params → an OpenAI chat-completions request body.
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { ProviderError, type ProviderErrorKind, type ProviderTarget, type SamplingParams } from "./provider.js";

type Message = SamplingParams["messages"][number];
type Block = Extract<Message["content"], { type: string }>;
type ToolResult = Extract<Block, { type: "tool_result" }>;
type ResultBlock = ToolResult["content"][number];

/**
 * Which body field carries maxTokens. `max_tokens` is what every OpenAI-compatible server
 * (llama.cpp, Ollama, vLLM, LM Studio, gateways) understands; OpenAI's own API deprecated it and
 * its reasoning models reject it, wanting `max_completion_tokens`.
 */
export type MaxTokensField = "max_tokens" | "max_completion_tokens";

export interface RequestOptions {
  model: string;
  maxTokensField: MaxTokensField;
  target: ProviderTarget;
}

/**
 * Maps the request. Not sent: `metadata` (provider-specific, and OpenAI's needs `store`),
 * `includeContext` (the client's business), and `toolChoice` without tools (the API rejects it).
 */
export function toChatRequest(
  params: SamplingParams,
  { model, maxTokensField, target }: RequestOptions,
): ChatCompletionCreateParamsNonStreaming {
  const fail = (kind: ProviderErrorKind, detail: string): never => {
    throw new ProviderError({ kind, detail, ...target });
  };
  const messages: ChatCompletionMessageParam[] = [];
  if (typeof params.systemPrompt === "string" && params.systemPrompt !== "")
    messages.push({ role: "system", content: params.systemPrompt });
  params.messages.forEach((message, index) => messages.push(...toChatMessages(message, index, fail)));

  const body: ChatCompletionCreateParamsNonStreaming = { model, messages };
  if (typeof params.maxTokens === "number") body[maxTokensField] = params.maxTokens;
  if (typeof params.temperature === "number") body.temperature = params.temperature;
  if (params.stopSequences && params.stopSequences.length > 0) body.stop = [...params.stopSequences];
  if (params.tools && params.tools.length > 0) {
    body.tools = params.tools.map((tool) => ({
      type: "function" as const,
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.inputSchema as Record<string, unknown>,
      },
    }));
    const mode = params.toolChoice?.mode;
    if (mode) body.tool_choice = mode;
  }
  return body;
}

type Fail = (kind: ProviderErrorKind, detail: string) => never;

/** One MCP message becomes one chat message, or one `tool` message per tool result. */
function toChatMessages(message: Message, index: number, fail: Fail): ChatCompletionMessageParam[] {
  const blocks: Block[] = Array.isArray(message.content) ? message.content : [message.content as Block];
  const where = `message ${index} (${message.role})`;
  const results = blocks.filter((b): b is ToolResult => b.type === "tool_result");
  if (results.length > 0) {
    // The spec's rule (tool results travel alone, in user messages) is what makes the `tool` role mapping possible.
    if (message.role !== "user") fail("invalid_request", `${where} holds a tool_result; tool results belong in user messages`);
    if (results.length !== blocks.length) fail("invalid_request", `${where} mixes tool results with other content, which the spec forbids`);
    return results.map((r) => ({ role: "tool" as const, tool_call_id: r.toolUseId, content: toolResultText(r, where, fail) }));
  }
  if (message.role === "assistant") return [assistantMessage(blocks, where, fail)];

  if (blocks.every((b) => b.type === "text")) {
    // A plain string is what every compatible server accepts; arrays of parts are not universal.
    return [{ role: "user", content: blocks.map((b) => (b as { text: string }).text).join("\n\n") }];
  }
  const parts: ChatCompletionContentPart[] = blocks.map((b) => {
    switch (b.type) {
      case "text":
        return { type: "text", text: b.text };
      case "image":
        if (!/^image\/[\w.+-]+$/i.test(b.mimeType)) return fail("unsupported", `${where}: "${b.mimeType}" is not an image type`);
        return { type: "image_url", image_url: { url: `data:${b.mimeType};base64,${b.data}` } };
      case "audio":
        return { type: "input_audio", input_audio: { data: b.data, format: audioFormat(b.mimeType, where, fail) } };
      default:
        return fail("invalid_request", `${where} holds ${b.type} content, which user messages cannot carry`);
    }
  });
  return [{ role: "user", content: parts }];
}

function assistantMessage(blocks: Block[], where: string, fail: Fail): ChatCompletionMessageParam {
  const texts: string[] = [];
  const calls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const b of blocks) {
    if (b.type === "text") texts.push(b.text);
    else if (b.type === "tool_use")
      calls.push({ id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
    else fail("unsupported", `${where} holds ${b.type} content; chat-completions assistant messages carry only text and tool calls`);
  }
  return {
    role: "assistant",
    // The API wants null content, not "", on a message that only calls tools.
    content: texts.length > 0 ? texts.join("\n\n") : null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

/**
 * A `tool` message carries text only: text blocks and embedded text resources as they are, resource
 * links as "[resource: name <uri>]", structuredContent as JSON when there is no text, and an
 * "Error: " prefix for isError (the API has no error flag). Images, audio and binary resources fail.
 */
function toolResultText(result: ToolResult, where: string, fail: Fail): string {
  const texts = result.content.map((block: ResultBlock) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "resource_link":
        return `[resource: ${block.name} <${block.uri}>]`;
      case "resource":
        if ("text" in block.resource && typeof block.resource.text === "string") return block.resource.text;
        return fail(
          "unsupported",
          `${where}: the result of tool call "${result.toolUseId}" holds a binary resource, which a tool message cannot carry`,
        );
      default:
        return fail(
          "unsupported",
          `${where}: the result of tool call "${result.toolUseId}" holds ${block.type} content; tool messages carry only text`,
        );
    }
  });
  let text = texts.join("\n");
  if (texts.length === 0 && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  return result.isError ? `Error: ${text}` : text;
}

function audioFormat(mimeType: string, where: string, fail: Fail): "wav" | "mp3" {
  const type = mimeType.toLowerCase().split(";")[0]!.trim();
  if (["audio/wav", "audio/wave", "audio/x-wav", "audio/vnd.wave"].includes(type)) return "wav";
  if (["audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mp3"].includes(type)) return "mp3";
  return fail("unsupported", `${where}: ${mimeType} audio is not supported; chat completions take wav or mp3 only`);
}
