// The one base class of the errors a tool's handler may end with: each knows the tool result it
// becomes (as Hono's HTTPException knows its response), so the kit needs no list of classes.
import type { CallToolResult } from "@modelcontextprotocol/server";

export class ToolError extends Error {
  /** Machine-readable details for `structuredContent`, when the error has any. */
  protected details(): Record<string, unknown> | undefined {
    return undefined;
  }

  /** The tool result a handler that ends with this error returns: `isError`, the message, and its details. */
  toResult(): CallToolResult {
    const details = this.details();
    return { isError: true, content: [{ type: "text", text: this.message }], ...(details ? { structuredContent: details } : {}) };
  }
}
