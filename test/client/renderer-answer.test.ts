// A renderer whose form() answers accept with `content` that is not an object (null, a number, a
// string, an array, true) is a fault of the host's UI: the host author gets a RendererAnswerError
// naming `content`, the person is told, and the server gets an error (2025 eras: -32603 with the
// message) or the call rejects (2026-07-28), never an accept with `{}` nor -32603 "Cannot convert…".
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { inputRequired, McpServer } from "@modelcontextprotocol/server";
import { attachElicitation } from "../../src/client/attach.js";
import { RendererAnswerError } from "../../src/client/renderer-answer.js";
import type { ElicitationUI } from "../../src/client/ui.js";
import { clientFor, connect } from "../helpers/mcp.js";
import { jsonResult, resultJson, sendToClient } from "../helpers/results.js";

const REQUEST = {
  mode: "form",
  message: "Your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } },
};

/** `ask` sends the form live (2025 eras) and reports what came back; `ask26` asks it in input_required and reports the retry's answers. */
function factory() {
  const server = new McpServer({ name: "asking-server", version: "1.0.0" });
  server.registerTool("ask", {}, async (ctx) => jsonResult(await sendToClient(ctx, "elicitation/create", REQUEST)));
  server.registerTool("ask26", {}, async (ctx) => {
    const answers = ctx.mcpReq.inputResponses;
    if (!answers) return inputRequired({ inputRequests: { name: inputRequired.elicit(REQUEST as never) }, requestState: "round-1" });
    return jsonResult(answers);
  });
  return server;
}

function setup(revision: "2025-11-25" | "2026-07-28", content: unknown) {
  const notices: string[] = [];
  const heard: Error[] = [];
  const ui: ElicitationUI = {
    form: async () => ({ action: "accept", content }) as never,
    url: async () => "cancel",
    notice: (message) => void notices.push(message),
  };
  const client = clientFor(revision, {});
  attachElicitation(client, { ui });
  client.onerror = (error) => void heard.push(error);
  return { client, notices, heard };
}

const BAD: [string, unknown, RegExp][] = [
  ["null", null, /`content` null;/],
  ["a number", 3, /`content` a number;/],
  ["a string", "x", /`content` a string;/],
  ["an array", [], /`content` an array;/],
  ["true", true, /`content` a boolean;/],
];
const EXPECTED = /expected an object of answers by field name/;

describe("a renderer's accept with content that is not an object", () => {
  for (const [name, content, kind] of BAD) {
    test(`2025-11-25, ${name}: the server gets -32603 naming content, the host's onerror the error`, { timeout: 60_000 }, async () => {
      const { client, notices, heard } = setup("2025-11-25", content);
      const connection = await connect(client, factory, "2025-11-25", "http");
      try {
        const seen = resultJson(await client.callTool({ name: "ask", arguments: {} }));
        assert.equal(seen.result, undefined, `no answer reached the server: ${JSON.stringify(seen)}`);
        assert.equal(seen.error.code, -32603);
        assert.match(seen.error.message, kind);
        assert.match(seen.error.message, EXPECTED);
        const error = heard.find((e) => e instanceof RendererAnswerError) as RendererAnswerError | undefined;
        assert.ok(error, `the host's onerror heard it: ${heard.map((e) => e.message).join(" | ")}`);
        assert.equal(error.field, "content");
        assert.match(notices.join("\n"), /Your answer to asking-server could not be sent/);
      } finally {
        await connection.close();
      }
    });

    test(`2026-07-28, ${name}: the call rejects naming content; no retry carries an answer`, { timeout: 60_000 }, async () => {
      const { client, notices, heard } = setup("2026-07-28", content);
      const connection = await connect(client, factory, "2026-07-28", "http");
      try {
        await assert.rejects(client.callTool({ name: "ask26", arguments: {} }), (error: Error) => {
          assert.match(error.message, kind);
          assert.match(error.message, EXPECTED);
          return true;
        });
        const retries = connection.wire.filter((w) => w.dir === "out" && w.message.params?.inputResponses);
        assert.deepEqual(retries, [], "nothing was sent as the person's answer");
        assert.ok(heard.some((e) => e instanceof RendererAnswerError && e.field === "content"));
        assert.match(notices.join("\n"), /could not be sent/);
      } finally {
        await connection.close();
      }
    });
  }

  test("an accept without content is still the form's defaults", { timeout: 60_000 }, async () => {
    const { client, heard } = setup("2025-11-25", undefined);
    const connection = await connect(client, factory, "2025-11-25", "http");
    try {
      const seen = resultJson(await client.callTool({ name: "ask", arguments: {} }));
      assert.deepEqual(seen.result, { action: "accept", content: { name: "Ada" } });
      assert.equal(heard.filter((e) => e instanceof RendererAnswerError).length, 0);
    } finally {
      await connection.close();
    }
  });

  test("an unknown action names `action`", { timeout: 60_000 }, async () => {
    const notices: string[] = [];
    const client = clientFor("2025-11-25", {});
    attachElicitation(client, {
      ui: { form: async () => ({ action: "maybe" }) as never, url: async () => "cancel", notice: (m) => void notices.push(m) },
    });
    const connection = await connect(client, factory, "2025-11-25", "http");
    try {
      const seen = resultJson(await client.callTool({ name: "ask", arguments: {} }));
      assert.equal(seen.error?.code, -32603);
      assert.match(seen.error.message, /answered `action` "maybe"; expected \{ action: "accept" \| "decline" \| "cancel" \}/);
    } finally {
      await connection.close();
    }
  });
});
