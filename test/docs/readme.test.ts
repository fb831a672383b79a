// The README's examples are the files in examples/, compiled by the type-check and run here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { SCHEMA_RULES } from "../../src/schema/index.js";

const root = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");

test("each README example is a verbatim copy of its file in examples/", () => {
  const blocks = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)];
  assert.ok(blocks.length >= 2);
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
