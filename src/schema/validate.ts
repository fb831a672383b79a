// validateContent: is an answer valid for its form? Same verdict as Ajv 8 + ajv-formats on the
// same pair (a differential test holds us to it), plus one message per bad field for a person.
import type { Infer } from "./infer.js";
import { describeFields, type Field } from "./fields.js";
import { FORMAT_HINTS, matchesFormat } from "./formats.js";
import type { SchemaInput } from "./normalize.js";
import { excerpt } from "./excerpt.js";
import { getOwn, setOwn } from "./own.js";
import type { FormContent } from "./types.js";

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

const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
// Answers hold option values; where a title differs, both are named so a person typing one knows the other.
const quoteList = (f: Field) => (f.options ?? []).map((o) => (o.label === o.value ? o.value : `${o.value} (${o.label})`)).join(", ");

/** Checks one field's value; returns the broken rule and message, or undefined when valid. */
function checkValue(f: Field, v: unknown): Omit<FieldError, "field"> | undefined {
  const c = f.constraints;
  const err = (rule: ValidationRule, message: string) => ({ rule, message: `${f.label} ${message}` });
  switch (f.kind) {
    case "boolean":
      return typeof v === "boolean" ? undefined : err("type", "must be yes or no (true or false)");
    case "number":
    case "integer": {
      const ok = typeof v === "number" && Number.isFinite(v) && (f.kind === "number" || Number.isInteger(v));
      if (!ok) return err("type", f.kind === "integer" ? "must be a whole number" : "must be a number");
      if (c.minimum !== undefined && (v as number) < c.minimum) return err("minimum", `must be at least ${c.minimum}`);
      if (c.maximum !== undefined && (v as number) > c.maximum) return err("maximum", `must be at most ${c.maximum}`);
      return undefined;
    }
    case "multi-choice": {
      if (!Array.isArray(v)) return err("type", `must be a list of choices from: ${quoteList(f)}`);
      const allowed = f.options!;
      const stray = v.find((item) => !allowed.some((o) => o.value === item));
      if (stray !== undefined) return err("option", `cannot include ${excerpt(stray)}; choose from: ${quoteList(f)}`);
      if (c.minItems !== undefined && v.length < c.minItems) return err("minItems", `needs at least ${plural(c.minItems, "choice")}`);
      if (c.maxItems !== undefined && v.length > c.maxItems) return err("maxItems", `allows at most ${plural(c.maxItems, "choice")}`);
      return undefined;
    }
    default: {
      if (typeof v !== "string") return err("type", "must be text");
      // A choice is still a string schema: any length, pattern or format rules apply to it too.
      if (f.kind === "choice" && !f.options!.some((o) => o.value === v)) return err("option", `must be one of: ${quoteList(f)}`);
      const length = c.minLength !== undefined || c.maxLength !== undefined ? codePoints(v) : 0;
      if (c.minLength !== undefined && length < c.minLength)
        return err("minLength", `must be at least ${plural(c.minLength, "character")} long`);
      if (c.maxLength !== undefined && length > c.maxLength)
        return err("maxLength", `must be at most ${plural(c.maxLength, "character")} long`);
      if (c.pattern !== undefined && !new RegExp(c.pattern, "u").test(v)) return err("pattern", `must match the pattern ${c.pattern}`);
      if (f.format && !matchesFormat(f.format, v)) {
        const hint = FORMAT_HINTS[f.format];
        return err("format", `must be ${hint.noun}, like ${hint.example}`);
      }
      return undefined;
    }
  }
}

/**
 * Validates an answer's `content` against its form. On success `value` holds the schema's
 * fields only: keys the schema does not name never reach it.
 */
export function validateContent<S extends SchemaInput>(schema: S, content: unknown): ValidationResult<Infer<S>> {
  const fields = describeFields(schema);
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    return { ok: false, errors: [{ field: "", rule: "object", message: "The answer must be an object with one entry per field." }] };
  }
  const input = content as Record<string, unknown>;
  const errors: FieldError[] = [];
  const value: FormContent = {};
  for (const f of fields) {
    const v = getOwn(input, f.name);
    if (v === undefined) {
      if (f.required) errors.push({ field: f.name, rule: "required", message: `${f.label} is required` });
      continue;
    }
    const problem = checkValue(f, v);
    if (problem) errors.push({ field: f.name, ...problem });
    else setOwn(value, f.name, v);
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: value as Infer<S> };
}
