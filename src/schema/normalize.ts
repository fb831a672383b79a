// One entry point for the three ways to give a form: builders, a raw JSON schema, or zod.
import type { RequestedSchema } from "./types.js";
import { fromZod, isZodSchema } from "./zod.js";
import type * as z from "zod";

/** A form as our builders make it, a raw `requestedSchema`, or a zod v4 object schema. */
export type SchemaInput = RequestedSchema | z.ZodObject<z.ZodRawShape>;

/** The form as a requested schema, converted now (toRequestedSchema keeps the conversion per form). */
export const normalize = (input: SchemaInput): RequestedSchema => (isZodSchema(input) ? fromZod(input) : (input as RequestedSchema));
