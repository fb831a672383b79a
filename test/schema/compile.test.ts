// compileValidator: compiled once per schema object, however the form is given; field names and option
// values from a server are data in generated code, never code; own keys only, also against a polluted
// Object.prototype; both builds (generated code and the loop over closures) give the same results.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { choice, form, text, yesNo } from "../../src/schema/builders.js";
import { InvalidSchemaError } from "../../src/schema/errors.js";
import { codePointLength } from "../../src/schema/compile-field.js";
import { compileUncached } from "../../src/schema/compile.js";
import { toRequestedSchema } from "../../src/schema/compiled.js";
import type { RequestedSchema } from "../../src/schema/types.js";
import { compileValidator, validateContent } from "../../src/schema/validate.js";

/** Both builds on one schema: each content must give the same result from each. */
function bothBuilds(schema: RequestedSchema) {
  const generated = compileUncached(schema);
  const loop = compileUncached(schema, { generate: false });
  assert.notEqual(generated.toString(), loop.toString(), "under Node the default build is generated code");
  return (content: unknown) => {
    const result = generated(content);
    assert.deepEqual(loop(content), result);
    return result;
  };
}

test("the same schema object gives the same compiled validator; raw, builder and zod forms alike", () => {
  const raw: RequestedSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
  assert.equal(compileValidator(raw), compileValidator(raw));
  assert.notEqual(compileValidator(raw), compileValidator(structuredClone(raw)), "another object is compiled on its own");

  const built = form({ agree: yesNo(), seat: choice({ w: "Window", a: "Aisle" }).optional() });
  assert.equal(compileValidator(built), compileValidator(built));
  assert.deepEqual(compileValidator(built)({ agree: true, seat: "w" }), { ok: true, value: { agree: true, seat: "w" } });

  const zod = z.object({ city: z.string().min(2), nights: z.number().int().optional() });
  const fromZod = compileValidator(zod);
  assert.equal(compileValidator(zod), fromZod, "the zod object is converted and compiled once");
  assert.equal(compileValidator(toRequestedSchema(zod)), fromZod, "its converted schema shares the compiled validator");
  assert.deepEqual(validateContent(zod, { city: "Rome", nights: 2 }), { ok: true, value: { city: "Rome", nights: 2 } });
  assert.deepEqual(validateContent(zod, { city: "R" }), {
    ok: false,
    errors: [{ field: "city", rule: "minLength", message: "City must be at least 2 characters long" }],
  });
});

test("a schema with errors throws InvalidSchemaError on every call, and nothing is cached for it", () => {
  const bad = { type: "object", properties: { a: { type: "object" } } } as unknown as RequestedSchema;
  assert.throws(() => compileValidator(bad), InvalidSchemaError);
  assert.throws(() => validateContent(bad, {}), InvalidSchemaError);
  assert.throws(() => validateContent(null as unknown as RequestedSchema, {}), InvalidSchemaError);
});

test("results are fresh objects: changing one never changes the next", () => {
  const schema: RequestedSchema = { type: "object", properties: { n: { type: "integer", title: "N" } }, required: ["n"] };
  const first = validateContent(schema, {});
  assert.ok(!first.ok);
  first.errors[0]!.message = "changed";
  first.errors.push({ field: "x", rule: "custom", message: "x" });
  assert.deepEqual(validateContent(schema, {}), { ok: false, errors: [{ field: "n", rule: "required", message: "N is required" }] });
  const ok = validateContent(schema, { n: 1 });
  assert.ok(ok.ok);
  (ok.value as Record<string, unknown>).n = 2;
  assert.deepEqual(validateContent(schema, { n: 1 }), { ok: true, value: { n: 1 } });
});

// Names and values a server chooses, each of which would break out of a string literal or a comment if
// pasted into code unescaped.
const HOSTILE = [
  '"); globalThis.__pwned = 1; ("',
  "'; globalThis.__pwned = 1; '",
  "`${globalThis.__pwned = 1}`",
  "\\",
  '\\"',
  "a\nb",
  "a\u2028b\u2029c",
  "*/ globalThis.__pwned = 1; /*",
  "</script>",
  "\uD800",
  "\uDC00x",
  "",
  "0",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
];

