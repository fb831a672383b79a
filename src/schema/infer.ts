// Infer<typeof form>: the one name for the type of an accepted answer, whatever the form was written
// as: builders (the type they carry), a zod object (its output), or a raw schema (plain FormContent).
import type * as z from "zod";
import type { BrandOf } from "./builders.js";
import type { FormContent } from "./types.js";

export type Infer<S> = S extends z.ZodType ? z.output<S> : [BrandOf<S>] extends [never] ? FormContent : BrandOf<S>;
