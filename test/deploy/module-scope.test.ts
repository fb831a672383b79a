// The README's pattern in workerd: the quickstart's kit made at module scope, and the fetch handler too
// (test/deploy/fixtures/module-scope/). Workers forbid random values, timers and I/O there ("Disallowed
// operation called within global scope"): the Worker must start, and book_trip must ask and answer on
// 2026-07-28 (a retry in another request: warm rounds, which would resume a promise across requests,
// are off on workerd). A 2025-era session kept in the Worker's own isolate cannot ask (the answer comes
// in another request than the call that waits for it): its call ends at once with an error naming the
// fix instead of hanging; 2025 sessions go to Durable Objects, as examples/cloudflare-worker/ does
// (test/deploy/workerd.test.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { attachElicitation } from "../../src/client/attach.js";
import { scriptedUI } from "../../src/ui/scripted.js";
import { needs } from "../helpers/needs.js";
import { startWorker, type LocalWorker } from "../helpers/workerd.js";
import { clientOptions } from "../helpers/travel-calls.js";

describe("the quickstart's module-scope kit in workerd", { skip: needs("workerd") }, () => {
  let worker: LocalWorker;
  before(async () => {
    worker = await startWorker("test/deploy/fixtures/module-scope/wrangler.jsonc");
  });
  after(() => worker?.stop());

  // A retry that workerd cannot serve (a warm round resumed across requests) hangs: the deadline names the test.
  test("2026-07-28: the Worker starts and book_trip asks, then books", { timeout: 60_000 }, async () => {
    const client = new Client({ name: "host", version: "1.0.0" }, clientOptions("2026-07-28") as never);
    const ui = scriptedUI([{ match: "^Confirm", action: "accept", content: { confirmBooking: true, seatPreference: "window" } }]);
    const handle = attachElicitation(client, { ui });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", worker.url)));
    try {
      const result = (await handle.callTool({ name: "book_trip", arguments: { destination: "Lisbon" } })) as CallToolResult;
      assert.deepEqual(result.content, [{ type: "text", text: "Booked Lisbon, seat: window" }]);
    } finally {
      await client.close();
    }
    assert.doesNotMatch(worker.logs.join(""), /Disallowed operation|different request context/);
  });

  test(
    "2025-11-25: a session held by the Worker itself ends the call with an error naming the fix; nothing is asked",
    { timeout: 60_000 },
    async () => {
      const client = new Client({ name: "host", version: "1.0.0" }, clientOptions("2025-11-25") as never);
      const ui = scriptedUI([{ match: "^Confirm", action: "accept", content: { confirmBooking: true } }]);
      const handle = attachElicitation(client, { ui });
      await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", worker.url)));
      try {
        const result = (await handle.callTool({ name: "book_trip", arguments: { destination: "Lisbon" } })) as CallToolResult;
        assert.equal(result.isError, true);
        const text = (result.content[0] as { text: string }).text;
        assert.match(text, /only inside the Durable Object that holds it/);
        assert.match(text, /routeSession and serve them with sessionObjectHandler/);
        assert.doesNotMatch(text, /does not support elicitation/);
        assert.equal(ui.remaining().length, 1, "the person was not asked");
      } finally {
        await client.close();
      }
    },
  );
});
