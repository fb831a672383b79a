// One serveHttp instance for the load test (test/fleet/load.test.ts), in a process of its own so that
// its heap is its own: `node --expose-gc --import tsx bench/load-server.ts`, forked with IPC. Tool
// `book` asks one question, runs a ctx.step side effect (counted per call id) and returns
// `<answer> <times the side effect had run for this call>`, so the test sees whose answer came back and
// that the step ran once. It sends { listening: url } once up and answers "heap" with the heap used
// after a full gc, "sessions" with the count of 2025-era sessions still held, "effects" with how
// often each call's side effect ran (then forgets them), and "ledger" with the count of call-ledger
// entries (then drops them: see below).
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { RequestedSchema } from "../src/schema/index.js";
import { createElicitation } from "../src/server/index.js";
import { serveHttp } from "../src/node/index.js";
import { memoryStore } from "../src/store/index.js";

const ANSWER_FORM: RequestedSchema = { type: "object", properties: { answer: { type: "string", maxLength: 64 } }, required: ["answer"] };
// The call ledger (ctx.step's results) keeps each call's entries for stateTtlMs + 60 s by design: a
// 2026-07-28 retry may come that late. "ledger" lets that time pass at once (drops every entry) so the
// heap measured after it holds only what nothing is meant to keep.
const ledger = memoryStore();
const kit = createElicitation({ store: ledger });
/** How often each call's side effect ran. */
const sideEffects = new Map<string, number>();

function makeServer(): McpServer {
  const server = new McpServer({ name: "load-server", version: "1.0.0" });
  kit.registerTool(
    server,
    "book",
    { description: "One question, one side effect", inputSchema: z.object({ call: z.string() }) },
    async ({ call }, ctx) => {
      const answer = await ctx.elicit(`Answer for ${call}?`, ANSWER_FORM);
      const runs = await ctx.step("book", () => {
        const n = (sideEffects.get(call) ?? 0) + 1;
        sideEffects.set(call, n);
        return n;
      });
      return { content: [{ type: "text", text: `${answer.action === "accept" ? answer.content.answer : answer.action} ${runs}` }] };
    },
  );
  return server;
}

const handle = await serveHttp(() => makeServer(), { onerror: () => {} });
const gc = (globalThis as { gc?: () => void }).gc;
process.on("message", (message) => {
  if (message === "heap") {
    gc?.();
    gc?.();
    process.send!({ heap: process.memoryUsage().heapUsed, gc: gc !== undefined });
  } else if (message === "sessions") process.send!({ sessions: handle.sessionCount });
  else if (message === "ledger") {
    void ledger.keys("").then(async (keys) => {
      await Promise.all(keys.map((key) => ledger.delete(key)));
      process.send!({ ledger: keys.length });
    });
  } else if (message === "effects") {
    // The map is the test's witness, not state the server needs: reported, then forgotten, so the
    // heap measured after the run holds nothing per call.
    process.send!({ effects: Object.fromEntries(sideEffects) });
    sideEffects.clear();
  }
});
process.on("disconnect", () => void handle.close().then(() => process.exit(0)));
process.send!({ listening: handle.url.href });
