// Prints a tool result for a person: its text content, made inert, and a note when it is an error.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { sanitizeText } from "../common/sanitize.js";

export function printResult(result: CallToolResult, write: (line: string) => void): void {
  if (result.isError) write("The tool reported an error:");
  for (const block of result.content) {
    if (block.type === "text") write(sanitizeText(block.text, { maxLength: 20_000 }));
    else write(`[${block.type} content]`);
  }
}
