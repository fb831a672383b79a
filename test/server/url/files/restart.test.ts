// A restart of the server in the middle of an upload, on SQLite: the server (test/fixtures/file-server.ts,
// a process of its own on a fixed port) asks a 2026-07-28 client for a file; the person starts sending
// 20 MB from the upload page and the server is SIGKILLed at a random moment of it (the seed is printed;
// SEED=n repeats it). Started again on the same port, store and folder, the server takes the person's
// second try on the same link (the page still open: its cookie and CSRF token); the client's retry of the
// round gets the tool's result with the SHA-256 of the bytes sent. The killed upload was never taken as
// the file, and no partial file is left in the sink's folder.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { attachElicitation } from "../../../../src/client/attach.js";
import type { ElicitationUI, UrlAnswer, UrlRequest } from "../../../../src/client/ui.js";
import { killOnExit } from "../../../helpers/cleanup.js";
import { waitFor, within } from "../../../helpers/deferred.js";
import { scratchFiles } from "../../../helpers/files.js";
import { exited, freePort, stopChild } from "../../../helpers/processes.js";

const SERVER = fileURLToPath(new URL("../../../fixtures/file-server.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
const STEP_MS = 30_000;
const SIZE = 20 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** mulberry32: a small seeded generator, so a failing kill moment can be replayed with SEED=n. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Starts the server; resolves once it listens (rejects with its stderr if it exits first). */
function serve(env: Record<string, string>, which: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = killOnExit(
    spawn(process.execPath, ["--import", "tsx", SERVER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] }),
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err = (err + c).slice(-4000)));
  return within(
    new Promise<{ child: ChildProcess; url: URL }>((resolve, reject) => {
      child.stdout!.on("data", (c: Buffer) => {
        out += c;
        const url = /^listening (\S+)$/m.exec(out)?.[1];
        if (url) resolve({ child, url: new URL(url) });
      });
      child.once("exit", (code, signal) => reject(new Error(`the server (${which}) exited (${code ?? signal}) before listening: ${err}`)));
    }),
    STEP_MS,
    "the server listening",
  );
}

/** The body as the page's script sends it: a stream of chunks; `onSent(total)` runs before each chunk goes. */
function streamOf(bytes: Buffer, onSent: (sent: number) => Promise<void> = async () => {}): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await onSent(at);
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + CHUNK));
      at += CHUNK;
    },
  });
}

/** The temporary files in the sink's folder (none before the sink first made the folder). */
const partials = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".part")) : []);
const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/**
 * The upload page the link leads to, open in the person's browser (fetch keeps no cookies across the
 * redirect, so it is opened directly, as examples/url-file.ts does); `send` posts a body the way the
 * page's script does, with the page's cookie and CSRF token.
 */
async function openPage(link: string): Promise<(body: ReadableStream<Uint8Array>) => Promise<Response>> {
  const page = new URL(link.replace("/connect/", "/file/"));
  const opened = await fetch(page);
  const pageText = await opened.text();
  assert.equal(opened.status, 200, pageText);
  const cookie = opened.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = /"csrf":"([^"]+)"/.exec(pageText)![1]!;
  return (body) =>
    fetch(page, {
      method: "POST",
      headers: {
        cookie,
        origin: page.origin,
        "x-csrf-token": csrf,
        "x-file-name": "archive.pdf",
        "x-file-index": "0",
        "x-file-total": "1",
        "content-type": "application/octet-stream",
      },
      body,
      duplex: "half",
    } as RequestInit);
}

/** What each test needs: the kill moment (seeded, printed), the server's environment, the 20 MB file. */
async function setUp(t: TestContext) {
  const seed = Number(process.env.SEED ?? randomBytes(4).readUInt32BE());
  const random = seeded(seed);
  // Somewhere between 5% and 95% of the body, on a chunk boundary.
  const killAt = Math.floor((SIZE * (0.05 + 0.9 * random())) / CHUNK) * CHUNK;
  t.diagnostic(`seed ${seed}: the server is killed once ${killAt} of ${SIZE} bytes were sent`);
  console.log(`url-file-restart: SEED=${seed} (kill at byte ${killAt})`);
  const { dir } = scratchFiles("url-file-restart-");
  const uploads = join(dir, "uploads");
  const env = {
    PORT: String(await freePort()),
    STORE: join(dir, "kit.db"),
    UPLOADS: uploads,
    MCP_ELICIT_STATE_KEY: randomBytes(32).toString("hex"),
    VAULT_KEY: randomBytes(32).toString("base64url"),
  };
  // Random after a PDF's header: a truncated or reordered copy cannot have the same digest.
  const file = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(SIZE - 9)]);
  const fileSha = createHash("sha256").update(file).digest("hex");
  return { killAt, uploads, env, file, fileSha };
}

