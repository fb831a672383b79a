// The "everything server" of the official MCP conformance suite (@modelcontextprotocol/conformance),
// built with this package: every tool, resource and prompt its server scenarios call, on every
// protocol revision (2025-era sessions and 2026-07-28 stateless requests alike).
//
// Elicitation goes through `kit.registerTool` + `ctx.elicit`, so the same straight-line handler
// runs as live requests on 2025-06-18/2025-11-25 and as sealed replay on 2026-07-28. Sampling,
// roots, and input requests mixing them with elicitation use the SDK's own APIs (the kit only
// elicits). Run it with `elicit serve conformance [--http [HOST:]PORT]`.
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
  type CallToolResult,
  type ElicitRequestFormParams,
  type InputRequest,
  type InputRequiredResult,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { choice, form, integer, multiChoice, number, text, yesNo } from "../schema/index.js";
import type { RequestedSchema } from "../schema/types.js";
import type { Elicitation } from "../server/elicitation.js";

export interface ConformanceServerOptions {
  /** Which era the instance serves (the factory context of serveHttp/serveStdio); default "legacy". */
  era?: "legacy" | "modern";
}

/** 1×1 PNG and a tiny WAV, as the suite's image/audio checks need real base64 payloads. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const say = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const noArgs = z.object({});

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

const nameForm = form({ name: text() });
const confirmForm = form({ ok: yesNo() });
const colorForm = form({ color: text() });

/** A builder form as the SDK's inputRequired.elicit takes it (for the SDK-only tools below). */
const wire = (f: RequestedSchema) => ({ ...f }) as ElicitRequestFormParams["requestedSchema"];

/** "action=accept, content={...}", the suite's result text for every elicitation tool. */
function describe(outcome: { action: string; content?: unknown }): string {
  return `action=${outcome.action}, content=${JSON.stringify(outcome.action === "accept" ? outcome.content : {})}`;
}

function samplingText(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content[0] : result.content;
  return (content as { text?: string } | undefined)?.text ?? "";
}

