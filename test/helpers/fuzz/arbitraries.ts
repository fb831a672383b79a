// fast-check arbitraries for what a hostile peer sends: texts with escapes and invisible characters,
// form schemas from valid to absurd, elicitation params of every shape, and answers to a form.
import fc from "fast-check";
import type { Field } from "../../../src/schema/fields.js";

/** Snippets that attack a terminal, a reader or a parser. */
export const TRICKS = [
  "\u001B[2J\u001B[H",
  "\u001B]0;title\u0007",
  "\u001B]8;;https://evil.example\u001B\\link\u001B]8;;\u001B\\",
  "\u001B]52;c;ZXZpbA==\u0007",
  "\u001BP+q\u001B\\",
  "\u009B31m",
  "\u009D0;x\u009C",
  "\u001B[",
  "\u0000",
  "\u0007",
  "\b\b\b",
  "\r",
  "\u007F",
  "\u202E",
  "\u2066",
  "\u200B",
  "\u200D",
  "\uFEFF",
  "\u00AD",
  "\uD800",
  "\uDC00",
  "\u{E0041}\u{E0042}",
  "\uFE0F\uFE0F\uFE0F",
  "e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301",
  "\u3164",
  "\n\n\n\n",
  "\t",
  "👩‍💻",
  "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
];

/** HTML and script injection payloads for pages that show server text. */
export const INJECTIONS = [
  "<script>window.__pwned=1</script>",
  "<img src=x onerror=window.__pwned=1>",
  "<svg onload=window.__pwned=1>",
  "<svg><script>window.__pwned=1</script></svg>",
  '"><img src=x onerror=window.__pwned=1>',
  "'><svg/onload=window.__pwned=1>",
  "</style><script>window.__pwned=1</script>",
  "</textarea><script>window.__pwned=1</script>",
  "</title><script>window.__pwned=1</script>",
  "javascript:window.__pwned=1",
  "${window.__pwned=1}",
  "`${window.__pwned=1}`",
  "{{constructor.constructor('window.__pwned=1')()}}",
  "&lt;script&gt;window.__pwned=1&lt;/script&gt;",
  "&#60;img src=x onerror=window.__pwned=1&#62;",
  "<iframe srcdoc='<script>parent.__pwned=1</script>'>",
  "<a href=javascript:window.__pwned=1>x</a>",
  "<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1>",
  "<details open ontoggle=window.__pwned=1>",
  "<input autofocus onfocus=window.__pwned=1>",
  "<!--<img src=x onerror=window.__pwned=1>-->",
  "<style>*{display:none}</style>",
  "<base href=javascript:/>",
  "<meta http-equiv=refresh content=0;url=javascript:window.__pwned=1>",
  "<template><script>window.__pwned=1</script></template>",
  "<slot name=x></slot>",
];

/** Text a server could put anywhere: ordinary words, unicode, escapes, invisible characters, HTML. */
export const hostileText = (maxLength = 60) =>
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
        { weight: 2, arbitrary: fc.constantFrom(...TRICKS) },
        { weight: 2, arbitrary: fc.constantFrom(...INJECTIONS) },
        { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
      ),
      { maxLength: 6 },
    )
    .map((parts) => parts.join("").slice(0, maxLength * 4));

/** Property names, including the prototype's own and empty ones. */
export const fieldName = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "prototype", "", "valueOf") },
  { weight: 1, arbitrary: hostileText(10) },
);

/** Numbers a JSON peer cannot send but an in-memory one can, and values that pretend to be numbers. */
export const oddNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 1, "NaN", "Infinity", "1e999", "5"),
);

const annotations = {
  title: fc.option(fc.oneof(hostileText(), fc.integer()), { nil: undefined }),
  description: fc.option(fc.oneof(hostileText(200), fc.constant(null)), { nil: undefined }),
};
const enumValues = fc.oneof(
  { weight: 10, arbitrary: fc.array(hostileText(12), { minLength: 1, maxLength: 8 }) },
  { weight: 3, arbitrary: fc.array(fc.constantFrom("a", "b", "a"), { minLength: 2, maxLength: 5 }) },
  { weight: 3, arbitrary: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 4 }) },
  // Huge, with duplicates past 15,000.
  { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => `option-${i % 15_000}`)) },
);

