// The one family of the errors mcp-elicit throws: each has a stable `code` (a checkSchema rule for a
// schema problem, otherwise one of ERROR_CODES) and knows what it becomes on the wire, as Hono's
// HTTPException knows its response: a tool result for a handler that ends with it, a JSON-RPC error for
// a request it refuses. It lives at the bottom layer so the schema engine's errors belong to it too.
import type { SchemaIssue, SchemaRuleCode } from "./rules.js";

/** The codes of the errors that are not a schema problem, each with what it means. docs/reference/errors.md lists them. */
export const ERROR_CODES = {
  // A tool call that ends with a tool result (isError) saying why.
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
  // A request refused with a JSON-RPC error.
  "state-invalid": "A requestState that cannot be used (malformed, tampered, expired, someone else's, replayed): -32602.",
  "renderer-answer-invalid": "A renderer answered something the client cannot send: the server gets -32603.",
  // Thrown to the code that called the library.
  "url-elicitation-ended": "A tool call that needed a URL flow did not go on (declined, cancelled, refused, repeated).",
  "server-gone": "A 2026-07-28 round could not be delivered again before the deadline.",
  "server-refused":
    "The server answered a task request (tasks/get, tasks/update, tasks/cancel, a task's tools/call) with a JSON-RPC error; `rpcCode` is its code.",
  "request-params-invalid": "rawRequest was given params that are not an object (or a `_meta` that is not one); nothing was sent.",
  "login-failed": "Signing in to a protected server failed; `reason` says how.",
  "token-folder-unsafe": "The token folder is a symbolic link, not a directory, or another user's.",
  "provider-failed": "The model provider refused or failed a completion; `kind` says how.",
  "browser-not-opened": "No browser was opened (--no-browser, no display, or the opener failed).",
  "link-not-renewed": "The server gave no new link for a URL-mode page (not a kit page, not the person asked, or the request is over).",
  "peer-missing": "An optional peer dependency is not installed; the message has the install command.",
  "sdk-unsupported": "The installed MCP SDK lacks a member mcp-elicit relies on.",
  "store-file-damaged": "A SQLite store file is damaged or is not a store.",
  "vault-failed": "The vault cannot seal or open a credential.",
  "oauth-flow-failed": "A third-party OAuth flow of the URL kit failed; `oauthError` has the provider's code.",
  "issuer-discovery-failed": "The authorization server's metadata cannot be found or is not acceptable.",
  "answers-file-invalid": "An answers file (elicit call --answers) cannot be read or does not fit the form.",
  "web-answer-invalid": "A browser page posted an answer that does not fit the form.",
  "command-failed": "A command cannot run as given: its arguments are wrong, or its server cannot be reached or used (exit 2).",
  "prompt-cancelled": "The person pressed Esc or Ctrl-C at a terminal prompt, or the server withdrew the request.",
  "unsafe-write": "The travel demo refused to write outside its own file.",
} as const;

/** Every code an ElicitError may carry. */
export type ErrorCode = SchemaRuleCode | keyof typeof ERROR_CODES;

/** What a tool call that ends with an error returns (a CallToolResult). */
export interface ToolErrorResult {
  [key: string]: unknown;
  isError: true;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** What a request refused with an error is answered (the SDK's ProtocolError takes these three). */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/** JSON-RPC's codes for a request the peer got wrong, and for anything else. */
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/**
 * The base of every error mcp-elicit throws.
 *
 * @example
 * ```ts region=examples/errors.ts#onTheWire
 * // What an error becomes: a tool result for a handler that ends with it, a JSON-RPC error for a request it refuses.
 * const refused = new StateError("expired", "it expired; call the tool again.");
 * console.log(refused.code, JSON.stringify(refused.toJsonRpc()));
 * // -> state-invalid {"code":-32602,"message":"Invalid requestState: it expired; call the tool again.","data":{"reason":"expired"}}
 * ```
 */
export class ElicitError extends Error {
  constructor(
    /** What went wrong, stable across releases: match on this, not on the message. */
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** The JSON-RPC error code this error is answered with when it refuses a request. */
  get rpcCode(): number {
    return INTERNAL_ERROR;
  }

  /** Machine-readable details for a tool result's `structuredContent` or a JSON-RPC error's `data`. */
  protected details(): Record<string, unknown> | undefined {
    return undefined;
  }

  /** The tool result a handler that ends with this error returns: `isError`, the message, and its details. */
  toResult(): ToolErrorResult {
    const details = this.details();
    return { isError: true, content: [{ type: "text", text: this.message }], ...(details ? { structuredContent: details } : {}) };
  }

  /** The JSON-RPC error a request this error refuses is answered with. */
  toJsonRpc(): JsonRpcError {
    const details = this.details();
    return { code: this.rpcCode, message: this.message, ...(details ? { data: details } : {}) };
  }
}

/**
 * A form that cannot be used as it is, with every problem as a checkSchema issue: a schema with errors, a field a
 * protocol revision cannot carry, or a zod schema with no form equivalent. `code` is the first issue's.
 */
export class InvalidSchemaError extends ElicitError {
  constructor(
    readonly issues: SchemaIssue[],
    /** What could not be done, the message's first line. */
    heading = "Invalid elicitation schema",
  ) {
    const errors = issues.filter((i) => i.severity === "error");
    super(
      errors[0]?.code ?? "root-not-object",
      `${heading}:\n${errors.map((i) => `  ${i.path || "/"}: ${i.message} [${i.code}]`).join("\n")}`,
    );
  }
}
