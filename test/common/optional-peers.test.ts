// The check behind mcp-elicit/terminal, /openai, /oidc and /cli: what is missing is named with the command
// that installs it, before any module that imports it is loaded. (test/package/pack.test.ts sees the real
// thing, in a project that installed the library without the CLI's packages.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadWithPeers, MissingPeerError, missingPeers, OPTIONAL_PEERS } from "../../src/common/optional-peers.js";

test("missingPeers names the packages that do not resolve from the library, in the order asked", () => {
  assert.deepEqual(missingPeers(["commander", "no-such-package-for-mcp-elicit", "ora", "@no-such/scope"]), [
    "no-such-package-for-mcp-elicit",
    "@no-such/scope",
  ]);
  // In the repository every optional peer is a dev dependency.
  assert.deepEqual(missingPeers(Object.values(OPTIONAL_PEERS).flat()), []);
});

test("MissingPeerError: one package or several, and the command that installs them", () => {
  assert.equal(
    new MissingPeerError("mcp-elicit/openai", ["openai"]).message,
    "mcp-elicit/openai needs openai (an optional peer dependency of mcp-elicit, not installed): npm install openai",
  );
  const error = new MissingPeerError("X", ["a", "@b/c", "d"], "or something else");
  assert.equal(
    error.message,
    "X needs a, @b/c and d (optional peer dependencies of mcp-elicit, not installed): npm install a @b/c d, or something else",
  );
  assert.deepEqual(error.packages, ["a", "@b/c", "d"]);
  assert.equal(error.name, "MissingPeerError");
});

test("loadWithPeers loads when every peer resolves", async () => {
  let loaded = 0;
  assert.equal(await loadWithPeers("mcp-elicit/openai", async () => ++loaded), 1);
});
