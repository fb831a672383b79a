// Fields named after prototype members (constructor, toString, hasOwnProperty, valueOf) work like
// any other field end to end: asked, answered, validated, re-asked with their values kept, returned.
// "__proto__" is refused before anything is sent: zod, so the SDK, drops that key from every answer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { applyDefaults } from "../../../src/schema/defaults.js";
import { encodeForRevision } from "../../../src/schema/compiled.js";
import { describeFields } from "../../../src/schema/compiled.js";
import type { ProtocolRevision, RequestedSchema } from "../../../src/schema/types.js";
import { validateContent } from "../../../src/schema/validate.js";
import { createElicitation } from "../../../src/server/index.js";
import { clientFor, connect, elicitationsOn } from "../../helpers/mcp.js";

const FORM = JSON.parse(`{
  "type": "object",
  "properties": {
    "constructor": { "type": "string", "minLength": 2 },
    "toString": { "type": "integer", "default": 3 },
    "hasOwnProperty": { "type": "boolean" },
    "valueOf": { "type": "string", "enum": ["a", "b"] }
  },
  "required": ["constructor", "hasOwnProperty", "valueOf"]
}`) as RequestedSchema;
const NAMES = ["constructor", "toString", "hasOwnProperty", "valueOf"];
const own = (o: object) => Object.keys(o).sort();

test("the schema functions keep every prototype-named field as an own key", () => {
  assert.deepEqual(
    describeFields(FORM).map((f) => f.name),
    NAMES,
  );
  for (const rev of ["2025-06-18", "2025-11-25"] as const)
    assert.deepEqual(own(encodeForRevision(FORM, rev).properties), [...NAMES].sort());
  const answer = JSON.parse(`{ "constructor": "ok", "hasOwnProperty": true, "valueOf": "b", "__proto__": { "x": 1 } }`);
  const checked = validateContent(FORM, answer);
  assert.ok(checked.ok);
  assert.deepEqual(own(checked.value), ["constructor", "hasOwnProperty", "valueOf"]);
  assert.equal(Object.getPrototypeOf(checked.value), Object.prototype, "the prototype is untouched");
  const filled = applyDefaults(FORM, {});
  assert.deepEqual(own(filled), ["toString"], "nothing inherited counts as given");
  assert.equal(filled.toString, 3);
  const missing = validateContent(FORM, {});
  assert.ok(!missing.ok);
  assert.deepEqual(
    missing.errors.map((e) => e.field),
    ["constructor", "hasOwnProperty", "valueOf"],
  );
});

for (const revision of ["2025-11-25", "2026-07-28"] as ProtocolRevision[]) {
  describe(`prototype-named fields through ctx.elicit on ${revision}`, () => {
    test("an invalid answer is asked again with the valid values as defaults, and the valid one comes back", async () => {
      const kit = createElicitation();
      const factory = () => {
        const server = new McpServer({ name: "names", version: "1.0.0" });
        kit.registerTool(server, "ask", { description: "asks the form" }, async (_args, ctx) => {
          const answer = await ctx.elicit("Fill in", FORM);
          return { content: [{ type: "text", text: JSON.stringify(answer) }] };
        });
        return server;
      };
      const answers = [
        `{ "constructor": "x", "toString": 7, "hasOwnProperty": false, "valueOf": "a" }`, // constructor too short
        `{ "constructor": "fine", "toString": 7, "hasOwnProperty": false, "valueOf": "a" }`,
      ];
      const client = clientFor(revision);
      client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: JSON.parse(answers.shift()!) }));
      const conn = await connect(client, factory, revision, "memory");
      try {
        const result = (await client.callTool({ name: "ask", arguments: {} })) as { content: { text: string }[]; isError?: boolean };
        assert.notEqual(result.isError, true, result.content[0]!.text);
        const answer = JSON.parse(result.content[0]!.text);
        assert.deepEqual(answer, { action: "accept", content: { constructor: "fine", toString: 7, hasOwnProperty: false, valueOf: "a" } });
        const asked = elicitationsOn(conn.wire);
        assert.equal(asked.length, 2, "asked, then asked again");
        const again = asked[1]!;
        assert.match(again.message, /Constructor must be at least 2 characters long/);
        const props = again.requestedSchema.properties;
        assert.deepEqual(own(props), [...NAMES].sort());
        assert.equal(props.toString.default, 7);
        assert.equal(props.hasOwnProperty.default, false);
        assert.equal(props.valueOf.default, "a");
        assert.equal(Object.hasOwn(props.constructor, "default"), false, "the invalid value is not kept");
      } finally {
        await conn.close();
      }
    });
  });
}

test("a form with a __proto__ field never leaves the server: the tool says why", async () => {
  const kit = createElicitation();
  const factory = () => {
    const server = new McpServer({ name: "names", version: "1.0.0" });
    kit.registerTool(server, "ask", { description: "asks the form" }, async (_args, ctx) => {
      const answer = await ctx.elicit("Fill in", JSON.parse(`{"type":"object","properties":{"__proto__":{"type":"string"}}}`));
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    });
    return server;
  };
  const client = clientFor("2025-11-25");
  client.setRequestHandler("elicitation/create", async () => ({ action: "cancel" }));
  const conn = await connect(client, factory, "2025-11-25", "memory");
  try {
    const result = (await client.callTool({ name: "ask", arguments: {} })) as { content: { text: string }[]; isError?: boolean };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /__proto__.*\[field-name-reserved\]/s);
    assert.equal(elicitationsOn(conn.wire).length, 0, "nothing was sent");
  } finally {
    await conn.close();
  }
});
