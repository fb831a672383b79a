// How a handler's error becomes the tool's result: ours know it (every ElicitError, the schema engine's
// included); anything else propagates, and McpServer reports it as the SDK does.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { ElicitError } from "../../schema/errors.js";

export {
  InputUnavailableError,
  InvalidClientResultError,
  MissingCapabilityError,
  SamplingParamsError,
  SessionRequiredError,
} from "./input-errors.js";

export function toToolError(error: unknown): CallToolResult {
  if (error instanceof ElicitError) return error.toResult();
  throw error;
}
