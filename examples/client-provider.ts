// Model providers: attachSampling asks one for the server's sampling requests, after the person's review.
// Run: npx tsx examples/client-provider.ts
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { attachSampling, type ModelProvider } from "mcp-elicit/client";
import { openAICompatibleProvider } from "mcp-elicit/openai";
import { scriptedUI } from "mcp-elicit/scripted";
import { createElicitation } from "mcp-elicit/server";

// Any OpenAI-compatible server; nothing is sent until a request comes. Hints pick a model by name or alias.
//#region openAICompatibleProvider
const local = openAICompatibleProvider({
  baseURL: "http://127.0.0.1:11434/v1", // e.g. Ollama; add apiKey for a hosted API
  models: [{ name: "llama3.2", speed: 0.9 }, { name: "qwen2.5-coder", aliases: ["coder"], intelligence: 0.8 }],
});
console.log(local.models, local.chooseModel({ hints: [{ name: "coder" }] })); // -> [ 'llama3.2', 'qwen2.5-coder' ] qwen2.5-coder
console.log(local.chooseModel({ intelligencePriority: 1 })); // -> qwen2.5-coder
//#endregion openAICompatibleProvider

// The contract is small: your own provider works the same way.
const echo: ModelProvider = {
  models: ["echo-1"],
  chooseModel: () => "echo-1",
  async complete(params, { model }) {
    const last = params.messages.at(-1)!.content;
    const text = !Array.isArray(last) && last.type === "text" ? last.text : "?";
    return { role: "assistant", content: { type: "text", text: text.toUpperCase() }, model, stopReason: "endTurn" };
  },
};

const kit = createElicitation();
const server = new McpServer({ name: "writer", version: "1.0.0" });
kit.registerTool(server, "shout", { description: "Asks the client's model" }, async (_args, ctx) => {
  const reply = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hola" } }], maxTokens: 10 });
  return { content: [{ type: "text", text: `${reply.model}: ${reply.content.type === "text" ? reply.content.text : "?"}` }] };
});

//#region attachSampling
const client = new Client({ name: "host", version: "1.0.0" });
attachSampling(client, { ui: scriptedUI([{ sample: { action: "approve" } }], { log: () => {} }), provider: echo }); // approve the request and the answer
//#endregion attachSampling
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);
const result = await client.callTool({ name: "shout", arguments: {} });
console.log((result.content as { text: string }[])[0]!.text); // -> echo-1: HOLA
await client.close();
