// Fuzzing the server: malformed answers to ctx.elicit (wrong types, extra keys, __proto__ and
// constructor, out-of-range numbers, bad formats, huge arrays, wrong or missing actions, content with a
// decline) from a 2025-11-25 client (its result rewritten below the SDK client's checks) and as
// 2026-07-28 inputResponses. The tool's handler never sees content that fails validateContent for its
// form, nothing leaks onto Object.prototype, and the client always gets a result or an error. One
// connection per revision serves every case.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { describeFields } from "../../src/schema/compiled.js";
import { choice, form, integer, multiChoice, number, text, yesNo } from "../../src/schema/index.js";
import { validateContent } from "../../src/schema/validate.js";
import { createElicitation } from "../../src/server/index.js";
import { callWith, manualClient } from "../helpers/manual-client.js";
import { clientFor, connect, connectRewritingResults, type Connection } from "../helpers/mcp.js";
import { jsonResult } from "../helpers/results.js";
import { answerFor, fieldName, hostileText, oddNumber } from "../helpers/fuzz/arbitraries.js";
import { fcParams, hasRawControl, measured, runs, settlesWithin } from "../helpers/fuzz/settings.js";

const FORMS = {
  booking: form({
    confirmBooking: yesNo({ description: "Flights + Hotel = $3,000" }),
    seat: choice({ window: "Window", aisle: "Aisle" }).optional(),
    email: text({ format: "email" }).optional(),
  }),
  numbers: form({
    guests: integer({ minimum: 1, maximum: 9 }),
    budget: number({ minimum: 0.5, maximum: 10_000 }).optional(),
    name: text({ minLength: 2, maxLength: 20 }),
    when: text({ format: "date" }).optional(),
  }),
  picks: form({
    toppings: multiChoice(["cheese", "ham", "olives"], { minItems: 1, maxItems: 2 }),
    site: text({ format: "uri" }).optional(),
    // Prototype-named fields work end to end.
    constructor: text().optional(),
  }),
};
type FormName = keyof typeof FORMS;
const FORM_NAMES = Object.keys(FORMS) as FormName[];

/** What the handler saw that it should not have; checked after each case. */
const violations: string[] = [];
/** What the handler was given, by action: the runs must reach it with each. */
const reached = { accept: 0, decline: 0, cancel: 0 };

function serverFactory() {
  const kit = createElicitation({ stateKey: "33".repeat(32) });
  return () => {
    const server = new McpServer({ name: "answers-server", version: "1.0.0" });
    kit.registerTool(
      server,
      "ask",
      { description: "Asks one of the fuzzed forms", inputSchema: z.object({ form: z.enum(FORM_NAMES as [FormName]) }) },
      async ({ form: name }, ctx) => {
        const schema = FORMS[name];
        const answer = await ctx.elicit("Fill this in", schema);
        if (!["accept", "decline", "cancel"].includes(answer.action)) violations.push(`action ${String(answer.action)}`);
        else reached[answer.action]++;
        if (answer.action === "accept") {
          const checked = validateContent(schema, answer.content);
          if (!checked.ok) violations.push(`invalid content reached the handler: ${JSON.stringify(answer.content).slice(0, 200)}`);
          const known = new Set(Object.keys(schema.properties));
          for (const key of Reflect.ownKeys(answer.content as object))
            if (!known.has(String(key))) violations.push(`unknown key ${String(key)} reached the handler`);
        } else if ("content" in answer) violations.push(`content with ${answer.action}`);
        return jsonResult({ action: answer.action });
      },
    );
    return server;
  };
}

