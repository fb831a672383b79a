// The codes of the common layer's errors (opening a browser, loading an optional peer, the SDK's members).
// Each joins ErrorCode (src/schema/errors.ts) by declaration merging, so the bottom layer imports none of the
// layers that extend the family. Importing this file brings in the codes of the layers underneath too: an entry
// point imports it, and its users' ErrorCode has every code it can throw.
/** The codes of the common layer's errors, each with what it means. docs/reference/errors.md lists them. */
export const COMMON_ERROR_CODES = {
  "browser-not-opened": "No browser was opened (--no-browser, no display, or the opener failed).",
  "peer-missing": "An optional peer dependency is not installed; the message has the install command.",
  "sdk-unsupported": "The installed MCP SDK lacks a member mcp-elicit relies on.",
} as const;

type CommonCodes = typeof COMMON_ERROR_CODES;

declare module "../schema/errors.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are COMMON_ERROR_CODES's
  interface ElicitErrorCodes extends CommonCodes {}
}
