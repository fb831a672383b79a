// Property: the compiled validator's two builds, the generated code (what Node runs) and the loop over
// closures (what a page under a strict Content-Security-Policy runs, test/web/entries.test.ts), give the
// same result, messages included, on hostile forms (test/fuzz's arbitraries) and on hostile answers that
// never arrive as JSON: objects without a prototype or with another one, own getters, non-enumerable
// fields, an own "__proto__", arrays and functions dressed as objects, boxed primitives, huge strings, a
// polluted Object.prototype. Neither throws, each reads an own getter the same number of times, and a
// valid answer's value is a fresh plain object holding only the form's own fields.
// The generated build is also run after it has been optimized on plain answers (V8 then assumes their
// shapes), so the fast paths are held to the loop too. FUZZ_SEED and FUZZ_RUNS apply.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkSchema, hasErrors } from "../../src/schema/check.js";
import { compileUncached } from "../../src/schema/compile.js";
import { describeFields } from "../../src/schema/compiled.js";
import type { Field } from "../../src/schema/fields.js";
import type { RequestedSchema } from "../../src/schema/types.js";
import { answerFor, requestedSchema } from "../helpers/fuzz/arbitraries.js";
import { fcParams, measured, runs } from "../helpers/fuzz/settings.js";

type Pick = <T>(arb: fc.Arbitrary<T>) => T;

/** Ways to hand over an answer's entries that JSON cannot express; `reads` counts calls to own getters. */
const DRESSES = [
  "json",
  "null-prototype",
  "own-getters",
  "non-enumerable",
  "inherited",
  "own-__proto__",
  "array-as-object",
  "function",
  "frozen",
  "huge-string",
  "not-an-object",
  "polluted-prototype",
] as const;
type Dress = (typeof DRESSES)[number];

const HUGE = ["x".repeat(200_000), "😀".repeat(100_000), "\uD800".repeat(50_000)];
const NOT_OBJECTS: unknown[] = [
  null,
  undefined,
  0,
  "text",
  true,
  [],
  [1, 2],
  new Date(0),
  new Map([["a", 1]]),
  Object("boxed"),
  Symbol("s"),
];

function dressed(entries: [string, unknown][], dress: Dress, pick: Pick, reads: Map<string, number>): unknown {
  const defineAll = (target: object, enumerable = true) => {
    for (const [key, value] of entries) Object.defineProperty(target, key, { value, enumerable, writable: true, configurable: true });
    return target;
  };
  switch (dress) {
    case "json":
      return JSON.parse(JSON.stringify(Object.fromEntries(entries))) as unknown;
    case "null-prototype":
      return defineAll(Object.create(null) as object);
    case "own-getters": {
      const target = {};
      for (const [key, value] of entries) {
        Object.defineProperty(target, key, {
          get: () => {
            reads.set(key, (reads.get(key) ?? 0) + 1);
            return value;
          },
          enumerable: pick(fc.boolean()),
          configurable: true,
        });
      }
      return target;
    }
    case "non-enumerable":
      return defineAll({}, false);
    case "inherited": {
      // Some entries on a prototype (not the answer's), the rest own.
      const inherited = entries.filter(() => pick(fc.boolean()));
      const base = Object.assign(Object.create(pick(fc.constantFrom(Object.prototype, null))) as object, Object.fromEntries(inherited));
      const target = Object.create(pick(fc.boolean()) ? base : Object.create(base)) as Record<string, unknown>;
      for (const [key, value] of entries) if (!inherited.some(([k]) => k === key)) target[key] = value;
      return target;
    }
    case "own-__proto__":
      return JSON.parse(
        `{"__proto__":${JSON.stringify(pick(fc.jsonValue({ maxDepth: 1 })))},${JSON.stringify(Object.fromEntries(entries)).slice(1)}`.replace(
          ",}",
          "}",
        ),
      ) as unknown;
    case "array-as-object":
      return defineAll(Object.setPrototypeOf([], pick(fc.constantFrom(Object.prototype, null))) as object);
    case "function":
      return defineAll(Object.setPrototypeOf(function answer() {}, pick(fc.constantFrom(Object.prototype, Function.prototype))) as object);
    case "frozen":
      return Object.freeze(Object.fromEntries(entries));
    case "huge-string": {
      const target = Object.fromEntries(entries);
      const names = entries.map(([key]) => key);
      if (names.length > 0) target[pick(fc.constantFrom(...names))] = pick(fc.constantFrom(...HUGE));
      return target;
    }
    case "not-an-object":
      return pick(fc.constantFrom(...NOT_OBJECTS));
    case "polluted-prototype":
      return Object.fromEntries(entries); // the pollution itself is set around the call, below
  }
}

