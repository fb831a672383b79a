// A corpus of schemas that depart from the subset, each with the rule code it must yield.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSchema, SCHEMA_RULES, type SchemaRuleCode } from "../../src/schema/index.js";
import type { ProtocolRevision } from "../../src/schema/types.js";

const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });
const one = (field: Record<string, unknown>) => form({ f: field });

interface Case {
  name: string;
  schema: unknown;
  code: SchemaRuleCode;
  path?: string;
  protocol?: ProtocolRevision;
}

/** A value nested `levels` arrays deep, built without recursion (4,122 levels overflowed the stack before). */
const nested = (levels: number): unknown => {
  let v: unknown = "x";
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};
const DEEP = 5000;

const CASES: Case[] = [
  { name: "type nested 5,000 deep", schema: one({ type: nested(DEEP) }), code: "schema-too-deep", path: "" },
  { name: "default nested 5,000 deep", schema: one({ type: "string", default: nested(DEEP) }), code: "schema-too-deep" },
  { name: "pattern nested 5,000 deep", schema: one({ type: "string", pattern: nested(DEEP) }), code: "schema-too-deep" },
  { name: "minLength nested 5,000 deep", schema: one({ type: "string", minLength: nested(DEEP) }), code: "schema-too-deep" },
  { name: "a field nested 5,000 deep", schema: form({ f: nested(DEEP) }), code: "schema-too-deep" },
  { name: "17 levels", schema: one({ type: "string", default: nested(14) }), code: "schema-too-deep" },
  {
    name: "60,000 options",
    schema: one({ type: "string", enum: Array.from({ length: 60_000 }, (_, i) => `o${i}`) }),
    code: "schema-too-large",
    path: "",
  },
  {
    name: "a field named __proto__",
    schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
    code: "field-name-reserved",
    path: "/properties/__proto__",
  },
  {
    name: "$schema a number",
    schema: { type: "object", $schema: 7, properties: { a: { type: "string" } } },
    code: "annotation-invalid",
    path: "/$schema",
  },
  {
    name: "$schema an object",
    schema: { type: "object", $schema: { x: 1 }, properties: { a: { type: "string" } } },
    code: "annotation-invalid",
    path: "/$schema",
  },
  { name: "null", schema: null, code: "root-not-object", path: "" },
  { name: "an array", schema: [], code: "root-not-object" },
  { name: "a string", schema: "form", code: "root-not-object" },
  { name: "root type string", schema: { type: "string", properties: {} }, code: "root-not-object", path: "/type" },
  { name: "root without type", schema: { properties: { a: { type: "string" } } }, code: "root-not-object" },
  { name: "no properties", schema: { type: "object" }, code: "properties-missing" },
  { name: "properties is an array", schema: { type: "object", properties: [] }, code: "properties-missing" },
  { name: "empty form", schema: form({}), code: "form-empty" },
  { name: "required not an array", schema: form({ a: { type: "string" } }, { required: "a" }), code: "required-invalid" },
  { name: "required with a number", schema: form({ a: { type: "string" } }, { required: [1] }), code: "required-invalid" },
  {
    name: "required names a missing field",
    schema: form({ a: { type: "string" } }, { required: ["b"] }),
    code: "required-unknown-field",
    path: "/required/0",
  },
  { name: "field is a string", schema: form({ a: "string" }), code: "field-not-object", path: "/properties/a" },
  { name: "field is null", schema: form({ a: null }), code: "field-not-object" },
  {
    name: "nested object",
    schema: one({ type: "object", properties: { x: { type: "string" } } }),
    code: "nested-object",
    path: "/properties/f/type",
  },
  { name: "nested object without type", schema: one({ properties: { x: { type: "string" } } }), code: "nested-object" },
  { name: "array of strings", schema: one({ type: "array", items: { type: "string" } }), code: "array-not-enum" },
  { name: "array of objects", schema: one({ type: "array", items: { type: "object" } }), code: "array-not-enum" },
  { name: "array without items", schema: one({ type: "array" }), code: "array-not-enum" },
  { name: "$ref field", schema: one({ $ref: "#/definitions/x" }), code: "composition-keyword", path: "/properties/f/$ref" },
  { name: "allOf field", schema: one({ type: "string", allOf: [{ minLength: 1 }] }), code: "composition-keyword" },
  { name: "anyOf field", schema: one({ anyOf: [{ type: "string" }, { type: "number" }] }), code: "composition-keyword" },
  { name: "oneOf of types", schema: one({ type: "string", oneOf: [{ type: "string" }] }), code: "composition-keyword" },
  { name: "root allOf", schema: form({ a: { type: "string" } }, { allOf: [] }), code: "composition-keyword", path: "/allOf" },
  { name: "no type", schema: one({ title: "Name" }), code: "type-missing" },
  { name: "type null", schema: one({ type: "null" }), code: "unknown-type" },
  { name: "type list", schema: one({ type: ["string", "null"] }), code: "unknown-type" },
  { name: "type toString", schema: one({ type: "toString" }), code: "unknown-type" },
  { name: "format phone", schema: one({ type: "string", format: "phone" }), code: "unknown-format", path: "/properties/f/format" },
  { name: "format uuid", schema: one({ type: "string", format: "uuid" }), code: "unknown-format" },
  { name: "enumNames too short", schema: one({ type: "string", enum: ["a", "b"], enumNames: ["A"] }), code: "enum-names-length" },
  {
    name: "enumNames too long",
    schema: one({ type: "string", enum: ["a"], enumNames: ["A", "B"] }),
    code: "enum-names-length",
    protocol: "2025-06-18",
  },
  {
    name: "enumNames legacy",
    schema: one({ type: "string", enum: ["a"], enumNames: ["A"] }),
    code: "enum-names-legacy",
    protocol: "2025-11-25",
  },
  { name: "empty enum", schema: one({ type: "string", enum: [] }), code: "enum-empty" },
  { name: "empty oneOf", schema: one({ type: "string", oneOf: [] }), code: "enum-empty" },
  { name: "empty multi-select", schema: one({ type: "array", items: { type: "string", enum: [] } }), code: "enum-empty" },
  { name: "duplicate enum", schema: one({ type: "string", enum: ["a", "a"] }), code: "enum-duplicate", path: "/properties/f/enum/1" },
  {
    name: "duplicate titled option",
    schema: one({
      type: "string",
      oneOf: [
        { const: "a", title: "A" },
        { const: "a", title: "B" },
      ],
    }),
    code: "enum-duplicate",
  },
  {
    name: "duplicate multi option",
    schema: one({
      type: "array",
      items: {
        anyOf: [
          { const: "x", title: "X" },
          { const: "x", title: "Y" },
        ],
      },
    }),
    code: "enum-duplicate",
  },
  { name: "numeric enum", schema: one({ type: "string", enum: [1, 2] }), code: "enum-not-string" },
  { name: "enum on a number", schema: one({ type: "number", enum: [1, 2] }), code: "enum-not-string" },
  {
    name: "enum and oneOf together",
    schema: one({ type: "string", enum: ["a"], oneOf: [{ const: "a", title: "A" }] }),
    code: "options-conflict",
  },
  {
    name: "numeric items next to anyOf",
    schema: one({ type: "array", items: { type: "number", anyOf: [{ const: "a", title: "A" }] } }),
    code: "enum-not-string",
    path: "/properties/f/items/type",
  },
  {
    name: "items.maxLength",
    schema: one({ type: "array", items: { type: "string", enum: ["a"], maxLength: 3 } }),
    code: "unsupported-keyword",
    path: "/properties/f/items/maxLength",
  },
  {
    name: "titled option without title",
    schema: one({ type: "string", oneOf: [{ const: "a" }] }),
    code: "option-invalid",
    path: "/properties/f/oneOf/0",
  },
  { name: "titled option with a number", schema: one({ type: "string", oneOf: [{ const: 1, title: "One" }] }), code: "option-invalid" },
  { name: "default not an option", schema: one({ type: "string", enum: ["a", "b"], default: "c" }), code: "default-not-allowed" },
  { name: "default wrong type", schema: one({ type: "boolean", default: "yes" }), code: "default-not-allowed" },
  { name: "integer default 1.5", schema: one({ type: "integer", default: 1.5 }), code: "default-not-allowed" },
  { name: "default breaks format", schema: one({ type: "string", format: "email", default: "nobody" }), code: "default-not-allowed" },
  {
    name: "multi default not an option",
    schema: one({ type: "array", items: { type: "string", enum: ["a"] }, default: ["b"] }),
    code: "default-not-allowed",
  },
  { name: "default below minimum", schema: one({ type: "number", minimum: 10, default: 5 }), code: "default-out-of-bounds" },
  { name: "default above maximum", schema: one({ type: "integer", maximum: 3, default: 4 }), code: "default-out-of-bounds" },
  { name: "default too long", schema: one({ type: "string", maxLength: 2, default: "abc" }), code: "default-out-of-bounds" },
  { name: "default too short (code points)", schema: one({ type: "string", minLength: 2, default: "😀" }), code: "default-out-of-bounds" },
  {
    name: "default with too many items",
    schema: one({ type: "array", maxItems: 1, items: { type: "string", enum: ["a", "b"] }, default: ["a", "b"] }),
    code: "default-out-of-bounds",
  },
  {
    name: "minimum > maximum",
    schema: one({ type: "number", minimum: 5, maximum: 1 }),
    code: "bounds-inverted",
    path: "/properties/f/minimum",
  },
  { name: "minLength > maxLength", schema: one({ type: "string", minLength: 5, maxLength: 1 }), code: "bounds-inverted" },
  {
    name: "minItems > maxItems",
    schema: one({ type: "array", minItems: 3, maxItems: 2, items: { type: "string", enum: ["a", "b", "c"] } }),
    code: "bounds-inverted",
  },
  { name: "negative minLength", schema: one({ type: "string", minLength: -1 }), code: "bound-invalid" },
  { name: "string maximum", schema: one({ type: "number", maximum: "10" }), code: "bound-invalid" },
  {
    name: "fractional maxItems",
    schema: one({ type: "array", maxItems: 1.5, items: { type: "string", enum: ["a"] } }),
    code: "bound-invalid",
  },
  { name: "numeric title", schema: one({ type: "string", title: 5 }), code: "annotation-invalid" },
  { name: "invalid pattern", schema: one({ type: "string", pattern: "([" }), code: "pattern-invalid" },
  { name: "pattern", schema: one({ type: "string", pattern: "^[a-z]+$" }), code: "pattern-unsupported" },
  {
    name: "exclusiveMinimum",
    schema: one({ type: "number", exclusiveMinimum: 0 }),
    code: "unsupported-keyword",
    path: "/properties/f/exclusiveMinimum",
  },
  {
    name: "root additionalProperties",
    schema: form({ a: { type: "string" } }, { additionalProperties: false }),
    code: "unsupported-keyword",
  },
  { name: "password field", schema: form({ password: { type: "string" } }), code: "sensitive-field" },
  { name: "API key by title", schema: form({ key: { type: "string", title: "OpenAI API key" } }), code: "sensitive-field" },
  { name: "token", schema: form({ githubToken: { type: "string" } }), code: "sensitive-field" },
  { name: "client secret", schema: form({ client_secret: { type: "string" } }), code: "sensitive-field" },
  { name: "card number", schema: form({ cardNumber: { type: "string" } }), code: "sensitive-field" },
  {
    name: "CVV by description",
    schema: form({ code: { type: "string", description: "The CVV on the back of the card" } }),
    code: "sensitive-field",
  },
  {
    name: "titled enum on 2025-06-18",
    schema: one({ type: "string", oneOf: [{ const: "a", title: "A" }] }),
    code: "revision-titled-enum",
    protocol: "2025-06-18",
  },
  {
    name: "multi-select on 2025-06-18",
    schema: one({ type: "array", items: { type: "string", enum: ["a"] } }),
    code: "revision-multi-select",
    protocol: "2025-06-18",
  },
  { name: "string default on 2025-06-18", schema: one({ type: "string", default: "x" }), code: "revision-default", protocol: "2025-06-18" },
  { name: "number default on 2025-06-18", schema: one({ type: "number", default: 1 }), code: "revision-default", protocol: "2025-06-18" },
];

