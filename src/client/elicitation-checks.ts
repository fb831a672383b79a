// The checks of an `elicitation/create` request that run before anything walks it or a UI sees it:
// its size, its own fields, and its form, each refused with one -32602 naming the field and the rule.
import { ProtocolError, ProtocolErrorCode, type StandardSchemaV1 } from "@modelcontextprotocol/client";
import { checkSchema, hasErrors } from "../schema/check.js";
import { describeProblem, MESSAGE_LIMITS, shapeProblem } from "../schema/limits.js";
import { excerpt } from "../schema/excerpt.js";
import type { Field } from "../schema/fields.js";
import type { ProtocolRevision } from "../schema/types.js";
import { MAX_LABEL_LENGTH, MAX_LONG_TEXT_LENGTH, sanitizeText } from "../common/sanitize.js";
import { analyzeUrl } from "./url-safety/analyze.js";
import type { ElicitationMode } from "./attach-options.js";

export const invalidParams = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** A params "schema" that keeps every key: the handler validates the raw request itself. */
export const AS_SENT: StandardSchemaV1<Record<string, unknown>> = {
  "~standard": { version: 1, vendor: "mcp-elicit", validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }) },
};

/** Bounds the request before anything walks it (checks, sanitizing, messages): -32602 naming the limit. */
export function checkShape(params: unknown): void {
  const problem = shapeProblem(params, MESSAGE_LIMITS);
  if (problem) throw invalidParams(`The elicitation request is ${describeProblem(problem)}; refused unread.`);
}

/**
 * The request's own fields, before the SDK's parse: a wrong one gets one -32602 naming the field and
 * what it must be, not the SDK's dump of zod issues for each mode the request could have been.
 */
export function checkFields(params: Record<string, unknown>, protocol: ProtocolRevision): void {
  // Only an absent mode means form (2025-06-18 has none); null is a wrong value like any other.
  const mode = params.mode === undefined ? "form" : params.mode;
  if (mode !== "form" && mode !== "url")
    throw invalidParams(`Invalid elicitation request: "mode" must be "form" or "url", got ${excerpt(params.mode)}.`);
  // 2026-07-28's embedded URL requests may leave out elicitationId (no completion notification follows them).
  const strings = mode === "form" ? ["message"] : ["message", "url", "elicitationId"];
  for (const key of strings)
    if (typeof params[key] !== "string" && !(key === "elicitationId" && params[key] === undefined && protocol === "2026-07-28"))
      throw invalidParams(`Invalid elicitation request: "${key}" must be a string in ${mode} mode, got ${excerpt(params[key])}.`);
}

/** The requested form, checked as a schema of `protocol`: one -32602 listing each problem with its rule code. */
export function checkForm(params: Record<string, unknown>, protocol: ProtocolRevision): void {
  const issues = checkSchema(params.requestedSchema, { protocol });
  if (hasErrors(issues)) {
    const list = issues.filter((i) => i.severity === "error").map((i) => `${i.path || "/"}: ${i.message} [${i.code}]`);
    throw invalidParams(`The requested form is not a valid elicitation schema for ${protocol}:\n${list.join("\n")}`);
  }
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Every check of a request before the SDK's own (see AttachedClient.precheck): throws -32602, or gives
 * the URL to send on in the SDK's place when it must be rewritten (undefined when the request goes on as is).
 */
export function precheckRequest(
  rawParams: Record<string, unknown> | undefined,
  protocol: ProtocolRevision,
  modes: ReadonlySet<ElicitationMode>,
): string | undefined {
  checkShape(rawParams);
  const params = rawParams ?? {};
  checkFields(params, protocol);
  if ((params.mode ?? "form") === "form" && modes.has("form")) checkForm(params, protocol);
  if (params.mode !== "url" || !modes.has("url")) return undefined;
  // A URL the analysis refuses gets its reason, rather than the SDK's "Invalid URL" for some of them.
  const analysis = analyzeUrl(params.url as string);
  if (!analysis.ok) throw invalidParams(`Refused URL elicitation: ${analysis.refusal ?? "not a URL"}`);
  // The SDK checks the URL with URL.canParse, which on Node 20 starts refusing hosts with Latin-1
  // letters ("münchen.de") once V8 has optimized it; its ASCII form is the same URL and passes.
  return ASCII.test(params.url as string) ? undefined : analysis.url;
}

/** A field as the UI may show it: every text of the server's made inert. */
export function sanitizeField(field: Field): Field {
  const out: Field = { ...field, label: sanitizeText(field.label, { maxLength: MAX_LABEL_LENGTH, multiline: false }) };
  if (field.help !== undefined) out.help = sanitizeText(field.help, { maxLength: MAX_LONG_TEXT_LENGTH });
  if (field.options)
    out.options = field.options.map((o) => ({
      value: o.value,
      label: sanitizeText(o.label, { maxLength: MAX_LABEL_LENGTH, multiline: false }),
    }));
  return out;
}

/** Why analyzeUrl refuses `url`, for an error message. */
export const refusalOf = (url: unknown) => analyzeUrl(String(url ?? "")).refusal ?? "not a URL";
