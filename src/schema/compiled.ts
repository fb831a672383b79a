// One compiled form per schema object: what ctx.elicit needs from a form (the normalized requested
// schema, its fields, each revision's encoding, the fields with defaults), worked out once and kept
// for as long as the form object lives. Builder forms, raw JSON schemas and zod objects alike: forms
// are usually module-level constants asked again and again, and on 2026-07-28 on every replay.
import { applyDefaults } from "./defaults.js";
import { encodeForRevision } from "./encode.js";
import { describeFields, type Field } from "./fields.js";
import type { Infer } from "./infer.js";
import { toRequestedSchema, type SchemaInput } from "./normalize.js";
import type { FormContent, ProtocolRevision, RequestedSchema } from "./types.js";
import { validateContent, type ValidationResult } from "./validate.js";

export interface CompiledForm<S extends SchemaInput = SchemaInput> {
  /** The form as a requested schema (zod converted once). */
  readonly schema: RequestedSchema;
  /** Its fields, in schema order. */
  readonly fields: readonly Field[];
  /** The form as `protocol` writes it; throws RevisionError when that revision cannot carry a field. */
  encoded(protocol: ProtocolRevision): RequestedSchema;
  /** validateContent against the form. */
  validate(content: unknown): ValidationResult<Infer<S>>;
  /** The valid content with each default the person left out filled in (applyDefaults). */
  withDefaults(content: Infer<S>): Infer<S>;
}

const compiled = new WeakMap<object, CompiledForm>();
// The JSON text of each encoding handed out: they are shared and never changed, and a replayed
// ctx.elicit fingerprints what it asks on every round.
const encodedTexts = new WeakMap<object, string>();

/** JSON.stringify of an encoding `encoded()` returned (kept, since it never changes); undefined for any other object. */
export const encodedJson = (value: object): string | undefined => encodedTexts.get(value);

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
  const form: CompiledForm<S> = {
    schema,
    fields,
    encoded(protocol) {
      let encoded = encodings.get(protocol);
      if (!encoded) {
        encodings.set(protocol, (encoded = encodeForRevision(schema, protocol)));
        encodedTexts.set(encoded, JSON.stringify(encoded));
      }
      return encoded;
    },
    validate: (content) => validateContent(schema, content) as ValidationResult<Infer<S>>,
    // Always a copy: the tool gets an object of its own, never one the journal or the client still holds.
    withDefaults: (content) => applyDefaults(schema, content as FormContent) as Infer<S>,
  };
  compiled.set(input, form as CompiledForm);
  return form;
}
