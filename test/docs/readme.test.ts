// The README's examples are the files in examples/, compiled by the type-check and run here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { BIN } from "../helpers/cli.js";
import { promisify } from "node:util";
import { SCHEMA_RULES } from "../../src/schema/index.js";

const root = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");

test("each README example is a verbatim copy of its file in examples/", () => {
  const blocks = [...readme.matchAll(/<!-- example: (\S+) -->\n```(?:ts|yaml)\n([\s\S]*?)```/g)];
  assert.ok(blocks.length >= 4);
  for (const [, path, body] of blocks) {
    assert.equal(body, readFileSync(new URL(path!, root), "utf8"), `${path} differs from its README copy`);
  }
});

for (const example of ["examples/schema-basics.ts", "examples/server-basics.ts", "examples/client-basics.ts"]) {
  test(`${example} runs and prints what its comments say`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", example], { cwd: root });
    const expected = [...readFileSync(new URL(example, root), "utf8").matchAll(/\/\/ -> (.*)$/gm)].map((m) => m[1]);
    assert.ok(expected.length > 0);
    assert.deepEqual(stdout.trim().split("\n"), expected);
  });
}

test("the README documents every checkSchema rule code with its severity", () => {
  for (const [code, rule] of Object.entries(SCHEMA_RULES)) {
    assert.match(readme, new RegExp("\\| `" + code + "` \\| " + rule.severity + " \\|"), code);
  }
});

test("the README's answers file books the trip: its match fits the server's message whatever the case", async () => {
  const args = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, "call", "book_trip", "--args", args, "--answers", "examples/answers.yaml", "--", process.execPath, BIN, "serve", "travel"], { cwd: root });
  const result = JSON.parse(stdout);
  assert.notEqual(result.isError, true, stdout);
  assert.match(result.content[0].text, /^Booked! Reference ELC-[0-9A-Z]{6}: .*seat: window, room: sea view.*Total charged \$3,000\./s);
  assert.match(stderr, /elicit: answers entry \[0\] \(match "Confirm your Barcelona"\) answered "Please confirm your Barcelona[^"]*": accept\./);
  assert.match(stderr, /elicit: answers entry \[1\] \(match "contact"\) answered "[^"]*": accept\./);
});
