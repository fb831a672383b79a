// directorySink at its boundary: real web streams into a real directory. A body over the limit is refused
// with the limit named while the process's memory stays flat, and leaves no file; a complete body is
// stored with its SHA-256 and read back equal; a failed body leaves nothing; an unclaimed upload is gone
// after its lifetime.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync, utimesSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { directorySink } from "../../../../src/server/url/files/directory-sink.js";
import { FileTooLargeError, UploadExistsError, UploadNotFoundError } from "../../../../src/server/url/files/sink.js";
import { scratchFiles } from "../../../helpers/files.js";
import { waitFor, within } from "../../../helpers/deferred.js";
import { fromBytes, readAll } from "../../../helpers/byte-streams.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const MB = 1024 * 1024;

/** A body of `total` bytes in fresh chunks of `chunk` bytes (nothing reused, so a sink that kept them would grow), calling `sample` per chunk. */
function generated(total: number, chunk: number, sample: () => void = () => {}): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunk, total - sent);
      const bytes = new Uint8Array(size).fill(sent & 0xff);
      sent += size;
      sample();
      controller.enqueue(bytes);
    },
  });
}

const memory = () => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

describe("directorySink", () => {
  test("60 MB against a 50 MB limit: refused naming the limit, memory flat, no file left", async () => {
    const { dir } = scratchFiles("sink-big-");
    const sink = directorySink(dir);
    await sink.put("warm", generated(10, 10), { maxBytes: 10 }); // loads node:fs first: not counted
    await sink.delete("warm");
    gc();
    const before = memory();
    // Live memory sampled every 4 MiB of body, after a collection: garbage chunks do not count, what the
    // sink holds does (a sink that buffered would be near 50 MiB at the last samples).
    let peak = before;
    let sentBytes = 0;
    const sample = () => {
      sentBytes += 64 * 1024;
      if (sentBytes % (4 * MB) !== 0) return;
      gc();
      peak = Math.max(peak, memory());
    };
    const started = performance.now();
    const refusal = await sink.put("big", generated(60 * MB, 64 * 1024, sample), { maxBytes: 50 * MB }).then(
      () => assert.fail("a 60 MB body was stored against a 50 MB limit"),
      (error: unknown) => error,
    );
    const seconds = (performance.now() - started) / 1000;
    gc();
    const retained = memory() - before;
    assert.ok(refusal instanceof FileTooLargeError, `refused with ${String(refusal)}`);
    assert.equal(refusal.maxBytes, 50 * MB);
    assert.match(refusal.message, /50 MiB/);
    // The body was cancelled just past the limit, not read to its end.
    assert.ok(sentBytes <= 50 * MB + 2 * 64 * 1024 + 64 * 1024 * 4, `read ${sentBytes} bytes of the body`);
    assert.deepEqual(readdirSync(dir), [], "the partial file is removed");
    const peakGrowth = peak - before;
    console.log(
      `60 MiB vs 50 MiB limit: live memory peak growth ${(peakGrowth / MB).toFixed(1)} MiB, retained ${(retained / MB).toFixed(1)} MiB, ${(50 / seconds).toFixed(0)} MiB/s (with a collection every 4 MiB)`,
    );
    assert.ok(peakGrowth < 8 * MB, `memory grew by ${(peakGrowth / MB).toFixed(1)} MiB during the put (heap + array buffers)`);
    assert.ok(retained < 8 * MB, `memory kept ${(retained / MB).toFixed(1)} MiB after the put`);
  });

  test("5 MB: stored under its id with the right SHA-256, size, head and mode, read back equal", async () => {
    const { dir } = scratchFiles("sink-5mb-");
    const sink = directorySink(dir);
    const bytes = randomBytes(5 * MB);
    const started = performance.now();
    const stored = await sink.put("up_5mb", fromBytes(bytes, 65_521), { maxBytes: 5 * MB });
    const seconds = (performance.now() - started) / 1000;
    console.log(`5 MiB stored at ${(5 / seconds).toFixed(0)} MiB/s`);
    assert.equal(stored.id, "up_5mb");
    assert.equal(stored.size, 5 * MB);
    assert.equal(stored.sha256, createHash("sha256").update(bytes).digest("hex"));
    assert.deepEqual(Buffer.from(stored.head), bytes.subarray(0, 4100));
    assert.deepEqual(readdirSync(dir), ["up_5mb.upload"], "one file, under the generated id");
    if (process.platform !== "win32") assert.equal(statSync(join(dir, "up_5mb.upload")).mode & 0o777, 0o600);
    assert.ok((await readAll(await sink.open("up_5mb"))).equals(bytes), "read back equal");
    // A second upload under the id is refused before its body is read.
    let pulled = 0;
    const second = new ReadableStream<Uint8Array>({ pull: (controller) => void (pulled++, controller.enqueue(new Uint8Array(1024))) });
    await assert.rejects(sink.put("up_5mb", second, { maxBytes: 5 * MB }), UploadExistsError);
    assert.ok(pulled <= 1, `${pulled} chunks of the second body read`);
    assert.deepEqual(readdirSync(dir), ["up_5mb.upload"]);
    await sink.delete("up_5mb");
    assert.deepEqual(readdirSync(dir), []);
    await assert.rejects(sink.open("up_5mb"), UploadNotFoundError);
  });

  test("a body that fails midway leaves nothing behind", async () => {
    const { dir } = scratchFiles("sink-abort-");
    const sink = directorySink(dir);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 3) return controller.error(new DOMException("The upload was aborted.", "AbortError"));
        sent++;
        controller.enqueue(new Uint8Array(256 * 1024));
      },
    });
    await assert.rejects(sink.put("cut", body, { maxBytes: 10 * MB }), { name: "AbortError" });
    assert.deepEqual(readdirSync(dir), []);
    await assert.rejects(sink.open("cut"), UploadNotFoundError);
    // The same id can be uploaded again from the start.
    const again = await sink.put("cut", generated(1000, 100), { maxBytes: 10 * MB });
    assert.equal(again.size, 1000);
  });

  test("an exact-size body is stored; zero bytes are stored as zero bytes; a bad id is refused", async () => {
    const { dir } = scratchFiles("sink-edges-");
    const sink = directorySink(dir);
    assert.equal((await sink.put("exact", generated(4096, 1000), { maxBytes: 4096 })).size, 4096);
    await assert.rejects(sink.put("over", generated(4097, 1000), { maxBytes: 4096 }), FileTooLargeError);
    const empty = await sink.put("empty", generated(0, 1), { maxBytes: 10 });
    assert.equal(empty.sha256, createHash("sha256").digest("hex"));
    assert.equal(empty.head.byteLength, 0);
    for (const id of ["../etc/passwd", "a/b", "", ".hidden", "x".repeat(129), "passport photo.jpg"])
      await assert.rejects(sink.put(id, generated(1, 1), { maxBytes: 10 }), /upload id/, `id ${JSON.stringify(id)}`);
    assert.deepEqual(readdirSync(dir).sort(), ["empty.upload", "exact.upload"]);
  });

  test("an unclaimed upload is deleted after its lifetime; other files in the directory stay", async () => {
    const { dir, file } = scratchFiles("sink-life-");
    const theirs = file("notes.txt", "not an upload");
    const sink = directorySink(dir, { lifetimeMs: 300 });
    await sink.put("brief", generated(10, 10), { maxBytes: 10 });
    const path = join(dir, "brief.upload");
    assert.ok(existsSync(path));
    await within(
      new Promise<void>((resolve) => {
        const check = () => {
          if (existsSync(path)) return;
          watcher.close();
          resolve();
        };
        const watcher = watch(dir, check);
        check();
      }),
      10_000,
      "the unclaimed upload to be deleted",
    );
    await assert.rejects(sink.open("brief"), UploadNotFoundError);
    assert.ok(existsSync(theirs), "a file the sink did not write is left alone");
  });

  test("a temporary file a crash left behind is swept once older than the lifetime; one being written is not", async () => {
    const { dir } = scratchFiles("sink-orphan-");
    const sink = directorySink(dir, { lifetimeMs: 2000 });
    const orphan = join(dir, ".passport.0123456789abcdef.part");
    const past = new Date(Date.now() - 60_000);
    const swept = () =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (existsSync(orphan)) return;
          watcher.close();
          resolve();
        };
        const watcher = watch(dir, check);
        check();
      });
    // An upload in progress, its temporary file made to look old, then orphans made and swept: the
    // upload's own file is not swept, and the upload completes.
    let sent = 0;
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 2) return controller.close();
        if (sent === 1) {
          const temp = readdirSync(dir).find((name) => name.startsWith(".slow."));
          assert.ok(temp !== undefined, "the upload's temporary file");
          // The stream pulls ahead of the sink: the first chunk is written once the file has its 100 bytes.
          await waitFor(() => statSync(join(dir, temp)).size === 100, { what: "the first chunk to be written" });
          utimesSync(join(dir, temp), past, past);
          // Twice: the pass that takes the second orphan began after the one that took the first had
          // ended (a pass read the directory before the second existed), so a whole pass saw the old file.
          for (const round of ["first", "second"]) {
            writeFileSync(orphan, "half an upload");
            utimesSync(orphan, past, past);
            await within(swept(), 10_000, `the ${round} orphaned temporary file to be swept`);
          }
        }
        sent++;
        controller.enqueue(new Uint8Array(100));
      },
    });
    const stored = await sink.put("slow", slow, { maxBytes: 1000 });
    assert.equal(stored.size, 200);
    assert.deepEqual(readdirSync(dir), ["slow.upload"]);
  });

  test("a temporary file nobody writes to for partialIdleMs (a process killed mid-upload) is swept then, not a lifetime later", async () => {
    const { dir } = scratchFiles("sink-idle-");
    const sink = directorySink(dir, { lifetimeMs: 60 * 60_000, partialIdleMs: 500 });
    await sink.put("kept", new Blob(["a stored upload"]).stream(), { maxBytes: 1000 });
    const orphan = join(dir, ".dead.0123456789abcdef.part");
    writeFileSync(orphan, "half an upload");
    // Both a minute old: the partial is long idle, the stored upload well within its lifetime.
    const past = new Date(Date.now() - 60_000);
    utimesSync(orphan, past, past);
    utimesSync(join(dir, "kept.upload"), past, past);
    await within(
      waitFor(() => !existsSync(orphan), { timeoutMs: 10_000, what: "the idle partial file to be swept" }),
      11_000,
      "the sweep",
    );
    assert.deepEqual(readdirSync(dir), ["kept.upload"]);
    assert.throws(() => directorySink(dir, { partialIdleMs: 0 }), /partialIdleMs must be a positive number of ms/);
  });

  test("a body of anything but bytes is refused and leaves nothing", async () => {
    const { dir } = scratchFiles("sink-type-");
    const sink = directorySink(dir);
    const strings = new ReadableStream({
      start(controller) {
        controller.enqueue("not bytes");
        controller.close();
      },
    }) as unknown as ReadableStream<Uint8Array>;
    await assert.rejects(sink.put("text", strings, { maxBytes: 100 }), /stream of Uint8Array/);
    assert.deepEqual(readdirSync(dir), []);
  });
});
