// ctx.ask: one question, one field, the answer is the field's value (typed), on every revision.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { choice, text, yesNo } from "../../../src/schema/index.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { createElicitation } from "../../../src/server/index.js";
import { clientFor, connect, elicitationsOn } from "../../helpers/mcp.js";

for (const revision of ["2025-06-18", "2025-11-25", "2026-07-28"] as ProtocolRevision[]) {
  test(`${revision}: yes/no, a choice and an optional text, each asked on its own`, async () => {
    const kit = createElicitation();
    const factory = () => {
      const server = new McpServer({ name: "ask", version: "1" });
      kit.registerTool(server, "trip", { description: "three questions" }, async (_args, ctx) => {
        const go = await ctx.ask("Book it?", yesNo());
        const seat = await ctx.ask("Seat?", choice(["window", "aisle"]), {
          validate: (s) => (s === "aisle" ? "Aisle seats are gone" : undefined),
        });
        const note = await ctx.ask("Anything else?", text().optional());
        // The types: a boolean, "window" | "aisle", and string | undefined.
        const typed: [boolean?, ("window" | "aisle")?, (string | undefined)?] = [
          go.action === "accept" ? go.content : undefined,
          seat.action === "accept" ? seat.content : undefined,
          note.action === "accept" ? note.content : undefined,
        ];
        return { content: [{ type: "text", text: JSON.stringify({ typed, noteAction: note.action }) }] };
      });
      return server;
    };
    const answers: Record<string, string | boolean>[] = [{ answer: true }, { answer: "aisle" }, { answer: "window" }, {}];
    const client = clientFor(revision);
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: answers.shift()! }));
    const conn = await connect(client, factory, revision, "memory");
    try {
      const result = (await client.callTool({ name: "trip", arguments: {} })) as { content: { text: string }[] };
      assert.deepEqual(JSON.parse(result.content[0]!.text), { typed: [true, "window", null], noteAction: "accept" });
      const asked = elicitationsOn(conn.wire);
      assert.deepEqual(
        asked.map((a) => a.message.split("\n")[0]),
        ["Book it?", "Seat?", "Seat?", "Anything else?"],
      );
      assert.deepEqual(Object.keys(asked[0]!.requestedSchema.properties), ["answer"]);
      assert.match(asked[2]!.message, /Aisle seats are gone/);
    } finally {
      await conn.close();
    }
  });
}