/** A fresh conformance server instance (one per 2025-era session or 2026-07-28 request). */
export function createConformanceServer(kit: Elicitation, options: ConformanceServerOptions = {}): McpServer {
  const era = options.era ?? "legacy";
  const s = new McpServer(
    { name: "mcp-elicit-conformance-server", version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );

  // ---- content tools ----
  s.registerTool("test_simple_text", { description: "Returns a simple text response" }, () =>
    say("This is a simple text response for testing."),
  );
  s.registerTool("test_image_content", { description: "Returns an image" }, () => ({
    content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }],
  }));
  s.registerTool("test_audio_content", { description: "Returns audio" }, () => ({
    content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }],
  }));
  s.registerTool("test_embedded_resource", { description: "Returns an embedded resource" }, () => ({
    content: [
      {
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      },
    ],
  }));
  s.registerTool("test_multiple_content_types", { description: "Returns text, an image and a resource" }, () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  }));
  s.registerTool("test_error_handling", { description: "Always fails" }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });

  // ---- logging and progress ----
  s.registerTool(
    "test_tool_with_logging",
    { description: "Logs three messages while it runs", inputSchema: noArgs },
    async (_args, ctx) => {
      const steps = ["Tool execution started", "Tool processing data", "Tool execution completed"];
      for (const [i, message] of steps.entries()) {
        if (i > 0) await sleep(50);
        await ctx.mcpReq.log("info", message); // 2025: obeys logging/setLevel; 2026-07-28: only with a _meta logLevel
      }
      return say("Tool with logging executed successfully");
    },
  );
  s.registerTool("test_tool_with_progress", { description: "Reports progress 0, 50, 100", inputSchema: noArgs }, async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(50);
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
        });
      }
    }
    return say(`Progress tool completed (token ${String(progressToken)})`);
  });

  // ---- elicitation: our kit, every revision ----
  kit.registerTool(
    s,
    "test_elicitation",
    { description: "Asks the user for a username and email", inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx) => say(`User response: ${describe(await ctx.elicit(message, userForm))}`),
  );
  kit.registerTool(
    s,
    "test_elicitation_sep1034_defaults",
    { description: "Elicitation with a default on every field type (SEP-1034)" },
    async (_args, ctx) =>
      say(`Elicitation completed: ${describe(await ctx.elicit("Please review and update the form fields with defaults", defaultsForm))}`),
  );
  kit.registerTool(
    s,
    "test_elicitation_sep1330_enums",
    { description: "Elicitation with every enum shape (SEP-1330)" },
    async (_args, ctx) =>
      say(`Elicitation completed: ${describe(await ctx.elicit("Please select options from the enum fields", enumsForm))}`),
  );

  // ---- 2026-07-28 input_required (MRTR) tools whose only input is elicitation: our kit too ----
  kit.registerTool(
    s,
    "test_input_required_result_elicitation",
    { description: "Asks for the user's name (SEP-2322)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit("What is your name?", nameForm, { key: "user_name" });
      return answer.action === "accept"
        ? say(`Hello, ${answer.content.name}!`)
        : { ...say(`No name given (${answer.action})`), isError: true };
    },
  );
  kit.registerTool(
    s,
    "test_input_required_result_request_state",
    { description: "Asks for a confirmation; the answer rides on requestState (SEP-2322)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please confirm", confirmForm);
      return say(`state-ok: requestState round-tripped, ${describe(answer)}`);
    },
  );
  kit.registerTool(
    s,
    "test_input_required_result_tampered_state",
    { description: "Asks for a confirmation; tampered requestState is refused (SEP-2322)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please confirm", confirmForm);
      return say(`integrity-ok: ${describe(answer)}`);
    },
  );
  kit.registerTool(
    s,
    "test_input_required_result_multi_round",
    { description: "Asks two questions, one per round (SEP-2322)" },
    async (_args, ctx) => {
      const name = await ctx.elicit("Step 1: What is your name?", nameForm);
      if (name.action !== "accept") return say(`Stopped at step 1 (${name.action})`);
      const color = await ctx.elicit("Step 2: What is your favorite color?", colorForm);
      if (color.action !== "accept") return say(`Stopped at step 2 (${color.action})`);
      return say(`Multi-round complete for ${name.content.name} who likes ${color.content.color}`);
    },
  );

  // ---- sampling and roots: the SDK's APIs ----
  s.registerTool(
    "test_sampling",
    { description: "Asks the client's LLM", inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      try {
        const result = await ctx.mcpReq.requestSampling(
          { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 },
          { relatedRequestId: ctx.mcpReq.id },
        );
        return say(`LLM response: ${samplingText(result) || "No response"}`);
      } catch (error) {
        return { ...say(`Sampling not supported or error: ${(error as Error).message}`), isError: true };
      }
    },
  );
  s.registerTool(
    "test_input_required_result_sampling",
    { description: "Asks the client's LLM (SEP-2322)", inputSchema: noArgs },
    (_args, ctx): CallToolResult | InputRequiredResult => {
      const view = inputResponse(ctx.mcpReq.inputResponses, "capital_question");
      if (view.kind === "sampling") return say(`Sampling result: ${samplingText(view.result)}`);
      return inputRequired({
        inputRequests: {
          capital_question: inputRequired.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
            maxTokens: 100,
          }),
        },
      });
    },
  );
  s.registerTool(
    "test_input_required_result_list_roots",
    { description: "Asks for the client's roots (SEP-2322)", inputSchema: noArgs },
    (_args, ctx): CallToolResult | InputRequiredResult => {
      const view = inputResponse(ctx.mcpReq.inputResponses, "client_roots");
      if (view.kind === "roots") return say(`Found ${view.roots.length} root(s): ${view.roots.map((r) => r.uri).join(", ")}`);
      return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    },
  );
  s.registerTool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks for a name, an LLM greeting and the roots at once (SEP-2322)", inputSchema: noArgs },
    (_args, ctx): CallToolResult | InputRequiredResult => {
      const responses = ctx.mcpReq.inputResponses;
      const name = acceptedContent(responses, "user_name", z.object({ name: z.string() }));
      const greeting = inputResponse(responses, "greeting");
      const roots = inputResponse(responses, "client_roots");
      if (ctx.mcpReq.requestState() === "multiple-inputs" && name && greeting.kind === "sampling" && roots.kind === "roots") {
        return say(`Name: ${name.name}; Greeting: ${samplingText(greeting.result)}; Roots: ${roots.roots.length}`);
      }
      return inputRequired({
        inputRequests: {
          user_name: inputRequired.elicit({ message: "What is your name?", requestedSchema: wire(nameForm) }),
          greeting: inputRequired.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
            maxTokens: 50,
          }),
          client_roots: inputRequired.listRoots(),
        },
        requestState: "multiple-inputs",
      });
    },
  );
  s.registerTool(
    "test_input_required_result_capabilities",
    { description: "Only asks for what the client declared (SEP-2322)", inputSchema: noArgs },
    (_args, ctx): CallToolResult | InputRequiredResult => {
      const received = Object.keys(ctx.mcpReq.inputResponses ?? {});
      if (received.length > 0) return say(`capabilities-ok: received ${received.join(", ")}`);
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      const caps = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? s.server.getClientCapabilities() ?? {}) as {
        elicitation?: unknown;
        sampling?: unknown;
      };
      const requests: Record<string, InputRequest> = {};
      if (caps.elicitation)
        requests.elicit_input = inputRequired.elicit({ message: "Elicitation input", requestedSchema: wire(form({ value: text() })) });
      if (caps.sampling)
        requests.sample_input = inputRequired.createMessage({
          messages: [{ role: "user", content: { type: "text", text: "Sample request" } }],
          maxTokens: 50,
        });
      return Object.keys(requests).length > 0 ? inputRequired({ inputRequests: requests }) : say("No supported capabilities declared");
    },
  );
  s.registerPrompt("test_input_required_result_prompt", { description: "A prompt that first asks for context (SEP-2322)" }, (ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "user_context", z.object({ context: z.string() }));
    if (!answer) {
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({
            message: "What context should the prompt use?",
            requestedSchema: wire(form({ context: text() })),
          }),
        },
      });
    }
    return { messages: [{ role: "user", content: { type: "text", text: `Prompt with context: ${answer.context}` } }] };
  });

  // ---- 2026-07-28 diagnostic hooks (server-stateless) ----
  // Needs sampling the client may not have declared: the SDK answers -32021 with requiredCapabilities.
  s.registerTool(
    "test_missing_capability",
    { description: "Requires the sampling capability", inputSchema: noArgs },
    (): InputRequiredResult =>
      inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 }),
        },
      }),
  );
  s.registerTool(
    "test_streaming_elicitation",
    { description: "Streams progress, then its result", inputSchema: noArgs },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined)
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: 50, total: 100 } });
      return say("Streaming complete");
    },
  );
  s.registerTool(
    "test_logging_tool",
    { description: "Logs only when the request asked for a log level", inputSchema: noArgs },
    async (_args, ctx) => {
      await ctx.mcpReq.log("info", "Diagnostic trace logging activated");
      return say("Logging evaluated");
    },
  );
  // list_changed reaches subscriptions/listen streams on stdio and on 2025 sessions; serveHttp's
  // 2026-07-28 handler keeps its change-event bus to itself, so over HTTP these only answer.
  s.registerTool("test_trigger_tool_change", { description: "Announces a tool list change", inputSchema: noArgs }, async () => {
    await Promise.resolve(s.sendToolListChanged()).catch(() => {});
    return say("Mutation triggered");
  });
  s.registerTool("test_trigger_prompt_change", { description: "Announces a prompt list change", inputSchema: noArgs }, async () => {
    await Promise.resolve(s.sendPromptListChanged()).catch(() => {});
    return say("Mutation triggered");
  });

  // ---- pending-suite scenarios (run, never scored) ----
  s.registerTool(
    "json_schema_2020_12_tool",
    {
      description: "Tool with JSON Schema 2020-12 features",
      inputSchema: fromJsonSchema({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
        properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
        additionalProperties: false,
      }),
    },
    (args) => say(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
  s.registerTool(
    "test_custom_header",
    {
      description: "Mirrors its region argument in the Mcp-Param-Region header (SEP-2243)",
      inputSchema: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }) }),
    },
    ({ region }) => say(`region=${region}`),
  );

  // ---- resources ----
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

  // ---- prompts ----
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

  // ---- completion ----
  s.server.setRequestHandler("completion/complete", () => ({ completion: { values: [], total: 0, hasMore: false } }));
  return s;
}
