// attachElicitation end to end: a test server built on the raw SDK (no server kit, so it can send
// anything) asks a real SDK v2 Client on which attachElicitation is installed with a recording UI.
// Each case checks both what the client answered on the wire (the JSON-RPC response to the
// elicitation/create, or the inputResponses of a 2026-07-28 retry) and what the UI was given.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { domainToUnicode } from "node:url";
import type { Client } from "@modelcontextprotocol/client";
import { inputRequired, McpServer, type ServerContext } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation, CALL_TIMEOUT_MS, type AttachOptions } from "../../src/client/attach.js";
import { SDK_TIMER_OUT_OF_REACH } from "../../src/client/request-clock.js";
import { MAX_LONG_TEXT_LENGTH } from "../../src/common/sanitize.js";
import type { FormAnswer } from "../../src/client/ui.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { assertWireValid, clientFor, connect, type TransportKind, type WireMessage } from "../helpers/mcp.js";
import { RecordingUI } from "../helpers/recording-ui.js";
import { jsonResult, resultJson, sendToClient } from "../helpers/results.js";
import { assertWire, validatorFor } from "../helpers/wire.js";

// ---------------------------------------------------------------------------------------------
// The raw test server: `ask` sends one hand-written elicitation/create, `burst` sends several at
// once, `ask26` returns input_required (2026-07-28). Nothing is checked on the way out.

const SERVER_INFO = { name: "raw-server", version: "3.1.4" };

function rawServer(requests: Record<string, Record<string, unknown>>, info: { name: string; version: string } = SERVER_INFO) {
  return () => {
    const server = new McpServer(info);
    const send = (ctx: ServerContext, params: unknown) => sendToClient(ctx, "elicitation/create", params);
    server.registerTool("ask", { inputSchema: z.object({ which: z.string() }) }, async ({ which }, ctx) =>
      jsonResult(await send(ctx, requests[which])),
    );
    server.registerTool("burst", { inputSchema: z.object({ which: z.string(), count: z.number() }) }, async ({ which, count }, ctx) =>
      jsonResult(
        await Promise.all(
          Array.from({ length: count }, (_, i) => send(ctx, { ...requests[which], message: `${requests[which]!.message} #${i + 1}` })),
        ),
      ),
    );
    server.registerTool("ask26", {}, async (ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      if (!responses) {
        return inputRequired({ inputRequests: { k: inputRequired.elicit(requests.modern as never) }, requestState: MODERN_STATE });
      }
      return jsonResult({ responses, requestState: ctx.mcpReq.requestState<string>() });
    });
    return server;
  };
}

// An opaque requestState with characters a careless client would re-encode: quotes, backslashes,
// non-ASCII, an astral emoji, base64 padding and a NUL.
const MODERN_STATE = `v1.eyJyb3VuZCI6MX0=.sig+/="quoted"\\back\u00e9\u{1F510}\u0000end`;

interface Exchange {
  request: Record<string, any>;
  reply: Record<string, any>;
}

/** Each elicitation/create the client received, with the JSON-RPC response it sent back. */
function exchanges(wire: WireMessage[]): Exchange[] {
  const out: Exchange[] = [];
  for (const { dir, message } of wire) {
    if (dir !== "in" || message.method !== "elicitation/create") continue;
    const reply = wire.find((w) => w.dir === "out" && !("method" in w.message) && w.message.id === message.id);
    assert.ok(reply, `no response to elicitation/create #${message.id}`);
    out.push({ request: message, reply: reply.message });
  }
  return out;
}

interface Setup {
  client: Client;
  ui: RecordingUI;
  wire: WireMessage[];
  revision: ProtocolRevision;
  ask(which: string): Promise<any>;
}

async function withClient(
  requests: Record<string, Record<string, unknown>>,
  options: {
    revision?: ProtocolRevision;
    kind?: TransportKind;
    ui?: RecordingUI;
    attach?: Omit<AttachOptions, "ui">;
    serverInfo?: { name: string; version: string };
    /** The server sends requests that break the spec on purpose. */
    invalidOnPurpose?: boolean;
  },
  body: (s: Setup) => Promise<void>,
) {
  const revision = options.revision ?? "2025-11-25";
  const ui = options.ui ?? new RecordingUI();
  // No capabilities of its own: what the client declares comes from attachElicitation alone.
  const client = clientFor(revision, {});
  attachElicitation(client, { ui, ...options.attach });
  const connection = await connect(client, rawServer(requests, options.serverInfo), revision, options.kind ?? "memory");
  try {
    await body({
      client,
      ui,
      wire: connection.wire,
      revision,
      ask: async (which) => resultJson(await client.callTool({ name: "ask", arguments: { which } })),
    });
    // Every elicitation result the client put on the wire is valid for the revision.
    for (const { reply } of exchanges(connection.wire)) if ("result" in reply) assertWire(revision, "ElicitResult", reply.result);
    for (const { dir, message } of connection.wire) {
      if (dir === "out" && message.method === "tools/call" && message.params?.inputResponses) {
        for (const r of Object.values(message.params.inputResponses)) assertWire(revision, "ElicitResult", r);
      }
    }
    // connect()'s close checks every elicitation message against schema.json: requests that break the
    // spec on purpose are taken out first (after checking that they do break it).
    if (options.invalidOnPurpose)
      assert.ok(dropInvalidServerMessages(connection.wire, revision) > 0, "the server's request was meant to break the spec");
  } finally {
    await connection.close();
  }
}

