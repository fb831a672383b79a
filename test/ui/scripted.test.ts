// scriptedUI: answers from a list, in order, first match wins; unmatched requests are cancelled with
// a notice. It does not validate: attachElicitation does, so an invalid scripted answer is never sent.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../../src/client/attach.js";
import type { FormRequest, SamplingRequestView, UIContext, UrlRequest } from "../../src/client/ui.js";
import { analyzeUrl } from "../../src/client/url-safety/analyze.js";
import { describeFields } from "../../src/schema/compiled.js";
import type { RequestedSchema } from "../../src/schema/types.js";
import { scriptedUI, type ScriptedAnswer } from "../../src/ui/scripted.js";
import { clientFor, connect, type WireMessage } from "../helpers/mcp.js";
import { assertWire } from "../helpers/wire.js";

const SCHEMA: RequestedSchema = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
  required: ["name"],
};
const context: UIContext = { server: { name: "srv", version: "1" }, protocol: "2025-11-25", signal: new AbortController().signal };
const formRequest = (message: string): FormRequest => ({ message, fields: describeFields(SCHEMA), schema: SCHEMA, warnings: [] });
const urlRequest = (message: string, url = "https://example.com/auth"): UrlRequest => ({
  message,
  analysis: analyzeUrl(url),
  elicitationId: "e1",
});

function scripted(answers: ScriptedAnswer[]) {
  const log: string[] = [];
  return { ui: scriptedUI(answers, { log: (line) => log.push(line) }), log };
}

describe("scriptedUI", () => {
  test("entries are used in order, each once", async () => {
    const { ui, log } = scripted([
      { action: "accept", content: { name: "Ana" } },
      { action: "decline" },
      { action: "accept", content: { name: "Bo", age: 3 } },
    ]);
    assert.deepEqual(await ui.form(formRequest("one"), context), { action: "accept", content: { name: "Ana" } });
    assert.deepEqual(await ui.form(formRequest("two"), context), { action: "decline" });
    assert.deepEqual(ui.remaining(), [{ action: "accept", content: { name: "Bo", age: 3 } }]);
    assert.deepEqual(await ui.form(formRequest("three"), context), { action: "accept", content: { name: "Bo", age: 3 } });
    assert.deepEqual(ui.remaining(), []);
    // Each answer says which entry gave it, so a person reading stderr sees why.
    assert.deepEqual(log, [
      'elicit: answers entry [0] (no match: any message) answered "one": accept.',
      'elicit: answers entry [1] (no match: any message) answered "two": decline.',
      'elicit: answers entry [2] (no match: any message) answered "three": accept.',
    ]);
  });

  test('matching ignores case (the README\'s "Confirm your Barcelona" fits "Please confirm your Barcelona…")', async () => {
    const { ui, log } = scripted([{ match: "Confirm your Barcelona", action: "accept", content: { name: "Ana" } }, { action: "decline" }]);
    assert.deepEqual(await ui.form(formRequest("Please confirm your Barcelona vacation booking details:"), context), {
      action: "accept",
      content: { name: "Ana" },
    });
    assert.deepEqual(log, [
      'elicit: answers entry [0] (match "Confirm your Barcelona") answered "Please confirm your Barcelona vacation booking details:": accept.',
    ]);
  });

  test("the first unused entry whose match fits the message wins; an entry without match fits any message", async () => {
    const { ui } = scripted([
      { match: "^Delete", action: "decline" },
      { match: "name", action: "accept", content: { name: "first" } },
      { match: "name", action: "accept", content: { name: "second" } },
      { action: "cancel" },
    ]);
    // Skips the ^Delete entry, takes the first "name" entry.
    assert.deepEqual(await ui.form(formRequest("What is your name?"), context), { action: "accept", content: { name: "first" } });
    assert.deepEqual(await ui.form(formRequest("Your name again?"), context), { action: "accept", content: { name: "second" } });
    // "Unrelated" does not fit ^Delete, so it takes the entry without match; "Delete..." still finds its own.
    assert.deepEqual(await ui.form(formRequest("Unrelated"), context), { action: "cancel" });
    assert.deepEqual(await ui.form(formRequest("Delete everything?"), context), { action: "decline" });
    assert.deepEqual(ui.remaining(), []);
  });

  test("the match is a Unicode regular expression, and remaining() reports entries as given", async () => {
    const { ui } = scripted([
      { match: "^\\p{Lu}{3}$", action: "decline" },
      { match: "zzz", action: "cancel" },
    ]);
    assert.deepEqual(await ui.form(formRequest("ÉTÉ"), context), { action: "decline" });
    assert.deepEqual(ui.remaining(), [{ match: "zzz", action: "cancel" }]);
  });

  test("an unmatched request is answered cancel with a stderr-style notice through `log`", async () => {
    const { ui, log } = scripted([{ match: "^Pay", action: "accept", content: { name: "x" } }]);
    const long = "Tell me " + "more ".repeat(40);
    assert.deepEqual(await ui.form(formRequest(long), context), { action: "cancel" });
    assert.equal(await ui.url(urlRequest("Sign in"), context), "cancel");
    assert.equal(log.length, 2);
    assert.equal(log[0], `elicit: no scripted answer matches "${long.slice(0, 80)}"; answering cancel.`);
    assert.equal(log[1], 'elicit: no scripted answer matches "Sign in"; answering cancel.');
    // The unmatched entry is still there for a later request.
    assert.equal(ui.remaining().length, 1);
    assert.deepEqual(await ui.form(formRequest("Pay now"), context), { action: "accept", content: { name: "x" } });
  });

  test("URL requests are answered by the entry's action; content is ignored", async () => {
    const { ui } = scripted([{ match: "Sign", action: "accept", content: { ignored: true } }, { action: "decline" }, { action: "cancel" }]);
    assert.equal(await ui.url(urlRequest("Sign in"), context), "accept");
    assert.equal(await ui.url(urlRequest("Pay"), context), "decline");
    assert.equal(await ui.url(urlRequest("Pay again"), context), "cancel");
  });

  test("accept content is passed through as given, unvalidated; accept without content is {}", async () => {
    const invalid = { name: 42, age: "old", stray: ["x"] } as never;
    const { ui } = scripted([{ action: "accept", content: invalid }, { action: "accept" }]);
    const first = await ui.form(formRequest("a"), context);
    assert.deepEqual(first, { action: "accept", content: { name: 42, age: "old", stray: ["x"] } });
    assert.deepEqual(await ui.form(formRequest("b"), context), { action: "accept", content: {} });
  });

  test("notices go to `log` prefixed with elicit:, and to stderr by default", async () => {
    const { ui, log } = scripted([]);
    ui.notice("Declined a request from srv.", context);
    assert.deepEqual(log, ["elicit: Declined a request from srv."]);

    const written: string[] = [];
    const original = process.stderr.write;
    process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      const plain = scriptedUI([]);
      plain.notice("hello", context);
      assert.deepEqual(await plain.form(formRequest("Anyone?"), context), { action: "cancel" });
    } finally {
      process.stderr.write = original;
    }
    assert.deepEqual(written, ["elicit: hello\n", 'elicit: no scripted answer matches "Anyone?"; answering cancel.\n']);
  });
});

