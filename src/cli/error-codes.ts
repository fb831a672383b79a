// The codes of the `elicit` command's errors.
// Each joins ErrorCode (src/schema/errors.ts) by declaration merging, so the bottom layer imports none of the
// layers that extend the family. Importing this file brings in the codes of the layers underneath too: an entry
// point imports it, and its users' ErrorCode has every code it can throw.
import "../ui/error-codes.js";
import "../servers/travel/error-codes.js";

/** The codes of the `elicit` command's errors, each with what it means. docs/reference/errors.md lists them. */
export const CLI_ERROR_CODES = {
  "command-failed": "A command cannot run as given: its arguments are wrong, or its server cannot be reached or used (exit 2).",
} as const;

type CliCodes = typeof CLI_ERROR_CODES;

declare module "../schema/errors.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are CLI_ERROR_CODES's
  interface ElicitErrorCodes extends CliCodes {}
}
