// The wire checks can fail: known-invalid messages are rejected (and their valid counterparts
// accepted) by the oracle alone, by validatorFor without MCP_SPEC_DIR, and with MCP_SPEC_DIR by
// the official schema.json files too (when the environment points at them) and by a stand-in folder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { assertWire, oracleFor, schemaJsonValidator, specDir, validatorFor } from "./wire.js";

const form = (properties: Record<string, unknown>) => ({
  mode: "form",
  message: "Your details",
  requestedSchema: { type: "object", properties },
});
const url = { mode: "url", message: "Pay here", elicitationId: "pay-1", url: "https://shop.example.com/pay/1" };
const { elicitationId: _, ...urlWithoutId } = url;
const rpc = (message: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 7, ...message });

interface Case {
  revision: ProtocolRevision;
  definition: string;
  valid: unknown[];
  /** Each with why it is invalid; `official: true` when schema.json rejects it as well. */
  invalid: { why: string; message: unknown; official?: boolean }[];
}

const ALL = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;

const CASES: Case[] = [
  ...ALL.map((revision): Case => ({
    revision,
    definition: "ElicitResult",
    valid: [{ action: "accept", content: { name: "Ana", age: 30, ok: true } }, { action: "decline" }, { action: "cancel" }],
    invalid: [
      { why: 'action "maybe"', message: { action: "maybe" }, official: true },
      { why: "no action", message: { content: { name: "Ana" } }, official: true },
      { why: "an object as an answer", message: { action: "accept", content: { name: { first: "Ana" } } }, official: true },
    ],
  })),
  ...ALL.map((revision): Case => {
    const request = (params: unknown) =>
      (revision === "2025-11-25" ? rpc : (m: Record<string, unknown>) => m)({ method: "elicitation/create", params });
    return {
      revision,
      definition: "ElicitRequest",
      valid: [
        request({
          message: "Your name",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        }),
      ],
      invalid: [
        { why: "a nested-object field", message: request(form({ address: { type: "object", properties: {} } })), official: true },
        { why: "no message", message: request({ requestedSchema: { type: "object", properties: {} } }), official: true },
        { why: "another method", message: { ...request(form({})), method: "elicitation/ask" }, official: true },
      ],
    };
  }),
  {
    revision: "2025-06-18",
    definition: "ElicitRequest",
    valid: [
      {
        method: "elicitation/create",
        params: {
          message: "Seat",
          requestedSchema: { type: "object", properties: { s: { type: "string", enum: ["w", "a"], enumNames: ["Window", "Aisle"] } } },
        },
      },
    ],
    invalid: [
      {
        why: "a multi-select field (none on 2025-06-18)",
        message: { method: "elicitation/create", params: form({ t: { type: "array", items: { type: "string", enum: ["a"] } } }) },
        official: true,
      },
      { why: "URL mode (none on 2025-06-18)", message: { method: "elicitation/create", params: url }, official: true },
    ],
  },
  {
    revision: "2025-06-18",
    definition: "ElicitResult",
    valid: [],
    invalid: [
      { why: "an array answer (no multi-select on 2025-06-18)", message: { action: "accept", content: { t: ["a"] } }, official: true },
    ],
  },
  {
    revision: "2025-11-25",
    definition: "ElicitRequest",
    valid: [rpc({ method: "elicitation/create", params: url })],
    invalid: [
      { why: "no JSON-RPC envelope", message: { method: "elicitation/create", params: form({ a: { type: "string" } }) }, official: true },
      { why: "URL mode without elicitationId", message: rpc({ method: "elicitation/create", params: urlWithoutId }), official: true },
    ],
  },
  {
    revision: "2026-07-28",
    definition: "InputRequiredResult",
    valid: [
      {
        resultType: "input_required",
        inputRequests: {
          ask: { method: "elicitation/create", params: form({ name: { type: "string" } }) },
          pay: { method: "elicitation/create", params: { mode: "url", message: "Pay here", url: "https://shop.example.com/pay/1" } },
          model: {
            method: "sampling/createMessage",
            params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 10 },
          },
          roots: { method: "roots/list" },
        },
        requestState: "sealed",
      },
      { resultType: "input_required", requestState: "sealed" },
    ],
    invalid: [
      { why: "neither inputRequests nor requestState", message: { resultType: "input_required" } },
      { why: "no resultType", message: { inputRequests: { ask: { method: "elicitation/create", params: form({}) } } }, official: true },
      { why: 'resultType "complete"', message: { resultType: "complete", requestState: "s" } },
      { why: "requestState is not a string", message: { resultType: "input_required", requestState: 42 }, official: true },
      {
        why: "an embedded request that is not an input request",
        message: { resultType: "input_required", inputRequests: { t: { method: "tools/call", params: { name: "x" } } } },
        official: true,
      },
      {
        why: "an embedded form with a nested object",
        message: {
          resultType: "input_required",
          inputRequests: { a: { method: "elicitation/create", params: form({ o: { type: "object" } }) } },
        },
        official: true,
      },
    ],
  },
  {
    revision: "2025-11-25",
    definition: "URLElicitationRequiredError",
    valid: [{ jsonrpc: "2.0", id: 1, error: { code: -32042, message: "Payment needed", data: { elicitations: [url] } } }],
    invalid: [
      {
        why: "another code",
        message: { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "x", data: { elicitations: [url] } } },
        official: true,
      },
      { why: "no data.elicitations", message: { jsonrpc: "2.0", id: 1, error: { code: -32042, message: "x", data: {} } }, official: true },
      {
        why: "a form elicitation",
        message: { jsonrpc: "2.0", id: 1, error: { code: -32042, message: "x", data: { elicitations: [form({})] } } },
        official: true,
      },
      {
        why: "an elicitation without elicitationId",
        message: { jsonrpc: "2.0", id: 1, error: { code: -32042, message: "x", data: { elicitations: [urlWithoutId] } } },
        official: true,
      },
      { why: "no jsonrpc", message: { id: 1, error: { code: -32042, message: "x", data: { elicitations: [url] } } }, official: true },
    ],
  },
  {
    revision: "2025-11-25",
    definition: "ElicitationCompleteNotification",
    valid: [{ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "pay-1" } }],
    invalid: [
      { why: "no elicitationId", message: { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: {} }, official: true },
    ],
  },
  {
    revision: "2025-11-25",
    definition: "CreateMessageResult",
    valid: [{ role: "assistant", model: "m", content: { type: "text", text: "Hello" } }],
    invalid: [
      { why: "no model", message: { role: "assistant", content: { type: "text", text: "Hello" } }, official: true },
      { why: 'role "system"', message: { role: "system", model: "m", content: { type: "text", text: "Hello" } }, official: true },
    ],
  },
  {
    revision: "2026-07-28",
    definition: "ListRootsResult",
    valid: [{ roots: [{ uri: "file:///home/ana/trips", name: "trips" }] }],
    invalid: [
      { why: "roots is not an array", message: { roots: { uri: "file:///" } }, official: true },
      { why: "a root without uri", message: { roots: [{ name: "trips" }] }, official: true },
    ],
  },
];

