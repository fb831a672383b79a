// Property: on hostile forms (test/fuzz's arbitraries: odd names, prototype names, injections, odd bounds)
// that checkSchema accepts, and answers of every shape, validateContent gives Ajv 8 + ajv-formats' verdict,
// and its two builds (generated code and the loop over closures) give the same result, messages included.
// FUZZ_SEED and FUZZ_RUNS apply, as in test/fuzz.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { checkSchema, hasErrors } from "../../src/schema/check.js";
import { compileUncached } from "../../src/schema/compile.js";
import { describeFields } from "../../src/schema/compiled.js";
import type { RequestedSchema } from "../../src/schema/types.js";
import { validateContent } from "../../src/schema/validate.js";
import { answerFor, requestedSchema } from "../helpers/fuzz/arbitraries.js";
import { fcParams, runs } from "../helpers/fuzz/settings.js";

function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false });
  (addFormats as unknown as (a: Ajv, opts: { mode: "full" }) => Ajv)(ajv, { mode: "full" });
  return ajv;
}

/** The two Ajv quirks test/schema/differential.test.ts documents: where they decide, verdicts are not compared. */
function ajvQuirk(schema: RequestedSchema, content: Record<string, unknown>): boolean {
  const required = new Set(schema.required ?? []);
  const names = Object.keys(schema.properties);
  if (names.some((name) => name in Object.prototype && !required.has(name) && !Object.hasOwn(content, name))) return true;
  return required.has("") && !Object.hasOwn(content, "");
}

test("validateContent agrees with Ajv on hostile forms that pass checkSchema, in both builds", () => {
  const ajv = newAjv();
  // Keywords outside the subset (additionalProperties, uniqueItems ...) are ignored by clients and by
  // validateContent, but enforced by Ajv: forms with them are left out of the comparison.
  const accepted = requestedSchema.filter((s) => {
    const issues = checkSchema(s);
    return !hasErrors(issues) && !issues.some((i) => i.code === "unsupported-keyword");
  });
  let compared = 0;
  fc.assert(
    fc.property(accepted, fc.gen(), (raw, gen) => {
      // Through JSON, as a schema arrives: keys such as "__proto__" stay own keys.
      const schema = JSON.parse(JSON.stringify(raw)) as RequestedSchema;
      // Ajv's default engine is draft-07 and refuses other $schema URIs; the keyword changes nothing here.
      const { $schema: _dialect, ...forAjv } = schema;
      const validate = ajv.compile(forAjv);
      const loop = compileUncached(schema, { generate: false });
      const fields = describeFields(schema);
      for (let i = 0; i < 8; i++) {
        const answer = answerFor(fields, (arb) => gen(() => arb));
        const content = (answer.action === "accept" ? JSON.parse(JSON.stringify(answer.content)) : gen(() => fc.jsonValue())) as unknown;
        const ours = validateContent(schema, content);
        assert.deepEqual(loop(content), ours, `the two builds differ on ${JSON.stringify(content)}`);
        const plain = typeof content === "object" && content !== null && !Array.isArray(content);
        if (plain && ajvQuirk(schema, content as Record<string, unknown>)) continue;
        compared++;
        assert.equal(ours.ok, validate(content), `Ajv disagrees on ${JSON.stringify(content)}: ${JSON.stringify(ours)}`);
      }
    }),
    // No shrinking: every step compiles with Ajv, and shrinking a hostile form would take minutes; the
    // counterexample is reported as found, with the seed to replay it.
    fcParams(runs(30), { endOnFailure: true }),
  );
  assert.ok(compared >= 100, `only ${compared} answers compared`);
});
