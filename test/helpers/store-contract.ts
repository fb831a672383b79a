// The contract every KeyValueStore keeps, as one describe per store: memoryStore and sqliteStore run it in
// contract.test.ts, redisStore (which needs a redis-server) in redis-store.test.ts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { KeyValueStore } from "../../src/store/index.js";

export interface StoreKind {
  name: string;
  /** One store, and a second handle on the same data (another connection or file handle). */
  open(): Promise<{ store: KeyValueStore; other(): Promise<KeyValueStore> }>;
}

/**
 * Resolves once the clock is past a key's expiry (set at `setAt` for `ttlMs`), with a margin for the
 * store's own clock: an expiry is an event of time, so this is the wait for it, not a guess at a duration.
 */
const pastExpiry = (setAt: number, ttlMs: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, setAt + ttlMs + 100 - Date.now())));

export function storeContract(kind: StoreKind): void {
  describe(kind.name, () => {
    test("get, add, set, delete and keys", async () => {
      const { store } = await kind.open();
      try {
        assert.equal(await store.get("a"), undefined);
        assert.equal(await store.add("a", "first", 60_000), true);
        assert.equal(await store.add("a", "second", 60_000), false, "add does not replace a live key");
        assert.equal(await store.get("a"), "first");
        await store.set("a", "replaced", 60_000);
        assert.equal(await store.get("a"), "replaced");
        await store.set("ab", "x", 60_000);
        await store.set("b", "y", 60_000);
        assert.deepEqual((await store.keys("a")).sort(), ["a", "ab"]);
        assert.deepEqual((await store.keys("")).sort(), ["a", "ab", "b"]);
        await store.delete("a");
        assert.equal(await store.get("a"), undefined);
        assert.deepEqual(await store.keys("a"), ["ab"]);
        await store.delete("never-there");
      } finally {
        await store.close();
      }
    });

    test("values come back byte for byte (JSON, unicode, newlines, empty)", async () => {
      const { store } = await kind.open();
      try {
        for (const value of ['{"a":[1,2,{"b":null}]}', "naïve ✓ 日本 🚀", "line\r\nline\u0000end", ""]) {
          await store.set("v", value, 60_000);
          assert.equal(await store.get("v"), value);
        }
      } finally {
        await store.close();
      }
    });

    test("an expired key reads as absent, is not listed, and can be added again", async () => {
      const { store } = await kind.open();
      try {
        const setAt = Date.now();
        assert.equal(await store.add("short", "1", 30), true);
        await store.set("short-set", "1", 30);
        await store.set("long", "1", 60_000);
        await pastExpiry(setAt, 30);
        assert.equal(await store.get("short"), undefined);
        assert.equal(await store.get("short-set"), undefined);
        assert.deepEqual(await store.keys("short"), []);
        assert.equal(await store.add("short", "2", 60_000), true);
        assert.equal(await store.get("short"), "2");
        assert.equal(await store.get("long"), "1");
      } finally {
        await store.close();
      }
    });

    test("50 parallel adds of one key from two handles: exactly one wins", async () => {
      const { store, other } = await kind.open();
      const second = await other();
      try {
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store : second).add("race", `writer-${i}`, 60_000)),
        );
        assert.equal(results.filter(Boolean).length, 1);
        const winner = results.indexOf(true);
        assert.equal(await second.get("race"), `writer-${winner}`);
        assert.equal(await store.get("race"), `writer-${winner}`);
      } finally {
        await store.close();
        if (second !== store) await second.close();
      }
    });

    test("swap replaces or deletes only the value it was given; expired and absent keys never match", async () => {
      const { store } = await kind.open();
      try {
        assert.equal(await store.swap("s", "x", "y", 60_000), false, "absent: nothing to compare");
        assert.equal(await store.get("s"), undefined);
        await store.set("s", "one", 60_000);
        assert.equal(await store.swap("s", "other", "two", 60_000), false);
        assert.equal(await store.get("s"), "one");
        assert.equal(await store.swap("s", "one", "two", 60_000), true);
        assert.equal(await store.get("s"), "two");
        assert.equal(await store.swap("s", "one", undefined, 60_000), false, "a stale value deletes nothing");
        assert.equal(await store.swap("s", "two", undefined, 60_000), true);
        assert.equal(await store.get("s"), undefined);
        const briefAt = Date.now();
        await store.set("brief", "v", 30);
        await pastExpiry(briefAt, 30);
        assert.equal(await store.swap("brief", "v", "w", 60_000), false, "an expired value is absent");
        assert.equal(await store.get("brief"), undefined);
        // A TTL long enough that the swap comes well before it lapses, even on a busy machine.
        const renewedAt = Date.now();
        await store.set("renewed", "v", 1_000);
        assert.equal(await store.swap("renewed", "v", "v", 60_000), true);
        await pastExpiry(renewedAt, 1_000);
        assert.equal(await store.get("renewed"), "v", "the swap set the new TTL");
      } finally {
        await store.close();
      }
    });

    test("50 parallel swaps of one value from two handles: exactly one wins", async () => {
      const { store, other } = await kind.open();
      const second = await other();
      try {
        await store.set("fence", "gen-0", 60_000);
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store : second).swap("fence", "gen-0", `gen-1-by-${i}`, 60_000)),
        );
        assert.equal(results.filter(Boolean).length, 1);
        assert.equal(await second.get("fence"), `gen-1-by-${results.indexOf(true)}`);
      } finally {
        await store.close();
        if (second !== store) await second.close();
      }
    });

    test("glob and LIKE characters in keys and prefixes are literal", async () => {
      const { store } = await kind.open();
      try {
        const odd = ["a*b", "a?c", "a[b]d", "a\\e", "a%f", "a_g", "a^h-i"];
        for (const key of odd) await store.set(key, key, 60_000);
        await store.set("axb", "plain", 60_000);
        for (const key of odd) assert.deepEqual(await store.keys(key), [key], `keys(${JSON.stringify(key)})`);
        assert.deepEqual(await store.keys("a*"), ["a*b"]);
        assert.deepEqual(await store.keys("a["), ["a[b]d"]);
        assert.equal((await store.keys("a")).length, odd.length + 1);
      } finally {
        await store.close();
      }
    });

    test("close releases the store", async () => {
      const { store } = await kind.open();
      await store.set("k", "v", 60_000);
      await store.close();
      if (kind.name !== "memoryStore") await assert.rejects(store.get("k"));
    });
  });
}
