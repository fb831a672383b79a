// Resources, prompts and completion. A 2025-era instance also answers resources/subscribe (2026-07-28 has
// subscriptions/listen, served by the SDK).
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import * as z from "zod";

import { PNG_BASE64 } from "./fixtures.js";

export function registerResourcesAndPrompts(s: McpServer, era: "legacy" | "modern"): void {
  registerResources(s, era);
  registerPrompts(s);
  s.server.setRequestHandler("completion/complete", () => ({ completion: { values: [], total: 0, hasMore: false } }));
}

/** Static text and binary resources, a template, and one to subscribe to (resources/subscribe on 2025 eras). */
function registerResources(s: McpServer, era: "legacy" | "modern"): void {
  s.registerResource(
    "static-text",
    "test://static-text",
    { title: "Static Text Resource", description: "A static text resource for testing", mimeType: "text/plain" },
    () => ({ contents: [{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }] }),
  );
  s.registerResource(
    "static-binary",
    "test://static-binary",
    { title: "Static Binary Resource", description: "A static binary resource (image) for testing", mimeType: "image/png" },
    () => ({ contents: [{ uri: "test://static-binary", mimeType: "image/png", blob: PNG_BASE64 }] }),
  );
  s.registerResource(
    "template",
    new ResourceTemplate("test://template/{id}/data", { list: undefined }),
    { title: "Resource Template", description: "A resource template with parameter substitution", mimeType: "application/json" },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.toString(),
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
  s.registerResource(
    "watched-resource",
    "test://watched-resource",
    { title: "Watched Resource", description: "A resource that can be subscribed to", mimeType: "text/plain" },
    () => ({ contents: [{ uri: "test://watched-resource", mimeType: "text/plain", text: "Watched resource content" }] }),
  );
  if (era === "legacy") {
    // 2026-07-28 replaces resources/subscribe with subscriptions/listen (served by the SDK).
    s.server.setRequestHandler("resources/subscribe", () => ({}));
    s.server.setRequestHandler("resources/unsubscribe", () => ({}));
  }
}

/** Prompts: a simple one, one with arguments, one embedding a resource, one with an image. */
function registerPrompts(s: McpServer): void {
  s.registerPrompt("test_simple_prompt", { title: "Simple Test Prompt", description: "A simple prompt without arguments" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));
  s.registerPrompt(
    "test_prompt_with_arguments",
    {
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      argsSchema: z.object({ arg1: z.string().describe("First test argument"), arg2: z.string().describe("Second test argument") }),
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  s.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      argsSchema: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  );
  s.registerPrompt("test_prompt_with_image", { title: "Prompt With Image", description: "A prompt that includes image content" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));
}
