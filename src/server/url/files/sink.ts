// STUB until the file-sinks branch is merged (it owns this file): the agreed FileSink shapes, with a
// plain store sink (base64 chunks in the kit's store) and a directory sink, both counting bytes and
// hashing while they stream, refusing past maxBytes.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { KeyValueStore } from "../../../store/types.js";

export interface StoredUpload {
  id: string;
  size: number;
  sha256: string;
  /** The first bytes, for sniffing. */
  head: Uint8Array;
}

export interface FileSink {
  put(id: string, body: ReadableStream<Uint8Array>, limits: { maxBytes: number }): Promise<StoredUpload>;
  open(id: string): Promise<ReadableStream<Uint8Array>>;
  delete(id: string): Promise<void>;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
    this.name = "FileTooLargeError";
  }
}

const HEAD_BYTES = 4096;
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

async function consume(body: ReadableStream<Uint8Array>, maxBytes: number, write: (chunk: Uint8Array) => Promise<void>) {
  const hash = createHash("sha256");
  let size = 0;
  const head: Uint8Array[] = [];
  let headBytes = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new FileTooLargeError(maxBytes);
    }
    hash.update(value);
    if (headBytes < HEAD_BYTES) {
      head.push(value.subarray(0, HEAD_BYTES - headBytes));
      headBytes += Math.min(value.byteLength, HEAD_BYTES - headBytes);
    }
    await write(value);
  }
  return { size, sha256: hash.digest("hex"), head: new Uint8Array(Buffer.concat(head)) };
}

export function directorySink(dir: string): FileSink {
  const path = (id: string) => {
    if (!SAFE_ID.test(id)) throw new TypeError("A stored file's id must be base64url.");
    return join(dir, id);
  };
  return {
    async put(id, body, { maxBytes }) {
      await mkdir(dir, { recursive: true });
      const out = createWriteStream(path(id), { flags: "wx" });
      try {
        const done = await consume(
          body,
          maxBytes,
          (chunk) => new Promise<void>((ok, fail) => out.write(chunk, (e) => (e ? fail(e) : ok()))),
        );
        await new Promise<void>((ok, fail) => out.end((e?: Error | null) => (e ? fail(e) : ok())));
        return { id, ...done };
      } catch (error) {
        out.destroy();
        await rm(path(id), { force: true });
        throw error;
      }
    },
    async open(id) {
      return Readable.toWeb(createReadStream(path(id))) as ReadableStream<Uint8Array>;
    },
    async delete(id) {
      await rm(path(id), { force: true });
    },
  };
}

export function storeSink(store: KeyValueStore, options: { maxBytes?: number } = {}): FileSink {
  const ttl = 24 * 3600_000;
  const key = (id: string, n: number) => `url-file-chunk:${id}:${n}`;
  return {
    async put(id, body, limits) {
      const maxBytes = Math.min(limits.maxBytes, options.maxBytes ?? 10 * 1024 * 1024);
      let n = 0;
      try {
        const done = await consume(body, maxBytes, async (chunk) => store.set(key(id, n++), Buffer.from(chunk).toString("base64"), ttl));
        await store.set(`url-file-chunks:${id}`, String(n), ttl);
        return { id, ...done };
      } catch (error) {
        for (let i = 0; i < n; i++) await store.delete(key(id, i));
        if (error instanceof FileTooLargeError && error.maxBytes !== limits.maxBytes && maxBytes < limits.maxBytes) throw error;
        throw error;
      }
    },
    async open(id) {
      const count = Number((await store.get(`url-file-chunks:${id}`)) ?? "0");
      let i = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (i >= count) return controller.close();
          const text = await store.get(key(id, i++));
          controller.enqueue(new Uint8Array(Buffer.from(text ?? "", "base64")));
        },
      });
    },
    async delete(id) {
      const count = Number((await store.get(`url-file-chunks:${id}`)) ?? "0");
      for (let i = 0; i < count; i++) await store.delete(key(id, i));
      await store.delete(`url-file-chunks:${id}`);
    },
  };
}
