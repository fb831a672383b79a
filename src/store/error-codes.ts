// The codes of the store layer's errors.
// Each joins ErrorCode (src/schema/errors.ts) by declaration merging, so the bottom layer imports none of the
// layers that extend the family. Importing this file brings in the codes of the layers underneath too: an entry
// point imports it, and its users' ErrorCode has every code it can throw.
import "../common/error-codes.js";

/** The codes of the store layer's errors, each with what it means. docs/reference/errors.md lists them. */
export const STORE_ERROR_CODES = {
  "store-file-damaged": "A SQLite store file is damaged or is not a store.",
} as const;

type StoreCodes = typeof STORE_ERROR_CODES;

declare module "../schema/errors.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are STORE_ERROR_CODES's
  interface ElicitErrorCodes extends StoreCodes {}
}
