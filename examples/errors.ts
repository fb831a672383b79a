// Every error mcp-elicit throws is an ElicitError: match on its stable `code`, and let it say what it becomes on
// the wire. Run: npx tsx examples/errors.ts
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { ElicitError, form, text } from "mcp-elicit/schema";
import { createElicitation, StateError } from "mcp-elicit/server";

//#region catchByCode
const kit = createElicitation();
const server = new McpServer({ name: "travel", version: "1.0.0" });
kit.registerTool(server, "traveler", { description: "Asks who travels" }, async (_args, ctx) => {
  try {
    const answer = await ctx.elicit("Who is traveling?", form({ name: text({ title: "Full name" }) }));
    return { content: [{ type: "text", text: answer.action === "accept" ? answer.content.name : answer.action }] };
  } catch (error) {
    // A client without elicitation: answer with what the tool can do instead.
    if (error instanceof ElicitError && error.code === "input-unavailable")
      return { content: [{ type: "text", text: "Tell me who travels in the tool's arguments instead." }] };
    throw error; // any other ElicitError ends the call as its own tool result
  }
});
//#endregion catchByCode

const client = new Client({ name: "host", version: "1.0.0" }); // declares no elicitation
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);
const result = await client.callTool({ name: "traveler", arguments: {} });
console.log((result.content as { text: string }[])[0]!.text); // -> Tell me who travels in the tool's arguments instead.
await client.close();

//#region onTheWire
// What an error becomes: a tool result for a handler that ends with it, a JSON-RPC error for a request it refuses.
const refused = new StateError("expired", "it expired; call the tool again.");
console.log(refused.code, JSON.stringify(refused.toJsonRpc()));
// -> state-invalid {"code":-32602,"message":"Invalid requestState: it expired; call the tool again.","data":{"reason":"expired"}}
//#endregion onTheWire
