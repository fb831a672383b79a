// Your own renderer: the ElicitationUI contract gets checked, inert text and a field model, never raw server JSON.
// Run: npx tsx examples/client-custom-ui.ts
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { attachElicitation, type ElicitationUI } from "mcp-elicit/client";
import { choice, form, text, type FormContent } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";

const kit = createElicitation();
const server = new McpServer({ name: "travel", version: "1.0.0" });
kit.registerTool(server, "sign_up", { description: "Creates an account" }, async (_args, ctx) => {
  const about = await ctx.elicit("\u001b[31mURGENT\u001b[0m: about you\u202e", form({
    email: text({ title: "Email", format: "email" }),
    seat: choice({ window: "Window", aisle: "Aisle" }, { default: "aisle" }).optional(),
  }));
  const secret = await ctx.elicit("Choose a password", form({ password: text({ title: "Password" }) })); // forms must not ask this: URL mode
  const seat = about.action === "accept" ? about.content.seat : "-";
  return { content: [{ type: "text", text: `about you: ${about.action} (seat: ${seat}); password: ${secret.action}` }] };
});

const ui: ElicitationUI = {
  async form(request, context) {
    console.log(`${context.server.name} asks (${context.protocol}): ${JSON.stringify(request.message)}`);
    for (const f of request.fields) console.log(`  ${f.name}: ${f.kind} "${f.label}"${f.required ? " required" : ""}${f.options ? ` [${f.options.map((o) => o.label)}]` : ""}`);
    for (const warning of request.warnings) console.log(`  warning: ${warning}`);
    // The seat is left out: it gets its default. The password is left out too: required, so never sent.
    const content: FormContent = request.fields[0]!.name === "email" ? { email: "ana@example.com" } : {};
    return { action: "accept", content };
  },
  async url() {
    return "decline";
  },
  notice(message) {
    console.log(`notice: ${message}`);
  },
};

const client = new Client({ name: "host", version: "1.0.0" });
const elicitation = attachElicitation(client, { ui, modes: ["form"], policy: { declineSensitiveForms: false, rateLimit: { max: 10, windowMs: 60_000 } } });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);
const result = await elicitation.callTool({ name: "sign_up", arguments: {} });
console.log((result.content as { text: string }[])[0]!.text);
await client.close();
// -> travel asks (2025-11-25): "URGENT: about you"
// ->   email: text "Email" required
// ->   seat: choice "Seat" [Window,Aisle]
// -> travel asks (2025-11-25): "Choose a password"
// ->   password: text "Password" required
// ->   warning: "Password" looks like it asks for a password. Servers must not collect that in a form; only answer if you trust this server.
// -> notice: Not sent to travel: the answer is invalid (Password is required); answered cancel.
// -> about you: accept (seat: aisle); password: cancel
