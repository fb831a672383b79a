// The host's answer to a question the gateway handed it, checked against the question as the server
// asked it before anything goes on to the server, with the checks attachElicitation makes of its own
// UI's answers (answerShapeProblem, checkFormContent). An answer that fails is refused with -32602
// naming the member, the field and the rule: the server never receives it.
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { ServerQuestion } from "../../client/attached.js";
import { checkFormContent, fieldErrorText, unknownFields } from "../../client/form-answer.js";
import { answerShapeProblem } from "../../client/renderer-answer.js";
import { quoteText } from "../../schema/excerpt.js";
import type { ProtocolRevision, RequestedSchema } from "../../schema/types.js";

type Result = Record<string, unknown>;

/** At most this many problems are listed in one refusal. */
const LISTED = 5;

/** The answer as the server is to receive it, or why it cannot go to the server (one line per problem). */
export type CheckedAnswer = { ok: true; answer: Result } | { ok: false; problems: string[] };

/**
 * The host's answer to `question`, checked. A form's accept goes on with its content's defaults filled
 * in; a decline, a cancel or a URL answer goes on without content. Refused: an action other than accept,
 * decline or cancel, content that is not an object, a field the form does not have, a field that breaks
 * its rule. Questions other than elicitation/create go on as they are.
 */
export function checkHostAnswer(question: ServerQuestion, answer: unknown, protocol: ProtocolRevision): CheckedAnswer {
  if (question.method !== "elicitation/create") return { ok: true, answer: answer as Result };
  const shape = answerShapeProblem(answer);
  if (shape?.field === "action")
    return { ok: false, problems: [`"action" must be "accept", "decline" or "cancel", got ${shape.given} [action]`] };
  if (shape) return { ok: false, problems: [`"content" must be an object of answers by field name, got ${shape.given} [content]`] };
  const { action, content, _meta } = answer as { action: string; content?: Record<string, unknown>; _meta?: unknown };
  const meta = typeof _meta === "object" && _meta !== null && !Array.isArray(_meta) ? { _meta } : {};
  if (action !== "accept" || question.params.mode === "url") return { ok: true, answer: { action, ...meta } };
  const schema = question.params.requestedSchema as RequestedSchema;
  const problems = unknownFields(schema, content ?? {}).map((key) => `field ${quoteText(key)} is not in the form [unknown field]`);
  const checked = checkFormContent(schema, content, protocol);
  if (!checked.ok) problems.push(...checked.errors.map((e) => `field ${quoteText(e.field)}: ${fieldErrorText(e)} [${e.rule}]`));
  if (problems.length || !checked.ok) return { ok: false, problems };
  return { ok: true, answer: { action, content: checked.value, ...meta } };
}

/** The problems in one line: the first LISTED, and how many more. */
export const listProblems = (problems: string[]): string =>
  problems.slice(0, LISTED).join("; ") + (problems.length > LISTED ? `; and ${problems.length - LISTED} more` : "");

/** The -32602 for a refused answer (or a round's answers). */
export function invalidAnswer(problems: string[]): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid answer, not sent to the server: ${listProblems(problems)}. The question is still open: answer it again.`,
  );
}