/** Runs `body` with `names` set on Object.prototype (as values or accessors), and always cleans up. */
function withPollution<T>(names: string[], pick: Pick, body: () => T): T {
  const proto = Object.prototype as unknown as Record<string, unknown>;
  const added = names.filter((name) => !(name in proto));
  try {
    for (const name of added) {
      const value = pick(fc.jsonValue({ maxDepth: 1 }));
      if (pick(fc.boolean())) proto[name] = value;
      else Object.defineProperty(proto, name, { get: () => value, configurable: true });
    }
    return body();
  } finally {
    for (const name of added) delete proto[name];
  }
}

/** Plain JSON answers for the form, many times over: V8 optimizes the generated code on their shapes. */
function warm(validate: (content: unknown) => unknown, fields: Field[], pick: Pick): void {
  const answers = Array.from({ length: 4 }, () => {
    const answer = answerFor(fields, pick);
    return answer.action === "accept" ? (JSON.parse(JSON.stringify(answer.content)) as unknown) : {};
  });
  for (let i = 0; i < 4_000; i++) validate(answers[i % answers.length]);
}

test("the generated build and the loop give the same result on hostile forms and hostile answers", async () => {
  // Keywords outside the subset are ignored by both builds alike: every form checkSchema accepts is fair.
  const accepted = requestedSchema.filter((s) => !hasErrors(checkSchema(s)));
  const cases = runs(60);
  let compared = 0;
  await measured("validator builds", cases, () =>
    fc.assert(
      fc.property(accepted, fc.gen(), fc.boolean(), (raw, gen, optimize) => {
        const pick: Pick = (arb) => gen(() => arb);
        const schema = JSON.parse(JSON.stringify(raw)) as RequestedSchema;
        const fields = describeFields(schema);
        const generated = compileUncached(schema);
        const loop = compileUncached(schema, { generate: false });
        if (optimize) warm(generated, fields, pick);
        for (let i = 0; i < 6; i++) {
          const answer = answerFor(fields, pick);
          const entries = Object.entries(answer.action === "accept" ? (answer.content as Record<string, unknown>) : {});
          const dress = pick(fc.constantFrom(...DRESSES));
          const names = fields.map((f) => f.name).filter(() => pick(fc.boolean()));
          // One answer for both builds (validating never changes it); own getters count into `reads`.
          const reads = new Map<string, number>();
          const content = dressed(entries, dress, pick, reads);
          const run = (validate: typeof generated) => {
            reads.clear();
            const result = validate(content);
            return { result, reads: [...reads] };
          };
          const [ours, theirs] =
            dress === "polluted-prototype" ? withPollution(names, pick, () => [run(generated), run(loop)]) : [run(generated), run(loop)];
          const what = `${dress} ${describe(content)}`;
          assert.deepEqual(ours.result, theirs.result, `the builds differ on ${what}`);
          assert.deepEqual(ours.reads, theirs.reads, `the builds read own getters differently on ${what}`);
          for (const [key, count] of ours.reads) assert.equal(count, 1, `own getter ${key} read ${count} times on ${what}`);
          if (ours.result.ok) {
            const value = ours.result.value as object;
            assert.notEqual(value, content, "the value is a fresh object");
            assert.equal(Object.getPrototypeOf(value), Object.prototype);
            const own = new Set(fields.map((f) => f.name));
            for (const key of Reflect.ownKeys(value)) assert.ok(typeof key === "string" && own.has(key), `value key ${String(key)}`);
          }
          compared++;
        }
      }),
      fcParams(cases, { endOnFailure: true }),
    ),
  );
  assert.ok(compared >= cases * 6);
  assert.deepEqual(Object.keys(Object.prototype), [], "nothing is left on Object.prototype");
});

function describe(content: unknown): string {
  try {
    return typeof content === "string" && content.length > 80
      ? `${content.slice(0, 40)}...`
      : (JSON.stringify(content)?.slice(0, 200) ?? String(content));
  } catch {
    return Object.prototype.toString.call(content);
  }
}
