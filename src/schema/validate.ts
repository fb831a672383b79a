// validateContent: is an answer valid for its form? Same verdict as Ajv 8 + ajv-formats on the
// same pair (a differential test holds us to it), plus one message per bad field for a person.
// The form is compiled once per form object (compiled.ts); this is the one-call form.
import { compileValidator } from "./compiled.js";
import type { Infer } from "./infer.js";
import type { SchemaInput } from "./normalize.js";
import type { ValidationResult } from "./validation-result.js";

export { compileValidator } from "./compiled.js";
export type { CompiledValidator } from "./compile.js";
export type { FieldError, ValidationResult, ValidationRule } from "./validation-result.js";

/**
 * Validates an answer's `content` against its form. On success `value` holds the schema's
 * fields only: keys the schema does not name never reach it.
 *
 * @example
 * ```ts region=examples/schema-basics.ts#validateContent
 * const answer = validateContent(booking, { confirmBooking: true, email: "not-an-email" });
 * if (!answer.ok) console.log(answer.errors.map((e) => e.message));
 * // -> [ 'Email must be an email address, like name@example.com' ]
 * ```
 */
export function validateContent<S extends SchemaInput>(schema: S, content: unknown): ValidationResult<Infer<S>> {
  return compileValidator(schema)(content);
}
