// Tool results that carry JSON, both ways, and a server-to-client request whose failure is a value.
import assert from "node:assert/strict";
import type { CallToolResult, ServerContext } from "@modelcontextprotocol/server";

/** A tool result whose one text block is `value` as JSON. */
export const jsonResult = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });

/** The JSON in a tool result's first block, which must be text. */
export function resultJson(result: unknown): any {
  const first = (result as CallToolResult).content[0];
  assert.ok(first && first.type === "text", `not a text block: ${JSON.stringify(first)}`);
  return JSON.parse(first.text);
}

/** Sends `method` to the client live and returns `{ result }`, or `{ error: { code, message } }` when it fails. */
export async function sendToClient(ctx: ServerContext, method: string, params?: unknown, timeout = 5000) {
  try {
    return { result: await ctx.mcpReq.send({ method, params } as never, { timeout }) };
  } catch (error) {
    return { error: { code: (error as { code?: unknown }).code, message: String((error as Error).message) } };
  }
}