test("field names and option values are data in generated code, never code", () => {
  const properties: Record<string, unknown> = {};
  HOSTILE.forEach((name, i) => {
    properties[name] = i % 2 ? { type: "string", enum: HOSTILE.slice(0, 5) } : { type: "boolean" };
  });
  const schema = JSON.parse(JSON.stringify({ type: "object", properties, required: HOSTILE.slice(0, 4) })) as RequestedSchema;
  const check = bothBuilds(schema);
  const answer: Record<string, unknown> = {};
  HOSTILE.forEach((name, i) => (answer[name] = i % 2 ? HOSTILE[i % 5] : true));
  const result = check(JSON.parse(JSON.stringify(answer)));
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.value, answer);
  assert.deepEqual(
    Object.keys(result.value),
    Object.keys(schema.properties),
    "the schema's order (an index-like key first, as in every object)",
  );
  const missing = check({});
  assert.ok(!missing.ok);
  assert.deepEqual(
    missing.errors.map((e) => e.field),
    HOSTILE.slice(0, 4),
  );
  const wrong = check({ [HOSTILE[1]!]: "not an option" });
  assert.ok(!wrong.ok);
  assert.ok(wrong.errors.some((e) => e.field === HOSTILE[1] && e.rule === "option"));
  assert.equal((globalThis as { __pwned?: unknown }).__pwned, undefined);
});

test("own keys only: inherited values, a polluted Object.prototype and its accessors are no answer", () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"email":{"type":"string","title":"Email"},"toString":{"type":"string"}},"required":["email"]}',
  ) as RequestedSchema;
  const check = bothBuilds(schema);
  const missing = { ok: false, errors: [{ field: "email", rule: "required", message: "Email is required" }] };
  assert.deepEqual(check({}), missing);
  assert.deepEqual(check(Object.create({ email: "a@b.co" })), missing, "inherited from another prototype");
  const bare = Object.assign(Object.create(null) as object, { email: "a@b.co" });
  assert.deepEqual(check(bare), { ok: true, value: { email: "a@b.co" } }, "an object without a prototype");
  const proto = Object.prototype as unknown as Record<string, unknown>;
  try {
    proto.email = "polluted@example.com";
    assert.deepEqual(check({}), missing, "a value on Object.prototype");
    assert.deepEqual(
      check({ email: "polluted@example.com" }),
      { ok: true, value: { email: "polluted@example.com" } },
      "the same value, own",
    );
    delete proto.email;
    Object.defineProperty(Object.prototype, "email", { get: () => "getter@example.com", configurable: true });
    assert.deepEqual(check({}), missing, "an accessor on Object.prototype, added after compiling");
  } finally {
    delete proto.email;
  }
  assert.deepEqual(check({ email: "a@b.co" }), { ok: true, value: { email: "a@b.co" } });
  assert.deepEqual(check({ email: "a@b.co", toString: "x" }), { ok: true, value: { email: "a@b.co", toString: "x" } });
});

test("own keys only once the validator is optimized for plain answers, and with a replaced Object.getPrototypeOf", () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"email":{"type":"string","title":"Email"},"age":{"type":"number"}},"required":["email"]}',
  ) as RequestedSchema;
  const check = compileUncached(schema);
  const missing = { ok: false, errors: [{ field: "email", rule: "required", message: "Email is required" }] };
  // Enough plain answers for V8 to optimize the generated code on their shapes (not a timing: only verdicts are compared).
  const plain = JSON.parse('[{"email":"a@b.co"},{"email":"c@d.co","age":30}]') as unknown[];
  for (let i = 0; i < 50_000; i++) assert.equal(check(plain[i % 2]).ok, true);
  assert.deepEqual(check(Object.create({ email: "a@b.co" })), missing, "an inherited value after the plain ones");
  assert.deepEqual(check(Object.create(Object.create({ email: "a@b.co" }))), missing, "inherited two prototypes up");
  const real = Object.getPrototypeOf;
  try {
    // A replaced global is not trusted: the validator then asks Object.hasOwn, whatever the replacement says.
    Object.getPrototypeOf = () => Object.prototype;
    assert.deepEqual(check(Object.create({ email: "a@b.co" })), missing, "a lying Object.getPrototypeOf");
    assert.deepEqual(check({ email: "a@b.co" }), { ok: true, value: { email: "a@b.co" } });
  } finally {
    Object.getPrototypeOf = real;
  }
  assert.deepEqual(check({ email: "a@b.co", age: 30 }), { ok: true, value: { email: "a@b.co", age: 30 } });
});

test("a multi-choice list with an entry that is no option at all (undefined, a hole) is refused", () => {
  const schema: RequestedSchema = {
    type: "object",
    properties: { tags: { type: "array", title: "Tags", items: { type: "string", enum: ["a", "b"] } } },
  };
  const check = bothBuilds(schema);
  const refused = { ok: false, errors: [{ field: "tags", rule: "option", message: "Tags cannot include nothing; choose from: a, b" }] };
  assert.deepEqual(check({ tags: ["a", undefined] }), refused);
  // eslint-disable-next-line no-sparse-arrays
  assert.deepEqual(check({ tags: ["a", , "b"] }), refused);
  assert.deepEqual(check({ tags: ["a", "b"] }), { ok: true, value: { tags: ["a", "b"] } });
});

