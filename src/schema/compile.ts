// A form's answer check, built from its field model: each field's rules become a closure
// (compile-field.ts), and the walk over the fields is generated code where possible (compile-walk.ts),
// so no schema is interpreted per answer. Built once per form by its compiled form (compiled.ts).
import { compileFieldCheck } from "./compile-field.js";
import { closureWalk, generatedWalk, type CompiledField, type FastAccept } from "./compile-walk.js";
import { fieldsOf, type Field } from "./fields.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { formatCheck } from "./formats.js";
import type { FormContent, RequestedSchema, StringFormat } from "./types.js";
import type { ValidationResult } from "./validation-result.js";

/** validateContent for one form, with the schema already compiled. */
export type CompiledValidator<T = FormContent> = (content: unknown) => ValidationResult<T>;

export interface CompileOptions {
  /** false: the loop over closures even where code can be generated (the tests compare both). */
  generate?: boolean;
}

/** The check of a form with these fields. */
export function compileFields(fields: readonly Field[], options: CompileOptions = {}): CompiledValidator {
  const compiled: CompiledField[] = fields.map((f) => {
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
  return (options.generate === false ? undefined : generatedWalk(compiled)) ?? closureWalk(compiled);
}

/** Compiles a requested schema now, without the per-form cache (the tests compare both walks). Throws InvalidSchemaError. */
export const compileUncached = (schema: RequestedSchema, options: CompileOptions = {}): CompiledValidator =>
  compileFields(fieldsOf(schema), options);

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
