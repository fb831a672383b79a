// analyzeUrl against a corpus of hostile and benign URLs (each with its expected verdict), and a
// property over arbitrary text and URL-shaped strings: it never throws, and whatever it answers, every
// text a person could be shown (the URL, the host, the refusal, each warning) is free of raw control,
// escape, bidi and zero-width characters.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzeUrl, hostForDisplay, type UrlAnalysis } from "../../src/client/url-safety/analyze.js";
import { BENIGN, HOSTILE } from "./corpus/urls.js";
import { fcParams, hasRawControl, measured, runs } from "../helpers/fuzz/settings.js";

const codes = (a: UrlAnalysis) => a.warnings.map((w) => w.code);
const label = (url: string) => JSON.stringify(url.length > 80 ? `${url.slice(0, 80)}…` : url);

test("the corpus holds at least 60 hostile and 20 benign URLs", () => {
  assert.ok(HOSTILE.length >= 60, `${HOSTILE.length} hostile`);
  assert.ok(BENIGN.length >= 20, `${BENIGN.length} benign`);
});

test("every hostile URL is refused, or offered only with the warnings that name its trick", () => {
  for (const c of HOSTILE) {
    const a = analyzeUrl(c.url);
    assert.equal(a.ok, c.ok, `${label(c.url)} (${c.why}): ok=${a.ok} ${a.refusal ?? codes(a).join(",")}`);
    if (!a.ok) {
      assert.ok(a.refusal && a.refusal.length > 10, `${label(c.url)}: refused without a reason`);
      continue;
    }
    assert.ok(a.warnings.length > 0, `${label(c.url)} (${c.why}) offered without a warning`);
    for (const code of c.warnings ?? []) assert.ok(codes(a).includes(code), `${label(c.url)} (${c.why}): no ${code} in ${codes(a)}`);
  }
});

test("every benign URL is offered with exactly its expected warnings", () => {
  for (const c of BENIGN) {
    const a = analyzeUrl(c.url);
    assert.equal(a.ok, true, `${label(c.url)} (${c.why}) refused: ${a.refusal}`);
    assert.deepEqual(codes(a).sort(), [...(c.warnings ?? [])].sort(), `${label(c.url)} (${c.why})`);
  }
});

/** Everything of an analysis a UI may show, each of which must be inert. */
function shownTexts(a: UrlAnalysis): string[] {
  return [a.url, a.host, a.unicodeHost ?? "", a.refusal ?? "", hostForDisplay(a), a.port ?? "", ...a.warnings.map((w) => w.message)];
}

// Characters that make URLs hostile, to mix into generated ones.
const tricky = fc.constantFrom(
  "\u0000",
  "\u0007",
  "\u001B[31m",
  "\u009B",
  "\u009D",
  "\u007F",
  "\u200B",
  "\u200D",
  "\u202E",
  "\u2066",
  "\uFEFF",
  "\u00AD",
  "\uD800",
  "\uDC00",
  "\u3002",
  "\uFF0E",
  "\u2044",
  "\u2215",
  "@",
  "\\",
  "%",
  "%00",
  "%E2%80%AE",
  "%2e",
  "#",
  "?",
  ":",
  "[",
  "]",
  "а",
  "ο",
  "ɡ",
  "①",
  "ｇ",
  "xn--",
  "xn--p",
  "..",
  "\t",
  "\n",
  " ",
  "\u3164",
);
const hostish = fc.oneof(
  fc.domain(),
  fc.ipV4(),
  fc.ipV4Extended(),
  fc.ipV6().map((ip) => `[${ip}]`),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), tricky), { maxLength: 6 }).map((parts) => parts.join(".")),
);
const urlish = fc
  .record({
    scheme: fc.constantFrom(
      "https://",
      "http://",
      "HTTPS://",
      "javascript:",
      "data:",
      "file://",
      "https:",
      "https:/\\",
      "//",
      "",
      "ftp://",
    ),
    userinfo: fc.option(
      fc.oneof(fc.string({ maxLength: 10 }), tricky).map((u) => `${u}@`),
      { nil: "" },
    ),
    host: hostish,
    port: fc.option(
      fc.oneof(fc.integer({ min: 0, max: 70_000 }).map(String), fc.string({ maxLength: 5 })).map((p) => `:${p}`),
      { nil: "" },
    ),
    rest: fc.array(fc.oneof(fc.webSegment(), tricky, fc.string({ unit: "grapheme", maxLength: 10 })), { maxLength: 6 }),
  })
  .map(({ scheme, userinfo, host, port, rest }) => `${scheme}${userinfo}${host}${port}/${rest.join("/")}`);
const anything = fc.oneof(
  urlish,
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.tuple(fc.webUrl(), fc.nat(), tricky).map(([u, at, t]) => u.slice(0, at % (u.length + 1)) + t + u.slice(at % (u.length + 1))),
);

test("for any string, analyzeUrl never throws and everything it would show is inert", async () => {
  const n = runs(4000);
  await measured("analyzeUrl on arbitrary strings", n, () =>
    fc.assert(
      fc.property(anything, (url) => {
        const a = analyzeUrl(url);
        for (const text of shownTexts(a))
          assert.ok(!hasRawControl(text), `raw control character in ${JSON.stringify(text)} for ${label(url)}`);
        if (a.ok) {
          // What is offered is what opens: printable ASCII, the host parsed from it, http(s) only.
          assert.match(a.url, /^[\x21-\x7e]+$/);
          assert.equal(new URL(a.url).hostname, a.host);
          assert.ok(a.scheme === "https" || a.scheme === "http");
        } else {
          assert.ok(a.refusal, "refused without a reason");
          assert.equal(a.host, "");
        }
      }),
      fcParams(n),
    ),
  );
});
