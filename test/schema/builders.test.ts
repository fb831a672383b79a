import { test } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import {
  applyDefaults,
  checkSchema,
  choice,
  describeFields,
  ElicitError,
  encodeForRevision,
  form,
  fromZod,
  integer,
  InvalidSchemaError,
  multiChoice,
  number,
  type SchemaRuleCode,
  text,
  validateContent,
  yesNo,
} from "../../src/schema/index.js";
import { PROTOCOL_REVISIONS } from "../../src/schema/types.js";
import { bookingSchema } from "../helpers/seeds.js";
import { validatorFor } from "../helpers/wire.js";

const booking = form({
  confirmBooking: yesNo({ description: "Confirm the booking (Flights + Hotel = $3,000)" }),
  seatPreference: choice(["window", "aisle", "no preference"], { description: "Preferred seat type for flights" }).optional(),
  roomType: choice(["sea view", "city view", "garden view"], { description: "Preferred room type at hotel" }).optional(),
  travelInsurance: yesNo({ default: false, description: "Add travel insurance ($150)" }).optional(),
});

test("builders produce exactly the seed's booking schema", () => {
  assert.deepEqual(JSON.parse(JSON.stringify(booking)), bookingSchema());
});

test("every builder's output is valid on the wire of each revision that can carry it", () => {
  const all = form({
    name: text({ title: "Name", minLength: 1, maxLength: 40 }),
    email: text({ format: "email" }),
    when: text({ format: "date-time" }).optional(),
    age: integer({ minimum: 18, maximum: 130 }),
    weight: number({ minimum: 0.5 }).optional(),
    color: choice({ r: "Red", g: "Green" }),
    size: choice(["s", "m", "l"]),
    toppings: multiChoice(["cheese", "ham"], { minItems: 1, maxItems: 2 }),
    extras: multiChoice({ a: "A", b: "B" }).optional(),
    ok: yesNo({ default: true }),
  });
  assert.deepEqual(all.required, ["name", "email", "age", "color", "size", "toppings", "ok"]);
  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    assert.deepEqual(checkSchema(all, { protocol: revision }), []);
    const validate = validatorFor(revision, "ElicitRequestFormParams");
    assert.ok(validate({ mode: "form", message: "m", requestedSchema: all }), JSON.stringify(validate.errors));
  }
});

test("titled choices go out as oneOf, plain lists as enum, titled multi-choice as items.anyOf", () => {
  const f = form({ a: choice({ x: "X" }), b: choice(["y"]), c: multiChoice({ z: "Z" }) });
  assert.deepEqual(f.properties.a, { type: "string", oneOf: [{ const: "x", title: "X" }] });
  assert.deepEqual(f.properties.b, { type: "string", enum: ["y"] });
  assert.deepEqual(f.properties.c, { type: "array", items: { anyOf: [{ const: "z", title: "Z" }] } });
});

test("describeFields gives one model for every kind", () => {
  const fields = describeFields(
    form({
      departDate: text({ format: "date", description: "When you leave" }),
      seat: choice({ window: "Window", aisle: "Aisle" }, { default: "aisle" }).optional(),
      legacy: {
        schema: { type: "string", enum: ["a", "b"], enumNames: ["Ay", "Bee"] },
        isRequired: true,
        optional: () => {
          throw new Error();
        },
      },
      tags: multiChoice(["x", "y"], { minItems: 1 }),
      n: integer({ maximum: 3 }).optional(),
      ok: yesNo(),
    }),
  );
  assert.deepEqual(
    fields.map((f) => [f.name, f.kind, f.label, f.required]),
    [
      ["departDate", "text", "Depart date", true],
      ["seat", "choice", "Seat", false],
      ["legacy", "choice", "Legacy", true],
      ["tags", "multi-choice", "Tags", true],
      ["n", "integer", "N", false],
      ["ok", "boolean", "Ok", true],
    ],
  );
  assert.equal(fields[0]!.format, "date");
  assert.equal(fields[0]!.help, "When you leave");
  assert.deepEqual(fields[1]!.options, [
    { value: "window", label: "Window" },
    { value: "aisle", label: "Aisle" },
  ]);
  assert.equal(fields[1]!.default, "aisle");
  assert.deepEqual(fields[2]!.options, [
    { value: "a", label: "Ay" },
    { value: "b", label: "Bee" },
  ]);
  assert.deepEqual(fields[3]!.constraints, { minItems: 1 });
  assert.deepEqual(fields[4]!.constraints, { maximum: 3 });
});

test("describeFields flags fields that ask for secrets, and refuses schemas with errors", () => {
  const [pw] = describeFields({ type: "object", properties: { password: { type: "string" } } });
  assert.equal(pw!.sensitive, "password");
  assert.throws(
    () => describeFields({ type: "object", properties: { a: { type: "object" } } } as never),
    (e: unknown) => e instanceof InvalidSchemaError && e.issues[0]!.code === "nested-object" && /properties\/a/.test(e.message),
  );
});