/** MCP_SPEC_DIR as the test run was started with, and the environment restored after `fn`. */
const startedWith = specDir();
function withSpecDir<T>(dir: string | undefined, fn: () => T): T {
  const before = process.env.MCP_SPEC_DIR;
  if (dir === undefined) delete process.env.MCP_SPEC_DIR;
  else process.env.MCP_SPEC_DIR = dir;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.MCP_SPEC_DIR;
    else process.env.MCP_SPEC_DIR = before;
  }
}

const label = (c: Case, why: string) => `${c.definition} on ${c.revision}: ${why}`;

test("the oracle (SDK schemas and the spec's rules) rejects known-invalid messages and accepts valid ones", () => {
  for (const c of CASES) {
    const check = oracleFor(c.revision, c.definition);
    c.valid.forEach((m, i) => assert.deepEqual(check(m), [], label(c, `valid #${i + 1}`)));
    for (const { why, message } of c.invalid) assert.ok(check(message).length > 0, `${label(c, why)} was accepted`);
  }
});

test("validatorFor without MCP_SPEC_DIR: the oracle alone, with its issues in errors", () => {
  withSpecDir(undefined, () => {
    for (const c of CASES) {
      for (const m of c.valid) assertWire(c.revision, c.definition, m);
      for (const { why, message } of c.invalid) {
        const validate = validatorFor(c.revision, c.definition);
        assert.equal(validate(message), false, `${label(c, why)} was accepted`);
        assert.ok(validate.errors!.length > 0 && validate.errors!.every((e) => e.check !== "schema.json"), JSON.stringify(validate.errors));
        assert.throws(() => assertWire(c.revision, c.definition, message), new RegExp(`${c.definition} is not valid on ${c.revision}`));
      }
    }
    const validate = validatorFor("2025-11-25", "ElicitResult");
    assert.equal(validate({ action: "maybe" }), false);
    assert.deepEqual(
      validate.errors!.map((e) => [e.check, e.path]),
      [["sdk", "/action"]],
    );
  });
});

