// `elicit call` against a stdio server whose reply to tools/call is malformed in a way the SDK's
// transport drops (the id is lost with it): the call used to wait for its 30-minute timeout (seen
// not exited after 400 s); now it exits at once with an error that says the reply was malformed.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CLI_TEST, runCli } from "../helpers/cli.js";

const SERVER = fileURLToPath(new URL("../fixtures/malformed-reply-server.mjs", import.meta.url));
/** Far below the call's 30-minute timeout; the bin's start on a busy 2-core machine takes most of it. */
const PROMPTLY_MS = 20_000;

describe("elicit call: a malformed reply to tools/call", () => {
  for (const shape of ["result-null", "jsonrpc-1.0", "result-and-error", "deep"])
    test(`${shape}: exits promptly with a clear error`, CLI_TEST, async () => {
      const r = await runCli(["call", "echo", "--", process.execPath, SERVER, shape], { timeoutMs: 60_000 });
      assert.notEqual(r.code, 0, r.stdout);
      assert.notEqual(r.code, null, `killed: ${r.stderr}`);
      assert.match(r.stderr, /The server's reply was malformed/, r.stderr);
      assert.ok(r.ms < PROMPTLY_MS, `exited after ${r.ms} ms`);
    });
});