/** One property of a requestedSchema: every kind the spec has, with hostile keyword values, and kinds it does not have. */
export const fieldSchema: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      type: fc.constant("string"),
      ...annotations,
      minLength: fc.option(oddNumber, { nil: undefined }),
      maxLength: fc.option(oddNumber, { nil: undefined }),
      format: fc.option(fc.constantFrom("email", "uri", "date", "date-time", "hostname", "regex", ""), { nil: undefined }),
      pattern: fc.option(fc.constantFrom("^[a-z]+$", "(a+)+$", "[", "\\p{L}", "^.{0,5}$"), { nil: undefined }),
      default: fc.option(fc.oneof(hostileText(), fc.integer()), { nil: undefined }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constantFrom("number", "integer"),
      ...annotations,
      minimum: fc.option(oddNumber, { nil: undefined }),
      maximum: fc.option(oddNumber, { nil: undefined }),
      default: fc.option(oddNumber, { nil: undefined }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    { type: fc.constant("boolean"), ...annotations, default: fc.option(fc.oneof(fc.boolean(), fc.string()), { nil: undefined }) },
    {
      requiredKeys: ["type"],
    },
  ),
  fc.record(
    {
      type: fc.constant("string"),
      ...annotations,
      enum: enumValues,
      enumNames: fc.option(fc.array(hostileText(20), { maxLength: 8 }), { nil: undefined }),
      default: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
    },
    { requiredKeys: ["type", "enum"] },
  ),
  fc.record(
    {
      type: fc.constant("string"),
      ...annotations,
      oneOf: fc.array(fc.record({ const: fc.oneof(hostileText(10), fc.integer()), title: hostileText(20) }), { maxLength: 8 }),
    },
    { requiredKeys: ["type", "oneOf"] },
  ),
  fc.record(
    {
      type: fc.constant("array"),
      ...annotations,
      items: fc.oneof(
        fc.record({ type: fc.constant("string"), enum: enumValues }),
        fc.record({ anyOf: fc.array(fc.record({ const: hostileText(10), title: hostileText(20) }), { maxLength: 6 }) }),
        fc.record({ type: fc.constant("string") }),
      ),
      minItems: fc.option(oddNumber, { nil: undefined }),
      maxItems: fc.option(oddNumber, { nil: undefined }),
      uniqueItems: fc.option(fc.boolean(), { nil: undefined }),
    },
    { requiredKeys: ["type", "items"] },
  ),
  // What the spec does not have: nested objects, unknown types, composition, junk.
  fc.record({ type: fc.constant("object"), properties: fc.dictionary(fc.string({ maxLength: 4 }), fc.constant({ type: "string" })) }),
  fc.record({ type: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.array(fc.constantFrom("string", "null"))) }),
  fc.record({ $ref: fc.constant("#/definitions/x") }),
  fc.record({ anyOf: fc.array(fc.record({ type: fc.constantFrom("string", "number") }), { maxLength: 3 }) }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A value nested `depth` levels deep in arrays. */
export const deepValue = (depth: number): unknown => {
  let v: unknown = "x";
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

/** An object with own properties from `entries`, "__proto__" included (as JSON.parse makes it). */
export const withOwnKeys = (entries: [string, unknown][]) => Object.fromEntries(entries);

/** A requestedSchema: mostly object-shaped with fields, sometimes wrong at the root, deep or huge. */
export const requestedSchema: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 30,
    arbitrary: fc
      .record(
        {
          type: fc.oneof({ weight: 9, arbitrary: fc.constant("object") }, { weight: 1, arbitrary: fc.constantFrom("array", "string", 1) }),
          properties: fc.array(fc.tuple(fieldName, fieldSchema), { maxLength: 6 }).map(withOwnKeys),
          required: fc.option(fc.array(fc.oneof(fieldName, fc.integer()), { maxLength: 4 }), { nil: undefined }),
          title: fc.option(hostileText(), { nil: undefined }),
          $schema: fc.option(fc.constantFrom("https://json-schema.org/draft/2020-12/schema", "x"), { nil: undefined }),
          additionalProperties: fc.option(fc.boolean(), { nil: undefined }),
        },
        { requiredKeys: ["type", "properties"] },
      )
      // A required list that names the fields it has, so that more forms are valid and reach the UI.
      .chain((s) => fc.boolean().map((own) => (own && s.required ? { ...s, required: Object.keys(s.properties).slice(0, 2) } : s))),
  },
  {
    weight: 1,
    arbitrary: fc.nat({ max: 3000 }).map((d) => ({ type: "object", properties: { f: { type: "string", default: deepValue(d) } } })),
  },
  {
    weight: 1,
    arbitrary: fc.nat({ max: 300 }).map((n) => ({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: "string" }])),
    })),
  },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.string(), fc.array(fc.anything()), fc.integer()) },
);