/** Removes (in place) the server's messages that schema.json rejects; returns how many. */
function dropInvalidServerMessages(wire: WireMessage[], revision: ProtocolRevision): number {
  const breaks = (definition: string, message: unknown) => !validatorFor(revision, definition)(message);
  let dropped = 0;
  for (let i = wire.length - 1; i >= 0; i--) {
    const { dir, message } = wire[i]!;
    if (dir !== "in") continue;
    const embedded =
      message.result?.resultType === "input_required" ? (Object.values(message.result.inputRequests ?? {}) as Record<string, any>[]) : [];
    const invalid =
      message.method === "elicitation/create"
        ? breaks("ElicitRequest", message)
        : embedded.length > 0 && (breaks("InputRequiredResult", message.result) || embedded.some((r) => breaks("ElicitRequest", r)));
    if (invalid) {
      wire.splice(i, 1);
      dropped++;
    }
  }
  return dropped;
}

/** The only exchange of a test, after checking the reply is a result equal to `expected`. */
function assertAnswered(wire: WireMessage[], revision: ProtocolRevision, expected: unknown): Exchange {
  const all = exchanges(wire);
  assert.equal(all.length, 1);
  const only = all[0]!;
  assert.equal(only.reply.error, undefined, `expected a result, got ${JSON.stringify(only.reply.error)}`);
  assert.deepEqual(only.reply.result, expected);
  assertWire(revision, "ElicitResult", only.reply.result);
  return only;
}

/** The only exchange of a test, after checking the reply is a -32602 error whose message matches every pattern. */
function assertInvalidParams(wire: WireMessage[], ...patterns: RegExp[]): string {
  const all = exchanges(wire);
  assert.equal(all.length, 1);
  const { reply } = all[0]!;
  assert.equal(reply.result, undefined, `expected an error, got ${JSON.stringify(reply.result)}`);
  assert.equal(reply.error?.code, -32602);
  for (const p of patterns) assert.match(reply.error.message, p);
  return reply.error.message;
}

// Anything a terminal would act on or that would make the text read differently.
const UNSAFE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;
function assertInert(text: string, what: string) {
  assert.doesNotMatch(text, UNSAFE, `${what} is not inert: ${JSON.stringify(text)}`);
  assert.doesNotMatch(text, /\[\d+(;\d+)*m|\]8;;|evil\.example/, `${what} shows escape-sequence leftovers: ${JSON.stringify(text)}`);
}

const form = (message: string, properties: Record<string, unknown>, required?: string[]) => ({
  mode: "form",
  message,
  requestedSchema: { type: "object", properties, ...(required ? { required } : {}) },
});
const simple = (message: string) => form(message, { name: { type: "string", title: "Name" } }, ["name"]);

// ---------------------------------------------------------------------------------------------

