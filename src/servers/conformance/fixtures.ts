// The conformance server's fixtures: the payloads and forms the suite's scenarios check, and the result texts it expects.
import type { CallToolResult, ElicitRequestFormParams } from "@modelcontextprotocol/server";
import * as z from "zod";
import { choice, form, integer, multiChoice, number, text, yesNo } from "../../schema/index.js";
import type { RequestedSchema } from "../../schema/types.js";

/** 1×1 PNG and a tiny WAV, as the suite's image/audio checks need real base64 payloads. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

export const say = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const noArgs = z.object({});

/** The form test_elicitation asks for (the suite answers username + email). */
export const userForm = form({
  username: text({ description: "User's response" }),
  email: text({ description: "User's email address" }),
});

/** SEP-1034: a default on every primitive type. */
export const defaultsForm = form({
  name: text({ description: "User name", default: "John Doe" }).optional(),
  age: integer({ description: "User age", default: 30 }).optional(),
  score: number({ description: "User score", default: 95.5 }).optional(),
  status: choice(["active", "inactive", "pending"], { description: "User status", default: "active" }).optional(),
  verified: yesNo({ description: "Verification status", default: true }).optional(),
});

/** SEP-1330: every enum shape. The legacy field is raw JSON (the builders only write current shapes). */
export const enumsForm: RequestedSchema = {
  type: "object",
  properties: {
    ...form({
      untitledSingle: choice(["option1", "option2", "option3"], { description: "Select one option" }).optional(),
      titledSingle: choice(
        { value1: "First Option", value2: "Second Option", value3: "Third Option" },
        { description: "Select one option with titles" },
      ).optional(),
    }).properties,
    legacyEnum: {
      type: "string",
      description: "Select one option (legacy)",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    ...form({
      untitledMulti: multiChoice(["option1", "option2", "option3"], {
        description: "Select multiple options",
        minItems: 1,
        maxItems: 3,
      }).optional(),
      titledMulti: multiChoice(
        { value1: "First Choice", value2: "Second Choice", value3: "Third Choice" },
        { description: "Select multiple options with titles", minItems: 1, maxItems: 3 },
      ).optional(),
    }).properties,
  },
  required: [],
};

export const nameForm = form({ name: text() });
export const confirmForm = form({ ok: yesNo() });
export const colorForm = form({ color: text() });

/** A builder form as the SDK's inputRequired.elicit takes it (for the SDK-only tools below). */
export const wire = (f: RequestedSchema) => ({ ...f }) as ElicitRequestFormParams["requestedSchema"];

/** "action=accept, content={...}", the suite's result text for every elicitation tool. */
export function describe(outcome: { action: string; content?: unknown }): string {
  return `action=${outcome.action}, content=${JSON.stringify(outcome.action === "accept" ? outcome.content : {})}`;
}

export function samplingText(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content[0] : result.content;
  return (content as { text?: string } | undefined)?.text ?? "";
}
