// What validating an answer gives back: the verdict and, per bad field, the rule it broke. Its own module so that
// the compiler (compile*.ts) and validateContent (validate.ts) both read it without importing each other.

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
