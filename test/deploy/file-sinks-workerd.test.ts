// The upload sinks and file-type in real workerd: a Worker (test/deploy/fixtures/file-sinks/) builds
// storeSink and directorySink at module scope, streams a request body into the store, sniffs its type
// with file-type and streams it back. It shows that the library and the sinks need nothing Workers lack
// (no timers or I/O at module scope, no Node streams), and that the store's cap holds there too.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { needs } from "../helpers/needs.js";
import { startWorker, type LocalWorker } from "../helpers/workerd.js";

describe("storeSink and checkFileType in workerd", { skip: needs("workerd") }, () => {
  let worker: LocalWorker;
  before(async () => {
    worker = await startWorker("test/deploy/fixtures/file-sinks/wrangler.jsonc");
  });
  after(async () => {
    const logs = worker?.logs.join("") ?? "";
    await worker?.stop();
    assert.doesNotMatch(logs, /Disallowed operation|different request context|Uncaught/);
  });

  test("a PNG is stored, sniffed as image/png, refused under a .pdf name, and read back equal", { timeout: 60_000 }, async () => {
    const png = readFileSync(new URL("../../docs/images/url-done.png", import.meta.url)).subarray(0, 50_000);
    const upload = async (id: string, name: string) => {
      const url = new URL(`/?id=${id}&max=60000&name=${encodeURIComponent(name)}&accept=image/png`, worker.url);
      const response = await fetch(url, { method: "POST", body: png });
      assert.equal(response.status, 200);
      return (await response.json()) as { size: number; sha256: string; check: { ok: boolean; type?: string; problem?: string } };
    };
    const stored = await upload("png1", "photo.png");
    assert.equal(stored.size, png.byteLength);
    assert.equal(stored.sha256, createHash("sha256").update(png).digest("hex"));
    assert.deepEqual(stored.check, { ok: true, type: "image/png" });
    const disguised = await upload("png2", "photo.pdf");
    assert.equal(disguised.check.ok, false);
    assert.match(disguised.check.problem ?? "", /PNG \(image\/png\).*\.pdf/);
    const back = Buffer.from(await (await fetch(new URL("/?id=png1", worker.url))).arrayBuffer());
    assert.ok(back.equals(png));
  });

  test("a body over the store's cap is refused naming the cap", { timeout: 60_000 }, async () => {
    const response = await fetch(new URL("/?id=big&max=1000000", worker.url), { method: "POST", body: new Uint8Array(100_000) });
    assert.equal(response.status, 413);
    const body = (await response.json()) as { tooLarge: number; message: string };
    assert.equal(body.tooLarge, 64 * 1024);
    assert.match(body.message, /64 KiB.*directory sink/);
  });
});
