// What a renderer's form() gave back, checked before anything is sent. A malformed answer is a fault
// of the host's UI code, so it is an error for the host author, never a guess: an accept with `{}`
// would tell the server the person accepted with no answers, and a decline or cancel that they did not.
import type { FormAnswer } from "./ui.js";
import { ElicitError } from "../schema/errors.js";

/** A renderer's form() answer the client cannot send; the SDK answers the server -32603 (internal error) with this message. */
export class RendererAnswerError extends ElicitError {
  constructor(
    /** The member of the answer at fault. */
    readonly field: "action" | "content",
    message: string,
  ) {
    super("renderer-answer-invalid", message);
  }
}

/** What a value is, in words; never the value itself (it may be what the person typed). */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

const ACTIONS = new Set(["accept", "decline", "cancel"]);

/** The member of an answer that cannot be sent, and what was given in its place, in words (never the value). */
export interface AnswerShapeProblem {
  field: "action" | "content";
  /** "`action` \"yes\"", "a string", "`content` an array"... */
  given: string;
}

/**
 * Why an elicitation answer cannot be sent as it is: `action` not one of accept, decline, cancel, or an
 * accept whose `content` is not an object of answers. Undefined when its shape is right. Shared by every
 * place an answer comes from before it goes to a server (a renderer, a gateway's host).
 */
export function answerShapeProblem(answer: unknown): AnswerShapeProblem | undefined {
  const isObject = typeof answer === "object" && answer !== null;
  const action = isObject ? (answer as { action?: unknown }).action : undefined;
  if (typeof action !== "string" || !ACTIONS.has(action))
    return {
      field: "action",
      given: isObject ? `\`action\` ${typeof action === "string" ? JSON.stringify(action.slice(0, 40)) : kindOf(action)}` : kindOf(answer),
    };
  const content = (answer as { content?: unknown }).content;
  if (action === "accept" && content !== undefined && (typeof content !== "object" || content === null || Array.isArray(content)))
    return { field: "content", given: `\`content\` ${kindOf(content)}` };
  return undefined;
}

/** The renderer's answer when it can be sent as it is; otherwise a RendererAnswerError naming the member at fault. */
export function checkRendererAnswer(answer: unknown): FormAnswer {
  const problem = answerShapeProblem(answer);
  if (problem?.field === "action")
    throw new RendererAnswerError(
      "action",
      `The elicitation UI's form() answered ${problem.given}; expected { action: "accept" | "decline" | "cancel" }. Nothing was sent for the person.`,
    );
  if (problem)
    throw new RendererAnswerError(
      "content",
      `The elicitation UI's form() answered accept with ${problem.given}; expected an object of answers by field name (or no \`content\`, for the form's defaults). The person's answer was not sent.`,
    );
  return answer as FormAnswer;
}
