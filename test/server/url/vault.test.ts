// The credential vault on the real stores: sealed records that open only with the key and under the
// entry they were written for, list and revoke by principal, nothing readable on disk, and access
// tokens refreshed at a real OpenID provider (src/oidc) with the refresh token.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createCipheriv, randomBytes } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { startOpenIdProvider, type OpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { kitKeys, parseKey, resolveKitKey, VAULT_KEY_ENV } from "../../../src/server/url/keys.js";
import { OAuthClient } from "../../../src/server/url/oauth-client.js";
import { oauthCredential, Vault, VaultError, type OAuthCredential } from "../../../src/server/url/vault.js";
import { memoryStore, sqliteStore, type KeyValueStore } from "../../../src/store/index.js";
import { scratchFiles } from "../../helpers/files.js";
import { signIn } from "../../helpers/oidc.js";

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

describe("vault records bind their readable fields; the key rotates as a ring", () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const idA = kitKeys(keyA).id;
  const idB = kitKeys(keyB).id;

  /** The one record in `store`, its store key and its stored JSON. */
  async function onlyRecord(store: KeyValueStore): Promise<{ key: string; record: Record<string, unknown> }> {
    const [key, ...more] = await store.keys("vault:");
    assert.ok(key && more.length === 0, "one record");
    return { key, record: JSON.parse((await store.get(key))!) as Record<string, unknown> };
  }

  for (const [field, value] of [
    ["kind", "oauth"],
    ["createdAt", 1],
    ["v", 1],
  ] as const) {
    test(`a record whose readable ${field} was changed in the store is refused by get and list`, async () => {
      const store = memoryStore();
      const vault = new Vault(store, keyA);
      await vault.put(alice, "payment", { card: SECRET }, "form");
      const { key, record } = await onlyRecord(store);
      assert.equal(record.v, 2, "written in the current format");
      await store.set(key, JSON.stringify({ ...record, [field]: value }), 60_000);
      const refused = (e: Error) => e instanceof VaultError && /failed its integrity check/.test(e.message) && !e.message.includes(SECRET);
      await assert.rejects(vault.get(alice, "payment"), refused);
      await assert.rejects(vault.list(alice), refused);
      await store.close();
    });
  }

  test("a malformed record is a VaultError, not a SyntaxError", async () => {
    const store = memoryStore();
    const vault = new Vault(store, keyA);
    await vault.put(alice, "payment", 1);
    const { key, record } = await onlyRecord(store);
    await store.set(key, "{not json", 60_000);
    await assert.rejects(vault.get(alice, "payment"), (e: Error) => e instanceof VaultError && /malformed/.test(e.message));
    await store.set(key, JSON.stringify({ ...record, v: 3 }), 60_000);
    await assert.rejects(vault.get(alice, "payment"), /format this version does not read \(v 1 or 2\)/);
    await store.close();
  });

  test("a record of format v1 (additional data: the store key alone) still opens and lists; the next put writes v2", async () => {
    const store = memoryStore();
    const vault = new Vault(store, keyA);
    await vault.put(alice, "payment", 0); // only for the store key
    const { key } = await onlyRecord(store);
    // Sealed as the v1 code did, with the same derived key.
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", kitKeys(keyA).vault, iv);
    cipher.setAAD(Buffer.from(key));
    const ct = Buffer.concat([cipher.update(JSON.stringify({ card: SECRET })), cipher.final(), cipher.getAuthTag()]);
    const v1 = { v: 1, kid: idA, iv: iv.toString("base64url"), ct: ct.toString("base64url"), kind: "form", createdAt: 1234 };
    await store.set(key, JSON.stringify(v1), 60_000);
    assert.deepEqual(await vault.get(alice, "payment"), { card: SECRET });
    assert.deepEqual(await vault.list(alice), [{ name: "payment", kind: "form", createdAt: 1234 }]);
    assert.equal((await onlyRecord(store)).record.v, 1, "reading does not rewrite");
    await vault.put(alice, "payment", { card: SECRET }, "form");
    assert.equal((await onlyRecord(store)).record.v, 2);
    await store.close();
  });

  test("sealed with key A: ring [B, A] opens it and re-seals on put; ring [B] refuses it naming both ids", async () => {
    const store = memoryStore();
    await new Vault(store, keyA).put(alice, "payment", { card: SECRET }, "form");
    const ring = new Vault(store, [keyB, keyA]);
    assert.deepEqual(await ring.get(alice, "payment"), { card: SECRET });
    assert.equal((await onlyRecord(store)).record.kid, idA, "a read leaves the record as it was");
    const onlyB = new Vault(store, keyB);
    const namesBoth = (e: Error) => {
      assert.ok(e instanceof VaultError);
      assert.ok(e.message.includes(`sealed with key ${idA}, but the configured vaultKey is ${idB}`), e.message);
      return true;
    };
    await assert.rejects(onlyB.get(alice, "payment"), namesBoth);
    await assert.rejects(onlyB.list(alice), namesBoth);
    await ring.put(alice, "payment", { card: "new" }, "form");
    assert.equal((await onlyRecord(store)).record.kid, idB, "the newest key seals");
    assert.deepEqual(await onlyB.get(alice, "payment"), { card: "new" });
    await store.close();
  });

  test("reseal moves every record to the newest key, keeping kind, time and the entry; then the old key can go", async () => {
    const store = memoryStore();
    const old = new Vault(store, keyA);
    await old.put(alice, "payment", { card: SECRET }, "form");
    await old.put(bob, "github", { accessToken: "t" }, "oauth");
    const before = await old.list(alice);
    const keyC = randomBytes(32);
    await new Vault(store, keyC).put(bob, "lost", 1); // sealed with a key the ring no longer holds
    const report = await new Vault(store, [keyB, keyA]).reseal();
    assert.equal(report.resealed, 2);
    assert.equal(report.current, 0);
    assert.equal(report.failed.length, 1);
    assert.match(report.failed[0]!.error, new RegExp(`sealed with key ${kitKeys(keyC).id}`));
    const onlyB = new Vault(store, keyB);
    assert.deepEqual(await onlyB.get(alice, "payment"), { card: SECRET });
    assert.deepEqual(await onlyB.get(bob, "github"), { accessToken: "t" });
    assert.deepEqual(await onlyB.list(alice), before, "kind and creation time kept");
    const again = await onlyB.reseal();
    assert.deepEqual([again.resealed, again.current, again.failed.length], [0, 2, 1], "nothing left to move");
    await store.close();
  });

  test("the ring from $MCP_ELICIT_VAULT_KEY (comma-separated) and from vaultKey (an array)", () => {
    const saved = process.env[VAULT_KEY_ENV];
    try {
      process.env[VAULT_KEY_ENV] = ` ${keyB.toString("base64url")}, ${keyA.toString("hex")} `;
      const keys = resolveKitKey(undefined, true);
      assert.equal(keys.id, idB, "the first key seals");
      assert.deepEqual(keys.pages, kitKeys(keyB).pages, "and signs the pages' tokens");
      assert.deepEqual(
        keys.older?.map((k) => k.id),
        [idA],
      );
      assert.deepEqual(resolveKitKey([keyB, keyA.toString("hex")], true), keys, "an array gives the same ring");
      assert.equal(kitKeys(keyA).older, undefined, "one key is a ring of one");
      process.env[VAULT_KEY_ENV] = `${keyB.toString("base64url")},short`;
      assert.throws(() => resolveKitKey(undefined, true), /\$MCP_ELICIT_VAULT_KEY \(key 2 of 2\) must be 32 bytes/);
      assert.throws(() => kitKeys([]), /vaultKey is an empty ring/);
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