describe("scriptedUI through attachElicitation", () => {
  const age = {
    type: "object",
    properties: { name: { type: "string", title: "Name" }, age: { type: "integer", title: "Age", minimum: 18 } },
    required: ["name", "age"],
  };
  const factory = () => {
    const server = new McpServer({ name: "raw-server", version: "1.0.0" });
    server.registerTool("ask", { inputSchema: z.object({ message: z.string() }) }, async ({ message }, ctx): Promise<CallToolResult> => {
      const result = await ctx.mcpReq.send(
        { method: "elicitation/create", params: { mode: "form", message, requestedSchema: age } as never },
        { timeout: 5000 },
      );
      return { content: [{ type: "text", text: JSON.stringify(result) }] };
    });
    return server;
  };
  const replies = (wire: WireMessage[]) =>
    wire
      .filter((w) => w.dir === "in" && w.message.method === "elicitation/create")
      .map((req) => wire.find((w) => w.dir === "out" && !("method" in w.message) && w.message.id === req.message.id)!.message);

  test("an invalid scripted answer is never sent: the server gets cancel, and the notice says why", async () => {
    const log: string[] = [];
    const ui = scriptedUI(
      [
        // Matched against the sanitized message: the colour codes are gone by then.
        { match: "^Check your age$", action: "accept", content: { name: "Ana", age: 12 } },
        { match: "^Again$", action: "accept", content: { name: "Ana", age: 30, stray: "dropped" } as never },
      ],
      { log: (line) => log.push(line) },
    );
    const client = clientFor("2025-11-25", {});
    attachElicitation(client, { ui });
    const { wire, close } = await connect(client, factory, "2025-11-25", "memory");
    try {
      const first = await client.callTool({ name: "ask", arguments: { message: "\u001b[1mCheck your age\u001b[0m" } });
      assert.deepEqual(JSON.parse((first.content as { text: string }[])[0]!.text), { action: "cancel" });
      const second = await client.callTool({ name: "ask", arguments: { message: "Again" } });
      assert.deepEqual(JSON.parse((second.content as { text: string }[])[0]!.text), {
        action: "accept",
        content: { name: "Ana", age: 30 },
      });

      const [r1, r2] = replies(wire);
      assert.deepEqual(r1!.result, { action: "cancel" });
      assert.deepEqual(r2!.result, { action: "accept", content: { name: "Ana", age: 30 } });
      for (const r of [r1, r2]) assertWire("2025-11-25", "ElicitResult", r!.result);
      // The invalid answer's value never left the client.
      assert.ok(!wire.some((w) => w.dir === "out" && JSON.stringify(w.message).includes('"age":12')));
      assert.deepEqual(log, [
        'elicit: answers entry [0] (match "^Check your age$") answered "Check your age": accept.',
        "elicit: Not sent to raw-server: the answer is invalid (Age must be at least 18); answered cancel.",
        'elicit: answers entry [1] (match "^Again$") answered "Again": accept.',
      ]);
      assert.deepEqual(ui.remaining(), []);
    } finally {
      await close();
    }
  });
});

