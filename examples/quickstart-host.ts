// A host: an SDK Client whose elicitation requests are checked, then shown by a renderer. Run: npx tsx examples/quickstart-host.ts
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { attachElicitation } from "mcp-elicit/client";
import { scriptedUI } from "mcp-elicit/scripted";
import { terminalUI } from "mcp-elicit/terminal";
import { createServer } from "./quickstart-server.js";

//#region choose-ui
// At a terminal you answer the form; without one (CI, this file's test) a script does.
const answers = [{ match: "^Confirm", action: "accept" as const, content: { confirmBooking: true, seatPreference: "window" } }];
const ui = process.stdin.isTTY ? terminalUI() : scriptedUI(answers);
//#endregion choose-ui

//#region attachElicitation
const client = new Client({ name: "host", version: "1.0.0" });
const { callTool } = attachElicitation(client, { ui });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await createServer().connect(serverSide);
await client.connect(clientSide);
const result = await callTool({ name: "book_trip", arguments: { destination: "Barcelona" } });
//#endregion attachElicitation
console.log(result.content); // -> [ { type: 'text', text: 'Booked Barcelona, seat: window' } ]
await client.close();
