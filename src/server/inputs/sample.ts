// ctx.sample's checks: the sampling request a tool builds is checked against the revision's rules
// before anything is sent (so a broken request is the tool author's clear error, not a client's
// -32602 or a silently confused model), and the client's answer is checked before the tool sees it.
import type { CreateMessageRequestParams, CreateMessageResult, CreateMessageResultWithTools } from "@modelcontextprotocol/server";
import { isObject } from "../../schema/is-object.js";
import type { ProtocolRevision } from "../../schema/types.js";
import { InvalidClientResultError, SamplingParamsError } from "../base/input-errors.js";

export type SampleParams = CreateMessageRequestParams;

/**
 * A request without tools gets a plain message back; with tools (or when that is not known from
 * the params' type), the answer may hold tool_use blocks and arrays. Keyed on the property names,
 * since an all-optional `{ tools?: undefined }` target is a weak type that nothing extends.
 */
export type SampleResult<P> = "tools" extends keyof P
  ? CreateMessageResultWithTools
  : "toolChoice" extends keyof P
    ? CreateMessageResultWithTools
    : CreateMessageResult;

export interface SampleOptions {
  /** How long to wait for the client (and the person reviewing the request), in ms (2025 eras; default: the server's, 10 minutes). */
  timeoutMs?: number;
  /** The key of this request in 2026-07-28 `inputRequests` (default `sample-N`). */
  key?: string;
}

type Block = Record<string, unknown> & { type: string };

const blocksOf = (content: unknown): unknown[] => (Array.isArray(content) ? content : [content]);
const fail = (problem: string): never => {
  throw new SamplingParamsError(problem);
};

/** Whether the params ask for tool use (which needs the client's `sampling.tools`). */
export const usesTools = (params: Record<string, unknown>) => params.tools !== undefined || params.toolChoice !== undefined;

function checkBlock(block: unknown, where: string, protocol: ProtocolRevision): asserts block is Block {
  if (!isObject(block) || typeof block.type !== "string") return fail(`${where} must be a content block with a "type".`);
  const str = (name: string) => typeof block[name] === "string" || fail(`${where} (${block.type}) needs a string "${name}".`);
  switch (block.type) {
    case "text":
      str("text");
      return;
    case "image":
    case "audio":
      str("data");
      str("mimeType");
      return;
    case "tool_use":
    case "tool_result":
      if (protocol === "2025-06-18")
        fail(`${where} is a ${block.type} block, which does not exist on protocol 2025-06-18 (sampling with tools arrived in 2025-11-25).`);
      if (block.type === "tool_use") {
        str("id");
        str("name");
        if (!isObject(block.input)) fail(`${where} (tool_use) needs an object "input".`);
      } else {
        str("toolUseId");
        if (!Array.isArray(block.content)) fail(`${where} (tool_result) needs a "content" array.`);
      }
      return;
    default:
      fail(
        `${where} has type "${block.type}"; sampling messages hold text, image, audio${protocol === "2025-06-18" ? "" : ", tool_use or tool_result"} blocks.`,
      );
  }
}

/**
 * The tool_use / tool_result rules of 2025-11-25 sampling, over the whole history: an assistant
 * message's tool uses are all answered by the very next message, a user message of tool results
 * only; every tool result answers a tool use of the assistant message just before it.
 */
function checkToolPairing(messages: { role: string; blocks: Block[] }[]): void {
  const ofType = (blocks: Block[] | undefined, type: string) => (blocks ?? []).filter((b) => b.type === type);
  // First what each message holds and answers, so a stray tool_result is named as itself...
  messages.forEach(({ role, blocks }, i) => {
    const uses = ofType(blocks, "tool_use");
    const results = ofType(blocks, "tool_result");
    if (uses.length && role !== "assistant")
      fail(`messages[${i}] has a tool_use block in a ${role} message; tool uses come from the assistant.`);
    if (results.length && role !== "user")
      fail(`messages[${i}] has a tool_result block in an ${role} message; tool results are sent with the user role.`);
    if (results.length && results.length !== blocks.length)
      fail(`messages[${i}] mixes tool_result blocks with other content; a message with tool results must contain only tool results.`);
    const ids = new Set<unknown>();
    for (const use of uses) {
      if (ids.has(use.id)) fail(`messages[${i}] uses the tool_use id "${use.id}" twice.`);
      ids.add(use.id);
    }
    const previous = new Set(ofType(messages[i - 1]?.blocks, "tool_use").map((b) => b.id));
    const answered = new Set<unknown>();
    for (const { toolUseId: id } of results) {
      if (!previous.has(id))
        fail(
          `messages[${i}] has a tool_result for "${id}", which answers no tool_use of the message just before it${i > 0 ? ` (messages[${i - 1}])` : ""}.`,
        );
      if (answered.has(id)) fail(`messages[${i}] answers tool_use "${id}" twice.`);
      answered.add(id);
    }
  });
  // ...then that every tool use is answered before the conversation goes on.
  messages.forEach(({ blocks }, i) => {
    const next = messages[i + 1];
    const answers = new Set(ofType(next?.blocks, "tool_result").map((b) => b.toolUseId));
    const open = ofType(blocks, "tool_use").find((u) => !answers.has(u.id));
    if (!open) return;
    fail(
      next
        ? `messages[${i + 1}] must answer tool_use "${open.id}" of messages[${i}] with a tool_result before any other content.`
        : `tool_use "${open.id}" of messages[${i}] is not answered; add a user message with its tool_result.`,
    );
  });
}