describe("scriptedUI: sampling entries and URL waits", () => {
  const view = (text: string): SamplingRequestView => ({
    messages: [{ role: "user", text }],
    maxTokens: 10,
    modelHints: [],
    priorities: {},
    tools: [],
  });

  test("sample entries answer only sampling requests, in order; the approving entry decides the answer", async () => {
    const { ui, log } = scripted([
      { action: "accept", content: { name: "form only" } },
      { match: "flights", sample: { text: "BCN-11" } },
      { sample: { action: "deny" } },
      { sample: { rejectAnswer: true } },
    ]);
    const first = view("Pick among these flights");
    assert.deepEqual(await ui.reviewRequest(first, context), { action: "approve" });
    assert.deepEqual(await ui.reviewAnswer({ model: "m", text: "BCN-07", toolCalls: [] }, first, context), {
      action: "approve",
      text: "BCN-11",
    });
    assert.deepEqual(await ui.reviewRequest(view("other"), context), { action: "deny" });
    const third = view("third");
    assert.deepEqual(await ui.reviewRequest(third, context), { action: "approve" });
    assert.deepEqual(await ui.reviewAnswer({ model: "m", text: "x", toolCalls: [] }, third, context), { action: "reject" });
    // No sampling entry left: denied with a notice; the form entry is still there for a form.
    assert.deepEqual(await ui.reviewRequest(view("fourth"), context), { action: "deny" });
    assert.match(log.at(-1)!, /no scripted answer matches "fourth"; answering deny/);
    assert.deepEqual(log.slice(0, 3), [
      'elicit: answers entry [1] (match "flights") answered "Pick among these flights": approve.',
      'elicit: answers entry [2] (no match: any message) answered "other": deny.',
      'elicit: answers entry [3] (no match: any message) answered "third": approve.',
    ]);
    assert.deepEqual(ui.remaining(), [{ action: "accept", content: { name: "form only" } }]);
  });

  test("with no model and no scripted text, the answer is rejected with a notice", async () => {
    const { ui, log } = scripted([{ sample: {} }]);
    const request = view("q");
    await ui.reviewRequest(request, context);
    assert.deepEqual(await ui.reviewAnswer(undefined, request, context), { action: "reject" });
    assert.match(log.at(-1)!, /no model is configured and the scripted answer has no text/);
  });

  test("a URL wait ends when the flow completes, else retries after the consenting entry's retryAfterMs (default 3 s)", async () => {
    const log: string[] = [];
    const ui = scriptedUI([{ action: "accept", retryAfterMs: 50 }, { action: "accept" }], { log: (l) => log.push(l) });
    assert.equal(await ui.url(urlRequest("Sign in"), context), "accept");
    assert.equal(await ui.waitForUrl({ message: "m", host: "pay.example", completed: Promise.resolve() }, context), "completed");
    const started = Date.now();
    assert.equal(await ui.waitForUrl({ message: "m", host: "pay.example", completed: new Promise(() => {}) }, context), "retry");
    assert.ok(Date.now() - started < 2000, "retried after 50 ms, not the default");
    assert.equal(await ui.url(urlRequest("Again"), context), "accept");
    const aborted = new AbortController();
    const waiting = ui.waitForUrl(
      { message: "m", host: "pay.example", completed: new Promise(() => {}) },
      { ...context, signal: aborted.signal },
    );
    aborted.abort();
    assert.equal(await waiting, "cancel", "a withdrawn call ends the wait");
    assert.deepEqual(
      log.filter((l) => l.includes("retrying")),
      [
        "elicit: retrying the call in 50 ms unless pay.example reports the flow complete first.",
        "elicit: retrying the call in 50 ms unless pay.example reports the flow complete first.",
        "elicit: retrying the call in 3 s unless pay.example reports the flow complete first.",
      ],
    );
  });

  test("scripted consent logs the URL analysis warnings before answering", async () => {
    const cases: [string, RegExp][] = [
      ["https://xn--pypal-4ve.com/login", /xn--pypal-4ve\.com.*(internationalized|punycode|look)/i],
      ["https://192.168.0.1/pay", /IPv4 address \(192\.168\.0\.1\)/],
      ["https://user@example.com/", /user name|credentials|@/i],
      ["http://example.com/", /not encrypted|http:/i],
    ];
    for (const [url, pattern] of cases) {
      const { ui, log } = scripted([{ action: "accept" }]);
      assert.equal(await ui.url(urlRequest("Open", url), context), "accept");
      const warnings = log.filter((l) => l.startsWith("elicit: warning about "));
      assert.ok(warnings.length > 0, `no warning logged for ${url}: ${JSON.stringify(log)}`);
      assert.ok(log.indexOf(warnings.at(-1)!) < log.findIndex((l) => l.includes("answers entry")), "warnings come before the answer");
      assert.match(warnings.join("\n"), pattern);
    }
  });
});
