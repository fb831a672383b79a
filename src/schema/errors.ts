// The one family of the errors mcp-elicit throws: each has a stable `code` (a checkSchema rule for a
// schema problem, otherwise a code the layer that throws it declares in its error-codes.ts) and knows what it
// becomes on the wire, as Hono's HTTPException knows its response: a tool result for a handler that ends with
// it, a JSON-RPC error for a request it refuses. It lives at the bottom layer so the schema engine's errors belong to it too.
import type { SchemaIssue, SchemaRuleCode } from "./rules.js";

/**
 * The codes of the errors that are not a schema problem, each with what it means: empty here, since the schema
 * layer throws only its rule codes (SCHEMA_RULES). Each layer above declares the codes it throws in its own
 * `error-codes.ts` and adds them to this interface (TypeScript's declaration merging), so the bottom layer needs
 * no import of the layers that extend the family. docs/reference/errors.md lists every code.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the layers above, see above
export interface ElicitErrorCodes {}

/** Every code an ElicitError may carry: a schema rule, or a code a layer declared in its error-codes.ts. */
export type ErrorCode = SchemaRuleCode | keyof ElicitErrorCodes;

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
