// A tool that runs as a task (io.modelcontextprotocol/tasks, 2026-07-28): the call answers at once with a
// task, the task asks its question on tasks/get, and the host's followTasks answers it through the same UI
// as any other question, then hands the task's result to callTool. Run: npx tsx examples/server-tasks.ts
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { attachElicitation, followTasks, TASKS_EXTENSION } from "mcp-elicit/client";
import { scriptedUI } from "mcp-elicit/scripted";
import { yesNo } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";

//#region task
const kit = createElicitation(); // tasks live in its store: sqliteStore(file) or redisStore(...) outlive the process
const http = await serveHttp(() => {
  const server = new McpServer({ name: "fares", version: "1.0.0" });
  kit.registerTool(server, "watch_fare", { description: "Waits for a fare, then asks to book", task: "required" }, async (_args, ctx) => {
    const fare = await ctx.step("fare", async () => 389); // a long wait (polling an airline) would go here
    const book = await ctx.ask(`Barcelona is $${fare}. Book it?`, yesNo());
    const booked = book.action === "accept" && book.content ? await ctx.step("book", () => "BCN-389") : "nothing";
    return { content: [{ type: "text", text: `Booked: ${booked}` }] };
  });
  return server;
});
//#endregion task

//#region follow
const client = new Client(
  { name: "host", version: "1.0.0" },
  { capabilities: { extensions: { [TASKS_EXTENSION]: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
attachElicitation(client, { ui: scriptedUI([{ match: "Book it", action: "accept", content: { answer: true } }], { log: () => {} }) });
await client.connect(new StreamableHTTPClientTransport(http.url));
followTasks(client, { onReport: (task) => task.status !== "working" && console.log(task.status) }); // after connect
const result = await client.callTool({ name: "watch_fare", arguments: {} }); // an ordinary call for the host
//#endregion follow
console.log((result.content as { text: string }[])[0]!.text);
// -> input_required
// -> completed
// -> Booked: BCN-389
await client.close();
await http.close();
