// fromZod: a zod v4 object schema as an elicitation form. What the wire can express is
// converted (through zod's own JSON Schema output); the rest is refused, naming the field.
import * as z from "zod";
import type { Form } from "./builders.js";
import { checkSchema } from "./check.js";
import { InvalidSchemaError } from "./errors.js";
import { setOwn } from "./own.js";
import { issue, pointer, type SchemaRuleCode } from "./rules.js";
import { STRING_FORMATS, type PrimitiveSchema, type RequestedSchema } from "./types.js";

const CANNOT_CONVERT = "This zod schema has no elicitation form";

/**
 * A zod construct fromZod refuses, as the checkSchema rule it breaks. Some are only warnings there (a keyword
 * clients ignore): here they are errors, since the form would accept answers the zod schema rejects.
 */
function refuse(code: SchemaRuleCode, path: string, message: string): never {
  throw new InvalidSchemaError([{ ...issue(code, path, message), severity: "error" }], CANNOT_CONVERT);
}

type AnyZodObject = z.ZodObject<z.ZodRawShape>;
const SAFE_INT = Number.MAX_SAFE_INTEGER;

export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/**
 * Converts a zod object schema; the form's answer type is the schema's output type.
 *
 * @example
 * ```ts region=examples/schema-zod.ts#fromZod
 * // fromZod gives the requestedSchema that goes on the wire (ctx.elicit and validateContent take the zod schema itself).
 * const schema = fromZod(contact);
 * console.log(JSON.stringify(schema.properties.email)); // -> {"type":"string","format":"email"}
 * console.log(checkSchema(schema, { protocol: "2025-06-18" }).map((i) => i.code)); // -> [ 'revision-default' ]
 * ```
 */
export function fromZod<T extends AnyZodObject>(schema: T): Form<z.output<T>> {
  // Duck-typed on zod 4's `_zod.def` rather than `instanceof z.ZodObject`: an object schema from the app's own
  // copy of zod (or from zod/mini) is one too.
  if (!isZodSchema(schema) || schema._zod.def.type !== "object") refuse("root-not-object", "", "the schema must be a z.object({...}).");
  const shape = schema._zod.def.shape;
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const properties: Record<string, PrimitiveSchema> = {};
  for (const [name, prop] of Object.entries(json.properties as Record<string, Record<string, unknown>>)) {
    setOwn(properties, name, convertField(name, prop, shape[name] as z.ZodType));
  }
  const required = (json.required as string[] | undefined) ?? [];
  const form: RequestedSchema = required.length ? { type: "object", properties, required } : { type: "object", properties };
  const errors = checkSchema(form).filter((i) => i.severity === "error");
  if (errors.length) throw new InvalidSchemaError(errors, CANNOT_CONVERT);
  return form;
}

function convertField(name: string, prop: Record<string, unknown>, zodField: z.ZodType): PrimitiveSchema {
  // Each refusal names the field, at the keyword that says it (or at the field itself).
  const no = (code: SchemaRuleCode, keyword: string | undefined, reason: string): never =>
    refuse(code, pointer("properties", name, ...(keyword ? [keyword] : [])), `Field "${name}": ${reason}`);
  if (Array.isArray(prop.type) || prop.anyOf || prop.oneOf || prop.allOf)
    no(
      "composition-keyword",
      undefined,
      "unions and nullable values have no form equivalent; use one type (and .optional() for a field that may be left out).",
    );
  if (prop.type === "object")
    no("nested-object", undefined, "nested objects are not allowed; forms are flat, so move its fields to the top level.");
  if (prop.const !== undefined) no("unsupported-keyword", "const", "literals have no form equivalent; use z.enum([...]).");
  if (prop.exclusiveMinimum !== undefined || prop.exclusiveMaximum !== undefined)
    no("unsupported-keyword", undefined, "exclusive bounds (.gt/.lt/.positive) are not expressible; use .min()/.max().");
  if (prop.multipleOf !== undefined) no("unsupported-keyword", "multipleOf", ".multipleOf() is not expressible in a form.");
  if (prop.type === undefined)
    no("type-missing", undefined, "its type cannot be expressed in a form (use string, number, boolean, enum or an array of enum).");
  if (hasRegex(zodField))
    no("pattern-unsupported", "pattern", "regular expressions (.regex()) are not part of the elicitation schema subset.");
  const out: Record<string, unknown> = { ...prop };
  if (typeof out.format === "string") {
    if (!(STRING_FORMATS as readonly string[]).includes(out.format))
      no("unknown-format", "format", `the string format "${out.format}" is not one of ${STRING_FORMATS.join(", ")}.`);
    delete out.pattern; // zod adds its own regex for each format; the format says it for the wire
  }
  if (out.type === "integer") {
    if (out.minimum === -SAFE_INT) delete out.minimum;
    if (out.maximum === SAFE_INT) delete out.maximum;
  }
  return out as unknown as PrimitiveSchema;
}

/** True when a field (through optional/default wrappers) carries a .regex() check. */
function hasRegex(field: z.ZodType): boolean {
  let current: z.ZodType | undefined = field;
  for (let depth = 0; current && depth < 8; depth++) {
    const def = current._zod.def as { checks?: { _zod: { def: { format?: string } } }[]; innerType?: z.ZodType };
    if (def.checks?.some((c) => c._zod.def.format === "regex")) return true;
    current = def.innerType;
  }
  return false;
}
