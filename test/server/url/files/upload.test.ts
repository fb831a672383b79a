// The upload route over plain HTTP (no browser): the kit's pages on a node:http server on 127.0.0.1, people
// told apart by an identify() that reads a test header, files POSTed the way the page's script sends them.
// Each bad input gets a clear JSON error and leaves the flow open with nothing kept: over the size limit
// (declared, and streamed without a length), zero bytes, the wrong type, someone else, another origin, no
// CSRF token; a hostile name is stored under a generated name and shown inert; a finished flow takes no more.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { getRequestListener } from "@hono/node-server";
import { directorySink } from "../../../../src/server/url/files/directory-sink.js";
import type { FileAsk, UrlFlow } from "../../../../src/server/url/flows.js";
import { createUrlKit, type UrlKit } from "../../../../src/server/url/url-kit.js";
import { removeOnExit } from "../../../helpers/cleanup.js";
import { waitFor } from "../../../helpers/deferred.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const MB = 1024 * 1024;
/** Live memory: the heap and the array buffers (a body's chunks) of this process, which runs the server. */
const memory = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;

const ISSUER = "https://id.example.test";
let kit: UrlKit;
let server: Server;
let base: URL;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-elicit-uploads-"));
  removeOnExit(dir);
  kit = createUrlKit({
    serverName: "Visas (test)",
    identity: {
      identify: async (request) =>
        request.headers.get("x-test-user") ? { issuer: ISSUER, sub: request.headers.get("x-test-user")! } : undefined,
    },
    files: { sink: directorySink(dir) },
  });
  const pages = getRequestListener((request, env) => kit.fetch(request, env as never));
  server = createServer((req, res) => void pages(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/elicit/`);
  kit.mount(base);
});

after(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await kit.close();
  rmSync(dir, { recursive: true, force: true });
});

const flowFor = (file: Partial<FileAsk> = {}) =>
  kit.flows.create({
    kind: "file",
    principal: { issuer: ISSUER, sub: "alice" },
    server: "Visas (test)",
    client: "Test host",
    message: "Upload your passport's photo page.",
    file: { accept: ["application/pdf"], maxBytes: 1000, count: 1, ...file },
  });

/** Alice's browser on the upload page: its cookie and the page's CSRF token. */
async function openAs(flow: UrlFlow, user = "alice"): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(new URL(`file/${flow.id}`, base), { headers: { "x-test-user": user } });
  const page = await response.text();
  assert.equal(response.status, 200, page);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = /"csrf":"([^"]+)"/.exec(page)![1]!;
  return { cookie, csrf };
}

interface Send {
  user?: string;
  origin?: string;
  csrf?: string;
  name?: string;
  index?: number;
  total?: number;
  /** Sent as a stream without Content-Length (chunked), as a browser's body of unknown length. */
  streamed?: boolean;
}

/** The headers the page's script sends with a file, from the browser that opened the page. */
const headersFor = (browser: { cookie: string; csrf: string }, send: Send = {}): Record<string, string> => ({
  cookie: browser.cookie,
  origin: send.origin ?? base.origin,
  "x-test-user": send.user ?? "alice",
  "x-csrf-token": send.csrf ?? browser.csrf,
  "x-file-name": encodeURIComponent(send.name ?? "passport.pdf"),
  "x-file-index": String(send.index ?? 0),
  "x-file-total": String(send.total ?? 1),
  "content-type": "application/octet-stream",
});

async function upload(flow: UrlFlow, browser: { cookie: string; csrf: string }, body: Uint8Array, send: Send = {}) {
  const headers = headersFor(browser, send);
  const payload = send.streamed
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          // In pieces, so the limit is crossed mid-stream.
          for (let at = 0; at < body.length; at += 256) controller.enqueue(body.subarray(at, at + 256));
          controller.close();
        },
      })
    : body;
  const response = await fetch(new URL(`file/${flow.id}`, base), {
    method: "POST",
    headers,
    body: payload,
    ...(send.streamed ? { duplex: "half" } : {}),
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as { error?: string; next?: string; stored?: Record<string, unknown> } };
}

const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(size - 9, 7)]);
const kept = () => readdirSync(dir);
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

describe("the upload route", () => {
  test("over the limit, declared or streamed, is refused naming the limit; nothing is kept and the flow stays open", async () => {
    const flow = await flowFor({ maxBytes: 1000 });
    const browser = await openAs(flow);
    const declared = await upload(flow, browser, pdf(5000));
    assert.equal(declared.status, 413);
    assert.match(declared.body.error!, /passport\.pdf is larger than the limit of 1 kB/);
    const streamed = await upload(flow, browser, pdf(5000), { streamed: true });
    assert.equal(streamed.status, 413);
    assert.match(streamed.body.error!, /limit of 1 kB/);
    assert.deepEqual(kept(), []);
    assert.equal(await kit.flows.outcome(flow.id), undefined);
    // The right file still goes in.
    const good = await upload(flow, browser, pdf(900), { streamed: true });
    assert.equal(good.status, 200, good.body.error);
    assert.equal(await kit.flows.outcome(flow.id), "completed");
  });

  test("60 MB against a 50 MB limit through the route: refused naming the limit while the server's memory stays flat", async () => {
    const flow = await flowFor({ maxBytes: 50 * MB });
    const browser = await openAs(flow);
    const already = kept().length; // the files earlier tests stored
    gc();
    const before = memory();
    // The body is made as it is read (64 KiB at a time, no length); live memory is sampled after a
    // collection every 4 MiB, so garbage chunks do not count and whatever the route holds does.
    let peak = before;
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 7);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 60 * MB) return controller.close();
        controller.enqueue(sent === 0 ? Buffer.concat([Buffer.from("%PDF-1.4\n"), chunk.subarray(9)]) : chunk.slice());
        sent += chunk.length;
        if (sent % (4 * MB) === 0) {
          gc();
          peak = Math.max(peak, memory());
        }
      },
    });
    const response = await fetch(new URL(`file/${flow.id}`, base), {
      method: "POST",
      headers: headersFor(browser),
      body,
      duplex: "half",
    } as RequestInit).catch((error: unknown) => error);
    // The server answers 413 as soon as the limit is crossed; the client may see that or the connection closed under its body.
    if (response instanceof Response) {
      assert.equal(response.status, 413);
      assert.match(((await response.json()) as { error: string }).error, /limit of 5\d(\.\d)? MB|limit of 50 MiB/);
    }
    const growth = peak - before;
    console.log(
      `60 MiB vs 50 MiB through the upload route: ${response instanceof Response ? `answered ${response.status}` : `closed under the body (${String(response)})`}; live memory peak growth ${(growth / MB).toFixed(1)} MiB, ${(sent / MB).toFixed(0)} MiB sent`,
    );
    assert.ok(growth < 16 * MB, `the server's memory grew by ${(growth / MB).toFixed(1)} MiB while the body streamed`);
    assert.deepEqual(kept().length, already, "nothing of the body is kept");
    assert.equal(await kit.flows.outcome(flow.id), undefined, "the flow stays open for the right file");
  });

  test("zero bytes and the wrong type are refused with what was wrong", async () => {
    const flow = await flowFor();
    const browser = await openAs(flow);
    const empty = await upload(flow, browser, new Uint8Array(0));
    assert.equal(empty.status, 400);
    assert.match(empty.body.error!, /passport\.pdf is empty \(0 bytes\)/);
    const wrong = await upload(flow, browser, PNG, { name: "photo.png" });
    assert.equal(wrong.status, 415);
    assert.match(wrong.body.error!, /photo\.png was not accepted/);
    assert.equal(await kit.flows.outcome(flow.id), undefined);
  });

  test("a hostile name is stored under a generated name and given to the tool inert; a second upload to the finished flow is refused", async () => {
    const flow = await flowFor();
    const browser = await openAs(flow);
    const hostile = "..\\../etc/\u202Efdp.exe\u0007\u001b[31m.pdf";
    const before = new Set(kept());
    const body = pdf(700);
    const sent = await upload(flow, browser, body, { name: hostile });
    assert.equal(sent.status, 200, sent.body.error);
    const [file] = await kit.uploads.files(flow.id);
    assert.ok(file);
    assert.doesNotMatch(file.name, /[/\\\u202E\u0007\u001b]/, "no path separator, bidi or control character reaches the tool");
    assert.match(file.name, /etc/);
    assert.equal(file.sha256, createHash("sha256").update(body).digest("hex"));
    assert.deepEqual(Buffer.from(await file.read()), body);
    const added = kept().filter((name) => !before.has(name));
    assert.equal(added.length, 1);
    assert.match(added[0]!, /^[A-Za-z0-9_-]{43}\b/, "stored under a random name, not the person's");
    assert.doesNotMatch(added[0]!, /etc|exe|pdf/);
    const again = await upload(flow, browser, pdf(600));
    assert.equal(again.status, 410);
    assert.match(again.body.error!, /already used/);
  });

  test("someone else, another origin and a missing CSRF token are refused", async () => {
    const flow = await flowFor();
    const browser = await openAs(flow);
    const bob = await upload(flow, browser, pdf(500), { user: "bob" });
    assert.equal(bob.status, 403);
    assert.match(bob.body.error!, /made this link for another person/);
    const foreign = await upload(flow, browser, pdf(500), { origin: "https://evil.example" });
    assert.equal(foreign.status, 403);
    assert.match(foreign.body.error!, /another site/);
    const forged = await upload(flow, browser, pdf(500), { csrf: "x".repeat(43) });
    assert.equal(forged.status, 403);
    assert.equal(await kit.flows.outcome(flow.id), undefined);
    assert.deepEqual(await kit.uploads.files(flow.id), []);
  });

  test("an upload cut off midway keeps nothing and leaves the flow open; sending it again completes it", async () => {
    const flow = await flowFor({ maxBytes: 1024 * 1024 });
    const browser = await openAs(flow);
    const already = kept().length;
    const stop = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // Half the file, then the connection is dropped as a closed laptop would.
        if (sent >= 256 * 1024) return stop.abort(new Error("connection lost"));
        controller.enqueue(sent === 0 ? Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(64 * 1024 - 9)]) : Buffer.alloc(64 * 1024));
        sent += 64 * 1024;
      },
    });
    const cut = fetch(new URL(`file/${flow.id}`, base), {
      method: "POST",
      headers: headersFor(browser),
      body,
      duplex: "half",
      signal: stop.signal,
    } as RequestInit);
    await assert.rejects(cut);
    // The server notices the cut on its own time: wait until the partial file is gone.
    await waitFor(() => kept().length === already, { what: "the partial upload to be removed" });
    assert.equal(await kit.flows.outcome(flow.id), undefined);
    const again = await upload(flow, browser, pdf(512 * 1024));
    assert.equal(again.status, 200, again.body.error);
    assert.equal(await kit.flows.outcome(flow.id), "completed");
  });

  test("several files: the flow ends when the last one is in, and the tool gets them in order", async () => {
    const flow = await flowFor({ count: 3, accept: [".pdf", "image/png"] });
    const browser = await openAs(flow);
    const first = await upload(flow, browser, pdf(300), { name: "a.pdf", index: 0, total: 2 });
    assert.equal(first.status, 200);
    assert.equal(first.body.next, undefined);
    assert.equal(await kit.flows.outcome(flow.id), undefined);
    const dup = await upload(flow, browser, pdf(300), { name: "a.pdf", index: 0, total: 2 });
    assert.equal(dup.status, 409);
    const second = await upload(flow, browser, PNG, { name: "b.png", index: 1, total: 2 });
    assert.equal(second.status, 200);
    assert.match(second.body.next!, /done\//);
    assert.deepEqual(
      (await kit.uploads.files(flow.id)).map((f) => [f.name, f.type, f.size]),
      [
        ["a.pdf", "application/pdf", 300],
        ["b.png", "image/png", PNG.length],
      ],
    );
    const two = await flowFor({ count: 2 });
    const tooMany = await upload(two, await openAs(two), pdf(300), { total: 3 });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.error!, /X-File-Total must be a whole number from 1 to 2/);
  });
});
