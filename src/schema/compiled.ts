// One compiled form per form object, and the one place a form is normalised and compiled: its requested
// schema (zod converted once), its fields, its validator, each revision's encoding and the fields with
// defaults, each worked out on first use and kept as long as the form object lives. Every consumer
// (describeFields, encodeForRevision, compileValidator, validateContent, applyDefaults, ctx.elicit) reads
// this object. Builder forms, raw JSON schemas and zod objects alike: forms are usually module-level
// constants asked again and again, and on 2026-07-28 on every replay.
import { compileFields, type CompiledValidator } from "./compile.js";
import { encodeSchema } from "./encode.js";
import { fieldsOf, type Field } from "./fields.js";
import type { Infer } from "./infer.js";
import { normalize, type SchemaInput } from "./normalize.js";
import type { ProtocolRevision, RequestedSchema } from "./types.js";
import { getOwn, setOwn } from "./own.js";
import type { ValidationResult } from "./validation-result.js";

export interface CompiledForm<S extends SchemaInput = SchemaInput> {
  /** The form as a requested schema (zod converted once). */
  readonly schema: RequestedSchema;
  /** Its fields, in schema order; throws InvalidSchemaError for a schema with errors. */
  readonly fields: readonly Field[];
  /** Its answer check: `validator(content)` is `validateContent(form, content)`. */
  readonly validator: CompiledValidator<Infer<S>>;
  /** The form as `protocol` writes it; throws InvalidSchemaError when that revision cannot carry a field. */
  encoded(protocol: ProtocolRevision): RequestedSchema;
  /**
   * validateContent against the form; a valid answer's value (a fresh object, only the form's fields)
   * has each default the person left out filled in, as applyDefaults fills them.
   */
  accept(content: unknown): ValidationResult<Infer<S>>;
}

// Each encoding handed out: shared and never changed, so what is worked out from one (a replayed
// ctx.elicit fingerprints what it asks on every round) can be kept per encoding object. A set, not a field: an
// encoding is the plain JSON object that goes on the wire, and a mark on it would be sent (or frozen into it).
const handedOut = new WeakSet<object>();

/** Whether `value` is an encoding `encoded()` returned. */
export const isSharedEncoding = (value: object): boolean => handedOut.has(value);

class Compiled<S extends SchemaInput> implements CompiledForm<S> {
  #fields?: readonly Field[];
  #validator?: CompiledValidator<Infer<S>>;
  #encodings?: Map<ProtocolRevision, RequestedSchema>;
  #defaulted?: readonly Field[];

  constructor(readonly schema: RequestedSchema) {}

  // A broken schema throws here each time it is read: nothing is kept for it.
  get fields(): readonly Field[] {
    return (this.#fields ??= fieldsOf(this.schema));
  }

  get validator(): CompiledValidator<Infer<S>> {
    return (this.#validator ??= compileFields(this.fields) as CompiledValidator<Infer<S>>);
  }

  encoded(protocol: ProtocolRevision): RequestedSchema {
    const encodings = (this.#encodings ??= new Map());
    let encoded = encodings.get(protocol);
    if (!encoded) {
      void this.fields; // only a valid schema is encoded
      encodings.set(protocol, (encoded = encodeSchema(this.schema, protocol)));
      handedOut.add(encoded);
    }
    return encoded;
  }

  accept(content: unknown): ValidationResult<Infer<S>> {
    const result = this.validator(content);
    // The validator's value is already the tool's own object (never the journal's or the client's): filled in place.
    if (result.ok) {
      for (const f of (this.#defaulted ??= this.fields.filter((field) => field.default !== undefined))) {
        if (getOwn(result.value, f.name) === undefined) setOwn(result.value, f.name, Array.isArray(f.default) ? [...f.default] : f.default);
      }
    }
    return result;
  }
}

// Keyed by what the caller passes (a builder form, a raw schema or a zod object) and by the schema a zod
// object converts to, so each form is compiled once however it is given. A map, not a field: those objects are the
// caller's (a raw schema is sent as it is), and weak, so a form the caller drops is not kept compiled.
const compiled = new WeakMap<object, CompiledForm>();

/** The compiled form of `input`, made on first use. Throws InvalidSchemaError for a zod schema that has no form. */
export function compileForm<S extends SchemaInput>(input: S): CompiledForm<S> {
  // Not an object, so not a form: its fields say why (InvalidSchemaError), and there is nothing to keep it by.
  if (typeof input !== "object" || input === null) return new Compiled(input as unknown as RequestedSchema);
  let form = compiled.get(input);
  if (!form) {
    const schema = normalize(input);
    form = compiled.get(schema) ?? new Compiled(schema);
    compiled.set(input, form);
    if (schema !== input) compiled.set(schema, form);
  }
  return form as CompiledForm<S>;
}

/** The form as a requested schema: builders and raw schemas as they are, a zod object converted once. */
export const toRequestedSchema = (input: SchemaInput): RequestedSchema => compileForm(input).schema;

/**
 * The fields of a form, in schema order. Throws InvalidSchemaError when the schema
 * has errors (check it with checkSchema first to report them instead).
 */
export const describeFields = (input: SchemaInput): Field[] => compileForm(input).fields as Field[];

/**
 * For 2025-06-18: titled options become `enum` + `enumNames`, non-boolean defaults are dropped
 * (that revision has none; clients ignore them), and a multi-select throws InvalidSchemaError (revision-multi-select).
 * Later revisions take every shape as it is (legacy `enum` + `enumNames` is still valid there;
 * checkSchema warns about it).
 */
export const encodeForRevision = (input: SchemaInput, protocol: ProtocolRevision): RequestedSchema => compileForm(input).encoded(protocol);

// The form used last and its validator. One const object rather than two `let`s: TurboFan reads a const
// binding as the object itself, where each `let` read is also checked for use before its declaration.
const last: { form: unknown; validator: CompiledValidator | undefined } = { form: undefined, validator: undefined };

/**
 * The compiled validator of a form: the same schema object always gives the same function, and
 * `compileValidator(schema)(content)` is `validateContent(schema, content)`. Throws
 * InvalidSchemaError for a schema with errors.
 */
export function compileValidator<S extends SchemaInput>(input: S): CompiledValidator<Infer<S>> {
  // The form used last is asked again most (a tool re-asking, a renderer checking each keystroke): one
  // comparison instead of a WeakMap lookup. It holds one form alive, no more.
  if (input === last.form) return last.validator as CompiledValidator<Infer<S>>;
  const validator = compileForm(input).validator;
  last.form = input;
  last.validator = validator as CompiledValidator;
  return validator;
}