describe("attachElicitation: forms the client refuses (-32602, the UI is never called)", () => {
  test("a nested-object field is answered -32602 naming the field and the rule nested-object", async () => {
    const requests = {
      nested: form("Where do you live?", {
        address: { type: "object", properties: { city: { type: "string" } } },
        name: { type: "string" },
      }),
    };
    await withClient(requests, { invalidOnPurpose: true }, async ({ ui, wire, ask }) => {
      const out = await ask("nested");
      assert.equal(out.error.code, -32602);
      const message = assertInvalidParams(
        wire,
        /not a valid elicitation schema for 2025-11-25/,
        /\/properties\/address/,
        /"address"/,
        /\[nested-object\]/,
      );
      // Our one-line-per-problem list, not the SDK's dump of zod issues.
      assert.doesNotMatch(message, /invalid_union/);
      assert.equal(message.split("\n").length, 2, message);
      assert.equal(ui.calls, 0);
      assert.deepEqual(ui.notices, []);
    });
  });

  test("every problem of a form is listed, each with its code", async () => {
    const requests = {
      bad: form(
        "Pick",
        {
          n: { type: "number", minimum: 5, maximum: 1 },
          when: { type: "string", format: "hostname" },
          tags: { type: "array", items: { type: "string" } },
        },
        ["n", "ghost"],
      ),
    };
    await withClient(requests, { invalidOnPurpose: true }, async ({ ui, wire, ask }) => {
      await ask("bad");
      const message = assertInvalidParams(
        wire,
        /\[bounds-inverted\]/,
        /\[unknown-format\]/,
        /\[array-not-enum\]/,
        /\[required-unknown-field\]/,
      );
      assert.match(message, /\/properties\/n\/minimum/);
      assert.match(message, /\/required\/1/);
      assert.equal(ui.calls, 0);
    });
  });

  test("titled options (oneOf) on a 2025-06-18 connection are answered -32602 revision-titled-enum", async () => {
    // 2025-06-18 requests carry no mode.
    const requests = {
      titled: {
        message: "Pick a colour",
        requestedSchema: {
          type: "object",
          properties: {
            colour: {
              type: "string",
              oneOf: [
                { const: "r", title: "Red" },
                { const: "g", title: "Green" },
              ],
            },
          },
        },
      },
      legacy: {
        message: "Pick a colour",
        requestedSchema: { type: "object", properties: { colour: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] } } },
      },
    };
    await withClient(requests, { revision: "2025-06-18", attach: { modes: ["form"] } }, async ({ client, ui, wire, ask }) => {
      assert.equal(client.getNegotiatedProtocolVersion(), "2025-06-18");
      const out = await ask("titled");
      assert.equal(out.error.code, -32602);
      assertInvalidParams(wire, /for 2025-06-18/, /\/properties\/colour\/oneOf/, /\[revision-titled-enum\]/);
      assert.equal(ui.calls, 0);

      // The same choice the 2025-06-18 way is shown, with its titles.
      ui.forms.length = 0;
      const legacy = await ask("legacy");
      assert.deepEqual(legacy, { result: { action: "cancel" } });
      assert.equal(ui.forms.length, 1);
      assert.equal(ui.forms[0]!.context.protocol, "2025-06-18");
      assert.deepEqual(ui.forms[0]!.request.fields[0]!.options, [
        { value: "r", label: "Red" },
        { value: "g", label: "Green" },
      ]);
      const second = exchanges(wire)[1]!;
      assert.deepEqual(second.reply.result, { action: "cancel" });
      assertWire("2025-06-18", "ElicitResult", second.reply.result);
    });
  });

  test("a URL-mode request to a client that declared only form is answered -32602, and only form was declared", async () => {
    const requests = { url: { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e-1" } };
    await withClient(requests, { attach: { modes: ["form"] } }, async ({ ui, wire, ask }) => {
      const init = wire.find((w) => w.dir === "out" && w.message.method === "initialize")!;
      assert.deepEqual(init.message.params.capabilities, { elicitation: { form: {} } });
      const out = await ask("url");
      assert.equal(out.error.code, -32602);
      assertInvalidParams(wire, /URL/i);
      assert.equal(ui.calls, 0);
    });
  });

  test("a form nested 5,000 levels deep (in type, default, pattern, minLength, or a field) is answered -32602 naming the limit", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 5000; i++) deep = [deep];
    const requests = {
      type: form("Deep type", { f: { type: deep } }),
      default: form("Deep default", { f: { type: "string", default: deep } }),
      pattern: form("Deep pattern", { f: { type: "string", pattern: deep } }),
      minLength: form("Deep minLength", { f: { type: "string", minLength: deep } }),
      field: form("Deep field", { f: deep }),
      message: { ...simple("x"), message: deep },
    };
    for (const which of Object.keys(requests)) {
      // The spec's schema has no "pattern", so a deep one does not break it: the client refuses it all the same.
      await withClient(requests, { invalidOnPurpose: which !== "pattern" }, async ({ ui, wire, ask }) => {
        const out = await ask(which);
        assert.equal(out.error.code, -32602, `${which}: ${JSON.stringify(out.error)}`);
        assertInvalidParams(wire, /The elicitation request is nested more than 64 levels deep; refused unread\./);
        assert.equal(ui.calls, 0);
      });
    }
  });

  test("a javascript: URL is refused with -32602 and never offered", async () => {
    const requests = { js: { mode: "url", message: "Open this", url: "javascript:alert(document.cookie)", elicitationId: "e-2" } };
    await withClient(requests, {}, async ({ ui, wire, ask }) => {
      const out = await ask("js");
      assert.equal(out.error.code, -32602);
      assertInvalidParams(wire, /Refused URL elicitation/, /javascript:/);
      assert.equal(ui.calls, 0);
      assert.deepEqual(ui.notices, []);
    });
  });
});

