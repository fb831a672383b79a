// `elicit serve travel --passport` is the travel server's option (the demo starts it so): another server refuses it
// as a usage error naming it, rather than starting without the step the flag asked for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CLI_TEST, runCli } from "../helpers/cli.js";

test("--passport on a server other than travel is a usage error", CLI_TEST, async () => {
  const r = await runCli(["serve", "conformance", "--passport"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--passport is a travel server option; "conformance" has no passport step/);
});
