// The @example blocks of src/ and the example blocks of the pages are copies of checked files in examples/
// (scripts/sync-examples.mjs, format in docs/_meta/CONVENTIONS.md): a copy that no longer matches its file fails
// here, naming the block, so a changed example cannot leave a stale @example behind.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { regionsOf, syncAll, syncSource, withoutMarkers } from "../../scripts/sync-examples.mjs";
import { filesUnder, read, root } from "../helpers/doc-pages.js";

const run = promisify(execFile);

const EXAMPLE = [
  "// An example.",
  "function main() {",
  "  //#region greet",
  "  const name = 'Ana';",
  "",
  "  //#region inner",
  "  console.log(`hello ${name}`);",
  "  //#endregion inner",
  "  //#endregion greet",
  "}",
  "",
].join("\n");

const source = (body: string[]) =>
  ["/**", " * Greets.", " *", " * @example", " * ```ts region=examples/a.ts#greet", ...body, " * ```", " */", "export function greet() {}", ""].join("\n");

describe("regions", () => {
  test("a region is its lines dedented to the marker, other markers left out", () => {
    const regions = regionsOf(EXAMPLE);
    assert.equal(regions.get("greet"), "const name = 'Ana';\n\nconsole.log(`hello ${name}`);");
    assert.equal(regions.get("inner"), "console.log(`hello ${name}`);");
    assert.equal(withoutMarkers(EXAMPLE), "// An example.\nfunction main() {\n  const name = 'Ana';\n\n  console.log(`hello ${name}`);\n}\n");
  });

  test("a region never closed, closed twice or named twice is an error naming the line", () => {
    assert.throws(() => regionsOf("//#region a\nx", "f.ts"), /f\.ts:1: region a is never closed/);
    assert.throws(() => regionsOf("//#endregion a", "f.ts"), /f\.ts:1: #endregion a closes no open region/);
    assert.throws(() => regionsOf("//#region a\n//#endregion a\n//#region a\n//#endregion a", "f.ts"), /f\.ts:3: region a is opened twice/);
  });
});

describe("@example blocks", () => {
  const read = (ref: string) => (ref === "examples/a.ts#greet" ? regionsOf(EXAMPLE).get("greet")! : assert.fail(ref));
  const fresh = source([" * const name = 'Ana';", " *", " * console.log(`hello ${name}`);"]);

  test("a block that matches its region is left as it is", () => {
    assert.deepEqual(syncSource(fresh, read), { text: fresh, stale: [] });
  });

  test("a stale block is named by line and rewritten with its region", () => {
    const { text, stale } = syncSource(source([" * const name = 'Bob';"]), read);
    assert.deepEqual(stale, [{ line: 5, ref: "examples/a.ts#greet" }]);
    assert.equal(text, fresh);
  });

  test("a region block must follow @example and be closed", () => {
    assert.throws(() => syncSource(fresh.replace(" * @example\n", " * Example:\n"), read, "s.ts"), /s\.ts:5: a region block must follow/);
    assert.throws(() => syncSource(fresh.replace(" * ```\n */", " */"), read, "s.ts"), /s\.ts:5: the @example block of examples\/a\.ts#greet is not closed/);
  });
});

test("syncAll --check names each out-of-date block and rewrites nothing; without --check it rewrites them", () => {
  const base = mkdtempSync(join(tmpdir(), "sync-examples-"));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    };
    write("examples/a.ts", EXAMPLE);
    write("src/greet.ts", source([" * old"]));
    write("README.md", "# Read me\n\n<!-- example: examples/a.ts#inner -->\n```ts\nold\n```\n");
    write("docs/page.md", "<!-- example: examples/a.ts -->\n```ts\n" + withoutMarkers(EXAMPLE) + "```\n");
    const report = ["src/greet.ts:5: @example from examples/a.ts#greet is out of date", "README.md:3: example block from examples/a.ts#inner is out of date"];
    assert.deepEqual(syncAll({ check: true, base }), report);
    assert.equal(readFileSync(join(base, "src/greet.ts"), "utf8"), source([" * old"]));
    assert.deepEqual(syncAll({ base }), report);
    assert.deepEqual(syncAll({ check: true, base }), []);
    assert.match(readFileSync(join(base, "README.md"), "utf8"), /```ts\nconsole\.log\(`hello \$\{name\}`\);\n```/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("every @example and example block of the repository matches its file (node scripts/sync-examples.mjs --check)", async () => {
  const { stdout } = await run(process.execPath, ["scripts/sync-examples.mjs", "--check"], { cwd: root }).catch((e: { stdout: string }) =>
    assert.fail(`out of date; run node scripts/sync-examples.mjs:\n${e.stdout}`),
  );
  assert.match(stdout, /Every @example and example block matches its file\./);
});

test("public functions show checked examples: at least eight @example blocks in src/", () => {
  const blocks = filesUnder("src", (n) => n.endsWith(".ts")).flatMap((f) => read(f).match(/^\s*\* ```ts region=examples\//gm) ?? []);
  assert.ok(blocks.length >= 8, `only ${blocks.length} @example blocks`);
});