describe("attachElicitation: what the UI is shown", () => {
  test("escape sequences, hyperlinks, bidi overrides and C1 controls never reach the UI; the words do", async () => {
    const message =
      "Please \u001b[31mconfirm\u001b[0m the \u001b]8;;https://evil.example/\u0007transfer\u001b]8;;\u0007 of " +
      "\u202Enoillim\u202C funds\u0085\u009b2J\u009d0;owned\u009c now\u0090payload\u009c!";
    await withClient(
      { m: simple(message) },
      { ui: new RecordingUI([{ action: "accept", content: { name: "Ana" } }]) },
      async ({ ui, wire, ask }) => {
        assert.deepEqual(await ask("m"), { result: { action: "accept", content: { name: "Ana" } } });
        assert.equal(ui.forms.length, 1);
        const shown = ui.forms[0]!.request.message;
        assertInert(shown, "the message");
        assert.doesNotMatch(shown, /owned|payload/, "control-string payloads are dropped with their sequences");
        assert.equal(shown, "Please confirm the transfer of noillim funds now!");
        assertAnswered(wire, "2025-11-25", { action: "accept", content: { name: "Ana" } });
      },
    );
  });

  test("field titles, descriptions and option labels are sanitized too; the schema is kept for validation", async () => {
    const properties = {
      fullName: {
        type: "string",
        title: "Full \u001b[1mname\u001b[0m\u202E",
        description: "As \u001b]8;;https://evil.example\u0007printed\u001b]8;;\u0007 on\u0085 your\u009b2J ID\nsecond line",
      },
      colour: {
        type: "string",
        title: "Colour\u200B\u2066",
        oneOf: [
          { const: "r", title: "\u001b[41mRed\u001b[0m" },
          { const: "g", title: "Gre\u0085en\u202E" },
        ],
      },
      tags: {
        type: "array",
        title: "Tags",
        items: {
          anyOf: [
            { const: "a", title: "\u009d0;x\u009cAlpha\u001b[2K" },
            { const: "b", title: "Beta\nGamma" },
          ],
        },
      },
    };
    const request = form("Details", properties);
    await withClient({ f: request }, {}, async ({ ui, wire, ask }) => {
      await ask("f");
      assert.equal(ui.forms.length, 1);
      const { fields, schema } = ui.forms[0]!.request;
      assert.deepEqual(
        fields.map((f) => [f.name, f.label, f.help, f.options?.map((o) => `${o.value}=${o.label}`)]),
        [
          ["fullName", "Full name", "As printed on your ID\nsecond line", undefined],
          ["colour", "Colour", undefined, ["r=Red", "g=Green"]],
          ["tags", "Tags", undefined, ["a=Alpha", "b=Beta Gamma"]],
        ],
      );
      for (const f of fields) {
        assertInert(f.label, `label of ${f.name}`);
        if (f.help) assertInert(f.help, `help of ${f.name}`);
        for (const o of f.options ?? []) assertInert(o.label, `option of ${f.name}`);
      }
      // The original schema rides along untouched, for validation only.
      assert.deepEqual(schema, request.requestedSchema);
      assertAnswered(wire, "2025-11-25", { action: "cancel" });
    });
  });

  test("the form is shown and validated as the server sent it, keys the SDK does not know included", async () => {
    // The hardening run's example: the SDK's parsed copy drops minLength and pattern on a choice.
    const request = form(
      "Pick",
      {
        f: { type: "string", enum: ["a", "bb"], minLength: 2, pattern: "^b" },
        code: { type: "string", pattern: "^[0-9]{3}$", maxLength: 3 },
      },
      ["f"],
    );
    const ui = new RecordingUI([
      { action: "accept", content: { f: "a" } },
      { action: "accept", content: { f: "bb", code: "12x" } },
      { action: "accept", content: { f: "bb", code: "123" } },
    ]);
    await withClient({ pick: request }, { ui }, async ({ ask }) => {
      assert.deepEqual(await ask("pick"), { result: { action: "cancel" } }, '"a" breaks minLength and pattern: never sent');
      assert.match(ui.notices[0]!.message, /F must be at least 2 characters long/);
      assert.deepEqual(await ask("pick"), { result: { action: "cancel" } });
      assert.match(ui.notices[1]!.message, /Code must match the pattern/);
      assert.deepEqual(await ask("pick"), { result: { action: "accept", content: { f: "bb", code: "123" } } });
      const shown = ui.forms[0]!.request;
      assert.deepEqual(shown.fields[0]!.constraints, { minLength: 2, pattern: "^b" }, "the UI sees the raw field");
      assert.deepEqual(shown.schema, request.requestedSchema);
    });
  });

  test("a 9,000-character message and a 5,000-character description reach the UI whole, not cut at 2,000", async () => {
    const message = "Terms. ".repeat(1_286).slice(0, 9_000);
    const description = "Fine print. ".repeat(417).slice(0, 5_000);
    const request = form(message, { name: { type: "string", title: "Name", description } }, ["name"]);
    await withClient({ terms: request }, {}, async ({ ui, ask }) => {
      await ask("terms");
      const shown = ui.forms[0]!.request;
      assert.equal(shown.message, message.trim());
      assert.equal(shown.fields[0]!.help, description.trim());
    });
  });

  test("a 1 MB message is bounded by MAX_LONG_TEXT_LENGTH (renderers fold it)", async () => {
    const huge = "Read this: " + "lorem ipsum ".repeat(90_000);
    assert.ok(huge.length > 1_000_000);
    await withClient({ big: simple(huge) }, {}, async ({ ui, wire, ask }) => {
      await ask("big");
      const shown = ui.forms[0]!.request.message;
      assert.equal([...shown].length, MAX_LONG_TEXT_LENGTH, `${[...shown].length} code points`);
      assert.ok(shown.startsWith("Read this: lorem ipsum lorem"));
      assert.ok(shown.endsWith("…"), "the cut is marked");
      assertAnswered(wire, "2025-11-25", { action: "cancel" });
    });
  });

  test("server name and version in the UI context come from the server's Implementation info, made inert", async () => {
    const info = { name: "Acme\u001b[32m OK\u001b[0m \u202Eserver", version: "2.0.0\u0007" };
    await withClient({ m: simple("Hi") }, { serverInfo: info }, async ({ ui, ask }) => {
      await ask("m");
      const { context } = ui.forms[0]!;
      assert.deepEqual(context.server, { name: "Acme OK server", version: "2.0.0" });
      assert.equal(context.protocol, "2025-11-25");
      assert.ok(context.signal instanceof AbortSignal);
    });
  });
});

