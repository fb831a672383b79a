// The rules of `checkSchema`: one stable code each. The table in docs/reference/schema.md is tested
// against this list, so a new rule cannot go undocumented.

export type Severity = "error" | "warning";

export const SCHEMA_RULES = {
  "schema-too-deep": {
    severity: "error",
    summary: "The schema nests objects or arrays more than 16 levels deep: no form needs that, and walking it could exhaust the stack.",
  },
  "schema-too-large": { severity: "error", summary: "The schema holds more than 50,000 values in all." },
  "root-not-object": { severity: "error", summary: 'The schema is not a JSON object with `type: "object"`.' },
  "properties-missing": { severity: "error", summary: "`properties` is missing or not an object." },
  "form-empty": { severity: "warning", summary: "No fields at all: several clients render a form that cannot be submitted." },
  "required-invalid": { severity: "error", summary: "`required` is not an array of strings." },
  "required-unknown-field": { severity: "error", summary: "`required` names a field that is not in `properties`." },
  "field-name-reserved": {
    severity: "error",
    summary:
      "A field named `__proto__`: JSON libraries (zod, and so the MCP SDK) drop that key from answers, so it could never be answered.",
  },
  "field-not-object": { severity: "error", summary: "A field's schema is not a JSON object." },
  "nested-object": { severity: "error", summary: "A field is itself an object: forms are flat." },
  "array-not-enum": {
    severity: "error",
    summary: "An array field that is not a multi-select of string options (`items.enum` or `items.anyOf`).",
  },
  "composition-keyword": {
    severity: "error",
    summary:
      "`$ref`, `allOf`, `anyOf`, `oneOf`, `not` or `if` where the subset has none (only titled options may use `oneOf`/`items.anyOf`).",
  },
  "type-missing": { severity: "error", summary: "A field has no `type`." },
  "unknown-type": { severity: "error", summary: "A field's `type` is not string, number, integer, boolean or array." },
  "unknown-format": { severity: "error", summary: "A string `format` other than email, uri, date or date-time." },
  "enum-empty": { severity: "error", summary: "An enum or option list with no values." },
  "enum-duplicate": { severity: "error", summary: "The same option value appears twice." },
  "enum-not-string": { severity: "error", summary: "Option values must be strings (and only string fields can have options)." },
  "options-conflict": {
    severity: "error",
    summary: "A field with both `enum` and `oneOf`: clients would disagree on which options to show.",
  },
  "option-invalid": { severity: "error", summary: "A titled option is not `{ const: string, title: string }`." },
  "enum-names-length": { severity: "error", summary: "`enumNames` has a different length from `enum`." },
  "enum-names-legacy": { severity: "warning", summary: "`enumNames` is legacy from 2025-11-25 on: use `oneOf` of `{ const, title }`." },
  "default-not-allowed": {
    severity: "error",
    summary: "A default of the wrong type, not among the options, or not in the field's format.",
  },
  "default-out-of-bounds": {
    severity: "error",
    summary: "A default that breaks the field's own bounds (length, minimum/maximum, item counts).",
  },
  "bound-invalid": { severity: "error", summary: "A bound that is not a number (lengths and item counts: a non-negative integer)." },
  "bounds-inverted": { severity: "error", summary: "minimum > maximum, minLength > maxLength or minItems > maxItems." },
  "annotation-invalid": { severity: "error", summary: "`$schema`, `title` or `description` is not a string." },
  "pattern-invalid": { severity: "error", summary: "`pattern` is not a valid regular expression (Unicode mode)." },
  "pattern-unsupported": { severity: "warning", summary: "`pattern` is not in the spec's schema.json; most clients ignore it." },
  "unsupported-keyword": { severity: "warning", summary: "A keyword outside the elicitation subset; clients ignore it." },
  "sensitive-field": {
    severity: "warning",
    summary:
      "A field that looks like a password, API key, token, secret or payment card: the spec forbids these in form mode (use URL mode).",
  },
  "revision-titled-enum": { severity: "error", summary: "Titled options (`oneOf`) sent to a 2025-06-18 peer: use `enum` + `enumNames`." },
  "revision-multi-select": { severity: "error", summary: "A multi-select (array) field sent to a 2025-06-18 peer, which has none." },
  "revision-default": {
    severity: "error",
    summary: "A non-boolean default sent to a 2025-06-18 peer, which only defines boolean defaults.",
  },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type SchemaRuleCode = keyof typeof SCHEMA_RULES;

export interface SchemaIssue {
  /** JSON Pointer into the schema, e.g. `/properties/email/format`. */
  path: string;
  severity: Severity;
  code: SchemaRuleCode;
  message: string;
}

/** Escapes a property name for use in a JSON Pointer (RFC 6901). */
export function pointer(...parts: (string | number)[]): string {
  return parts.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

export function issue(code: SchemaRuleCode, path: string, message: string): SchemaIssue {
  return { path, severity: SCHEMA_RULES[code].severity, code, message };
}
