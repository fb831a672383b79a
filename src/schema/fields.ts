// The one field model every renderer and the validator use, so nothing downstream re-interprets the
// JSON schema. Worked out once per form by its compiled form (compiled.ts: describeFields).
import { checkSchema, hasErrors } from "./check.js";
import { InvalidSchemaError } from "./errors.js";
import { maskedAsTyped, sensitiveKind, type SensitiveKind } from "./sensitive.js";
import type { FieldValue, PrimitiveSchema, RequestedSchema, StringFormat, TitledOption } from "./types.js";

export type FieldKind = "text" | "number" | "integer" | "boolean" | "choice" | "multi-choice";

export interface FieldOption {
  value: string;
  label: string;
}

export interface FieldConstraints {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

export interface Field {
  /** The property name: the key of this field in the answer. */
  name: string;
  kind: FieldKind;
  /** What to call the field: its title, or its name made readable. */
  label: string;
  /** The description, if any. */
  help?: string;
  required: boolean;
  default?: FieldValue;
  format?: StringFormat;
  /** Choices of `choice` and `multi-choice` fields, in schema order. */
  options?: FieldOption[];
  constraints: FieldConstraints;
  /** Set when the field looks like it asks for a secret (forbidden in form mode). */
  sensitive?: SensitiveKind;
  /** Set when what is typed is shown as dots (a password, a key, a card's CVC; not a card number): see maskedAsTyped. */
  masked?: boolean;
}

/** "departDate" -> "Depart date", "seat_preference" -> "Seat preference". */
export function humanize(name: string): string {
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : name;
}

/**
 * The fields of a requested schema, in schema order, worked out now (describeFields keeps them per form).
 * Throws InvalidSchemaError when the schema has errors (check it with checkSchema first to report them instead).
 */
export function fieldsOf(schema: RequestedSchema): Field[] {
  const issues = checkSchema(schema);
  if (hasErrors(issues)) throw new InvalidSchemaError(issues);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => describeField(name, prop, required.has(name)));
}

function describeField(name: string, prop: PrimitiveSchema, required: boolean): Field {
  const p = prop as PrimitiveSchema & Record<string, unknown>;
  const field: Field = { name, kind: kindOf(prop), label: prop.title ?? humanize(name), required, constraints: {} };
  if (prop.description !== undefined) field.help = prop.description;
  if (p.default !== undefined) field.default = p.default as FieldValue;
  if (typeof p.format === "string") field.format = p.format as StringFormat;
  const options = optionsOf(p);
  if (options) field.options = options;
  for (const key of ["minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "pattern"] as const) {
    if (p[key] !== undefined) (field.constraints as Record<string, unknown>)[key] = p[key];
  }
  const sensitive = sensitiveKind(name, prop.title, prop.description);
  if (sensitive) field.sensitive = sensitive;
  if (sensitive && maskedAsTyped(sensitive, name, prop.title, prop.description)) field.masked = true;
  return field;
}

function kindOf(prop: PrimitiveSchema): FieldKind {
  switch (prop.type) {
    case "array":
      return "multi-choice";
    case "boolean":
      return "boolean";
    case "number":
    case "integer":
      return prop.type;
    default:
      return "enum" in prop || "oneOf" in prop ? "choice" : "text";
  }
}

function optionsOf(p: Record<string, unknown>): FieldOption[] | undefined {
  const titled = (list: TitledOption[]) => list.map((o) => ({ value: o.const, label: o.title }));
  if (Array.isArray(p.oneOf)) return titled(p.oneOf as TitledOption[]);
  if (Array.isArray(p.enum)) {
    const names = p.enumNames as string[] | undefined;
    return (p.enum as string[]).map((value, i) => ({ value, label: names?.[i] ?? value }));
  }
  const items = p.items as { enum?: string[]; anyOf?: TitledOption[] } | undefined;
  if (items?.anyOf) return titled(items.anyOf);
  if (items?.enum) return items.enum.map((value) => ({ value, label: value }));
  return undefined;
}