describe("attachElicitation: policy", () => {
  test("a burst over the rate limit: the 4th and later are declined without reaching the UI, with a notice", async () => {
    const answers: FormAnswer[] = [1, 2, 3, 4, 5].map(() => ({ action: "accept", content: { name: "Ana" } }));
    const ui = new RecordingUI(answers);
    const requests = { m: simple("Burst"), u: { mode: "url", message: "Open", url: "https://example.com/", elicitationId: "e-9" } };
    await withClient(requests, { ui, attach: { policy: { rateLimit: { max: 3, windowMs: 60_000 } } } }, async ({ client, wire, ask }) => {
      const results = resultJson(await client.callTool({ name: "burst", arguments: { which: "m", count: 5 } }));
      assert.equal(results.length, 5);
      assert.deepEqual(
        ui.forms.map((f) => f.request.message),
        ["Burst #1", "Burst #2", "Burst #3"],
      );
      const replies = new Map(exchanges(wire).map(({ request, reply }) => [request.params.message, reply.result]));
      assert.equal(replies.size, 5);
      for (const n of [1, 2, 3]) assert.deepEqual(replies.get(`Burst #${n}`), { action: "accept", content: { name: "Ana" } });
      for (const n of [4, 5]) assert.deepEqual(replies.get(`Burst #${n}`), { action: "decline" });
      assert.equal(ui.notices.length, 2);
      for (const { message, context } of ui.notices) {
        assert.match(message, /^Declined a request from raw-server without showing it: over the limit of 3 requests per 60 s\.$/);
        assert.deepEqual(context.server, SERVER_INFO);
      }
      // Later requests in the window are declined too, URL ones included.
      ui.notices.length = 0;
      assert.deepEqual(await ask("u"), { result: { action: "decline" } });
      assert.equal(ui.urls.length, 0);
      assert.equal(ui.forms.length, 3);
      assert.equal(ui.notices.length, 1);
    });
  });

  test("a form with a password field reaches the UI with a warning", async () => {
    const request = form("Log in", { user: { type: "string", title: "User" }, password: { type: "string", title: "Password" } }, [
      "user",
      "password",
    ]);
    const ui = new RecordingUI([{ action: "accept", content: { user: "ana", password: "hunter2" } }]);
    await withClient({ login: request }, { ui }, async ({ wire, ask }) => {
      await ask("login");
      assert.equal(ui.forms.length, 1);
      const { warnings, fields } = ui.forms[0]!.request;
      assert.equal(fields.find((f) => f.name === "password")!.sensitive, "password");
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /^"Password" looks like it asks for a password\./);
      assert.deepEqual(ui.notices, []);
      assertAnswered(wire, "2025-11-25", { action: "accept", content: { user: "ana", password: "hunter2" } });
    });
  });

  test("with declineSensitiveForms, such a form is declined without reaching the UI, with a notice", async () => {
    const request = form("Card", {
      cardNumber: { type: "string", title: "Card number" },
      apiKey: { type: "string" },
      note: { type: "string" },
    });
    await withClient({ card: request }, { attach: { policy: { declineSensitiveForms: true } } }, async ({ ui, wire, ask }) => {
      assert.deepEqual(await ask("card"), { result: { action: "decline" } });
      assert.equal(ui.calls, 0);
      assert.equal(ui.notices.length, 1);
      assert.equal(ui.notices[0]!.message, "Declined a form from raw-server that asks for payment card details, an API key.");
      assertAnswered(wire, "2025-11-25", { action: "decline" });
    });
  });

  test("a UI answer that fails validation is not sent: answered cancel, with a notice listing the field error", async () => {
    const request = form(
      "Age check",
      { age: { type: "integer", title: "\u001b[31mAge\u001b[0m\u202E", minimum: 18 }, email: { type: "string", format: "email" } },
      ["age"],
    );
    const ui = new RecordingUI([{ action: "accept", content: { age: 12, email: "nope" } }]);
    await withClient({ age: request }, { ui }, async ({ wire, ask }) => {
      assert.deepEqual(await ask("age"), { result: { action: "cancel" } });
      assert.equal(ui.forms.length, 1);
      const { reply } = assertAnswered(wire, "2025-11-25", { action: "cancel" });
      assert.equal(reply.result.content, undefined);
      assert.ok(!JSON.stringify(wire.filter((w) => w.dir === "out")).includes("nope"), "nothing of the invalid answer left the client");
      assert.equal(ui.notices.length, 1);
      const notice = ui.notices[0]!.message;
      assert.match(notice, /^Not sent to raw-server: the answer is invalid \(/);
      assert.match(notice, /Age must be at least 18/);
      assert.match(notice, /Email must be an email address/);
      assert.match(notice, /answered cancel\.$/);
      assertInert(notice, "the notice");
    });
  });
});