/** A JSON.parse'd object: "__proto__" is an own key there, as a peer's JSON would make it. */
const parsedWith = (key: string, value: unknown) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value ?? null)}}`);

/** An answer to one of FORMS: right, wrong in one way or several, or no answer at all. */
const answerTo = (name: FormName) =>
  fc.gen().chain((g) => {
    const fields = describeFields(FORMS[name]);
    const pick = <T>(arb: fc.Arbitrary<T>) => g(() => arb);
    const base = answerFor(fields, pick) as Record<string, any>;
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(base) },
      // Wrong actions, or content where none belongs.
      fc.record({ action: fc.oneof(fc.constantFrom("ACCEPT", "", "ok", null, 1), fc.string()), content: fc.constant(base.content) }),
      fc.record({ action: fc.constantFrom("decline", "cancel"), content: fc.object() }),
      fc.record({ content: fc.constant(base.content ?? {}) }),
      // Accepted content with a field of the wrong type, a prototype key, a huge array, odd numbers, bad formats.
      fc
        .record({
          field: fc.constantFrom(...fields.map((f) => f.name)),
          value: fc.oneof(
            fc.jsonValue({ maxDepth: 3 }),
            oddNumber,
            hostileText(40),
            fc.constantFrom("not-an-email", "2026-13-45", "javascript:alert(1)", "", " "),
            fc.nat({ max: 50_000 }).map((n) => Array.from({ length: n }, () => "ham")),
          ),
          extra: fc.option(
            fc.tuple(fc.oneof(fieldName, fc.constantFrom("__proto__", "constructor", "prototype")), fc.jsonValue({ maxDepth: 2 })),
          ),
        })
        .map(({ field, value, extra }) => {
          const content: Record<string, unknown> = { ...(base.content ?? {}), [field]: value };
          if (extra) Object.assign(content, parsedWith(extra[0], extra[1]));
          return { action: "accept", content };
        }),
      fc.constant({ action: "accept", content: parsedWith("__proto__", { polluted: true, confirmBooking: true, guests: 2 }) }),
      // Not a result at all.
      fc.constantFrom(null, "accept", 5, [], [{ action: "accept" }], true),
      fc.oneof(fc.constant(null), fc.string(), fc.array(fc.anything()), fc.anything()).map((junk) => ({ action: "accept", content: junk })),
    );
  });

const caseArb = fc.constantFrom(...FORM_NAMES).chain((name) => fc.tuple(fc.constant(name), answerTo(name)));

function assertReachedEach() {
  process.stderr.write(`  the handler was given ${JSON.stringify(reached)}\n`);
  for (const [action, count] of Object.entries(reached)) assert.ok(count > 0, `no ${action} reached the handler`);
  Object.assign(reached, { accept: 0, decline: 0, cancel: 0 });
}

/** A server text the client gets about the fuzzed answer: bounded, without raw control characters. */
function assertInertText(text: string, what: string) {
  assert.ok(!hasRawControl(text), `${what} holds a raw control character: ${JSON.stringify(text).slice(0, 300)}`);
  assert.ok(text.length < 10_000, `${what} is ${text.length} characters long`);
}

/** A tool result: its text blocks (an error's message quotes the bad answer) are inert. */
function assertInertResult(result: unknown) {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  assert.ok(Array.isArray(content));
  for (const block of content) if (block.type === "text") assertInertText(block.text ?? "", "the tool result");
}

function assertClean() {
  assert.deepEqual(violations.splice(0), []);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype was polluted");
}

describe("2025-11-25: a client whose elicitation results are fuzzed", () => {
  let current: unknown;
  const client = clientFor("2025-11-25");
  before(async () => {
    client.setRequestHandler("elicitation/create", async () => ({ action: "cancel" }));
    // The SDK client would refuse to send most of these: they are put on the wire below its checks.
    await connectRewritingResults(client, serverFactory(), () => current);
  });
  after(() => client.close());

  test("the handler only sees valid content, and the client gets a result or an error", async () => {
    const n = runs(800, 0.5);
    await measured("server answers (2025-11-25)", n, () =>
      fc.assert(
        fc.asyncProperty(caseArb, async ([name, answer]) => {
          current = answer;
          const outcome = await settlesWithin(
            client.callTool({ name: "ask", arguments: { form: name } }).then(
              (result) => ({ result }),
              (error: { code?: number }) => ({ error }),
            ),
            20_000,
            "tools/call",
          );
          if ("error" in outcome) assert.equal(typeof outcome.error.code, "number", String(outcome.error));
          else assertInertResult(outcome.result);
          assertClean();
        }),
        fcParams(n, { endOnFailure: true }),
      ),
    );
    assertReachedEach();
  });
});

describe("2026-07-28: fuzzed inputResponses", () => {
  let connection: Connection;
  before(async () => {
    connection = await connect(manualClient(), serverFactory(), "2026-07-28", "memory");
  });
  // The wire checks of connect()'s close do not apply: the answers break the spec on purpose.
  after(() => connection.client.close());

  test("the handler only sees valid content; the client gets a result, another round, or -32602", async () => {
    const call = callWith(connection.client);
    const n = runs(800, 0.5);
    const responsesArb = fc.tuple(caseArb, fc.oneof(fc.constant("elicit-1"), fc.constant("__proto__"), fieldName), fc.boolean());
    await measured("server inputResponses (2026-07-28)", n, () =>
      fc.assert(
        fc.asyncProperty(responsesArb, async ([[name, answer], key, both]) => {
          // A fresh first round each time: a requestState is good for one retry.
          const first = await call({ name: "ask", arguments: { form: name } });
          const inputResponses = { ...parsedWith(key, answer), ...(both ? { "elicit-1": answer } : {}) };
          const outcome = await settlesWithin(
            call({ name: "ask", arguments: { form: name }, inputResponses, requestState: first.requestState }).then(
              (result) => ({ result }),
              (error: { code?: number; message?: string }) => ({ error }),
            ),
            20_000,
            "tools/call with inputResponses",
          );
          if ("error" in outcome) assert.equal(outcome.error.code, -32602, outcome.error.message);
          else if (outcome.result.resultType === "input_required") {
            // The question asked again quotes the bad answer only as a short, inert excerpt.
            assert.ok(outcome.result.requestState);
            for (const r of Object.values(outcome.result.inputRequests ?? {}) as { params?: { message?: string } }[])
              assertInertText(r.params?.message ?? "", "the message asked again");
          } else assertInertResult(outcome.result);
          assertClean();
        }),
        fcParams(n, { endOnFailure: true }),
      ),
    );
    assertReachedEach();
  });
});

// Found by fuzzing (seed 104): on 2025-11-25 the SDK's check of the client's result names the content's
// keys in its zod issues, and the tool's error quoted those paths raw, so a key holding an escape
// sequence reached the person's terminal through the tool result (fixed in src/server/live/live.ts).
test("regression: a 2025-11-25 result whose content key holds an escape sequence is quoted inertly in the tool error", async () => {
  const client = clientFor("2025-11-25");
  client.setRequestHandler("elicitation/create", async () => ({ action: "cancel" }));
  const answer = { action: "accept", content: { guests: 2, name: "Ana", "\u001BP+q\u001B\\": [true, 1] } };
  await connectRewritingResults(client, serverFactory(), () => answer);
  try {
    const result = await client.callTool({ name: "ask", arguments: { form: "numbers" } });
    assertInertResult(result);
  } finally {
    await client.close();
  }
});
