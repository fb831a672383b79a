// The browser's stand-in for src/schema/zod.ts: the build maps the schema engine's `./zod.js` to this file, so
// no part of zod is bundled (fromZod needs zod's JSON Schema output, about 7 kB gzipped). An element only ever
// gets a requestedSchema as JSON, which is never a zod schema; a page that hands one over gets a clear error.
import type { RequestedSchema } from "../../../schema/types.js";

/** The same duck test as src/schema/zod.ts (zod 4 schemas carry `_zod`). */
export function isZodSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && "_zod" in value;
}

export function fromZod(): RequestedSchema {
  throw new TypeError(
    "The web elements take a requestedSchema as JSON, not a zod schema: convert it with fromZod from mcp-elicit/schema on the server.",
  );
}
