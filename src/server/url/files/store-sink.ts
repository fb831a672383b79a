// The sink for small files: the bytes in the kit's KeyValueStore, so they live where the flows do (memory,
// SQLite, Redis, a Durable Object) and expire with the store's own time to live. Store values are strings,
// so the bytes are kept base64-encoded in chunks, each under its own key; the record that names them is
// written last, so an upload is there only once all its chunks are. A hard cap keeps stores for what they
// are good at: a larger file is refused, saying to configure a directory sink.
import { randomBytes } from "node:crypto";
import type { KeyValueStore } from "../../../store/types.js";
import { countedBody } from "./counted-body.js";
import {
  checkMaxBytes,
  checkUploadId,
  DEFAULT_UPLOAD_LIFETIME_MS,
  FileTooLargeError,
  formatBytes,
  UploadExistsError,
  UploadNotFoundError,
  type FileSink,
  type StoredUpload,
} from "./sink.js";

export interface StoreSinkOptions {
  /** The largest file the store takes, in bytes (default 1 MiB; at most 16 MiB). */
  maxBytes?: number;
  /** How long an unclaimed upload is kept, in ms (default one hour). */
  lifetimeMs?: number;
}

export const DEFAULT_STORE_SINK_MAX_BYTES = 1024 * 1024;
const HARD_MAX_BYTES = 16 * 1024 * 1024;
/** Bytes per stored chunk: 192 KiB, 256 KiB as base64, well under any store's value limit. */
const CHUNK_BYTES = 192 * 1024;
const PREFIX = "upload:";

interface Record {
  /** This put's own chunk keys' part, so that two puts under one id never write the same chunk. */
  part: string;
  size: number;
  sha256: string;
  chunks: number;
}

export function storeSink(store: KeyValueStore, options: StoreSinkOptions = {}): FileSink {
  const cap = options.maxBytes ?? DEFAULT_STORE_SINK_MAX_BYTES;
  if (!Number.isSafeInteger(cap) || cap < 0 || cap > HARD_MAX_BYTES)
    throw new TypeError(
      `storeSink's maxBytes must be an integer from 0 to ${HARD_MAX_BYTES} (16 MiB); a directory sink takes larger files.`,
    );
  const lifetimeMs = options.lifetimeMs ?? DEFAULT_UPLOAD_LIFETIME_MS;
  if (!(lifetimeMs > 0) || !Number.isFinite(lifetimeMs))
    throw new TypeError(`lifetimeMs must be a positive number of ms, not ${String(lifetimeMs)}.`);
  const recordKey = (id: string) => `${PREFIX}${id}`;
  const chunkKey = (id: string, part: string, index: number) => `${PREFIX}${id}:${part}:${index}`;

  const read = async (id: string): Promise<Record | undefined> => {
    const value = await store.get(recordKey(id));
    return value === undefined ? undefined : (JSON.parse(value) as Record);
  };

  return {
    async put(id, body, limits): Promise<StoredUpload> {
      checkUploadId(id);
      checkMaxBytes(limits.maxBytes);
      const maxBytes = Math.min(limits.maxBytes, cap);
      if ((await read(id)) !== undefined) {
        await body.cancel().catch(() => {});
        throw new UploadExistsError(id);
      }
      const part = randomBytes(6).toString("hex");
      const reader = body.getReader();
      const chunks = new ChunkWriter((index, text) => store.set(chunkKey(id, part, index), text, lifetimeMs));
      try {
        const counted = await countedBody(
          reader,
          maxBytes,
          () => tooLarge(maxBytes, limits.maxBytes > cap),
          (value) => chunks.add(value),
        );
        await chunks.end();
        const record: Record = { part, size: counted.size, sha256: counted.sha256, chunks: chunks.written };
        if (!(await store.add(recordKey(id), JSON.stringify(record), lifetimeMs))) throw new UploadExistsError(id);
        return { id, ...counted };
      } catch (error) {
        await reader.cancel(error).catch(() => {});
        for (let index = 0; index < chunks.written; index++) await store.delete(chunkKey(id, part, index)); // this put's chunks only
        throw error;
      }
    },

    async open(id) {
      checkUploadId(id);
      const record = await read(id);
      if (record === undefined) throw new UploadNotFoundError(id);
      let index = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (index >= record.chunks) return controller.close();
          const value = await store.get(chunkKey(id, record.part, index++));
          if (value === undefined) return controller.error(new UploadNotFoundError(id)); // expired while being read
          controller.enqueue(new Uint8Array(Buffer.from(value, "base64")));
        },
      });
    },

    async delete(id) {
      checkUploadId(id);
      const record = await read(id);
      await store.delete(recordKey(id));
      if (record !== undefined) for (let index = 0; index < record.chunks; index++) await store.delete(chunkKey(id, record.part, index));
    },
  };

  function tooLarge(maxBytes: number, capped: boolean) {
    if (!capped) return new FileTooLargeError(maxBytes);
    return new FileTooLargeError(
      maxBytes,
      `The file is larger than ${formatBytes(maxBytes)}, the most the server's store keeps; the server needs a directory sink (directorySink) for larger files.`,
    );
  }
}

/**
 * Cuts a body into CHUNK_BYTES pieces, each written (base64) as soon as it is full, so what is held is
 * one chunk being filled whatever the file's size.
 */
class ChunkWriter {
  private pending = new Uint8Array(CHUNK_BYTES);
  private filled = 0;
  /** How many chunks were written. */
  written = 0;

  constructor(private readonly write: (index: number, base64: string) => Promise<void>) {}

  async add(value: Uint8Array): Promise<void> {
    for (let at = 0; at < value.byteLength;) {
      const take = Math.min(CHUNK_BYTES - this.filled, value.byteLength - at);
      this.pending.set(value.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === CHUNK_BYTES) await this.flush();
    }
  }

  /** Writes the last, partly filled chunk. */
  async end(): Promise<void> {
    if (this.filled > 0) await this.flush();
  }

  private async flush(): Promise<void> {
    await this.write(this.written, Buffer.from(this.pending.buffer, 0, this.filled).toString("base64"));
    this.written++;
    this.filled = 0;
    this.pending = new Uint8Array(CHUNK_BYTES);
  }
}
