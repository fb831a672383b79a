// The manifests a release publishes (scripts/pack-release.mjs): the repository's package.json files without
// what only means something in the clone, and a check that refuses to publish a manifest with a script, a
// clone-only field, or a path the tarball does not hold. test/package/registry.test.ts publishes them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { manifestProblems, publishedManifest } from "../../scripts/pack-release.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8")) as Record<string, unknown>;

test("the published manifests keep what a consumer's npm reads and drop the clone's scripts, workspaces and devDependencies", () => {
  const library = read("package.json");
  assert.ok((library.scripts as Record<string, string>).prepare, "the clone builds on npm ci");
  const published = publishedManifest(library);
  for (const field of ["scripts", "workspaces", "overrides", "allowScripts", "devDependencies"])
    assert.equal(published[field], undefined, `${field} is not published`);
  for (const field of [
    "name",
    "version",
    "type",
    "engines",
    "exports",
    "files",
    "dependencies",
    "peerDependencies",
    "peerDependenciesMeta",
  ])
    assert.deepEqual(published[field], library[field], `${field} is published as it is`);
  const cli = publishedManifest(read("packages/cli/package.json"));
  assert.deepEqual(cli.bin, { elicit: "bin/elicit.js" });
  assert.deepEqual(manifestProblems(cli, ["package.json", "README.md", "LICENSE", "bin/elicit.js"]), []);
});

test("a manifest is refused for a script, a clone-only field, or a path its tarball lacks, each named", () => {
  const manifest = {
    name: "mcp-elicit",
    scripts: { prepare: "node scripts/prepare.mjs" },
    workspaces: ["packages/cli"],
    exports: { "./schema": { types: "./dist/schema/index.d.ts", import: "./dist/schema/index.js" } },
    bin: { elicit: "bin/elicit.js" },
  };
  assert.deepEqual(manifestProblems(manifest, ["package.json", "dist/schema/index.js"]), [
    "mcp-elicit: the published manifest has scripts (prepare)",
    "mcp-elicit: the published manifest has workspaces",
    "mcp-elicit: package.json points at dist/schema/index.d.ts, which the tarball does not hold",
    "mcp-elicit: package.json points at bin/elicit.js, which the tarball does not hold",
  ]);
  const clean = publishedManifest(manifest);
  assert.deepEqual(manifestProblems(clean, ["package.json", "dist/schema/index.js", "dist/schema/index.d.ts", "bin/elicit.js"]), []);
});
