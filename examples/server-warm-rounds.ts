// Warm rounds (2026-07-28): a retry that comes back to the process that asked resumes the handler where it
// waits; one that lands elsewhere (another member, a restart, a handler let go) replays it from requestState.
// Same result and one charge either way. Run: npx tsx examples/server-warm-rounds.ts
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { yesNo } from "mcp-elicit/schema";
import { createElicitation, type Elicitation } from "mcp-elicit/server";
import { memoryStore } from "mcp-elicit/store";

const stateKey = "5b".repeat(32); // one key and one store: what members of a fleet share
const store = memoryStore();
const kit = createElicitation({
  stateKey,
  store,
  warmRounds: {
    maxHandlers: 1_000, // held at once; past it the oldest is let go (its retry replays)
    maxBytes: 64 * 1024 * 1024, // estimated: 8 KiB each (32 KiB over HTTP) plus twice their requestState
    idleMs: 5 * 60_000, // how long one waits for its retry (never longer than stateTtlMs)
    onEvict: (reason) => console.log(`let go: ${reason}`), // "count", "bytes" or "idle"
  },
});
const elsewhere = createElicitation({ stateKey, store }); // another process of the fleet

let runs = 0;
let charges = 0;
function server(on: Elicitation) {
  const s = new McpServer({ name: "shop", version: "1.0.0" });
  on.registerTool(s, "checkout", { description: "Asks, then pays" }, async (_args, ctx) => {
    runs++; // a warm round does not run this again; a replay does
    const pay = await ctx.ask("Pay $3,000?", yesNo());
    if (pay.action !== "accept" || !pay.content) return { content: [{ type: "text", text: "Not paid." }] };
    const receipt = await ctx.step("charge", () => `receipt-${++charges}`); // once per call, warm or replayed
    return { content: [{ type: "text", text: receipt }] };
  });
  return s;
}

/** A 2026-07-28 client of `on` that hands rounds back instead of answering them. */
async function clientOf(on: Elicitation) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(() => server(on), { transport: serverSide } as never);
  const client = new Client({ name: "host", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    inputRequired: { autoFulfill: false },
  } as never);
  await client.connect(clientSide);
  return (params: Record<string, unknown>) => client.callTool({ name: "checkout", arguments: {}, ...params } as never, { allowInputRequired: true } as never) as Promise<any>;
}

const here = await clientOf(kit);
const there = await clientOf(elsewhere);
const yes = { "elicit-1": { action: "accept", content: { answer: true } } };

const first = await here({});
const warm = await here({ inputResponses: yes, requestState: first.requestState }); // back to the process that asked
console.log(`warm: ${warm.content[0].text}, handler runs ${runs}`); // -> warm: receipt-1, handler runs 1

const second = await here({});
const cold = await there({ inputResponses: yes, requestState: second.requestState }); // landed elsewhere: replayed
console.log(`cold: ${cold.content[0].text}, handler runs ${runs}, charges ${charges}`); // -> cold: receipt-2, handler runs 3, charges 2
