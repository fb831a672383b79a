// One entry point for the three ways to give a form: builders, a raw JSON schema, or zod.
import type { RequestedSchema } from "./types.js";
import { fromZod, isZodSchema } from "./zod.js";
import type * as z from "zod";

/** A form as our builders make it, a raw `requestedSchema`, or a zod v4 object schema. */
export type SchemaInput = RequestedSchema | z.ZodObject<z.ZodRawShape>;

const converted = new WeakMap<object, RequestedSchema>();

export function toRequestedSchema(input: SchemaInput): RequestedSchema {
  if (!isZodSchema(input)) return input as RequestedSchema;
  let schema = converted.get(input);
  if (!schema) converted.set(input, (schema = fromZod(input)));
  return schema;
}