describe("attachElicitation: URL mode", () => {
  test("a punycode host: the UI gets the analysis with the warning and both host forms; consent is sent as accept", async () => {
    const requests = {
      pay: { mode: "url", message: "Sign in to \u001b[1mApple\u001b[0m", url: "https://xn--pple-43d.com/login", elicitationId: "el-42" },
    };
    const ui = new RecordingUI([], ["accept"]);
    await withClient(requests, { ui }, async ({ wire, ask }) => {
      assert.deepEqual(await ask("pay"), { result: { action: "accept" } });
      assert.equal(ui.urls.length, 1);
      assert.equal(ui.forms.length, 0);
      const { request, context } = ui.urls[0]!;
      assert.equal(request.message, "Sign in to Apple");
      assert.equal(request.elicitationId, "el-42");
      const a = request.analysis;
      assert.equal(a.ok, true);
      assert.equal(a.url, "https://xn--pple-43d.com/login");
      assert.equal(a.host, "xn--pple-43d.com");
      assert.equal(a.unicodeHost, domainToUnicode("xn--pple-43d.com"));
      assert.equal(a.unicodeHost, "\u0430pple.com");
      const punycode = a.warnings.find((w) => w.code === "punycode");
      assert.ok(punycode, JSON.stringify(a.warnings));
      assert.ok(punycode.message.includes("xn--pple-43d.com") && punycode.message.includes("\u0430pple.com"), punycode.message);
      assert.deepEqual(context.server, SERVER_INFO);
      assertAnswered(wire, "2025-11-25", { action: "accept" });
    });
  });

  test("declining a URL is sent as decline", async () => {
    const requests = { u: { mode: "url", message: "Authorize", url: "https://example.com/oauth", elicitationId: "el-1" } };
    await withClient(requests, { ui: new RecordingUI([], ["decline"]) }, async ({ ui, wire, ask }) => {
      await ask("u");
      assert.deepEqual(ui.urls[0]!.request.analysis.warnings, []);
      assertAnswered(wire, "2025-11-25", { action: "decline" });
    });
  });
});

describe("attachElicitation over Streamable HTTP (2025-11-25)", () => {
  test("a form is shown with the server's info and the accepted answer goes back on the call's stream", async () => {
    const ui = new RecordingUI([{ action: "accept", content: { name: "Grace", stray: "dropped" } as never }]);
    await withClient({ m: simple("Your \u001b[4mname\u001b[0m?") }, { kind: "http", ui }, async ({ wire, ask }) => {
      const init = wire.find((w) => w.dir === "out" && w.message.method === "initialize")!;
      assert.deepEqual(init.message.params.capabilities, { elicitation: { form: {}, url: {} } });
      assert.deepEqual(await ask("m"), { result: { action: "accept", content: { name: "Grace" } } });
      assert.equal(ui.forms.length, 1);
      assert.equal(ui.forms[0]!.request.message, "Your name?");
      assert.deepEqual(ui.forms[0]!.context.server, SERVER_INFO);
      assert.equal(ui.forms[0]!.context.protocol, "2025-11-25");
      assertAnswered(wire, "2025-11-25", { action: "accept", content: { name: "Grace" } });
    });
  });

  test("an invalid form over HTTP is answered -32602 too", async () => {
    await withClient({ n: form("x", { a: { type: "object" } }) }, { kind: "http", invalidOnPurpose: true }, async ({ ui, wire, ask }) => {
      assert.equal((await ask("n")).error.code, -32602);
      assertInvalidParams(wire, /\[nested-object\]/);
      assert.equal(ui.calls, 0);
    });
  });
});

