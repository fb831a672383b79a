// The pieces of the CLI host that decide what reaches the terminal and what gets called: the inert
// line filter (chunk boundaries, CR, UTF-8), the console capture, inert JSON, the --connect-timeout
// rule, and the --args check against input schemas of each JSON Schema dialect.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkArguments } from "../../src/cli/call.js";
import { inertJson } from "../../src/cli/exit.js";
import { parseConnectTimeout } from "../../src/cli/host.js";
import { captureConsole, inertLines } from "../../src/cli/host-output.js";

function filter(chunks: (string | Buffer)[], prefix = "[server] "): string[] {
  const lines: string[] = [];
  const f = inertLines((l) => lines.push(l), prefix);
  chunks.forEach((c) => f.write(c));
  f.end();
  return lines;
}

describe("inertLines", () => {
  test("a sequence split across chunks is removed whole, not half-printed", () => {
    assert.deepEqual(filter(["title \x1b]0;pw", "ned\x07 set\n", "col\x1b[3", "1mour\n"]), ["[server] title  set", "[server] colour"]);
  });

  test("CRLF split across chunks is one line break; a lone CR is one too (it would overwrite the line)", () => {
    assert.deepEqual(filter(["one\r", "\ntwo\rthree\n"]), ["[server] one", "[server] two", "[server] three"]);
  });

  test("UTF-8 split inside a character is decoded whole; C1 controls sent as UTF-8 are removed", () => {
    const bytes = Buffer.from("café \u009b31m\u202eok\n", "utf8");
    assert.deepEqual(filter([bytes.subarray(0, 4), bytes.subarray(4)]), ["[server] café ok"]);
  });

  test("blank and control-only lines are dropped; the last line comes out at end() without a newline", () => {
    assert.deepEqual(filter(["\n\x1b[2J\n   \nlast"]), ["[server] last"]);
  });

  test("a line that never ends is passed on in bounded pieces", () => {
    const lines = filter(["x".repeat(20_000)]);
    assert.ok(lines.length >= 10, `${lines.length} pieces`);
    assert.ok(lines.every((l) => l.length <= 2000 + "[server] ".length));
  });
});

describe("captureConsole", () => {
  test("console output goes to the sink while captured, console.debug only with ELICIT_DEBUG; restore puts console back", () => {
    const seen: string[] = [];
    const original = console.warn;
    const restore = captureConsole((t) => seen.push(t));
    try {
      console.warn("[mcp-sdk] %s", "warned");
      console.log({ a: 1 });
      console.debug("hidden");
    } finally {
      restore();
    }
    assert.equal(console.warn, original);
    assert.deepEqual(seen, ["[mcp-sdk] warned", "{ a: 1 }"]);
  });
});

describe("inertJson", () => {
  test("escapes DEL, C1, bidi and other format characters; the parsed value is unchanged", () => {
    const value = { text: "a\u009b31m\u202eb\u007f\u{E0041}\u2028😀", ok: true };
    const json = inertJson(value);
    assert.doesNotMatch(json, /[\u007f-\u009f\u2028\u202e]|\p{Cf}/u);
    assert.ok(json.includes("😀"), "ordinary characters stay as they are");
    assert.deepEqual(JSON.parse(json), value);
  });
});

describe("parseConnectTimeout", () => {
  test("the option wins over ELICIT_CONNECT_TIMEOUT, which wins over the default of 30 s; both must be > 0", () => {
    assert.equal(parseConnectTimeout(undefined, undefined), 30);
    assert.equal(parseConnectTimeout(undefined, "7"), 7);
    assert.equal(parseConnectTimeout("0.5", "7"), 0.5);
    assert.throws(() => parseConnectTimeout("0", undefined), /--connect-timeout takes a number of seconds greater than 0/);
    assert.throws(
      () => parseConnectTimeout(undefined, "soon"),
      /ELICIT_CONNECT_TIMEOUT takes a number of seconds greater than 0, e\.g\. 30; got "soon"/,
    );
  });
});

describe("checkArguments", () => {
  test("no $schema means 2020-12: prefixItems are checked", () => {
    const schema = {
      type: "object",
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false } },
    };
    assert.deepEqual(checkArguments(schema, { pair: ["a", 1] }), { errors: [] });
    assert.deepEqual(checkArguments(schema, { pair: ["a", "b"] }).errors, ["pair/1: must be integer [type]"]);
  });

  test("draft-07 is checked as draft-07 (items as a tuple), 2019-09 as 2019-09", () => {
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "integer" }] } },
    };
    assert.deepEqual(checkArguments(draft7, { pair: ["a", "b"] }).errors, ["pair/1: must be integer [type]"]);
    const draft2019 = {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      properties: { n: { type: "number", minimum: 3 } },
      unevaluatedProperties: false,
    };
    assert.deepEqual(checkArguments(draft2019, { n: 1, extra: true }).errors, [
      "n: must be >= 3 [minimum]",
      "extra: not a field of this tool [unevaluatedProperties]",
    ]);
  });

  test("each problem names the field and the rule; enum lists the allowed values; nested fields by path", () => {
    const schema = {
      type: "object",
      properties: {
        seat: { enum: ["window", "aisle"] },
        when: { type: "string", format: "date" },
        address: { type: "object", properties: { city: { type: "string", minLength: 2 } }, required: ["city"] },
      },
      required: ["seat"],
      additionalProperties: false,
    };
    assert.deepEqual(checkArguments(schema, { seat: "middle", when: "tomorrow", address: { city: "X" }, extra: 1 }).errors, [
      "extra: not a field of this tool [additionalProperties]",
      'seat: must be one of "window", "aisle" [enum]',
      'when: must match format "date" [format]',
      "address/city: must NOT have fewer than 2 characters [minLength]",
    ]);
    assert.deepEqual(checkArguments(schema, { address: {} }).errors, [
      "seat: required, but not given [required]",
      "address/city: required, but not given [required]",
    ]);
  });

  test("what cannot be checked here is sent unchecked, and says why", () => {
    assert.match(
      checkArguments({ $schema: "https://example.com/my-dialect", type: "object" }, {}).unchecked ?? "",
      /declares a JSON Schema dialect elicit does not check \("https:\/\/example\.com\/my-dialect"\)/,
    );
    assert.match(
      checkArguments({ type: "object", properties: { a: { type: "string", pattern: "(" } } }, { a: "x" }).unchecked ?? "",
      /^cannot check --args against the tool's input schema/,
    );
    assert.match(checkArguments([], {}).unchecked ?? "", /not a JSON object/);
  });

  test("a $ref to another document is dropped, not resolved (nothing is fetched); same-document refs still apply", () => {
    const schema = {
      type: "object",
      $defs: { id: { type: "string", maxLength: 3 } },
      properties: { id: { $ref: "#/$defs/id" }, profile: { $ref: "https://127.0.0.1:9/never.json" } },
    };
    assert.deepEqual(checkArguments(schema, { id: "abc", profile: 42 }), { errors: [] });
    assert.deepEqual(checkArguments(schema, { id: "abcd" }).errors, ["id: must NOT have more than 3 characters [maxLength]"]);
  });
});