test(`a corpus of ${CASES.length} departing schemas each yields its rule code`, () => {
  assert.ok(CASES.length >= 40);
  for (const c of CASES) {
    const issues = checkSchema(c.schema, { protocol: c.protocol ?? "2025-11-25" });
    const hit = issues.find((i) => i.code === c.code);
    assert.ok(hit, `${c.name}: expected ${c.code}, got ${JSON.stringify(issues.map((i) => i.code))}`);
    if (c.path !== undefined) assert.equal(hit.path, c.path, `${c.name}: path`);
    assert.equal(hit.severity, SCHEMA_RULES[c.code].severity, `${c.name}: severity`);
    assert.ok(hit.message.length > 10, `${c.name}: message`);
  }
});

test("every documented rule code is exercised by the corpus", () => {
  const covered = new Set(CASES.map((c) => c.code));
  const missing = Object.keys(SCHEMA_RULES).filter((code) => !covered.has(code as SchemaRuleCode));
  assert.deepEqual(missing, []);
});

test("revision rules apply only to 2025-06-18", () => {
  const titled = one({ type: "string", oneOf: [{ const: "a", title: "A" }], default: "a" });
  assert.deepEqual(checkSchema(titled, { protocol: "2025-11-25" }), []);
  assert.deepEqual(checkSchema(titled, { protocol: "2026-07-28" }), []);
  assert.deepEqual(
    checkSchema(titled, { protocol: "2025-06-18" }).map((i) => i.code),
    ["revision-titled-enum", "revision-default"],
  );
  // A boolean default is fine everywhere; enumNames is not legacy on 2025-06-18.
  const legacy = form({ ok: { type: "boolean", default: true }, c: { type: "string", enum: ["a"], enumNames: ["A"] } });
  assert.deepEqual(checkSchema(legacy, { protocol: "2025-06-18" }), []);
});

