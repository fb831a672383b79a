// validateContent: is an answer valid for its form? Same verdict as Ajv 8 + ajv-formats on the
// same pair (a differential test holds us to it), plus one message per bad field for a person.
// The schema is compiled once per schema object (compile.ts); this is the one-call form.
import { compileValidator } from "./compile.js";
import type { Infer } from "./infer.js";
import type { SchemaInput } from "./normalize.js";

export { compileValidator, type CompiledValidator } from "./compile.js";

/** The rule a value broke. */
export type ValidationRule =
  | "object"
  | "required"
  | "type"
  | "format"
  | "pattern"
  | "minLength"
  | "maxLength"
  | "minimum"
  | "maximum"
  | "option"
  | "minItems"
  | "maxItems"
  /** A rule of the tool's own (ctx.elicit's `validate` hook), not of the schema. */
  | "custom";

export interface FieldError {
  /** The field's name ("" when the answer as a whole is not an object). */
  field: string;
  rule: ValidationRule;
  /** One sentence for a person, naming the field by its label. */
  message: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * Validates an answer's `content` against its form. On success `value` holds the schema's
 * fields only: keys the schema does not name never reach it.
 */
export function validateContent<S extends SchemaInput>(schema: S, content: unknown): ValidationResult<Infer<S>> {
  return compileValidator(schema)(content);
}
