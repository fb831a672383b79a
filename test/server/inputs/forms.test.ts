// ctx.elicit takes forms from the builders, raw JSON schemas, or zod, and refuses broken ones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { createElicitation } from "../../../src/server/index.js";
import { clientFor, connect, elicitationsOn } from "../../helpers/mcp.js";
import { resultJson } from "../../helpers/results.js";
import { answerWith, accept } from "../../helpers/server-fixtures.js";

const kit = createElicitation();
const factory = () => {
  const server = new McpServer({ name: "forms", version: "1.0.0" });
  kit.registerTool(server, "zod_form", { description: "zod" }, async (_a, ctx) => {
    const r = await ctx.elicit("Plan?", z.object({ plan: z.enum(["free", "pro"]), seats: z.int().min(1).default(1) }));
    const plan: "free" | "pro" | undefined = r.action === "accept" ? r.content.plan : undefined;
    return { content: [{ type: "text", text: JSON.stringify({ r, plan }) }] };
  });
  kit.registerTool(server, "raw_form", { description: "raw" }, async (_a, ctx) => {
    const r = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string", minLength: 2 } }, required: ["name"] });
    return { content: [{ type: "text", text: JSON.stringify({ r }) }] };
  });
  kit.registerTool(server, "broken_form", { description: "broken" }, async (_a, ctx) => {
    await ctx.elicit("Address?", { type: "object", properties: { address: { type: "object" } } } as never);
    return { content: [{ type: "text", text: "unreachable" }] };
  });
  return server;
};

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  test(`zod and raw JSON forms work on ${revision}; a broken form fails before anything is sent`, async () => {
    const conn = await connect(clientFor(revision), factory, revision, "memory");
    try {
      answerWith(conn.client, [accept({ plan: "pro" }), accept({ name: "A" }), accept({ name: "Al" })]);
      assert.deepEqual(resultJson(await conn.client.callTool({ name: "zod_form", arguments: {} })), {
        r: { action: "accept", content: { plan: "pro", seats: 1 } },
        plan: "pro",
      });
      const sent = elicitationsOn(conn.wire)[0]!.requestedSchema;
      assert.deepEqual(sent.properties.plan, { type: "string", enum: ["free", "pro"] });
      assert.deepEqual(resultJson(await conn.client.callTool({ name: "raw_form", arguments: {} })), {
        r: { action: "accept", content: { name: "Al" } },
      });
      const before = elicitationsOn(conn.wire).length;
      const broken = (await conn.client.callTool({ name: "broken_form", arguments: {} })) as Record<string, any>;
      assert.equal(broken.isError, true);
      assert.match(
        broken.content[0].text,
        /Invalid elicitation schema:\n {2}\/properties\/address\/type: Field "address" is a nested object.*\[nested-object\]/,
      );
      assert.equal(elicitationsOn(conn.wire).length, before);
    } finally {
      await conn.close();
    }
  });
}
