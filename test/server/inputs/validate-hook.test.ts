// ctx.elicit's validate hook: rules the schema cannot express, asked again like the schema's own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { form, integer, text } from "../../../src/schema/index.js";
import { createElicitation } from "../../../src/server/index.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { clientFor, connect, elicitationsOn } from "../../helpers/mcp.js";

const range = form({ from: integer({ title: "From" }), to: integer({ title: "To" }), note: text().optional() });

for (const revision of ["2025-11-25", "2026-07-28"] as ProtocolRevision[]) {
  test(`${revision}: a failed rule is asked again with its message and the other answers kept; then the answer comes back typed`, async () => {
    const kit = createElicitation();
    const factory = () => {
      const server = new McpServer({ name: "v", version: "1" });
      kit.registerTool(server, "pick", { description: "a range" }, async (_args, ctx) => {
        const answer = await ctx.elicit("Pick a range", range, {
          validate: ({ from, to }) => (from < to ? undefined : { to: "To must be greater than From" }),
        });
        const width: number | undefined = answer.action === "accept" ? answer.content.to - answer.content.from : undefined;
        return { content: [{ type: "text", text: JSON.stringify({ answer, width }) }] };
      });
      kit.registerTool(server, "never", { description: "never valid" }, async (_args, ctx) => {
        await ctx.elicit("Pick", range, { validate: () => "This range is taken" });
        return { content: [] };
      });
      return server;
    };
    const answers: Record<string, number | string>[] = [
      { from: 5, to: 3, note: "x" },
      { from: 5, to: 9 },
      { from: 1, to: 2 },
      { from: 1, to: 2 },
    ];
    const client = clientFor(revision);
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: answers.shift()! }));
    const conn = await connect(client, factory, revision, "memory");
    try {
      const result = (await client.callTool({ name: "pick", arguments: {} })) as { content: { text: string }[] };
      assert.deepEqual(JSON.parse(result.content[0]!.text), { answer: { action: "accept", content: { from: 5, to: 9 } }, width: 4 });
      const [, again] = elicitationsOn(conn.wire);
      assert.match(again!.message, /Please correct the following and answer again:\n- To must be greater than From$/);
      assert.equal(again!.requestedSchema.properties.from.default, 5, "the other answers come back as defaults");
      assert.equal(again!.requestedSchema.properties.note.default, "x");
      assert.equal(Object.hasOwn(again!.requestedSchema.properties.to, "default"), false);
      const never = (await client.callTool({ name: "never", arguments: {} })) as { content: { text: string }[]; isError?: boolean };
      assert.equal(never.isError, true);
      assert.match(never.content[0]!.text, /still invalid after 2 attempts: This range is taken/);
    } finally {
      await conn.close();
    }
  });
}
