// Reads what the page POSTs back, one reader per kind of request. The page is a browser tab that
// anyone with the address could script, so nothing it sends is trusted: each answer is checked for
// its shape here, and a form answer against the form's schema again, before any promise resolves.
import type {
  FormAnswer,
  SamplingAnswerReview,
  SamplingEdit,
  SamplingRequestReview,
  UrlAnswer,
  UrlWaitOutcome,
} from "../../../client/ui.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../../../common/sanitize.js";
import { applyDefaults } from "../../../schema/defaults.js";
import type { ProtocolRevision, RequestedSchema } from "../../../schema/types.js";
import { validateContent } from "../../../schema/validate.js";
import { ElicitError } from "../../../schema/errors.js";

/** An answer the server will not take: the HTTP status and one line for the page. */
export class AnswerError extends ElicitError {
  constructor(
    readonly status: 400 | 422,
    message: string,
  ) {
    super("web-answer-invalid", message);
  }
}

/** Longest text the person may type into a sampling answer or edit, in UTF-16 units. */
export const MAX_TYPED_TEXT = 100_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function actionOf<A extends string>(raw: unknown, allowed: readonly A[]): A {
  const action = isRecord(raw) ? raw.action : undefined;
  if (typeof action !== "string" || !(allowed as readonly string[]).includes(action))
    throw new AnswerError(400, `answer.action must be one of ${allowed.join(", ")}.`);
  return action as A;
}

function typedText(value: unknown, name: string): string {
  if (typeof value !== "string") throw new AnswerError(400, `${name} must be a string.`);
  if (value.length > MAX_TYPED_TEXT) throw new AnswerError(400, `${name} is longer than ${MAX_TYPED_TEXT} characters.`);
  return value;
}

/** A form answer; `own` forms have no Decline. The content is validated against the schema, defaults applied as attachElicitation does. */
export function readFormAnswer(raw: unknown, schema: RequestedSchema, protocol: ProtocolRevision, own: boolean): FormAnswer {
  const action = actionOf(raw, own ? (["accept", "cancel"] as const) : (["accept", "decline", "cancel"] as const));
  if (action !== "accept") return { action };
  const content = (raw as Record<string, unknown>).content;
  if (!isRecord(content)) throw new AnswerError(400, "answer.content must be an object with one entry per field.");
  const verdict = validateContent(schema, applyDefaults(schema, content, { protocol }));
  if (!verdict.ok) {
    // Field labels are server text: inert, and bounded, before they go back into the page.
    const errors = verdict.errors.map((e) => sanitizeText(e.message, { maxLength: MAX_LABEL_LENGTH * 2, multiline: false }));
    throw new AnswerError(422, `The answer does not fit the form: ${errors.join("; ")}.`);
  }
  return { action: "accept", content: verdict.value };
}

export const readUrlAnswer = (raw: unknown): UrlAnswer => actionOf(raw, ["accept", "decline", "cancel"] as const);

export const readUrlWaitAnswer = (raw: unknown): UrlWaitOutcome => actionOf(raw, ["retry", "cancel"] as const);

/** Approve (with an optional edit of the system prompt, text messages by index, maxTokens) or deny. */
export function readRequestReview(raw: unknown, messageCount: number): SamplingRequestReview {
  if (actionOf(raw, ["approve", "deny"] as const) === "deny") return { action: "deny" };
  const edit = (raw as Record<string, unknown>).edit;
  if (edit === undefined) return { action: "approve" };
  if (!isRecord(edit)) throw new AnswerError(400, "answer.edit must be an object.");
  const out: SamplingEdit = {};
  if (edit.systemPrompt !== undefined) out.systemPrompt = typedText(edit.systemPrompt, "answer.edit.systemPrompt");
  if (edit.maxTokens !== undefined) {
    if (typeof edit.maxTokens !== "number" || !Number.isSafeInteger(edit.maxTokens) || edit.maxTokens < 1)
      throw new AnswerError(400, "answer.edit.maxTokens must be a whole number of at least 1.");
    out.maxTokens = edit.maxTokens;
  }
  if (edit.messages !== undefined) {
    if (!isRecord(edit.messages)) throw new AnswerError(400, "answer.edit.messages must be an object of message texts by index.");
    const messages: Record<number, string> = {};
    for (const [key, text] of Object.entries(edit.messages)) {
      const index = /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
      if (index < 0 || index >= messageCount)
        throw new AnswerError(
          400,
          `answer.edit.messages: ${JSON.stringify(key.slice(0, 20))} is not the index of a message (0 to ${messageCount - 1}).`,
        );
      messages[index] = typedText(text, `answer.edit.messages[${index}]`);
    }
    out.messages = messages;
  }
  return { action: "approve", edit: out };
}

/** Approve (optionally with replacement text), or reject. With no model answer there is nothing to approve but typed text. */
export function readAnswerReview(raw: unknown, modelAnswered: boolean): SamplingAnswerReview {
  if (actionOf(raw, ["approve", "reject"] as const) === "reject") return { action: "reject" };
  const text = (raw as Record<string, unknown>).text;
  if (text === undefined) {
    if (!modelAnswered) throw new AnswerError(400, "answer.text is required: no model answered, so the answer is the text you type.");
    return { action: "approve" };
  }
  return { action: "approve", text: typedText(text, "answer.text") };
}