function checkTools(params: Record<string, unknown>): void {
  if (params.tools !== undefined) {
    if (!Array.isArray(params.tools)) fail(`"tools" must be an array of tool definitions.`);
    (params.tools as unknown[]).forEach((tool, i) => {
      if (!isObject(tool) || typeof tool.name !== "string") fail(`tools[${i}] needs a string "name".`);
      const schema = (tool as Record<string, unknown>).inputSchema;
      if (!isObject(schema) || schema.type !== "object")
        fail(`tools[${i}] ("${(tool as { name: string }).name}") needs an "inputSchema" of type "object".`);
    });
  }
  if (params.toolChoice !== undefined) {
    if (!isObject(params.toolChoice)) fail(`"toolChoice" must be an object like { mode: "auto" }.`);
    const mode = (params.toolChoice as Record<string, unknown>).mode;
    if (mode !== undefined && mode !== "auto" && mode !== "required" && mode !== "none")
      fail(`toolChoice.mode must be "auto", "required" or "none", not ${JSON.stringify(mode)}.`);
  }
}

function checkModelPreferences(prefs: unknown): void {
  if (!isObject(prefs)) return fail(`"modelPreferences" must be an object.`);
  for (const name of ["costPriority", "speedPriority", "intelligencePriority"]) {
    const v = prefs[name];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) fail(`modelPreferences.${name} must be a number from 0 to 1.`);
  }
  if (prefs.hints !== undefined && !(Array.isArray(prefs.hints) && prefs.hints.every(isObject)))
    fail(`modelPreferences.hints must be an array of objects like { name: "claude" }.`);
}

/**
 * Checks a sampling request for the revision and returns the params to send (undefined members
 * dropped). Throws SamplingParamsError naming the member, message index or tool_use id at fault.
 */
export function checkSampleParams(input: unknown, protocol: ProtocolRevision): Record<string, unknown> {
  if (!isObject(input)) fail("the params must be an object with messages and maxTokens.");
  const params = Object.fromEntries(Object.entries(input as Record<string, unknown>).filter(([, v]) => v !== undefined));
  if (!Array.isArray(params.messages) || params.messages.length === 0) fail(`"messages" must be a non-empty array.`);
  const messages = (params.messages as unknown[]).map((message, i) => {
    if (!isObject(message)) return fail(`messages[${i}] must be an object with role and content.`);
    if (message.role !== "user" && message.role !== "assistant") fail(`messages[${i}].role must be "user" or "assistant".`);
    if (Array.isArray(message.content) && protocol === "2025-06-18")
      fail(`messages[${i}].content is an array, which protocol 2025-06-18 does not allow (one content block per message).`);
    if (Array.isArray(message.content) && message.content.length === 0) fail(`messages[${i}].content is empty.`);
    if (message.content === undefined) fail(`messages[${i}] has no content.`);
    const blocks = blocksOf(message.content);
    blocks.forEach((b, j) =>
      checkBlock(b, Array.isArray(message.content) ? `messages[${i}].content[${j}]` : `messages[${i}].content`, protocol),
    );
    return { role: message.role as string, blocks: blocks as Block[] };
  });
  if (!(Number.isInteger(params.maxTokens) && (params.maxTokens as number) > 0))
    fail(`"maxTokens" must be a positive integer (the client must respect it).`);
  if (params.systemPrompt !== undefined && typeof params.systemPrompt !== "string") fail(`"systemPrompt" must be a string.`);
  if (params.temperature !== undefined && !Number.isFinite(params.temperature)) fail(`"temperature" must be a number.`);
  if (
    params.stopSequences !== undefined &&
    !(Array.isArray(params.stopSequences) && params.stopSequences.every((s) => typeof s === "string"))
  )
    fail(`"stopSequences" must be an array of strings.`);
  if (params.includeContext !== undefined && !["none", "thisServer", "allServers"].includes(params.includeContext as string))
    fail(`"includeContext" must be "none", "thisServer" or "allServers".`);
  if (params.metadata !== undefined && !isObject(params.metadata)) fail(`"metadata" must be an object.`);
  if (params.modelPreferences !== undefined) checkModelPreferences(params.modelPreferences);
  if (usesTools(params) && protocol === "2025-06-18")
    fail(
      `"tools" and "toolChoice" do not exist on protocol 2025-06-18 (sampling with tools arrived in 2025-11-25); send the request without them.`,
    );
  checkTools(params);
  checkToolPairing(messages);
  return params;
}

/** Checks the client's answer minimally (role and content); anything else is InvalidClientResultError. */
export function checkSampleResult<R = CreateMessageResultWithTools>(result: unknown): R {
  const bad = (problem: string): never => {
    throw new InvalidClientResultError("sampling/createMessage", problem);
  };
  if (!isObject(result)) return bad("it is not an object.");
  if (result.role !== "user" && result.role !== "assistant") bad(`its role is ${JSON.stringify(result.role)}, not "assistant" or "user".`);
  const content = result.content;
  if (content === undefined || (Array.isArray(content) && content.length === 0)) bad("it has no content.");
  blocksOf(content).forEach((b, i) => {
    if (!isObject(b) || typeof b.type !== "string")
      bad(`content${Array.isArray(content) ? `[${i}]` : ""} is not a content block with a "type".`);
  });
  if (result.model !== undefined && typeof result.model !== "string") bad(`its model is not a string.`);
  return result as R;
}
