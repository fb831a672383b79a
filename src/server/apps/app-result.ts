// What an app-answered call's tool result carries. A round becomes a result the host shows as the form app:
// for the model, text saying the person is answering in the form; for the app, in `_meta` (which hosts keep
// from the model), the question and the sealed state to answer it with. The call's end is the handler's own
// result, marked final so the app shows it and hands it to the model.
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import { APP_META_KEY, ANSWER_TOOL } from "./ui-extension.js";

/** One question of a round, as the app gets it: its key, and the elicitation's params (form or URL mode). */
export interface AppQuestion {
  /** The question's key in the round: sent back with the answer. */
  key: string;
  /** `elicitation/create` params: `{ mode: "form", message, requestedSchema }` or `{ mode: "url", message, url }`. */
  request: Record<string, unknown>;
}

/** `_meta["mcp-elicit.app"]` of a result that asks: what the app answers with `elicit_answer`. */
export interface AppAsk {
  /** The tool whose call this is, and the arguments it was called with: sent back with the answer. */
  tool: string;
  arguments: unknown;
  /** The call's sealed state (the same requestState a 2026-07-28 round carries): single use, bound to principal, tool and arguments. */
  state: string;
  question: AppQuestion;
  /** Who asks: the server's name, for the form's heading (server text: the app shows it inert). */
  server: { name: string };
  /** The tool to answer through. */
  answerTool: string;
}

/** `_meta["mcp-elicit.app"]` of the call's end. */
export interface AppFinal {
  final: true;
}

/** The longest stretch of the question quoted to the model. */
const QUOTED_CHARS = 300;

function quoted(message: unknown): string {
  const text = typeof message === "string" ? message.replace(/\s+/g, " ").trim() : "";
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS - 1)}…` : text;
}

/** The round as a result for the app; undefined when it asks nothing the app can show (only elicitations are). */
export function askResult(server: string, tool: string, args: unknown, round: InputRequiredResult): CallToolResult | undefined {
  const requests = (round as { inputRequests?: Record<string, { method?: string; params?: Record<string, unknown> }> }).inputRequests ?? {};
  const key = Object.keys(requests).find((k) => requests[k]?.method === "elicitation/create");
  const state = (round as { requestState?: unknown }).requestState;
  if (key === undefined || typeof state !== "string") return undefined;
  const request = requests[key]!.params ?? {};
  const ask: AppAsk = { tool, arguments: args, state, question: { key, request }, server: { name: server }, answerTool: ANSWER_TOOL };
  const what = request.mode === "url" ? "to open a link and finish there" : "to fill in a form";
  const text =
    `The person is being asked ${what}, shown with this tool call: "${quoted(request.message)}". ` +
    `They answer there, not in the chat; the tool's outcome is added to the conversation when they finish. ` +
    `Do not call the tool again or ask them the same question meanwhile.`;
  return { content: [{ type: "text", text }], _meta: { [APP_META_KEY]: ask } };
}

/** The handler's result, marked as the call's end for the app. */
export function finalResult(result: CallToolResult): CallToolResult {
  const final: AppFinal = { final: true };
  return { ...result, _meta: { ...result._meta, [APP_META_KEY]: final } };
}

/** A result with `resultType: "input_required"`: a round. */
export function isRound(result: CallToolResult | InputRequiredResult): result is InputRequiredResult {
  return (result as { resultType?: unknown }).resultType === "input_required";
}
