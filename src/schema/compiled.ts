// One compiled form per schema object: what ctx.elicit needs from a form (the normalized requested
// schema, its fields, its validator, each revision's encoding, the fields with defaults), worked out
// once and kept for as long as the form object lives. Builder forms, raw JSON schemas and zod objects
// alike: forms are usually module-level constants asked again and again, and on 2026-07-28 on every replay.
import { compileValidator } from "./compile.js";
import { encodeForRevision } from "./encode.js";
import { describeFields, type Field } from "./fields.js";
import type { Infer } from "./infer.js";
import { toRequestedSchema, type SchemaInput } from "./normalize.js";
import type { ProtocolRevision, RequestedSchema } from "./types.js";
import { getOwn, setOwn } from "./own.js";
import type { ValidationResult } from "./validation-result.js";

export interface CompiledForm<S extends SchemaInput = SchemaInput> {
  /** The form as a requested schema (zod converted once). */
  readonly schema: RequestedSchema;
  /** Its fields, in schema order. */
  readonly fields: readonly Field[];
  /** The form as `protocol` writes it; throws RevisionError when that revision cannot carry a field. */
  encoded(protocol: ProtocolRevision): RequestedSchema;
  /**
   * validateContent against the form; a valid answer's value (a fresh object, only the form's fields)
   * has each default the person left out filled in, as applyDefaults fills them.
   */
  accept(content: unknown): ValidationResult<Infer<S>>;
}

const compiled = new WeakMap<object, CompiledForm>();
// Each encoding handed out: shared and never changed, so what is worked out from one (a replayed
// ctx.elicit fingerprints what it asks on every round) can be kept per encoding object.
const handedOut = new WeakSet<object>();

/** Whether `value` is an encoding `encoded()` returned. */
export const isSharedEncoding = (value: object): boolean => handedOut.has(value);

/**
 * The compiled form of `input`, made on first use. Throws InvalidSchemaError (or ZodConversionError)
 * for a broken form; nothing is cached then, so each use reports it again.
 */
export function compileForm<S extends SchemaInput>(input: S): CompiledForm<S> {
  const cached = compiled.get(input);
  if (cached) return cached as CompiledForm<S>;
  const schema = toRequestedSchema(input);
  const fields = describeFields(schema);
  const encodings = new Map<ProtocolRevision, RequestedSchema>();
  const validator = compileValidator(schema);
  const defaulted = fields.filter((f) => f.default !== undefined);
  const form: CompiledForm<S> = {
    schema,
    fields,
    encoded(protocol) {
      let encoded = encodings.get(protocol);
      if (!encoded) {
        encodings.set(protocol, (encoded = encodeForRevision(schema, protocol)));
        handedOut.add(encoded);
      }
      return encoded;
    },
    accept(content) {
      const result = validator(content);
      // The validator's value is already the tool's own object (never the journal's or the client's): filled in place.
      if (result.ok) {
        for (const f of defaulted) {
          if (getOwn(result.value, f.name) === undefined)
            setOwn(result.value, f.name, Array.isArray(f.default) ? [...f.default] : f.default);
        }
      }
      return result as ValidationResult<Infer<S>>;
    },
  };
  compiled.set(input, form as CompiledForm);
  return form;
}
