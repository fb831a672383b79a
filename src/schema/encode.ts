// encodeForRevision: the same form, written the way a given protocol revision expresses it.
import { checkSchema, hasErrors, InvalidSchemaError } from "./check.js";
import { toRequestedSchema, type SchemaInput } from "./normalize.js";
import type { PrimitiveSchema, ProtocolRevision, RequestedSchema } from "./types.js";

export class RevisionError extends Error {
  constructor(readonly field: string, readonly protocol: ProtocolRevision, reason: string) {
    super(`Field "${field}" cannot be sent on protocol ${protocol}: ${reason}`);
    this.name = "RevisionError";
  }
}

/**
 * For 2025-06-18: titled options become `enum` + `enumNames`, non-boolean defaults are dropped
 * (that revision has none; clients ignore them), and a multi-select throws RevisionError.
 * From 2025-11-25: legacy `enum` + `enumNames` become titled `oneOf`.
 */
export function encodeForRevision(input: SchemaInput, protocol: ProtocolRevision): RequestedSchema {
  const schema = toRequestedSchema(input);
  const issues = checkSchema(schema);
  if (hasErrors(issues)) throw new InvalidSchemaError(issues);
  const properties: Record<string, PrimitiveSchema> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    properties[name] = protocol === "2025-06-18" ? toLegacy(name, prop) : toCurrent(prop);
  }
  const { $schema: _drop, ...rest } = schema;
  return { ...rest, properties };
}

function toLegacy(name: string, prop: PrimitiveSchema): PrimitiveSchema {
  if (prop.type === "array") throw new RevisionError(name, "2025-06-18", "multi-select fields do not exist before 2025-11-25.");
  const { default: def, ...rest } = prop as PrimitiveSchema & { default?: unknown };
  const out = (prop.type === "boolean" ? prop : rest) as PrimitiveSchema & Record<string, unknown>;
  if (!("oneOf" in out)) return out;
  const { oneOf, ...plain } = out as Record<string, unknown> & { oneOf: { const: string; title: string }[] };
  return { ...plain, enum: oneOf.map((o) => o.const), enumNames: oneOf.map((o) => o.title) } as PrimitiveSchema;
}

function toCurrent(prop: PrimitiveSchema): PrimitiveSchema {
  if (!("enumNames" in prop) || !prop.enumNames) return prop;
  const { enum: values, enumNames, ...rest } = prop;
  return { ...rest, oneOf: values.map((v, i) => ({ const: v, title: enumNames[i]! })) };
}