/** Params of an elicitation/create, from well-formed to absurd. */
export const elicitParams = (urls: readonly string[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record(
        {
          mode: fc.oneof(
            { weight: 6, arbitrary: fc.constant("form") },
            { weight: 1, arbitrary: fc.constantFrom(undefined, "FORM", "", "html", 1, null) },
          ),
          message: fc.oneof(
            { weight: 9, arbitrary: hostileText(300) },
            { weight: 1, arbitrary: fc.constantFrom(42, null, ["x"], { t: 1 }) },
          ),
          requestedSchema,
          _meta: fc.oneof({ weight: 8, arbitrary: fc.object() }, { weight: 1, arbitrary: fc.constant("x") }),
          extra: fc.option(fc.anything(), { nil: undefined }),
        },
        { requiredKeys: ["message", "requestedSchema"] },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record(
        {
          mode: fc.constant("url"),
          message: hostileText(200),
          url: fc.oneof(fc.constantFrom(...urls), fc.webUrl(), hostileText(40), fc.integer()),
          elicitationId: fc.oneof(fc.uuid(), hostileText(20), fc.integer()),
        },
        { requiredKeys: ["mode", "message", "url"] },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(huge()) },
    { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.string(), fc.array(fc.anything()), fc.anything()) },
  );

let hugeParams: unknown;
/** A megabyte message full of escapes, and a megabyte title (made once). */
function huge(): unknown {
  hugeParams ??= {
    mode: "form",
    message: "\u001B[31m<b>".repeat(100_000),
    requestedSchema: { type: "object", properties: { a: { type: "string", title: "\u202E".repeat(500_000) } } },
  };
  return hugeParams;
}

/** The answer a UI gives to the fields it was shown: right values, wrong values, or no answer at all. */
export function answerFor(
  fields: Field[],
  pick: <T>(arb: fc.Arbitrary<T>) => T,
): { action: "accept"; content: any } | { action: "decline" | "cancel" } {
  const action = pick(fc.constantFrom("accept", "accept", "accept", "decline", "cancel"));
  if (action !== "accept") return { action };
  const content: Record<string, unknown> = {};
  for (const f of fields) {
    if (pick(fc.boolean()) && !f.required) continue;
    content[f.name] = pick(fc.oneof({ weight: 3, arbitrary: rightValue(f) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }));
  }
  if (pick(fc.nat({ max: 9 })) === 0) content[pick(fieldName)] = pick(fc.jsonValue({ maxDepth: 1 }));
  return { action, content };
}

/** Values of the field's own kind (right type, maybe out of range). */
function rightValue(f: Field): fc.Arbitrary<unknown> {
  const options = (f.options ?? []).map((o) => o.value);
  switch (f.kind) {
    case "boolean":
      return fc.boolean();
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "integer":
      return fc.integer();
    case "choice":
      return options.length ? fc.constantFrom(...options) : fc.string();
    case "multi-choice":
      return options.length ? fc.subarray(options) : fc.array(fc.string(), { maxLength: 2 });
    default:
      return f.format === "email" ? fc.emailAddress() : f.format === "date" ? fc.constantFrom("2026-07-28", "2026-02-30") : fc.string();
  }
}