/**
 * Sends `file` and SIGKILLs `server` once `killAt` bytes have gone, while its partial file is being
 * written; resolves once the send failed and the server is gone.
 */
async function killMidUpload(
  send: (body: ReadableStream<Uint8Array>) => Promise<Response>,
  file: Buffer,
  killAt: number,
  server: ChildProcess,
  uploads: string,
) {
  let killed = false;
  let partialsAtKill = 0;
  const first = send(
    streamOf(file, async (sent) => {
      if (sent !== killAt) return;
      await waitFor(() => partials(uploads).some((name) => sizeOf(join(uploads, name)) > 0), {
        timeoutMs: STEP_MS,
        what: "the server writing the upload",
      });
      partialsAtKill = partials(uploads).length;
      killed = true;
      server.kill("SIGKILL");
      await exited(server);
    }),
  );
  await assert.rejects(within(first, STEP_MS, "the first upload failing"), "the killed upload does not look like a success");
  assert.ok(killed, "the first upload failed because the server was killed");
  assert.equal(partialsAtKill, 1, "the server was writing the upload when it died");
  await within(exited(server), STEP_MS, "the killed server gone");
}

test("a server SIGKILLed in the middle of a 20 MB upload on SQLite: the person sends it again on the same link and the tool gets the same SHA-256", async (t) => {
  const { killAt, uploads, env, file, fileSha } = await setUp(t);
  const started = await serve(env, "first");
  let server = started.child;
  const seen: { retry?: { status: number; body: Record<string, unknown> } } = {};

  /** The person: accepts the link once, and does the whole upload (and the restart) before the client retries. */
  class Person implements ElicitationUI {
    urls: string[] = [];
    async form(): Promise<never> {
      throw new Error("no form expected");
    }
    async url(request: UrlRequest): Promise<UrlAnswer> {
      this.urls.push(request.analysis.url);
      if (this.urls.length === 1) await this.upload(request.analysis.url);
      return "accept";
    }
    notice(): void {}

    private async upload(link: string) {
      const send = await openPage(link);

      // The first try: the server dies in the middle of it.
      await killMidUpload(send, file, killAt, server, uploads);

      // Started again on the same port, store and folder; the page is still open, and the person sends again.
      server = (await serve(env, "again")).child;
      const retry = await within(send(streamOf(file)), STEP_MS, "the second upload");
      seen.retry = { status: retry.status, body: (await retry.json()) as Record<string, unknown> };
    }
  }

  const person = new Person();
  const client = new Client({ name: "host", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  const handle = attachElicitation(client, { ui: person });
  try {
    await client.connect(new StreamableHTTPClientTransport(started.url));
    const result = (await within(
      handle.callTool({ name: "send_file", arguments: {} }),
      4 * STEP_MS,
      "the tool's result",
    )) as CallToolResult;

    assert.equal(seen.retry?.status, 200, JSON.stringify(seen.retry?.body));
    assert.equal((seen.retry?.body.stored as { sha256?: string }).sha256, fileSha);
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(result.structuredContent, { size: SIZE, read: SIZE, sha256: fileSha, readSha256: fileSha, count: 1 });
    // One link, from before the restart to the end.
    assert.ok(person.urls.length >= 1 && person.urls.every((u) => u === person.urls[0]), person.urls.join(", "));
    // The file that was stored is the second upload's; what the killed process was writing is gone.
    await waitFor(() => partials(uploads).length === 0, { timeoutMs: STEP_MS, what: "no partial file in the sink's folder" });
    assert.deepEqual(
      readdirSync(uploads).map((name) => statSync(join(uploads, name)).size),
      [SIZE],
    );
  } finally {
    await client.close().catch(() => {});
    await stopChild(server);
  }
});
