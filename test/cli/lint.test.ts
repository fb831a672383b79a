import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { CLI_TEST, runCli } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";

const { dir, file } = scratchFiles("elicit-lint-");

test("a clean schema exits 0 and says so", CLI_TEST, async () => {
  const r = await runCli(["lint", file("ok.json", { type: "object", properties: { name: { type: "string" } }, required: ["name"] })]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^0 errors, 0 warnings \(protocol 2026-07-28\)$/m);
});

test("errors exit 1 and print path, severity and code", CLI_TEST, async () => {
  const r = await runCli([
    "lint",
    file("bad.json", { type: "object", properties: { addr: { type: "object" }, apiKey: { type: "string" } } }),
  ]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^\/properties\/addr\/type {2}error {2}nested-object {2}/m);
  assert.match(r.stdout, /^\/properties\/apiKey {2}warning {2}sensitive-field {2}/m);
  assert.match(r.stdout, /1 error, 1 warning/);
});

test("warnings alone exit 0", CLI_TEST, async () => {
  const r = await runCli(["lint", file("warn.json", { type: "object", properties: {} })]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /form-empty/);
});

test("--protocol applies that revision's rules; --json prints the findings", CLI_TEST, async () => {
  const titled = file("titled.json", { type: "object", properties: { c: { type: "string", oneOf: [{ const: "a", title: "A" }] } } });
  assert.equal((await runCli(["lint", titled, "--protocol", "2025-11-25"])).code, 0);
  const r = await runCli(["lint", titled, "--protocol", "2025-06-18", "--json"]);
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout);
  assert.equal(out.protocol, "2025-06-18");
  assert.deepEqual(
    out.issues.map((i: { code: string }) => i.code),
    ["revision-titled-enum"],
  );
});

test("reads standard input with -, and accepts whole elicitation/create requests", CLI_TEST, async () => {
  const request = {
    method: "elicitation/create",
    params: { message: "m", requestedSchema: { type: "object", properties: { n: { type: "number", minimum: 5, maximum: 1 } } } },
  };
  const r = await runCli(["lint", "-"], { input: JSON.stringify(request) });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /bounds-inverted/);
});

test("bad JSON, a missing file and an unknown revision exit 2 with a one-line reason", CLI_TEST, async () => {
  const bad = await runCli(["lint", file("broken.json", "{ not json")]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^elicit lint: .*broken\.json is not valid JSON: .+\n$/);
  const missing = await runCli(["lint", join(dir, "nope.json")]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^elicit lint: cannot read .*nope\.json: ENOENT/);
  const rev = await runCli(["lint", "-", "--protocol", "2024-01-01"], { input: "{}" });
  assert.equal(rev.code, 2);
  assert.match(rev.stderr, /unknown protocol revision "2024-01-01"/);
});

test("usage errors exit 2; --help exits 0 and lists lint", CLI_TEST, async () => {
  assert.equal((await runCli(["lint"])).code, 2);
  const help = await runCli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /lint \[options\] <file>/);
});
