// The same form, written the way a given protocol revision expresses it. Worked out once per form and
// revision by its compiled form (compiled.ts: encodeForRevision).
import { InvalidSchemaError } from "./errors.js";
import { setOwn } from "./own.js";
import { issue, pointer } from "./rules.js";
import type { PrimitiveSchema, ProtocolRevision, RequestedSchema } from "./types.js";

/**
 * A valid schema as `protocol` writes it (encodeForRevision, in compiled.ts, keeps it per form). For 2025-06-18: titled options become `enum` + `enumNames`, non-boolean defaults are dropped
 * (that revision has none; clients ignore them), and a multi-select throws InvalidSchemaError (revision-multi-select).
 * Later revisions take every shape as it is (legacy `enum` + `enumNames` is still valid there;
 * checkSchema warns about it).
 */
export function encodeSchema(schema: RequestedSchema, protocol: ProtocolRevision): RequestedSchema {
  const properties: Record<string, PrimitiveSchema> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    setOwn(properties, name, protocol === "2025-06-18" ? toLegacy(name, prop) : prop);
  }
  const { $schema: _drop, ...rest } = schema;
  return { ...rest, properties };
}

function toLegacy(name: string, prop: PrimitiveSchema): PrimitiveSchema {
  if (prop.type === "array")
    throw new InvalidSchemaError(
      [
        issue(
          "revision-multi-select",
          pointer("properties", name),
          `Field "${name}" is a multi-select, which does not exist before 2025-11-25.`,
        ),
      ],
      "This form cannot be sent on protocol 2025-06-18",
    );
  const { default: def, ...rest } = prop as PrimitiveSchema & { default?: unknown };
  const out = (prop.type === "boolean" ? prop : rest) as PrimitiveSchema & Record<string, unknown>;
  if (!("oneOf" in out)) return out;
  const { oneOf, ...plain } = out as Record<string, unknown> & { oneOf: { const: string; title: string }[] };
  return { ...plain, enum: oneOf.map((o) => o.const), enumNames: oneOf.map((o) => o.title) } as PrimitiveSchema;
}
