// A task's answer, checked against the question it answers before anything stores it: its size first
// (so nothing large is walked or kept), then its shape and, for a form, the requested schema the
// question was asked with, by the same checks a round's answer meets when the handler reaches it
// (elicit.ts's judge, checkSampleResult, checkRootsResult). A refused answer is -32602 naming the key
// and the rule, never the value; the question stays open.
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { compileValidator } from "../../schema/compiled.js";
import type { RequestedSchema } from "../../schema/types.js";
import { checkRootsResult } from "../inputs/roots.js";
import { checkSampleResult } from "../inputs/sample.js";
import type { InputRequest } from "../rounds/replay.js";

/** The default bound of one stored answer, in bytes of its JSON (as a round's requestState is bounded). */
export const DEFAULT_MAX_TASK_ANSWER_BYTES = 256 * 1024;

const ACTIONS = new Set(["accept", "decline", "cancel"]);

const refused = (key: string, why: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `inputResponses[${JSON.stringify(key)}] ${why}; nothing was stored, the question is still open.`,
  );

/** What is wrong with an answer to an elicitation/create, in words that never repeat the answer. */
function elicitProblem(params: Record<string, unknown>, answer: unknown): string | undefined {
  const action = typeof answer === "object" && answer !== null ? (answer as { action?: unknown }).action : undefined;
  if (typeof action !== "string" || !ACTIONS.has(action))
    return `is not an elicitation result: its "action" must be "accept", "decline" or "cancel"`;
  if (action !== "accept" || params.mode === "url") return undefined;
  const content = (answer as { content?: unknown }).content;
  if (content !== undefined && (typeof content !== "object" || content === null || Array.isArray(content)))
    return `has a "content" that is not an object of answers by field name`;
  let verdict;
  try {
    verdict = compileValidator(params.requestedSchema as RequestedSchema)(content ?? {});
  } catch {
    return undefined; // a schema this server could not compile is judged where the handler reaches it
  }
  if (verdict.ok) return undefined;
  return `does not fit the requested schema: ${verdict.errors.map((e) => `${e.field || "(the answer)"} breaks "${e.rule}" (${e.message})`).join("; ")}`;
}

/** The answer's JSON text if it may be stored as the answer to `request`; a -32602 ProtocolError otherwise. */
export function checkedAnswer(key: string, request: InputRequest, answer: unknown, maxBytes: number): string {
  const text = JSON.stringify(answer) ?? "null";
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) throw refused(key, `is ${bytes} bytes; the limit of one task answer is ${maxBytes} bytes (maxTaskAnswerBytes)`);
  let problem: string | undefined;
  try {
    if (request.method === "elicitation/create") problem = elicitProblem(request.params, answer);
    else if (request.method === "sampling/createMessage") checkSampleResult(answer);
    else if (request.method === "roots/list") checkRootsResult(answer);
  } catch (error) {
    problem = `is not valid: ${(error as Error).message}`;
  }
  if (problem) throw refused(key, problem);
  return text;
}
