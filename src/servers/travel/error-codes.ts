// The codes of the travel demo's errors.
// Each joins ErrorCode (src/schema/errors.ts) by declaration merging, so the bottom layer imports none of the
// layers that extend the family. Importing this file brings in the codes of the layers underneath too: an entry
// point imports it, and its users' ErrorCode has every code it can throw.
import "../../server/base/error-codes.js";

/** The codes of the travel demo's errors, each with what it means. docs/reference/errors.md lists them. */
export const TRAVEL_ERROR_CODES = {
  "unsafe-write": "The travel demo refused to write outside its own file.",
} as const;

type TravelCodes = typeof TRAVEL_ERROR_CODES;

declare module "../../schema/errors.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are TRAVEL_ERROR_CODES's
  interface ElicitErrorCodes extends TravelCodes {}
}
