// Answers are validated before the handler sees them: the schema's rules, then the tool's own (validate).
// Run: npx tsx examples/server-validate.ts
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { form, text } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";

const kit = createElicitation({ attempts: 2 }); // asks in all, per question (the default)
const server = new McpServer({ name: "travel", version: "1.0.0" });
const contact = form({
  name: text({ title: "Full name", minLength: 2 }),
  phone: text({ title: "Phone", description: "With country code", minLength: 7 }),
});
kit.registerTool(server, "traveler", { description: "Asks who travels" }, async (_args, ctx) => {
  const answer = await ctx.elicit("Who is traveling?", contact, {
    // A rule the schema cannot express: a message by field (or one string for the whole form); nothing when fine.
    validate: ({ phone }) => (/^\+[0-9 ]+$/.test(phone) ? undefined : { phone: "Phone must start with + and the country code" }),
    timeoutMs: 5 * 60_000, // this question's wait on 2025 eras (default: the kit's, 10 minutes)
  });
  if (answer.action !== "accept") return { content: [{ type: "text", text: `Nobody: ${answer.action}` }] };
  return { content: [{ type: "text", text: `${answer.content.name}, ${answer.content.phone}` }] };
});

// A client that answers from a list, and shows the last line of each message and the name it is offered.
const replies = [
  { name: "Ana Garcia", phone: "600 123 456" }, // breaks the validate rule
  { name: "Ana Garcia", phone: "+34 600 123 456" },
  { name: "A", phone: "+34 600 123 456" }, // breaks the schema (minLength)...
  { name: "Ana", phone: "+34" }, // ...and again: the attempts are used up
];
const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler("elicitation/create", async ({ params }) => {
  if (params.mode === "url") return { action: "decline" };
  console.log(params.message.split("\n").at(-1), "| name default:", params.requestedSchema.properties.name?.default);
  return { action: "accept", content: replies.shift()! };
});
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);
for (let call = 0; call < 2; call++) {
  const result = await client.callTool({ name: "traveler", arguments: {} });
  console.log(result.isError ? "error:" : "result:", (result.content as { text: string }[])[0]!.text);
}
await client.close();
// -> Who is traveling? | name default: undefined
// -> - Phone must start with + and the country code | name default: Ana Garcia
// -> result: Ana Garcia, +34 600 123 456
// -> Who is traveling? | name default: undefined
// -> - Full name must be at least 2 characters long | name default: undefined
// -> error: The answer was still invalid after 2 attempts: Phone must be at least 7 characters long.
