// ctx.sample asks the client's model, ctx.roots the client's folders; ctx.supports says what this client can be asked.
// Run: npx tsx examples/server-sample-roots.ts
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { createElicitation } from "mcp-elicit/server";

const kit = createElicitation();
function createServer() {
  const server = new McpServer({ name: "projects", version: "1.0.0" });
  kit.registerTool(server, "name_project", { description: "Suggests a project name" }, async (_args, ctx) => {
    if (!ctx.supports("sampling")) return { content: [{ type: "text", text: "my-project (no model to ask)" }] }; // fall back, no error
    // Started together: one input_required round on 2026-07-28, two live requests on 2025 eras.
    const [reply, roots] = await Promise.all([
      ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Name my project" } }], maxTokens: 20 }),
      ctx.supports("roots") ? ctx.roots() : Promise.resolve([]),
    ]);
    const name = reply.content.type === "text" ? reply.content.text : "my-project";
    return { content: [{ type: "text", text: `${name} in ${roots[0]?.uri ?? "the current folder"} (model: ${reply.model})` }] };
  });
  return server;
}

// Two clients: one with a model and a root, one with neither.
const capable = new Client({ name: "host", version: "1.0.0" }, { capabilities: { sampling: {}, roots: {} } });
capable.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", content: { type: "text", text: "tramuntana" }, model: "example-model" }));
capable.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///home/ana/code", name: "Code" }] }));
const bare = new Client({ name: "bare", version: "1.0.0" });

for (const client of [capable, bare]) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer().connect(serverSide);
  await client.connect(clientSide);
  const result = await client.callTool({ name: "name_project", arguments: {} });
  console.log((result.content as { text: string }[])[0]!.text);
  await client.close();
}
// -> tramuntana in file:///home/ana/code (model: example-model)
// -> my-project (no model to ask)
