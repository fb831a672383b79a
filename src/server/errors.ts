// Errors a tool author's handler may end with, and how each becomes the tool's result.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { InvalidSchemaError } from "../schema/check.js";
import { RevisionError } from "../schema/encode.js";
import type { Field } from "../schema/fields.js";
import { InvalidAnswerError } from "./elicit.js";
import { InputTimeoutError } from "./live.js";
import { ReplayMismatchError } from "./replay.js";
import { InvalidClientResultError, MissingCapabilityError, SamplingParamsError } from "./request-errors.js";

export { InvalidClientResultError, MissingCapabilityError, SamplingParamsError };

/** The client cannot be asked (it declared no elicitation, or not this mode). */
export class InputUnavailableError extends Error {
  constructor(readonly request: string, readonly fields: Field[], readonly capability: string) {
    super(`This tool needs input from the user, but the client does not support ${capability}. Needed: "${request}" with fields: ${fields.map((f) => `${f.label}${f.required ? " (required)" : ""}`).join(", ")}.`);
    this.name = "InputUnavailableError";
  }
}

const HANDLED = [
  InputUnavailableError, InvalidAnswerError, InputTimeoutError, RevisionError, InvalidSchemaError, ReplayMismatchError,
  MissingCapabilityError, SamplingParamsError, InvalidClientResultError,
];

/** Turns the errors of this package into a tool error result; anything else propagates. */
export function toToolError(error: unknown): CallToolResult {
  if (!HANDLED.some((E) => error instanceof E)) throw error;
  const message = (error as Error).message;
  const result: CallToolResult = { isError: true, content: [{ type: "text", text: message }] };
  if (error instanceof InputUnavailableError) {
    result.structuredContent = {
      error: "input_unavailable",
      capability: error.capability,
      request: error.request,
      fields: error.fields.map((f) => ({ name: f.name, label: f.label, kind: f.kind, required: f.required, ...(f.help ? { help: f.help } : {}) })),
    };
  }
  // The same tag as a missing elicitation capability: the client could not be asked what the tool needs.
  if (error instanceof MissingCapabilityError) {
    result.structuredContent = { error: "input_unavailable", capability: error.capability, request: error.method };
  }
  return result;
}
