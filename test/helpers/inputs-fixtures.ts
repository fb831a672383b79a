// A test server whose tools use ctx.sample, ctx.roots and ctx.supports, and client-side answerers
// for sampling/createMessage and roots/list on a raw SDK Client.
import { McpServer } from "@modelcontextprotocol/server";
import type { Client } from "@modelcontextprotocol/client";
import * as z from "zod";
import { form, text } from "../../src/schema/index.js";
import { CLIENT_FEATURES, createElicitation, type ElicitationOptions, type ElicitContext } from "../../src/server/index.js";
import { jsonResult } from "./results.js";
import { answerInTurn } from "./server-fixtures.js";

const user = (text: string) => ({ role: "user" as const, content: { type: "text" as const, text } });

export const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

/** The model's tool loop of the 2025-11-25 spec example: the model asks for tools, the server runs them, the model answers. */
async function weatherAgent(ctx: ElicitContext, maxTurns: number) {
  const messages: any[] = [user("What's the weather like in Paris and London?")];
  for (let turn = 1; turn <= maxTurns; turn++) {
    const reply = await ctx.sample({
      messages,
      tools: [weatherTool],
      toolChoice: { mode: turn === maxTurns ? "none" : "auto" },
      maxTokens: 200,
    });
    const blocks = Array.isArray(reply.content) ? reply.content : [reply.content];
    const uses = blocks.filter((b) => b.type === "tool_use");
    if (reply.stopReason !== "toolUse" || uses.length === 0)
      return { turns: turn, answer: blocks.map((b) => (b.type === "text" ? b.text : "")).join("") };
    messages.push({ role: "assistant", content: blocks });
    // Step so a replayed handler does not re-run the (pretend) weather service.
    const results = await ctx.step(`weather-${turn}`, () =>
      uses.map((u) => ({
        type: "tool_result",
        toolUseId: u.id,
        content: [{ type: "text", text: `${(u.input as { city: string }).city}: 18°C` }],
      })),
    );
    messages.push({ role: "user", content: results });
  }
  throw new Error("unreachable: the last turn forbids tools");
}

export interface InputsFactoryOptions extends ElicitationOptions {
  /** Also set an author's own notifications/roots/list_changed handler, before or after the kit's tools. */
  authorRootsHandler?: { when: "before" | "after"; onChanged: () => void };
}

export function makeInputsFactory(options: InputsFactoryOptions = {}) {
  const kit = createElicitation(options);
  const runs = { summarize: 0 };
  const factory = () => {
    const server = new McpServer({ name: "inputs-server", version: "1.0.0" });
    const authorHandler = () =>
      server.server.setNotificationHandler("notifications/roots/list_changed", () => options.authorRootsHandler!.onChanged());
    if (options.authorRootsHandler?.when === "before") authorHandler();
    kit.registerTool(
      server,
      "summarize",
      { description: "Asks the client's model", inputSchema: z.object({ text: z.string(), timeoutMs: z.number().optional() }) },
      async ({ text: body, timeoutMs }, ctx) => {
        runs.summarize++;
        const reply = await ctx.sample(
          {
            messages: [user(`Summarize: ${body}`)],
            systemPrompt: "Be brief.",
            maxTokens: 64,
            modelPreferences: { hints: [{ name: "claude" }], speedPriority: 0.8 },
          },
          timeoutMs === undefined ? {} : { timeoutMs },
        );
        // Typed as a plain message: no tools were offered, so no tool_use can come back.
        const answer: string | undefined = reply.content.type === "text" ? reply.content.text : undefined;
        return jsonResult({ answer, model: reply.model, role: reply.role, protocol: ctx.protocol });
      },
    );
    kit.registerTool(server, "summarize_or_fallback", { description: "Uses sampling only when the client has it" }, async (_args, ctx) => {
      if (!ctx.supports("sampling")) return jsonResult({ fallback: true });
      const reply = await ctx.sample({ messages: [user("Hi")], maxTokens: 8 });
      return jsonResult({ fallback: false, model: reply.model });
    });
    kit.registerTool(
      server,
      "weather_agent",
      { description: "A sampling tool loop", inputSchema: z.object({ maxTurns: z.number() }) },
      async ({ maxTurns }, ctx) => jsonResult(await weatherAgent(ctx, maxTurns)),
    );
    kit.registerTool(
      server,
      "bad_pairing",
      { description: "Sends a tool_result that answers nothing", inputSchema: z.object({ case: z.string() }) },
      async ({ case: which }, ctx) => {
        const use = { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } };
        const result = (id: string) => ({ type: "tool_result", toolUseId: id, content: [{ type: "text", text: "18°C" }] });
        const histories: Record<string, any[]> = {
          unknownId: [user("Weather?"), { role: "assistant", content: [use] }, { role: "user", content: [result("call_9")] }],
          unanswered: [user("Weather?"), { role: "assistant", content: [use] }, user("Never mind")],
          mixed: [
            user("Weather?"),
            { role: "assistant", content: [use] },
            { role: "user", content: [result("call_1"), { type: "text", text: "and?" }] },
          ],
        };
        await ctx.sample({ messages: histories[which]!, tools: [weatherTool], maxTokens: 50 });
        return jsonResult({ sent: true });
      },
    );
    kit.registerTool(server, "list_roots", { description: "Lists the client's roots" }, async (_args, ctx) =>
      jsonResult({ roots: await ctx.roots(), protocol: ctx.protocol }),
    );
    kit.registerTool(server, "everything", { description: "Elicits, samples and lists roots at once" }, async (_args, ctx) => {
      const [who, reply, roots] = await Promise.all([
        ctx.elicit("Your name?", form({ name: text() })),
        ctx.sample({ messages: [user("Suggest a project name")], maxTokens: 16 }),
        ctx.roots(),
      ]);
      return jsonResult({ who, reply: reply.content, roots });
    });
    kit.registerTool(server, "supports", { description: "Reports what the client can be asked" }, async (_args, ctx) =>
      jsonResult(Object.fromEntries(CLIENT_FEATURES.map((f) => [f, ctx.supports(f)]))),
    );
    if (options.authorRootsHandler?.when === "after") authorHandler();
    return server;
  };
  return { factory, kit, runs };
}

export type SamplingAnswer = (params: Record<string, any>, ctx: any) => unknown | Promise<unknown>;

/** Answers sampling/createMessage in turn from `script` (the last entry repeats); returns the params seen. */
export const answerSampling = (client: Client, script: SamplingAnswer[]) => answerInTurn(client, "sampling/createMessage", script);

/** A model's plain text reply, as the client returns it. */
export const replyValue = (text: string) => ({
  role: "assistant",
  content: { type: "text", text },
  model: "test-model-1",
  stopReason: "endTurn",
});

export const reply =
  (text: string): SamplingAnswer =>
  () =>
    replyValue(text);

/** Answers roots/list with whatever `current()` holds at the time; returns a call counter. */
export function answerRoots(client: Client, current: () => { uri: string; name?: string }[]) {
  const calls = { count: 0 };
  client.setRequestHandler("roots/list", async () => {
    calls.count++;
    return { roots: current() };
  });
  return calls;
}
