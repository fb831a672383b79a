// The credential vault on the real stores: sealed records that open only with the key and under the
// entry they were written for, list and revoke by principal, nothing readable on disk, and access
// tokens refreshed at a real OpenID provider (src/examples/auth) with the refresh token.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/examples/auth/openid-provider.js";
import { kitKeys, parseKey, resolveKitKey, VAULT_KEY_ENV } from "../../src/server/url/keys.js";
import { OAuthClient } from "../../src/server/url/oauth-client.js";
import { oauthCredential, Vault, VaultError, type OAuthCredential } from "../../src/server/url/vault.js";
import { memoryStore, sqliteStore, type KeyValueStore } from "../../src/store/index.js";
import { scratchFiles } from "../helpers/files.js";
import { signIn } from "../helpers/oidc.js";

const alice = { issuer: "http://127.0.0.1:1", sub: "alice" };
const bob = { issuer: "http://127.0.0.1:1", sub: "bob" };
const otherIssuerAlice = { issuer: "http://127.0.0.1:2", sub: "alice" };
const SECRET = "sk_live_this-must-never-be-readable";

describe("stores list keys by prefix", () => {
  const { dir } = scratchFiles("vault-keys-");
  for (const [name, make] of [
    ["memory", () => memoryStore()],
    ["sqlite", () => sqliteStore(join(dir, "keys.db"))],
  ] as const) {
    test(name, async () => {
      const store: KeyValueStore = make();
      try {
        await store.set("a:%_*?[x]:1", "v", 60_000);
        await store.set("a:%_*?[x]:2", "v", 60_000);
        await store.set("a:%_*?[y]:1", "v", 60_000);
        await store.set("a:short", "v", 1);
        await new Promise((r) => setTimeout(r, 10));
        assert.deepEqual(
          (await store.keys("a:%_*?[x]:")).sort(),
          ["a:%_*?[x]:1", "a:%_*?[x]:2"],
          "wildcard characters in a prefix are literal",
        );
        assert.deepEqual(await store.keys("a:short"), [], "expired keys are not listed");
        assert.equal((await store.keys("")).length, 3);
      } finally {
        await store.close();
      }
    });
  }
});

describe("vault", () => {
  const { dir } = scratchFiles("vault-");
  const key = randomBytes(32);

  for (const [name, make] of [
    ["memory", () => memoryStore()],
    ["sqlite", () => sqliteStore(join(dir, "round-trip.db"))],
  ] as const) {
    test(`${name}: put, get, list and revoke by principal`, async () => {
      const store = make();
      const vault = new Vault(store, key);
      try {
        await vault.put(alice, "payment", { card: SECRET }, "form");
        await vault.put(alice, "github", { accessToken: "t" }, "oauth");
        await vault.put(bob, "payment", { card: "bob's" }, "form");
        assert.deepEqual(await vault.get(alice, "payment"), { card: SECRET });
        assert.deepEqual(await vault.get(bob, "payment"), { card: "bob's" });
        assert.equal(await vault.get(otherIssuerAlice, "payment"), undefined, "the same subject at another issuer is another person");
        const listed = await vault.list(alice);
        assert.deepEqual(
          listed.map(({ name, kind }) => ({ name, kind })).sort((a, b) => a.name.localeCompare(b.name)),
          [
            { name: "github", kind: "oauth" },
            { name: "payment", kind: "form" },
          ],
        );
        assert.ok(listed.every((e) => typeof e.createdAt === "number"));
        assert.ok(!JSON.stringify(listed).includes(SECRET));
        assert.equal(await vault.revoke(alice, "payment"), true);
        assert.equal(await vault.revoke(alice, "payment"), false, "nothing left to revoke");
        assert.equal(await vault.get(alice, "payment"), undefined);
        assert.deepEqual(await vault.get(bob, "payment"), { card: "bob's" }, "another person's entry is untouched");
        assert.deepEqual(
          (await vault.list(alice)).map((e) => e.name),
          ["github"],
        );
      } finally {
        await store.close();
      }
    });
  }

  test("sqlite: the file on disk holds neither the secret nor the principal; another process opens it with the key", async () => {
    const file = join(dir, "disk.db");
    const first = sqliteStore(file);
    await new Vault(first, key).put(alice, "payment", { card: SECRET });
    await first.close();
    const bytes = [file, `${file}-wal`]
      .filter(existsSync)
      .map((f) => readFileSync(f).toString("latin1"))
      .join("");
    assert.ok(bytes.length > 0);
    assert.ok(!bytes.includes(SECRET), "the secret is not on disk");
    assert.ok(!bytes.includes("alice"), "the principal is not on disk");
    const second = sqliteStore(file);
    try {
      assert.deepEqual(await new Vault(second, key.toString("base64url")).get(alice, "payment"), { card: SECRET });
      await assert.rejects(new Vault(second, randomBytes(32)).get(alice, "payment"), (e: Error) => {
        assert.ok(e instanceof VaultError);
        assert.match(e.message, /sealed with key \S+, but the configured vaultKey is \S+/);
        assert.ok(!e.message.includes(SECRET));
        return true;
      });
    } finally {
      await second.close();
    }
  });

  test("a record moved under another person's entry does not open", async () => {
    const store = memoryStore();
    const vault = new Vault(store, key);
    await vault.put(alice, "payment", { card: SECRET });
    const [aliceKey] = await store.keys("vault:");
    await vault.put(bob, "payment", { card: "bob's" });
    const bobKey = (await store.keys("vault:")).find((k) => k !== aliceKey)!;
    await store.set(bobKey, (await store.get(aliceKey!))!, 60_000);
    await assert.rejects(vault.get(bob, "payment"), /failed its integrity check/);
    await store.close();
  });

  test("bad principals, names and keys are refused with the rule", async () => {
    const vault = new Vault(memoryStore(), key);
    await assert.rejects(vault.put({ issuer: "", sub: "a" }, "x", 1), /principal must be \{ issuer, sub \}/);
    await assert.rejects(vault.put(alice, "", 1), /name must be 1 to 200 characters/);
    await assert.rejects(vault.put(alice, "a\u001b[31m", 1), /without control characters/);
    assert.throws(() => parseKey("too short"), /vaultKey must be 32 bytes/);
    assert.deepEqual(parseKey(key.toString("hex")), key);
    assert.deepEqual(parseKey(key.toString("base64")), key);
    assert.equal(kitKeys(key).id, kitKeys(key.toString("base64url")).id);
    assert.notDeepEqual(kitKeys(key).vault, kitKeys(key).pages, "each use has its own derived key");
  });

  test("a durable store needs a key; memory gets a random one; the environment variable is read", () => {
    const saved = process.env[VAULT_KEY_ENV];
    delete process.env[VAULT_KEY_ENV];
    try {
      assert.throws(() => resolveKitKey(undefined, true), /a durable store needs vaultKey \(or \$MCP_ELICIT_VAULT_KEY\)/);
      assert.notEqual(resolveKitKey(undefined, false).id, resolveKitKey(undefined, false).id);
      process.env[VAULT_KEY_ENV] = key.toString("hex");
      assert.equal(resolveKitKey(undefined, true).id, kitKeys(key).id);
    } finally {
      if (saved === undefined) delete process.env[VAULT_KEY_ENV];
      else process.env[VAULT_KEY_ENV] = saved;
    }
  });
});

