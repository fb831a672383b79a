// encodeForRevision: the same form, written the way a given protocol revision expresses it.
import { describeFields } from "./fields.js";
import { toRequestedSchema, type SchemaInput } from "./normalize.js";
import { setOwn } from "./own.js";
import type { PrimitiveSchema, ProtocolRevision, RequestedSchema } from "./types.js";

export class RevisionError extends Error {
  constructor(
    readonly field: string,
    readonly protocol: ProtocolRevision,
    reason: string,
  ) {
    super(`Field "${field}" cannot be sent on protocol ${protocol}: ${reason}`);
    this.name = "RevisionError";
  }
}

/**
 * For 2025-06-18: titled options become `enum` + `enumNames`, non-boolean defaults are dropped
 * (that revision has none; clients ignore them), and a multi-select throws RevisionError.
 * Later revisions take every shape as it is (legacy `enum` + `enumNames` is still valid there;
 * checkSchema warns about it).
 */
export function encodeForRevision(input: SchemaInput, protocol: ProtocolRevision): RequestedSchema {
  const schema = toRequestedSchema(input);
  let byRevision = cache.get(schema);
  if (!byRevision) cache.set(schema, (byRevision = new Map()));
  let encoded = byRevision.get(protocol);
  if (!encoded) byRevision.set(protocol, (encoded = encode(schema, protocol)));
  return encoded;
}

// Forms are usually module-level constants, asked again and again (and on every replay).
const cache = new WeakMap<object, Map<ProtocolRevision, RequestedSchema>>();

function encode(schema: RequestedSchema, protocol: ProtocolRevision): RequestedSchema {
  describeFields(schema); // throws InvalidSchemaError (cached per schema)
  const properties: Record<string, PrimitiveSchema> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    setOwn(properties, name, protocol === "2025-06-18" ? toLegacy(name, prop) : prop);
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
