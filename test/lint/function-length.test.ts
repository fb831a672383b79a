// Functions in src/ stay short enough to read in one screen: none over 120 lines, and the three entry points
// every feature used to widen (createElicitation, serveHttp, attachElicitation) under 80, so the next feature
// comes in as a new object or function instead of one more branch. scripts/long-functions.mjs lists them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain .mjs script without types
import { functionLengths } from "../../scripts/long-functions.mjs";

interface FunctionLength {
  lines: number;
  at: string;
  name: string;
}

const src = fileURLToPath(new URL("../../src", import.meta.url));
const lengths = (functionLengths as (dir: string) => FunctionLength[])(src);

test("no function in src/ is over 120 lines", () => {
  assert.deepEqual(
    lengths.filter((f) => f.lines > 120).map((f) => `${f.lines} lines: ${f.name} (${f.at})`),
    [],
  );
});

test("createElicitation, serveHttp and attachElicitation are each under 80 lines", () => {
  for (const name of ["createElicitation", "serveHttp", "attachElicitation"]) {
    const found = lengths.filter((f) => f.name === name);
    assert.ok(found.length > 0, `${name} is no longer a function of src/: update this test`);
    for (const f of found) assert.ok(f.lines < 80, `${name} is ${f.lines} lines (${f.at})`);
  }
});

test("the count reads real functions: a known long one is measured", () => {
  // Guards the counter itself: if it stopped finding functions, the two tests above would pass on anything.
  assert.ok(lengths.length > 500, `only ${lengths.length} functions found in src/`);
  assert.ok(lengths.some((f) => f.lines > 40));
});