test("errors come before warnings and a clean form has no findings", () => {
  const mixed = form({ password: { type: "string" }, bad: { type: "object" } });
  assert.deepEqual(
    checkSchema(mixed).map((i) => i.severity),
    ["error", "warning"],
  );
  const clean = form({ name: { type: "string", minLength: 1 }, age: { type: "integer", minimum: 0 } }, { required: ["name"] });
  assert.deepEqual(checkSchema(clean), []);
});

test("15 levels are fine: the limit is on depth, not on any nesting", () => {
  assert.deepEqual(checkSchema(one({ type: "array", items: { anyOf: [{ const: "a", title: "A" }] }, default: ["a"] })), []);
  assert.deepEqual(
    checkSchema(one({ type: "string", default: nested(12) })).map((i) => i.code),
    ["default-not-allowed"],
  );
});

test("messages quote untrusted values briefly and inertly, never whole", () => {
  const huge = "\u001b]0;pwned\u0007" + "A".repeat(1 << 20);
  const [hit] = checkSchema(one({ type: "string", format: huge }));
  assert.equal(hit?.code, "unknown-format");
  assert.ok(hit!.message.length < 300, `${hit!.message.length} characters`);
  assert.match(hit!.message, /format "\\u001b\]0;pwned\\u0007A+…" \(1048586 characters\)/);
  assert.doesNotMatch(hit!.message, /[\u0000-\u001f\u007f-\u009f]/);
  const [named] = checkSchema(form({ [huge]: { type: "object" } }));
  assert.ok(named!.message.length < 300);
});

test("field names that need escaping get RFC 6901 pointers", () => {
  const [hit] = checkSchema(form({ "a/b~c": { type: "object" } }));
  assert.equal(hit?.path, "/properties/a~1b~0c/type");
});
