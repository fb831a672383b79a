// Sampling, roots and mixed input requests through the SDK's own APIs (the kit only elicits), the 2026-07-28
// diagnostic hooks, list-change triggers and the pending suite's scenarios.
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  type CallToolResult,
  type InputRequest,
  type InputRequiredResult,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { form, text } from "../../schema/index.js";

import { nameForm, noArgs, samplingText, say, wire } from "./fixtures.js";

export function registerClientRequestTools(s: McpServer): void {
  registerSdkSampling(s);
  registerInputRequiredTools(s);
  registerInputRequiredByCapability(s);
  registerDiagnosticHooks(s);
  registerPendingScenarios(s);
}

/** Sampling through the SDK's own request API. */
function registerSdkSampling(s: McpServer): void {
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
}

/** Sampling, roots, and all three at once, asked with an input-required result (SEP-2322). */
function registerInputRequiredTools(s: McpServer): void {
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
}

/** An input-required result that asks only for what the client declared, and a prompt that asks first (SEP-2322). */
function registerInputRequiredByCapability(s: McpServer): void {
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
}

/** The 2026-07-28 diagnostic hooks (server-stateless) and the list-change triggers. */
function registerDiagnosticHooks(s: McpServer): void {
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
}

/** The pending suite's scenarios (run, never scored). */
function registerPendingScenarios(s: McpServer): void {
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
}
