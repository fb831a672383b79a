// The store contract on bun:sqlite, in a real Bun (the bun devDependency): `bun test` runs the same
// store-contract.ts (fixtures/bun-sqlite-contract.ts) and this file checks that every test of it passed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { onCI } from "../helpers/needs.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BUN = `${root}node_modules/.bin/bun`;
const CONTRACT = "./test/store/fixtures/bun-sqlite-contract.ts";
/** Two groups of the contract's eight tests, and the check of the default binding. */
const EXPECTED_PASSES = 17;

const missing = existsSync(BUN) ? false : "needs bun: npm install -D bun (a devDependency: npm ci brings it)";
if (missing && onCI)
  test(missing, () => {
    throw new Error(`${missing} (CI=${process.env.CI}: a missing program fails the run)`);
  });

test("the store contract passes under Bun on bun:sqlite, asked for and by default", { skip: missing }, async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = execFile(BUN, ["test", CONTRACT], { cwd: root, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, output: stdout + stderr }),
    );
    child.stdin?.end();
  });
  assert.equal(code, 0, output);
  assert.match(output, new RegExp(`^ ${EXPECTED_PASSES} pass$`, "m"), output);
  assert.match(output, /^ 0 fail$/m, output);
});
