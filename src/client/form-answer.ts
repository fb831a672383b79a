// An accepted form's content checked against the form it answers, before it goes to the server: the
// form's defaults for what the answer leaves out, then the form's rules. attachElicitation checks its
// own UI's answers with it; the gateway checks its host's answers with it.
import { applyDefaults } from "../schema/defaults.js";
import { describeFields } from "../schema/compiled.js";
import type { FormContent, ProtocolRevision, RequestedSchema } from "../schema/types.js";
import type { FieldError, ValidationResult } from "../schema/validation-result.js";
import { validateContent } from "../schema/validate.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";

/**
 * The content as the server will receive it (defaults filled in, only the form's fields), or the
 * errors, one per field. Fields left unanswered take the schema's defaults, whatever the UI (a terminal
 * prefills them, a script or a web form may not): the spec's defaults are what the person accepted.
 */
export function checkFormContent(
  schema: RequestedSchema,
  content: Record<string, unknown> | undefined,
  protocol: ProtocolRevision,
): ValidationResult<FormContent> {
  return validateContent(schema, applyDefaults(schema, content, { protocol })) as ValidationResult<FormContent>;
}

/** A field error for a person: its message names the field by its schema title, server text, so made inert. */
export const fieldErrorText = (error: FieldError): string =>
  sanitizeText(error.message, { maxLength: MAX_LABEL_LENGTH * 2, multiline: false });

/** The keys of `content` that are not fields of the form. */
export function unknownFields(schema: RequestedSchema, content: Record<string, unknown>): string[] {
  const names = new Set(describeFields(schema).map((f) => f.name));
  return Object.keys(content).filter((key) => !names.has(key));
}