describe("attachElicitation: defaults of fields left unanswered", () => {
  // The form of the official scenario elicitation-sep1034-client-defaults, plus a multi-select. (Its
  // score default is 95.5, which schema.json's ElicitResult rejects: content numbers are "integer" there.)
  const defaultsForm = (message: string) =>
    form(message, {
      name: { type: "string", default: "John Doe" },
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95 },
      status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
      verified: { type: "boolean", default: true },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["b"] },
      note: { type: "string" },
    });
  const allDefaults = { name: "John Doe", age: 30, score: 95, status: "active", verified: true, tags: ["b"] };

  test("2025-11-25: accepting {} sends every default; given answers win; fields without a default stay out", async () => {
    const ui = new RecordingUI([
      { action: "accept", content: {} },
      { action: "accept", content: { age: 41, note: "hi" } },
    ]);
    await withClient({ d: defaultsForm("Defaults") }, { ui }, async ({ ask }) => {
      assert.deepEqual(await ask("d"), { result: { action: "accept", content: allDefaults } });
      assert.deepEqual(await ask("d"), { result: { action: "accept", content: { ...allDefaults, age: 41, note: "hi" } } });
    });
  });

  test("2025-06-18 defines only boolean defaults: only those are filled", async () => {
    const legacy = form("Legacy", {
      name: { type: "string" },
      verified: { type: "boolean", default: true },
      off: { type: "boolean", default: false },
    });
    const ui = new RecordingUI([{ action: "accept", content: { name: "Ana" } }]);
    await withClient({ legacy }, { ui, revision: "2025-06-18" }, async ({ wire, ask }) => {
      await ask("legacy");
      assertAnswered(wire, "2025-06-18", { action: "accept", content: { name: "Ana", verified: true, off: false } });
    });
  });

  test("2026-07-28: the retry's inputResponses carry the defaults", async () => {
    const { mode: _mode, ...modern } = defaultsForm("Defaults");
    const ui = new RecordingUI([{ action: "accept", content: {} }]);
    await withClient({ modern }, { revision: "2026-07-28", ui }, async ({ client }) => {
      const out = resultJson(await client.callTool({ name: "ask26", arguments: {} }));
      assert.deepEqual(out.responses, { k: { action: "accept", content: allDefaults } });
    });
  });

  test("a default that breaks a required field's rule is still checked: the answer is not sent", async () => {
    // checkSchema refuses defaults that break their own field, so the only way to break one is content.
    const request = form("Pick", { n: { type: "integer", minimum: 1, default: 2 } }, ["n"]);
    const ui = new RecordingUI([{ action: "accept", content: { n: 0 } }]);
    await withClient({ request }, { ui }, async ({ ask }) => {
      assert.deepEqual(await ask("request"), { result: { action: "cancel" } });
      assert.match(ui.notices[0]!.message, /N must be at least 1/);
    });
  });
});

describe("attachElicitation on 2026-07-28 (input_required, auto-fulfilled through the same handler)", () => {
  test("the embedded request is shown sanitized, answered, and the retry echoes requestState byte for byte", async () => {
    const modern = {
      message: "Who are \u001b[31myou\u001b[0m?\u202E",
      requestedSchema: {
        type: "object",
        properties: { name: { type: "string", title: "Name\u0085" }, age: { type: "integer", minimum: 0 } },
        required: ["name"],
      },
    };
    const ui = new RecordingUI([{ action: "accept", content: { name: "Ada", age: 36, extra: true } as never }]);
    await withClient({ modern }, { revision: "2026-07-28", ui }, async ({ client, wire }) => {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const out = resultJson(await client.callTool({ name: "ask26", arguments: {} }));
      assert.deepEqual(out.responses, { k: { action: "accept", content: { name: "Ada", age: 36 } } });
      assert.equal(out.requestState, MODERN_STATE);

      assert.equal(ui.forms.length, 1);
      const { request, context } = ui.forms[0]!;
      assert.equal(request.message, "Who are you?");
      assert.deepEqual(
        request.fields.map((f) => f.label),
        ["Name", "Age"],
      );
      assert.equal(context.protocol, "2026-07-28");
      assert.deepEqual(context.server, SERVER_INFO);

      // The wire: input_required in, then the retry with the answer and the same requestState.
      const irIndex = wire.findIndex((w) => w.dir === "in" && w.message.result?.resultType === "input_required");
      assert.ok(irIndex >= 0);
      const ir = wire[irIndex]!.message.result;
      assert.equal(ir.requestState, MODERN_STATE);
      assert.equal(ir.inputRequests.k.method, "elicitation/create");
      const retry = wire.slice(irIndex).find((w) => w.dir === "out" && w.message.method === "tools/call")!;
      assert.ok(retry, "the client retried the call");
      assert.equal(retry.message.params.name, "ask26");
      assert.equal(typeof retry.message.params.requestState, "string");
      assert.ok(
        Buffer.from(retry.message.params.requestState, "utf8").equals(Buffer.from(ir.requestState, "utf8")),
        "requestState echoed byte for byte",
      );
      assert.deepEqual(retry.message.params.inputResponses, { k: { action: "accept", content: { name: "Ada", age: 36 } } });
      assertWire("2026-07-28", "ElicitResult", retry.message.params.inputResponses.k);
      assert.ok(assertWireValid(wire, "2026-07-28") >= 2);
    });
  });

  test("an embedded form nested 5,000 levels deep never reaches the UI and ends the call with the limit named", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 5000; i++) deep = [deep];
    const modern = { message: "Deep", requestedSchema: { type: "object", properties: { f: { type: "string", default: deep } } } };
    await withClient({ modern }, { revision: "2026-07-28", invalidOnPurpose: true }, async ({ client, ui }) => {
      const outcome = await client.callTool({ name: "ask26", arguments: {} }).then(
        (r) => ({ ok: r }),
        (e: Error) => ({ error: e }),
      );
      assert.ok("error" in outcome, JSON.stringify(outcome));
      assert.match(outcome.error.message, /nested more than 64 levels deep/);
      assert.doesNotMatch(outcome.error.message, /call stack/);
      assert.equal(ui.calls, 0);
    });
  });

  test("an invalid embedded form never reaches the UI", async () => {
    const modern = { message: "Nested", requestedSchema: { type: "object", properties: { address: { type: "object", properties: {} } } } };
    await withClient({ modern }, { revision: "2026-07-28", invalidOnPurpose: true }, async ({ client, ui }) => {
      const outcome = await client.callTool({ name: "ask26", arguments: {} }).then(
        (r) => ({ ok: true as const, r }),
        (e: unknown) => ({ ok: false as const, e }),
      );
      assert.equal(ui.calls, 0);
      // The refusal surfaces on the client as an error of the call (no wire response exists for an embedded request).
      assert.equal(outcome.ok, false, JSON.stringify(outcome));
      const error = (outcome as { e: Error & { code?: number } }).e;
      assert.equal(error.code, -32602);
      assert.match(error.message, /\/properties\/address\/type: .*\[nested-object\]/);
    });
  });
});

