// ctx.elicit on top of any channel: encode the form for the revision, ask, validate the answer,
// ask again with each field's error while attempts remain. The same loop runs live (2025 eras)
// and under replay (2026-07-28), where every ask and re-ask is one recorded input request.
import { compileForm, encodeForRevision } from "../../schema/compiled.js";
import type { SchemaInput } from "../../schema/normalize.js";
import { getOwn, setOwn } from "../../schema/own.js";
import type { ProtocolRevision, RequestedSchema } from "../../schema/types.js";
import type { Infer } from "../../schema/infer.js";
import type { FieldError } from "../../schema/validate.js";
import { ElicitError } from "../../schema/errors.js";

export type ElicitOutcome<T> = { action: "accept"; content: T } | { action: "decline" } | { action: "cancel" };

/** What a `validate` hook finds wrong: one message, or messages by field name; nothing when the answer is fine. */
export type AnswerProblems = string | Record<string, string> | undefined;

export interface ElicitOptions<T = Record<string, unknown>> {
  /**
   * Rules the schema cannot express, checked after it: return what is wrong (a message, or messages by
   * field) and the person is asked again with it, keeping the other answers, within `attempts`.
   */
  validate?: (content: T) => AnswerProblems;
  /** How many times to ask in all when answers fail validation (default: the server's, 2). */
  attempts?: number;
  /** How long to wait for the person, in ms (2025 eras; default: the server's, 10 minutes). */
  timeoutMs?: number;
  /** The key of this question in 2026-07-28 `inputRequests` (default `elicit-N`); re-asks get `KEY-2`, `KEY-3`... */
  key?: string;
}

/** What one answer came to: the person's choice with validated content, or why it was refused (and which fields to keep). */
export type Verdict<T = unknown> = ElicitOutcome<T> | { action: "invalid"; errors: FieldError[]; keep: Record<string, unknown> };

/**
 * Sends one `elicitation/create` and resolves with `judge`'s verdict on the client's raw (untrusted)
 * result. Under replay a verdict is what the journal keeps, so the raw answer never travels further.
 */
export type AskFn = <T>(params: Record<string, unknown>, attempt: number, judge: (raw: unknown) => Verdict<T>) => Promise<Verdict<T>>;

/** The answers kept failing validation; the tool ends with this message. */
export class InvalidAnswerError extends ElicitError {
  constructor(
    readonly errors: FieldError[],
    attempts: number,
  ) {
    super(
      "invalid-answer",
      `The answer was still invalid after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${errors.map((e) => e.message).join("; ")}.`,
    );
  }
}

function withDefaults(schema: RequestedSchema, previous: Record<string, unknown>): RequestedSchema {
  const properties: RequestedSchema["properties"] = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const kept = getOwn(previous, name);
    setOwn(properties, name, kept === undefined ? prop : { ...prop, default: kept });
  }
  return { ...schema, properties };
}

/** A validate hook's verdict as field errors (rule "custom"); a message for no one field names none. */
function problemsOf(found: AnswerProblems): FieldError[] {
  if (found === undefined) return [];
  if (typeof found === "string") return [{ field: "", rule: "custom", message: found }];
  return Object.entries(found).map(([field, message]) => ({ field, rule: "custom" as const, message }));
}

function retryMessage(message: string, errors: FieldError[]): string {
  return `${message}\n\nPlease correct the following and answer again:\n${errors.map((e) => `- ${e.message}`).join("\n")}`;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads the result's action; anything else is malformed. */
function actionOf(result: unknown): "accept" | "decline" | "cancel" | undefined {
  const action = (result as { action?: unknown } | null)?.action;
  return action === "accept" || action === "decline" || action === "cancel" ? action : undefined;
}

export async function elicitValidated<S extends SchemaInput>(
  ask: AskFn,
  protocol: ProtocolRevision,
  message: string,
  form: S,
  attempts: number,
  validate?: (content: Infer<S>) => AnswerProblems,
): Promise<ElicitOutcome<Infer<S>>> {
  // Throws InvalidSchemaError before anything is sent.
  const compiled = compileForm(form);
  const { schema } = compiled;
  const judge = (result: unknown): Verdict<Infer<S>> => {
    const action = actionOf(result);
    if (action === "decline" || action === "cancel") return { action };
    const answered = (result as { content?: unknown }).content ?? {};
    const checked = compiled.accept(answered);
    let errors = checked.ok ? [] : checked.errors;
    if (checked.ok && action === "accept") {
      // The schema's rules hold; now the tool's own.
      errors = validate ? problemsOf(validate(checked.value as Infer<S>)) : [];
      if (errors.length === 0) return { action: "accept", content: checked.value as Infer<S> };
    }
    // Only fields that passed their own checks are kept, as the re-ask's defaults: nothing else of the answer.
    const bad = new Set(errors.map((e) => e.field));
    const fields = checked.ok ? checked.value : isPlainObject(answered) ? answered : {};
    const keep = Object.fromEntries(Object.entries(fields).filter(([k]) => !bad.has(k) && Object.hasOwn(schema.properties, k)));
    if (action !== "accept") errors = [{ field: "", rule: "object", message: "The client's answer was not a valid elicitation result" }];
    return { action: "invalid", errors, keep };
  };
  let sent = compiled.encoded(protocol);
  let text = message;
  for (let attempt = 1; ; attempt++) {
    const params: Record<string, unknown> = { message: text, requestedSchema: sent };
    if (protocol !== "2025-06-18") params.mode = "form";
    const verdict = await ask(params, attempt, judge);
    if (verdict.action !== "invalid") return verdict;
    if (attempt >= attempts) throw new InvalidAnswerError(verdict.errors, attempts);
    // Ask again: keep what was valid as defaults, and say what to fix.
    sent = encodeForRevision(withDefaults(schema, verdict.keep), protocol);
    text = retryMessage(message, verdict.errors);
  }
}