test("applyDefaults fills what is missing and keeps what was given", () => {
  const f = form({ a: text({ default: "x" }), b: multiChoice(["p", "q"], { default: ["p"] }), c: yesNo({ default: false }), d: number() });
  assert.deepEqual(applyDefaults(f), { a: "x", b: ["p"], c: false });
  assert.deepEqual(applyDefaults(f, { a: "given", c: true, d: 2 }), { a: "given", b: ["p"], c: true, d: 2 });
  const filled = applyDefaults(f);
  (filled.b as string[]).push("q");
  assert.deepEqual(applyDefaults(f).b, ["p"], "defaults are copied, not shared");
});

test("encodeForRevision writes titled options as enumNames for 2025-06-18, refuses multi-select there, and leaves later revisions as written", () => {
  const f = form({ seat: choice({ w: "Window", a: "Aisle" }, { default: "w" }), ok: yesNo({ default: true }) });
  const legacy = encodeForRevision(f, "2025-06-18");
  assert.deepEqual(legacy.properties.seat, { type: "string", enum: ["w", "a"], enumNames: ["Window", "Aisle"] });
  assert.deepEqual(legacy.properties.ok, { type: "boolean", default: true });
  assert.deepEqual(checkSchema(legacy, { protocol: "2025-06-18" }), []);
  assert.ok(
    validatorFor("2025-06-18", "ElicitRequest")({ method: "elicitation/create", params: { message: "m", requestedSchema: legacy } }),
  );
  assert.throws(
    () => encodeForRevision(form({ t: multiChoice(["a"]) }), "2025-06-18"),
    (e: unknown) =>
      e instanceof InvalidSchemaError &&
      e.code === "revision-multi-select" &&
      e.issues[0]!.path === "/properties/t" &&
      /cannot be sent on protocol 2025-06-18:\n {2}\/properties\/t: .*multi-select.* \[revision-multi-select\]$/.test(e.message),
  );
  // Newer revisions send every shape as written: legacy enumNames is still valid there.
  assert.deepEqual(encodeForRevision(legacy, "2025-11-25").properties.seat, legacy.properties.seat);
  assert.deepEqual(encodeForRevision(f, "2025-11-25").properties.seat, f.properties.seat);
  for (const p of PROTOCOL_REVISIONS.slice(1)) assert.deepEqual(checkSchema(encodeForRevision(f, p), { protocol: p }), []);
});

test("fromZod converts what the wire can express", () => {
  const f = fromZod(
    z.object({
      email: z.email().describe("Your email"),
      site: z.url().optional(),
      day: z.iso.date(),
      n: z.number().min(1).max(5).default(3),
      count: z.int(),
      agree: z.boolean().meta({ title: "Agree" }),
      plan: z.enum(["free", "pro"]),
      tags: z
        .array(z.enum(["x", "y"]))
        .min(1)
        .max(2),
      note: z.string().max(200).optional(),
    }),
  );
  assert.deepEqual(f.required, ["email", "day", "count", "agree", "plan", "tags"]);
  assert.deepEqual(f.properties.email, { type: "string", format: "email", description: "Your email" });
  assert.deepEqual(f.properties.count, { type: "integer" });
  assert.deepEqual(f.properties.n, { type: "number", minimum: 1, maximum: 5, default: 3 });
  assert.deepEqual(f.properties.tags, { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["x", "y"] } });
  assert.deepEqual(checkSchema(f), []);
  assert.deepEqual(validateContent(f, { email: "a@b.co", day: "2026-06-15", count: 2, agree: true, plan: "pro", tags: ["x"] }).ok, true);
});

test("fromZod refuses what the wire cannot express, naming the field, the rule and why", () => {
  const refusals: [z.ZodObject<z.ZodRawShape>, string, SchemaRuleCode, RegExp][] = [
    [z.object({ address: z.object({ street: z.string() }) }), "address", "nested-object", /nested objects/],
    [z.object({ code: z.string().regex(/^[A-Z]{3}$/) }), "code", "pattern-unsupported", /regular expressions/],
    [z.object({ code: z.string().regex(/^a/).optional() }), "code", "pattern-unsupported", /regular expressions/],
    [z.object({ id: z.union([z.string(), z.number()]) }), "id", "composition-keyword", /unions/],
    [z.object({ maybe: z.string().nullable() }), "maybe", "composition-keyword", /nullable/],
    [z.object({ id: z.uuid() }), "id", "unknown-format", /format "uuid"/],
    [z.object({ n: z.number().positive() }), "n", "unsupported-keyword", /exclusive bounds/],
    [z.object({ n: z.number().multipleOf(5) }), "n", "unsupported-keyword", /multipleOf/],
    [z.object({ kind: z.literal("x") }), "kind", "unsupported-keyword", /literals/],
    [z.object({ list: z.array(z.string()) }), "list", "array-not-enum", /not a multi-select/],
  ];
  for (const [schema, field, code, reason] of refusals) {
    assert.throws(
      () => fromZod(schema),
      (e: unknown) =>
        e instanceof InvalidSchemaError &&
        e instanceof ElicitError &&
        e.code === code &&
        e.issues.every((i) => i.severity === "error") &&
        e.issues[0]!.path.startsWith(`/properties/${field}`) &&
        reason.test(e.message) &&
        e.message.startsWith("This zod schema has no elicitation form:\n"),
      `${field} ${code} ${reason}`,
    );
  }
  assert.throws(
    () => fromZod(z.string() as never),
    (e: unknown) => e instanceof InvalidSchemaError && e.code === "root-not-object",
  );
});
