// One compiled form per form object: every consumer reads the same object, worked out once, however
// the form is given (builders, a raw schema, zod) and whichever function is asked first.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { compileForm, compileValidator, describeFields, encodeForRevision, toRequestedSchema } from "../../src/schema/compiled.js";
import { applyDefaults, form, InvalidSchemaError, text, validateContent, yesNo } from "../../src/schema/index.js";

test("a zod form is converted once: every way in reaches the one compiled form", () => {
  const trip = z.object({ city: z.string().describe("City"), confirm: z.boolean() });
  const compiled = compileForm(trip);
  const schema = toRequestedSchema(trip);
  assert.equal(schema, compiled.schema, "the conversion is the compiled form's");
  assert.equal(compileForm(schema), compiled, "the converted schema finds the same compiled form");
  assert.equal(describeFields(trip), compiled.fields);
  assert.equal(describeFields(schema), compiled.fields);
  assert.equal(compileValidator(trip), compiled.validator);
  assert.equal(encodeForRevision(trip, "2025-11-25"), compiled.encoded("2025-11-25"));
  assert.equal(encodeForRevision(schema, "2025-06-18"), compiled.encoded("2025-06-18"));
});

test("a builder form: fields, validator and encodings are made once and shared", () => {
  const booking = form({ name: text(), confirm: yesNo({ default: true }).optional() });
  const fields = describeFields(booking);
  assert.equal(describeFields(booking), fields);
  assert.equal(compileForm(booking).fields, fields);
  assert.equal(compileValidator(booking), compileForm(booking).validator);
  assert.equal(encodeForRevision(booking, "2026-07-28"), encodeForRevision(booking, "2026-07-28"));
  // The consumers agree on what they read from it.
  assert.deepEqual(validateContent(booking, { name: "Ana" }), { ok: true, value: { name: "Ana" } });
  assert.deepEqual(compileForm(booking).accept({ name: "Ana" }), { ok: true, value: { name: "Ana", confirm: true } });
  assert.deepEqual(applyDefaults(booking, {}), { confirm: true });
});

test("a broken form throws each time it is read, and nothing is kept for it", () => {
  const broken = { type: "object", properties: { nested: { type: "object" } } } as never;
  const compiled = compileForm(broken);
  assert.equal(compiled.schema, broken, "its schema can still be read (lint reports its problems)");
  for (let i = 0; i < 2; i++) {
    assert.throws(() => compiled.fields, InvalidSchemaError);
    assert.throws(() => encodeForRevision(broken, "2025-11-25"), InvalidSchemaError);
    assert.throws(() => compileValidator(broken), InvalidSchemaError);
  }
  assert.throws(() => describeFields(null as never), InvalidSchemaError, "not an object: not a form, said as such");
});
