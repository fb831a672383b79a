// The codes of the client side's errors.
// Each joins ErrorCode (src/schema/errors.ts) by declaration merging, so the bottom layer imports none of the
// layers that extend the family. Importing this file brings in the codes of the layers underneath too: an entry
// point imports it, and its users' ErrorCode has every code it can throw.
import "../store/error-codes.js";

/** The codes of the client side's errors, each with what it means. docs/reference/errors.md lists them. */
export const CLIENT_ERROR_CODES = {
  "renderer-answer-invalid": "A renderer answered something the client cannot send: the server gets -32603.",
  "url-elicitation-ended": "A tool call that needed a URL flow did not go on (declined, cancelled, refused, repeated).",
  "server-gone": "A 2026-07-28 round could not be delivered again before the deadline.",
  "server-refused":
    "The server answered a task request (tasks/get, tasks/update, tasks/cancel, a task's tools/call) with a JSON-RPC error; `rpcCode` is its code.",
  "request-params-invalid": "rawRequest was given params that are not an object (or a `_meta` that is not one); nothing was sent.",
  "login-failed": "Signing in to a protected server failed; `reason` says how.",
  "token-folder-unsafe": "The token folder is a symbolic link, not a directory, or another user's.",
  "provider-failed": "The model provider refused or failed a completion; `kind` says how.",
  "link-not-renewed": "The server gave no new link for a URL-mode page (not a kit page, not the person asked, or the request is over).",
} as const;

type ClientCodes = typeof CLIENT_ERROR_CODES;

declare module "../schema/errors.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are CLIENT_ERROR_CODES's
  interface ElicitErrorCodes extends ClientCodes {}
}
