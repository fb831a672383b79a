// `elicit --help` loads commander and nothing else from node_modules: main.ts imports each command's
// module when that command runs. When it imported them all up front, help loaded the terminal UI, the
// SDK, the bundled servers and openai, and took 2-5 s on the 2-core machine instead of well under one.
// The hook (loaded-modules.ts) sees `require` inside CommonJS packages too, so a heavy dependency
// pulled in by a light one is caught as well.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { BIN, modulesLoadedBy } from "../helpers/loaded-modules.js";

/** Dependencies that cost tens to hundreds of milliseconds to load: none belongs in help or version. */
const HEAVY = [
  "@modelcontextprotocol/client",
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/node",
  "@modelcontextprotocol/core",
  "zod",
  "hono",
  "@hono/node-server",
  "ajv",
  "better-sqlite3",
  "playwright-core",
  "@inquirer/prompts",
  "@inquirer/core",
  "ora",
  "open",
  "openai",
  "oidc-provider",
  "jose",
  "tldts",
];

const root = join(BIN, "..", "..", "..");

test("elicit --help, --version, serve --help and tools --help load commander alone, and three of our modules", async () => {
  for (const args of [["--help"], ["--version"], ["serve", "--help"], ["tools", "--help"]]) {
    const { packages, files, stdout } = await modulesLoadedBy(args);
    assert.match(stdout, args[0] === "--version" ? /^\d+\.\d+\.\d+/ : /^Usage: elicit /m, `elicit ${args.join(" ")}`);
    assert.deepEqual(packages, ["commander"], `elicit ${args.join(" ")}`);
    for (const name of HEAVY) assert.ok(!packages.includes(name), `elicit ${args.join(" ")} loads ${name}`);
    // Our own: the bin, the names help prints, the revisions (and package.json for the version).
    const ours = files.filter((file) => !file.includes("node_modules")).map((file) => relative(root, file));
    assert.deepEqual(ours.sort(), ["dist/cli/constants.js", "dist/cli/main.js", "dist/schema/types.js", "package.json"]);
  }
});

test("a command loads its own modules when it runs: elicit lint loads no terminal UI, SDK, model or sign-in package", async () => {
  const dir = mkdtempSync(join(tmpdir(), "elicit-startup-lint-"));
  try {
    const form = join(dir, "form.json");
    writeFileSync(form, JSON.stringify({ type: "object", properties: { age: { type: "integer", minimum: 18 } } }));
    const { packages, stdout } = await modulesLoadedBy(["lint", form]);
    assert.match(stdout, /^0 errors, 0 warnings/);
    // The format checks reuse ajv-formats' definitions (its formats file alone, not Ajv).
    assert.deepEqual(packages, ["ajv-formats", "commander"]);
    for (const name of HEAVY) assert.ok(!packages.includes(name), `elicit lint loads ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