describe("vault.token refreshes at the provider", () => {
  let provider: OpenIdProvider;
  let client: OAuthClient;
  let clientId: string;
  let refreshToken: string;
  let accessToken: string;
  const redirectUri = "http://127.0.0.1:9/elicit/callback";
  before(async () => {
    provider = await startOpenIdProvider();
    const signed = await signIn({ issuer: provider.issuer, user: "alice", scopes: ["openid"], redirectUri });
    assert.ok(signed.refreshToken, "the provider issues refresh tokens");
    ({ clientId, accessToken } = signed);
    refreshToken = signed.refreshToken;
    client = new OAuthClient({ issuer: provider.issuer, clientId, redirectUri, clientName: "test" });
  });
  after(() => provider?.close());

  test("a valid token is returned as stored; an expired one is refreshed once, even when asked twice at once", async () => {
    const store = memoryStore();
    let refreshes = 0;
    const vault = new Vault(store, randomBytes(32), {
      refresh: (name, token) => {
        assert.equal(name, "frequent-flyer");
        refreshes++;
        return client.refresh(token);
      },
    });
    const stored = oauthCredential("frequent-flyer", { accessToken, tokenType: "Bearer", refreshToken, expiresInS: 3600 });
    await vault.put(alice, "frequent-flyer", stored, "oauth");
    assert.equal(await vault.token(alice, "frequent-flyer"), accessToken);
    assert.equal(refreshes, 0);

    await vault.put(alice, "frequent-flyer", { ...stored, expiresAt: Date.now() - 1 }, "oauth");
    const [one, two] = await Promise.all([vault.token(alice, "frequent-flyer"), vault.token(alice, "frequent-flyer")]);
    assert.equal(refreshes, 1, "one refresh for two callers (the provider rotates refresh tokens)");
    assert.equal(one, two);
    assert.ok(one && one !== accessToken, "a new access token");
    const after = (await vault.get<OAuthCredential>(alice, "frequent-flyer"))!;
    assert.equal(after.accessToken, one);
    assert.ok(after.refreshToken && after.refreshToken !== refreshToken, "the rotated refresh token is stored");
    assert.ok(after.expiresAt! > Date.now());
    assert.equal(await vault.token(alice, "frequent-flyer"), one, "and used until it expires");
    await store.close();
  });

  test("a refresh token the provider refuses forgets the credential; nothing connected reads as undefined", async () => {
    const vault = new Vault(memoryStore(), randomBytes(32), { refresh: (_name, token) => client.refresh(token) });
    await vault.put(
      alice,
      "frequent-flyer",
      oauthCredential("frequent-flyer", { accessToken: "old", tokenType: "Bearer", refreshToken: "not-a-refresh-token", expiresInS: -10 }),
      "oauth",
    );
    assert.equal(await vault.token(alice, "frequent-flyer"), undefined);
    assert.deepEqual(await vault.list(alice), []);
    assert.equal(await vault.token(bob, "frequent-flyer"), undefined);
  });
});
