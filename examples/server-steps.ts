// On 2026-07-28 a retry that lands on another process (or after a restart) runs the handler again; ctx.step runs a side effect once per tool call.
// The call ledger behind it lives in the kit's store: here SQLite, which survives restarts. Run: npx tsx examples/server-steps.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { choice, yesNo } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";
import { sqliteStore } from "mcp-elicit/store";

//#region sqliteStore
const dir = mkdtempSync(join(tmpdir(), "ledger-"));
const store = sqliteStore(join(dir, "calls.db")); // node:sqlite, or better-sqlite3 when installed; memoryStore() is the default
const kit = createElicitation({ store }); // a fleet gives every instance one stateKey and one shared store
//#endregion sqliteStore

let runs = 0;
let charges = 0;
const http = await serveHttp(() => {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  kit.registerTool(server, "checkout", { description: "Pays, then asks for a rating" }, async (_args, ctx) => {
    runs++; // code outside ctx.step runs again when a round is replayed: keep it free of side effects
    const pay = await ctx.ask("Pay $3,000?", yesNo()); // ctx.ask: a one-field form whose answer is the value (boolean)
    if (pay.action !== "accept" || !pay.content) return { content: [{ type: "text", text: "Not paid." }] };
    const receipt = await ctx.step("charge", () => `receipt-${++charges}`); // once per call, whatever is replayed
    const stars = await ctx.ask(`Paid (${receipt}). How was it?`, choice(["1", "2", "3", "4", "5"]));
    return { content: [{ type: "text", text: `${receipt}, rated ${stars.action === "accept" ? stars.content : "-"}` }] };
  });
  return server;
});

const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
client.setRequestHandler("elicitation/create", async ({ params }) => ({ action: "accept", content: { answer: params.message.startsWith("Pay") ? true : "5" } }));
await client.connect(new StreamableHTTPClientTransport(http.url));
const result = await client.callTool({ name: "checkout", arguments: {} });
console.log((result.content as { text: string }[])[0]!.text); // -> receipt-1, rated 5
// Every retry came back to this process, which resumed the handler (warm rounds): it ran once.
console.log(`handler runs: ${runs}, charges: ${charges}`); // -> handler runs: 1, charges: 1
await client.close();
await http.close();
await store.close();
rmSync(dir, { recursive: true });
