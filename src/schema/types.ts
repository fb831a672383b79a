// Wire types of the elicitation form schema: the restricted JSON Schema subset
// that `elicitation/create` carries as `requestedSchema`, across all revisions.

/** The protocol revisions this package speaks, oldest first. */
export const PROTOCOL_REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type ProtocolRevision = (typeof PROTOCOL_REVISIONS)[number];
export const LATEST_REVISION: ProtocolRevision = "2026-07-28";

export function isProtocolRevision(value: unknown): value is ProtocolRevision {
  return typeof value === "string" && (PROTOCOL_REVISIONS as readonly string[]).includes(value);
}

export const STRING_FORMATS = ["email", "uri", "date", "date-time"] as const;
export type StringFormat = (typeof STRING_FORMATS)[number];

interface Annotated {
  title?: string;
  description?: string;
}

export interface StringSchema extends Annotated {
  type: "string";
  minLength?: number;
  maxLength?: number;
  format?: StringFormat;
  /** Not in the spec's schema.json; most clients ignore it (checkSchema warns). */
  pattern?: string;
  default?: string;
}

export interface NumberSchema extends Annotated {
  type: "number" | "integer";
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanSchema extends Annotated {
  type: "boolean";
  default?: boolean;
}

export interface UntitledSingleSelectEnumSchema extends Annotated {
  type: "string";
  enum: string[];
  default?: string;
}

/** Legacy (2025-06-18 style) titled enum; deprecated from 2025-11-25. */
export interface LegacyTitledEnumSchema extends Annotated {
  type: "string";
  enum: string[];
  enumNames?: string[];
  default?: string;
}

export interface TitledOption {
  const: string;
  title: string;
}

export interface TitledSingleSelectEnumSchema extends Annotated {
  type: "string";
  oneOf: TitledOption[];
  default?: string;
}

export interface UntitledMultiSelectEnumSchema extends Annotated {
  type: "array";
  minItems?: number;
  maxItems?: number;
  items: { type: "string"; enum: string[] };
  default?: string[];
}

export interface TitledMultiSelectEnumSchema extends Annotated {
  type: "array";
  minItems?: number;
  maxItems?: number;
  items: { anyOf: TitledOption[] };
  default?: string[];
}

export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

export type PrimitiveSchema = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** The `requestedSchema` of a form-mode elicitation. */
export interface RequestedSchema {
  $schema?: string;
  type: "object";
  properties: Record<string, PrimitiveSchema>;
  required?: string[];
}

/** A value one field can hold in an accepted answer. */
export type FieldValue = string | number | boolean | string[];
/** The `content` of an accepted form answer. */
export type FormContent = Record<string, FieldValue>;