test("a definition a revision does not have is an error, not a pass", () => {
  assert.throws(
    () => validatorFor("2025-11-25", "InputRequiredResult"),
    /InputRequiredResult is not defined on 2025-11-25 \(only on 2026-07-28\)/,
  );
  assert.throws(() => validatorFor("2026-07-28", "ElicitationCompleteNotification"), /not defined on 2026-07-28/);
  assert.throws(() => validatorFor("2026-07-28", "URLElicitationRequiredError"), /not defined on 2026-07-28/);
  assert.throws(() => validatorFor("2025-06-18", "ElicitRequestFormParams"), /not defined on 2025-06-18/);
  assert.throws(() => validatorFor("2025-11-25", "ElicitRequst"), /no wire check for ElicitRequst/);
});

test("with MCP_SPEC_DIR, the revision's schema.json is checked too (a stand-in folder)", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-spec-"));
  try {
    // A schema.json stricter than the oracle: only "accept" is an action here.
    mkdirSync(join(dir, "2025-11-25"));
    writeFileSync(
      join(dir, "2025-11-25", "schema.json"),
      JSON.stringify({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $defs: { ElicitResult: { type: "object", properties: { action: { const: "accept" } }, required: ["action"] } },
      }),
    );
    withSpecDir(dir, () => {
      assertWire("2025-11-25", "ElicitResult", { action: "accept" });
      const validate = validatorFor("2025-11-25", "ElicitResult");
      assert.equal(validate({ action: "decline" }), false, "the oracle accepts it; schema.json does not");
      assert.deepEqual(
        validate.errors!.map((e) => [e.check, e.path]),
        [["schema.json", "/action"]],
      );
      assert.equal(validate({ action: "maybe" }), false);
      assert.deepEqual(new Set(validate.errors!.map((e) => e.check)), new Set(["sdk", "schema.json"]));
      // A revision missing from the folder is a clear error, not a silent pass.
      assert.throws(
        () => validatorFor("2026-07-28", "ElicitResult"),
        /MCP_SPEC_DIR is set to .*2026-07-28[/\\]schema\.json does not exist/,
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  "with MCP_SPEC_DIR at the official schema.json files: they agree with every case",
  { skip: startedWith ? false : "MCP_SPEC_DIR is not set" },
  () => {
    withSpecDir(startedWith, () => {
      for (const c of CASES) {
        const official = schemaJsonValidator(startedWith!, c.revision, c.definition);
        c.valid.forEach((m, i) => assert.ok(official(m), `${label(c, `valid #${i + 1}`)}: ${JSON.stringify(official.errors)}`));
        for (const { why, message, official: strict } of c.invalid) {
          if (strict) assert.equal(official(message), false, `schema.json accepts ${label(c, why)}`);
          assert.equal(validatorFor(c.revision, c.definition)(message), false, `${label(c, why)} was accepted`);
        }
      }
    });
  },
);
