// The verified-token cache of the JWT verifier: bounded, forgets tokens at their expiry, hands out copies.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { VerifiedTokens } from "../../../src/server/auth/verified-tokens.js";

const now = Date.now();
const info = (token: string, expiresInS = 60): AuthInfo => ({
  token,
  clientId: "c",
  scopes: ["mcp:tools"],
  expiresAt: Math.floor(now / 1000) + expiresInS,
  resource: new URL("http://127.0.0.1:1/mcp"),
  extra: { sub: "alice", issuer: "http://127.0.0.1:2" },
});

test("a verified token is known until its expiry, then forgotten", () => {
  const cache = new VerifiedTokens();
  cache.set(info("a", 60));
  assert.equal(cache.get("a", now)?.clientId, "c");
  assert.equal(cache.get("a", now + 61_000), undefined);
  assert.equal(cache.size, 0);
  assert.equal(cache.get("never-seen", now), undefined);
});

test("holds at most its limit, the oldest leaving first", () => {
  const cache = new VerifiedTokens(3);
  for (const t of ["a", "b", "c", "d"]) cache.set(info(t));
  assert.equal(cache.size, 3);
  assert.equal(cache.get("a", now), undefined);
  assert.deepEqual(
    ["b", "c", "d"].map((t) => cache.get(t, now)?.token),
    ["b", "c", "d"],
  );
});

test("each caller gets its own copy", () => {
  const cache = new VerifiedTokens();
  cache.set(info("a"));
  const first = cache.get("a", now)!;
  first.scopes.push("mcp:admin");
  (first.extra as Record<string, unknown>).sub = "mallory";
  const second = cache.get("a", now)!;
  assert.deepEqual(second.scopes, ["mcp:tools"]);
  assert.equal(second.extra?.sub, "alice");
});
