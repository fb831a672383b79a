// storeSink: small files in the kit's KeyValueStore (memory and SQLite here, the stores a single server
// uses): stored in base64 chunks with the store's time to live, read back equal, a file over the cap
// refused naming the cap and the directory sink, a failed body leaving no key behind.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { memoryStore } from "../../../../src/store/memory.js";
import { sqliteStore } from "../../../../src/store/sqlite.js";
import type { KeyValueStore } from "../../../../src/store/types.js";
import { storeSink } from "../../../../src/server/url/files/store-sink.js";
import { FileTooLargeError, UploadExistsError, UploadNotFoundError } from "../../../../src/server/url/files/sink.js";
import { scratchFiles } from "../../../helpers/files.js";
import { waitFor } from "../../../helpers/deferred.js";
import { fromBytes, readAll } from "../../../helpers/byte-streams.js";

const stores: [string, () => Promise<KeyValueStore>][] = [
  ["memory", async () => memoryStore()],
  ["sqlite", async () => sqliteStore(join(scratchFiles("sink-store-").dir, "store.db"))],
];

for (const [kind, make] of stores) {
  describe(`storeSink on the ${kind} store`, () => {
    test("a file under the cap is stored with its SHA-256 and read back equal; delete removes every key", async () => {
      const store = await make();
      const sink = storeSink(store);
      const bytes = randomBytes(700 * 1024);
      const stored = await sink.put("small", fromBytes(bytes, 10_007), { maxBytes: 1024 * 1024 });
      assert.equal(stored.size, bytes.byteLength);
      assert.equal(stored.sha256, createHash("sha256").update(bytes).digest("hex"));
      assert.deepEqual(Buffer.from(stored.head), bytes.subarray(0, 4100));
      for (const key of await store.keys("")) assert.ok(key.startsWith("upload:small"), `key ${key}`);
      for (const key of await store.keys("upload:")) assert.ok(!(await store.get(key))!.includes("\u0000"));
      assert.ok((await readAll(await sink.open("small"))).equals(bytes));
      await assert.rejects(sink.put("small", fromBytes(bytes, 1024), { maxBytes: 1024 * 1024 }), UploadExistsError);
      await sink.delete("small");
      assert.deepEqual(await store.keys("upload:"), []);
      await assert.rejects(sink.open("small"), UploadNotFoundError);
      await store.close();
    });

    test("a file over the store's cap is refused naming the cap and the directory sink; nothing is kept", async () => {
      const store = await make();
      const sink = storeSink(store); // default cap: 1 MiB
      const refusal = await sink
        .put("big", fromBytes(randomBytes(1024 * 1024 + 1), 64 * 1024), { maxBytes: 50 * 1024 * 1024 })
        .catch((error: unknown) => error);
      assert.ok(refusal instanceof FileTooLargeError);
      assert.equal(refusal.maxBytes, 1024 * 1024);
      assert.match(refusal.message, /1 MiB.*directory sink/);
      assert.deepEqual(await store.keys("upload:"), []);
      // Under the tool's own smaller limit, the refusal names that limit.
      const own = await sink.put("big", fromBytes(randomBytes(2000), 500), { maxBytes: 1000 }).catch((error: unknown) => error);
      assert.ok(own instanceof FileTooLargeError && own.maxBytes === 1000);
      assert.doesNotMatch(own.message, /directory sink/);
      assert.throws(() => storeSink(store, { maxBytes: 64 * 1024 * 1024 }), /directory sink/);
      await store.close();
    });

    test("a body that fails midway leaves no key behind", async () => {
      const store = await make();
      const sink = storeSink(store);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 3) return controller.error(new DOMException("The upload was aborted.", "AbortError"));
          sent++;
          controller.enqueue(randomBytes(200 * 1024)); // past one stored chunk before it fails
        },
      });
      await assert.rejects(sink.put("cut", body, { maxBytes: 1024 * 1024 }), { name: "AbortError" });
      assert.deepEqual(await store.keys("upload:"), []);
      await store.close();
    });

    test("an unclaimed upload expires with its lifetime", async () => {
      const store = await make();
      const sink = storeSink(store, { lifetimeMs: 200 });
      await sink.put("brief", fromBytes(randomBytes(10), 10), { maxBytes: 100 });
      await sink.open("brief");
      await waitFor(async () => (await store.keys("upload:")).length === 0, {
        timeoutMs: 10_000,
        what: "the upload's keys to expire",
        intervalMs: 25,
      });
      await assert.rejects(sink.open("brief"), UploadNotFoundError);
      await store.close();
    });
  });
}
