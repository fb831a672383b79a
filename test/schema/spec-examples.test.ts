import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSchema } from "../../src/schema/index.js";
import { PROTOCOL_REVISIONS } from "../../src/schema/types.js";
import { specSchemaExamples } from "../helpers/spec.js";
import { bookingSchema } from "../helpers/seeds.js";

// How many form examples each revision's spec pages hold (test/data/spec-forms.json).
const EXAMPLES: Record<(typeof PROTOCOL_REVISIONS)[number], number> = { "2025-06-18": 7, "2025-11-25": 9, "2026-07-28": 11 };

for (const revision of PROTOCOL_REVISIONS) {
  test(`every schema example on the ${revision} spec pages passes checkSchema for ${revision}`, () => {
    const examples = specSchemaExamples(revision);
    // Each page shows a simple and a structured request, and at least four field kinds.
    assert.equal(examples.length, EXAMPLES[revision], `found ${examples.length} examples for ${revision}`);
    for (const { source } of examples) assert.match(source, new RegExp(`^${revision}/[a-z-]+\\.mdx block \\d+( \\(field\\))?$`));
    for (const { source, schema } of examples) {
      const errors = checkSchema(schema, { protocol: revision }).filter((i) => i.severity === "error");
      assert.deepEqual(errors, [], `${source} should have no errors`);
    }
  });
}

test("the seed's Barcelona booking schema passes checkSchema on every revision", () => {
  const schema = bookingSchema();
  assert.deepEqual(Object.keys(schema.properties), ["confirmBooking", "seatPreference", "roomType", "travelInsurance"]);
  for (const protocol of PROTOCOL_REVISIONS) {
    assert.deepEqual(checkSchema(schema, { protocol }), [], `booking schema on ${protocol}`);
  }
});

test("the 2025-11-25 string example is flagged only for its pattern (a warning)", () => {
  const example = specSchemaExamples("2025-11-25").find((e) => JSON.stringify(e.schema).includes('"pattern"'));
  assert.ok(example);
  assert.deepEqual(
    checkSchema(example.schema, { protocol: "2025-11-25" }).map((i) => i.code),
    ["pattern-unsupported"],
  );
});
