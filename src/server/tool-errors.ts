// How a handler's error becomes the tool's result: ours know it (ToolError), a form the schema engine
// refuses is one too; anything else propagates, and McpServer reports it as the SDK does.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { InvalidSchemaError } from "../schema/check.js";
import { RevisionError } from "../schema/encode.js";
import { ToolError } from "./tool-error.js";

export { InputUnavailableError, InvalidClientResultError, MissingCapabilityError, SamplingParamsError } from "./input-errors.js";

export function toToolError(error: unknown): CallToolResult {
  if (error instanceof ToolError) return error.toResult();
  if (error instanceof InvalidSchemaError || error instanceof RevisionError)
    return { isError: true, content: [{ type: "text", text: error.message }] };
  throw error;
}
