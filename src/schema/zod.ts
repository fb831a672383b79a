// fromZod: a zod v4 object schema as an elicitation form. What the wire can express is
// converted (through zod's own JSON Schema output); the rest is refused, naming the field.
import * as z from "zod";
import type { Form } from "./builders.js";
import { checkSchema, hasErrors } from "./check.js";
import { setOwn } from "./own.js";
import { STRING_FORMATS, type PrimitiveSchema, type RequestedSchema } from "./types.js";

export class ZodConversionError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`Field "${field}" cannot be sent in an elicitation form: ${reason}`);
    this.name = "ZodConversionError";
  }
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
  if (!isZodSchema(schema) || schema._zod.def.type !== "object")
    throw new ZodConversionError("(root)", "the schema must be a z.object({...}).");
  const shape = schema._zod.def.shape;
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const properties: Record<string, PrimitiveSchema> = {};
  for (const [name, prop] of Object.entries(json.properties as Record<string, Record<string, unknown>>)) {
    setOwn(properties, name, convertField(name, prop, shape[name] as z.ZodType));
  }
  const required = (json.required as string[] | undefined) ?? [];
  const form: RequestedSchema = required.length ? { type: "object", properties, required } : { type: "object", properties };
  const errors = checkSchema(form).filter((i) => i.severity === "error");
  if (hasErrors(errors)) throw new ZodConversionError(errors[0]!.path.split("/")[2] ?? "(root)", errors[0]!.message);
  return form;
}

function convertField(name: string, prop: Record<string, unknown>, zodField: z.ZodType): PrimitiveSchema {
  const fail = (reason: string): never => {
    throw new ZodConversionError(name, reason);
  };
  if (Array.isArray(prop.type) || prop.anyOf || prop.oneOf || prop.allOf)
    fail("unions and nullable values have no form equivalent; use one type (and .optional() for a field that may be left out).");
  if (prop.type === "object") fail("nested objects are not allowed; forms are flat, so move its fields to the top level.");
  if (prop.const !== undefined) fail("literals have no form equivalent; use z.enum([...]).");
  if (prop.exclusiveMinimum !== undefined || prop.exclusiveMaximum !== undefined)
    fail("exclusive bounds (.gt/.lt/.positive) are not expressible; use .min()/.max().");
  if (prop.multipleOf !== undefined) fail(".multipleOf() is not expressible in a form.");
  if (prop.type === undefined) fail("its type cannot be expressed in a form (use string, number, boolean, enum or an array of enum).");
  if (hasRegex(zodField)) fail("regular expressions (.regex()) are not part of the elicitation schema subset.");
  const out: Record<string, unknown> = { ...prop };
  if (typeof out.format === "string") {
    if (!(STRING_FORMATS as readonly string[]).includes(out.format))
      fail(`the string format "${out.format}" is not one of ${STRING_FORMATS.join(", ")}.`);
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
