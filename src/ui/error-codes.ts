// The codes of the renderers' errors (terminal, web page, answers file).
// Each joins ErrorCode (src/schema/errors.ts) by declaration merging, so the bottom layer imports none of the
// layers that extend the family. Importing this file brings in the codes of the layers underneath too: an entry
// point imports it, and its users' ErrorCode has every code it can throw.
import "../client/error-codes.js";
import "../server/base/error-codes.js";

/** The codes of the renderers' errors, each with what it means. docs/reference/errors.md lists them. */
export const UI_ERROR_CODES = {
  "answers-file-invalid": "An answers file (elicit call --answers) cannot be read or does not fit the form.",
  "web-answer-invalid": "A browser page posted an answer that does not fit the form.",
  "prompt-cancelled": "The person pressed Esc or Ctrl-C at a terminal prompt, or the server withdrew the request.",
} as const;

type UiCodes = typeof UI_ERROR_CODES;

declare module "../schema/errors.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are UI_ERROR_CODES's
  interface ElicitErrorCodes extends UiCodes {}
}