test("every field kind through both builds: the generated shortcuts accept exactly what the checks accept", () => {
  const schema: RequestedSchema = {
    type: "object",
    properties: {
      n: { type: "number", minimum: -1.5, maximum: 2 },
      i: { type: "integer", minimum: 0 },
      free: { type: "number" },
      mail: { type: "string", format: "email" },
      day: { type: "string", format: "date", maxLength: 10 },
      plain: { type: "string" },
      many: { type: "string", enum: ["1", "2", "3", "4", "5", "6", "7", "8", "9"] },
      few: { type: "string", enum: ["x", "y"], minLength: 1 },
    },
  };
  const check = bothBuilds(schema);
  const values: unknown[] = [
    -1.5,
    2,
    2.0001,
    -2,
    0,
    1,
    0.5,
    -0,
    NaN,
    Infinity,
    -Infinity,
    1e308,
    "1",
    "x",
    "y",
    "9",
    "a@b.co",
    "2024-02-29",
    "2023-02-29",
    "",
    true,
    null,
    [],
    {},
    ["x"],
  ];
  let accepted = 0;
  for (const field of Object.keys(schema.properties)) {
    for (const v of values) if (check({ [field]: v }).ok) accepted++;
  }
  assert.ok(accepted > 10 && accepted < 150, `accepted ${accepted}`);
  assert.deepEqual(check({ free: Infinity }), {
    ok: false,
    errors: [{ field: "free", rule: "type", message: "Free must be a number" }],
  });
  assert.deepEqual(check({ i: -0 }), { ok: true, value: { i: -0 } });
});

test("codePointLength counts as the string iterator does, lone surrogates included", () => {
  const samples = ["", "a", "😀", "a😀b", "\uD83D", "\uDE00", "\uDE00\uD83D", "\uD83D\uD83D\uDE00", "e\u0301", "👨‍👩‍👧", "𝒜x\uD800"];
  for (const s of samples) assert.equal(codePointLength(s), [...s].length, JSON.stringify(s));
  const schema: RequestedSchema = { type: "object", properties: { s: { type: "string", title: "S", minLength: 2, maxLength: 3 } } };
  const check = bothBuilds(schema);
  assert.equal(check({ s: "😀😀" }).ok, true, "4 units, 2 code points");
  assert.equal(check({ s: "😀" }).ok, false, "2 units, 1 code point");
  assert.equal(check({ s: "😀😀😀" }).ok, true, "6 units, 3 code points");
  assert.equal(check({ s: "😀😀😀😀" }).ok, false);
  assert.equal(check({ s: "\uD83D\uD83D\uD83D" }).ok, true, "3 lone surrogates");
});

test("text() fields from the builders compile like their JSON", () => {
  const built = form({ name: text({ title: "Name", minLength: 1 }) });
  const raw = JSON.parse(JSON.stringify(built)) as RequestedSchema;
  for (const content of [{}, { name: "" }, { name: "Ada" }, { name: 1 }, null, []]) {
    assert.deepEqual(validateContent(built, content), validateContent(raw, content));
  }
});

test("the value holds exactly the present fields, in schema order, for every combination of optional fields", () => {
  // Required fields between optional ones; 3 optional fields (one literal per combination) and 6 (stored in turn).
  const props = (names: string[]) => Object.fromEntries(names.map((n) => [n, { type: "string" as const }]));
  for (const names of [
    ["a", "b", "c", "d", "e"],
    ["a", "b", "c", "d", "e", "f", "g", "h"],
  ]) {
    const required = ["b", "d"];
    const check = bothBuilds({ type: "object", properties: props(names), required });
    const optional = names.filter((n) => !required.includes(n));
    for (let present = 0; present < 1 << optional.length; present++) {
      const answer: Record<string, string> = { d: "D", b: "B", extra: "x" };
      optional.forEach((n, bit) => {
        if (present & (1 << bit)) answer[n] = n.toUpperCase();
      });
      const result = check(answer);
      assert.ok(result.ok);
      const expected = names.filter((n) => n in answer);
      assert.deepEqual(Object.keys(result.value), expected);
      assert.deepEqual(
        Object.values(result.value),
        expected.map((n) => n.toUpperCase()),
      );
    }
  }
});
