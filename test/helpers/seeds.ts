// The Barcelona booking form of the seed document, as the project's own test data (test/data/booking-form.json).
import { readFileSync } from "node:fs";
import type { RequestedSchema } from "../../src/schema/types.js";

/** The seed's booking confirmation form (a fresh copy on each call). */
export function bookingSchema(): RequestedSchema {
  const data = JSON.parse(readFileSync(new URL("../data/booking-form.json", import.meta.url), "utf8")) as { schema: RequestedSchema };
  return data.schema;
}
