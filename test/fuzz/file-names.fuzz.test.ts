// shownName over any string: whatever the person's browser sends as a file name, what is shown has no
// control, format (bidi, zero-width) or separator character left, no "..", and a bounded length.
import { test } from "node:test";
import fc from "fast-check";
import { MAX_SHOWN_NAME, shownName } from "../../src/server/url/files/names.js";
import { TRICKS } from "../helpers/fuzz/arbitraries.js";
import { fcParams, measured, runs } from "../helpers/fuzz/settings.js";

const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u3164\uFFA0/\\]/u;
const PIECES = [
  ...TRICKS,
  "/",
  "\\",
  "..",
  ".",
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200E",
  "\u061C",
  "\u2060",
  "\u2028",
  "\u2029",
  "\n",
  "\t",
  "C:\\",
  "~/",
];
const hostileName = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 8 }), fc.string({ unit: "grapheme", maxLength: 8 })), {
    maxLength: 40,
  })
  .map((parts) => parts.join(""));

test("shownName: no control, bidi, zero-width or separator character, no '..', bounded length", async () => {
  const cases = runs(20_000, 0.2);
  await measured("shownName", cases, () =>
    fc.assert(
      fc.property(fc.oneof(hostileName, fc.string({ unit: "binary", maxLength: 400 })), (name) => {
        const shown = shownName(name);
        if (FORBIDDEN.test(shown)) throw new Error(`forbidden character left in ${JSON.stringify(shown)}`);
        if (shown.includes("..")) throw new Error(`".." left in ${JSON.stringify(shown)}`);
        if ([...shown].length > MAX_SHOWN_NAME) throw new Error(`${[...shown].length} code points`);
        if (shown.trim() === "") throw new Error("blank");
        if (/\p{M}{5}/u.test(shown)) throw new Error(`a pile of combining marks left in ${JSON.stringify(shown)}`);
      }),
      fcParams(cases),
    ),
  );
});
