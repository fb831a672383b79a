// What the form element holds for each field while a person fills it in (the controls' raw text and
// choices), and how that becomes the answer's content, checked by validateContent like every other renderer.
import type { Field } from "../../../schema/fields.js";
import { acceptsParts } from "../../field-hint.js";
import type { FieldValue, FormContent, RequestedSchema } from "../../../schema/types.js";
import { validateContent } from "../../../schema/validate.js";
import { inertLine } from "./inert.js";

/** A control's state: text (text, number, "true"/"false" for yes/no, a choice's value) or the chosen values. */
export type RawValue = string | string[];

/** The state a field starts from: its default, or nothing chosen (a yes/no without default preselects nothing). */
export function initialRaw(field: Field): RawValue {
  const d = field.default;
  if (field.kind === "multi-choice") return Array.isArray(d) ? d.filter((v): v is string => typeof v === "string") : [];
  return d === undefined || Array.isArray(d) ? "" : String(d);
}

/** A typed number, or the text itself when it is not one (so that validation names the problem). */
function parseNumber(s: string): number | string {
  const t = s.trim();
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(t) ? Number(t) : s;
}

/** The answer to one field, or undefined for no answer (an empty control, nothing chosen in an optional list). */
export function toValue(field: Field, raw: RawValue): FieldValue | string | undefined {
  if (Array.isArray(raw)) return raw.length === 0 && !field.required ? undefined : raw;
  if (raw === "") return undefined;
  switch (field.kind) {
    case "number":
    case "integer":
      return parseNumber(raw);
    case "boolean":
      return raw === "true";
    default:
      return raw;
  }
}

/** The answer's content from the controls: an own property per answered field, even one named "__proto__". */
export function toContent(fields: Field[], raws: RawValue[]): FormContent {
  const content: FormContent = {};
  fields.forEach((f, i) => {
    const value = toValue(f, raws[i] ?? "");
    if (value !== undefined) Object.defineProperty(content, f.name, { value, enumerable: true, writable: true, configurable: true });
  });
  return content;
}

/** Checks the whole answer; `messages[i]` is field i's own message (or undefined), `content` the validated answer. */
export function check(
  schema: RequestedSchema,
  fields: Field[],
  raws: RawValue[],
): { ok: true; content: FormContent } | { ok: false; messages: (string | undefined)[] } {
  const verdict = validateContent(schema, toContent(fields, raws));
  if (verdict.ok) return { ok: true, content: verdict.value as FormContent };
  return { ok: false, messages: fields.map((f) => verdict.errors.find((e) => e.field === f.name)?.message) };
}

/** What the field accepts, in one line (format, length, range, count), or "" when there is nothing to say. */
export function fieldHint(field: Field): string {
  const parts = acceptsParts(field);
  if (!field.required) parts.push("optional");
  const hint = parts.join("; ");
  return hint ? hint[0]!.toUpperCase() + hint.slice(1) : "";
}

/** An answer as the review shows it: option labels rather than values, "(no answer)" for none, a secret masked. */
export function showValue(field: Field, value: FieldValue | undefined): string {
  if (value === undefined) return "(no answer)";
  const label = (v: string) => field.options?.find((o) => o.value === v)?.label ?? inertLine(v);
  if (field.kind === "boolean") return value ? "Yes" : "No";
  if (field.kind === "choice") return label(String(value));
  if (field.kind === "multi-choice") return Array.isArray(value) && value.length ? value.map((v) => label(String(v))).join(", ") : "(none)";
  return field.masked ? "•".repeat(Math.min(12, String(value).length)) : String(value);
}
