// The booking example of the seed document ../shared/seeds/004_*.txt, read from the file itself.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SHARED } from "./spec.js";
import type { RequestedSchema } from "../../src/schema/types.js";

/** The seed writes the schema as a JS object literal inside `elicitation/requestInput`; we turn it into JSON. */
export function bookingSchema(): RequestedSchema {
  const dir = join(SHARED, "seeds");
  const file = readdirSync(dir).find((f) => f.startsWith("004_"))!;
  const text = readFileSync(join(dir, file), "utf8");
  const start = text.indexOf("schema: {");
  const literal = text.slice(start + "schema: ".length, text.indexOf("required: [\"confirmBooking\"]", start) + 40);
  const end = literal.indexOf("}", literal.indexOf("required:")) + 1;
  const json = literal
    .slice(0, end)
    .replace(/([{,]\s*)([A-Za-z_]\w*)\s*:/g, '$1"$2":')
    .replace(/,(\s*[}\]])/g, "$1");
  return JSON.parse(json) as RequestedSchema;
}
