// The Worker bench/workerd.ts times in workerd: one tool asking the booking form once on 2026-07-28,
// written with the kit behind createFetchHandler (/kit) and by hand on the SDK's createMcpHandler
// (/sdk), in the same Worker, each handler made at its first request and kept by the isolate. The kit
// replays every round (warmRounds: false, as it runs on workerd: a promise cannot cross requests there).
import { createMcpHandler, inputRequired, inputResponse, McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import type { RequestedSchema } from "mcp-elicit/schema";
import { createElicitation, createFetchHandler, type Elicitation, type FetchHandler } from "mcp-elicit/server";
import * as z from "zod";
// The booking form bench/tools.ts reads from the same file (a Worker has no file system: bundled here).
import seed from "../test/data/booking-form.json" with { type: "json" };

const BOOKING = seed.schema as RequestedSchema;
const hotelInput = z.object({ hotel: z.string() });
const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

function kitServer(kit: Elicitation): McpServer {
  const server = new McpServer({ name: "bench-kit", version: "1.0.0" });
  server.registerTool("plain", { description: "No input", inputSchema: hotelInput }, async ({ hotel }) => text(`booked ${hotel}`));
  kit.registerTool(server, "book", { description: "Asks once", inputSchema: hotelInput }, async ({ hotel }, ctx) => {
    const answer = await ctx.elicit(`Book ${hotel}?`, BOOKING);
    return text(`elicit ${hotel}: ${answer.action === "accept" ? JSON.stringify(answer.content) : answer.action}`);
  });
  return server;
}

// The bare tool: no state between its two requests (the answer is all it reads), less than the kit carries.
function sdkServer(): McpServer {
  const server = new McpServer({ name: "bench-sdk", version: "1.0.0" });
  server.registerTool("plain", { description: "No input", inputSchema: hotelInput }, async ({ hotel }) => text(`booked ${hotel}`));
  server.registerTool("book", { description: "Asks once by hand", inputSchema: hotelInput }, async ({ hotel }, ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses as never, "book");
    if (view.kind !== "elicit")
      return inputRequired({
        inputRequests: { book: inputRequired.elicit({ message: `Book ${hotel}?`, requestedSchema: BOOKING as never }) },
      });
    return text(`elicit ${hotel}: ${view.action === "accept" ? JSON.stringify(view.content) : view.action}`);
  });
  return server;
}

let kit: Elicitation | undefined;
let kitHandler: FetchHandler | undefined;
let sdkHandler: ReturnType<typeof createMcpHandler> | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === "/kit")
      return (kitHandler ??= createFetchHandler(() => kitServer((kit ??= createElicitation({ warmRounds: false }))), { path: "/kit" }))(
        request,
      );
    return (sdkHandler ??= createMcpHandler(sdkServer)).fetch(request);
  },
};
