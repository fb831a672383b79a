// compileValidator: a form's answer check, built once per schema object and cached. The field model
// (describeFields) is read once, each field's rules become a closure (compile-field.ts), and the walk
// over the fields is generated code where possible (compile-walk.ts): no schema is interpreted per answer.
import { compileFieldCheck } from "./compile-field.js";
import { closureWalk, generatedWalk, type CompiledField, type FastAccept } from "./compile-walk.js";
import { describeFields, type Field } from "./fields.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { formatCheck } from "./formats.js";
import type { Infer } from "./infer.js";
import { toRequestedSchema, type SchemaInput } from "./normalize.js";
import type { FormContent, StringFormat } from "./types.js";
import type { ValidationResult } from "./validation-result.js";

/** validateContent for one form, with the schema already compiled. */
export type CompiledValidator<T = FormContent> = (content: unknown) => ValidationResult<T>;

export interface CompileOptions {
  /** false: the loop over closures even where code can be generated (the tests compare both). */
  generate?: boolean;
}

/**
 * Compiles a form without the cache. Throws InvalidSchemaError for a schema with errors
 * (describeFields checks it).
 */
export function compileUncached(input: SchemaInput, options: CompileOptions = {}): CompiledValidator {
  const fields: CompiledField[] = describeFields(input).map((f) => {
    const accepts = fastAccept(f);
    return {
      name: f.name,
      required: f.required,
      missing: Object.freeze({ rule: "required" as const, message: `${f.label} is required` }),
      check: compileFieldCheck(f),
      accepts,
      // A fast test of the format alone that failed on a string has decided: the format is not run again.
      rejected: accepts && ("regex" in accepts || "format" in accepts) ? compileFieldCheck(f, { formatFailed: true }) : undefined,
    };
  });
  return (options.generate === false ? undefined : generatedWalk(fields)) ?? closureWalk(fields);
}

// Beyond this many options the generated test would be a long chain of comparisons: the check's own lookup serves.
const FAST_OPTIONS = 8;

/** What generated code may accept without calling the field's check: the common fields whose rules are few. */
function fastAccept(f: Field): FastAccept | undefined {
  const c = f.constraints;
  const rules = Object.keys(c).length;
  switch (f.kind) {
    case "boolean":
      return { type: "boolean" };
    case "number":
    case "integer":
      return { number: f.kind, min: c.minimum ?? -Infinity, max: c.maximum ?? Infinity };
    case "text":
      if (rules > 0) return undefined;
      if (!f.format) return { type: "string" };
      return FORMAT_REGEX[f.format] ? { regex: FORMAT_REGEX[f.format]! } : { format: formatCheck(f.format) };
    case "choice":
      return rules === 0 && f.format === undefined && f.options!.length <= FAST_OPTIONS
        ? { options: f.options!.map((o) => o.value) }
        : undefined;
    default:
      return undefined;
  }
}

// The formats ajv-formats defines as one RegExp (email, in full mode): generated code calls its test directly.
const FORMAT_REGEX: Partial<Record<StringFormat, RegExp>> = Object.fromEntries(
  Object.entries(fullFormats).filter(([, d]) => d instanceof RegExp),
) as Partial<Record<StringFormat, RegExp>>;

// Keyed by what the caller passes (a raw schema, a builder form or a zod object) and by the raw schema
// a zod object converts to, so each form compiles once however it is given.
const compiled = new WeakMap<object, CompiledValidator>();

let lastSchema: unknown;
let lastValidator: CompiledValidator | undefined;

function compileAndCache(input: SchemaInput): CompiledValidator {
  const schema = toRequestedSchema(input);
  let validator = compiled.get(schema);
  if (validator === undefined) compiled.set(schema, (validator = compileUncached(schema)));
  if (input !== schema) compiled.set(input, validator);
  return validator;
}

/**
 * The compiled validator of a form: the same schema object always gives the same function, and
 * `compileValidator(schema)(content)` is `validateContent(schema, content)`. Throws
 * InvalidSchemaError for a schema with errors.
 */
export function compileValidator<S extends SchemaInput>(schema: S): CompiledValidator<Infer<S>> {
  // The form used last is asked again most (a tool re-asking, a renderer checking each keystroke): one
  // comparison instead of a WeakMap lookup. It holds one schema alive, no more.
  if (schema === lastSchema) return lastValidator as CompiledValidator<Infer<S>>;
  const validator = compiled.get(schema) ?? compileAndCache(schema);
  lastSchema = schema;
  lastValidator = validator;
  return validator as CompiledValidator<Infer<S>>;
}
