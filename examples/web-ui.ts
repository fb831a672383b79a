// A host whose questions are answered in a browser tab: webUI() serves a page on 127.0.0.1 behind a secret
// address and opens it. Run: npx tsx examples/web-ui.ts, and answer the form in the page that opens.
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { attachElicitation, attachSampling } from "mcp-elicit/client";
import { webUI } from "mcp-elicit/web";
import { createServer } from "./quickstart-server.js";

// With nobody at a browser (CI, this file's test) the page is not opened, and the question is withdrawn as soon
// as it is up: close() cancels what is pending.
//#region webUI
const person = process.stdout.isTTY === true;
const ui = await webUI({
  open: person,
  onChange(pending) {
    if (!person && pending.length > 0) void ui.close();
  },
});
console.error(`Answer in your browser: ${ui.pageUrl}`);
//#endregion webUI
console.log(new URL(ui.pageUrl).hostname); // -> 127.0.0.1

const client = new Client({ name: "host", version: "1.0.0" });
const { callTool } = attachElicitation(client, { ui });
attachSampling(client, { ui }); // model requests are reviewed in the same page
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await createServer().connect(serverSide);
await client.connect(clientSide);
const result = await callTool({ name: "book_trip", arguments: { destination: "Barcelona" } });
// Answered in the page, this is the booking; withdrawn, nothing is booked:
console.log(result.content); // -> [ { type: 'text', text: 'Nothing was booked.' } ]
await client.close();
await ui.close();
