// The codes of the server side's errors, every room of src/server/.
// Each joins ErrorCode (src/schema/errors.ts) by declaration merging, so the bottom layer imports none of the
// layers that extend the family. Importing this file brings in the codes of the layers underneath too: an entry
// point imports it, and its users' ErrorCode has every code it can throw.
import "../../store/error-codes.js";

/** The codes of the server side's errors, every room of src/server/, each with what it means. docs/reference/errors.md lists them. */
export const SERVER_ERROR_CODES = {
  "invalid-answer": "The person's answers kept failing validation after the allowed attempts.",
  "capability-missing": "The client did not declare sampling or roots, which the tool needs.",
  "input-unavailable": "The client cannot show a form (no elicitation capability), so the tool cannot ask.",
  "session-required": "A 2025-era call came without a session (a stateless handler): the server cannot ask on that revision.",
  "url-mode-unavailable": "The client cannot open a URL-mode elicitation (2025-06-18, or no elicitation.url).",
  "url-required": "The kit's link fallback: the result carries the link for the person to open.",
  "file-too-large": "An upload was longer than its limit (the tool's maxBytes or the sink's cap); nothing was stored.",
  "upload-not-found": "No upload is stored under the id: never stored, deleted, or past the sink's lifetime.",
  "upload-exists": "An upload is already stored under the id; a sink never replaces one.",
  "sampling-params-invalid": "A sampling request the tool built breaks the protocol's rules; nothing was sent.",
  "client-result-invalid": "The client's answer to sampling or roots is not a valid result.",
  "input-timeout": "Nobody answered within the wait; the request was withdrawn.",
  "step-busy": "A ctx.step is still running for this call in another request.",
  "step-lost": "A ctx.step ran, but its result is gone (no durable store, or it expired).",
  "step-unknown": "A ctx.step was running on an instance that stopped: whether it happened is unknown.",
  "replay-mismatch": "A replayed handler asked something other than in the previous round.",
  "state-invalid": "A requestState that cannot be used (malformed, tampered, expired, someone else's, replayed): -32602.",
  "vault-failed": "The vault cannot seal or open a credential.",
  "oauth-flow-failed": "A third-party OAuth flow of the URL kit failed; `oauthError` has the provider's code.",
  "issuer-discovery-failed": "The authorization server's metadata cannot be found or is not acceptable.",
} as const;

type ServerCodes = typeof SERVER_ERROR_CODES;

declare module "../../schema/errors.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are SERVER_ERROR_CODES's
  interface ElicitErrorCodes extends ServerCodes {}
}