describe("ElicitationHandle.callTool", () => {
  // On 2025 eras the tools/call stays open while the person answers: the SDK's 60 s default would end it.
  // The SDK's timer is set out of reach and the person-aware clock ends the call (test/client/request-clock.test.ts).
  test("the SDK's own timer is out of reach, and progress is asked for, whatever the caller says", async () => {
    const client = clientFor("2025-11-25");
    const seen: Array<{ timeout?: number; onprogress?: unknown; maxTotalTimeout?: number }> = [];
    // The SDK's callTool, stubbed before attaching (attachElicitation routes client.callTool through the handle).
    client.callTool = (async (_params: unknown, options?: (typeof seen)[number]) => {
      seen.push(options ?? {});
      return { content: [] };
    }) as Client["callTool"];
    const handle = attachElicitation(client, { ui: new RecordingUI() });
    await handle.callTool({ name: "t", arguments: {} });
    await handle.callTool({ name: "t", arguments: {} }, { timeout: 5000, maxTotalTimeout: 9000 });
    await client.callTool({ name: "t", arguments: {} });
    assert.equal(CALL_TIMEOUT_MS, 30 * 60_000);
    assert.deepEqual(
      seen.map((o) => o.timeout),
      [SDK_TIMER_OUT_OF_REACH, SDK_TIMER_OUT_OF_REACH, SDK_TIMER_OUT_OF_REACH],
      "client.callTool goes through the same clock",
    );
    assert.ok(seen.every((o) => typeof o.onprogress === "function" && o.maxTotalTimeout === undefined));
  });
});

describe("handles: every attach* returns one shape, with detach()", () => {
  test("detach removes the handlers, and client.callTool is the SDK's again", async () => {
    const { attachSampling } = await import("../../src/client/sampling.js");
    const { attachRoots } = await import("../../src/client/roots.js");
    const client = clientFor("2025-11-25", {});
    const original = client.callTool;
    const elicitation = attachElicitation(client, { ui: new RecordingUI() });
    const sampling = attachSampling(client, {
      ui: {
        reviewRequest: async () => ({ action: "deny" }),
        reviewAnswer: async () => ({ action: "reject" }),
        notice: () => {}, // a spread instance has none of its class's methods: attachSampling needs this one
      } as never,
    });
    const roots = attachRoots(client, []);
    assert.notEqual(client.callTool, original);
    for (const handle of [elicitation, sampling, roots]) assert.equal(typeof handle.detach, "function");
    elicitation.detach();
    sampling.detach();
    roots.detach();
    const handlers = (client as unknown as { _requestHandlers: Map<string, unknown> })._requestHandlers;
    for (const method of ["elicitation/create", "sampling/createMessage", "roots/list"]) assert.equal(handlers.has(method), false, method);
    assert.equal(client.callTool, original);
  });

  test("routeClientCallTool: false leaves the client's callTool as it was, and detach leaves it too", async () => {
    const client = clientFor("2025-11-25", {});
    const original = client.callTool;
    const elicitation = attachElicitation(client, { ui: new RecordingUI(), routeClientCallTool: false });
    assert.equal(client.callTool, original, "not replaced");
    assert.equal(Object.hasOwn(client, "callTool"), false, "nothing set on the client");
    assert.notEqual(elicitation.callTool, original);
    elicitation.detach();
    assert.equal(client.callTool, original);
  });
});
