// What both built-in sinks do with a body as it streams: each chunk checked, the size held to the limit,
// the SHA-256 and the first bytes counted, then the chunk handed on to be written. (Apart from sink.ts,
// which the upload page's script also bundles: node:crypto is not for the browser.)
import { createHash } from "node:crypto";
import { bytesOf, HeadCollector, type StoredUpload } from "./sink.js";

/** What a sink counted of a body as it streamed. */
export type CountedBody = Omit<StoredUpload, "id">;

/**
 * Reads the body to its end, counting its size, SHA-256 and first bytes on the way: each chunk is checked
 * (bytesOf) and handed to `write` while the size is within `maxBytes`; the chunk that passes it throws
 * `tooLarge()` before it is written. The caller cancels the reader when this rejects.
 */
export async function countedBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
  write: (chunk: Uint8Array) => Promise<void>,
): Promise<CountedBody> {
  const hash = createHash("sha256");
  const head = new HeadCollector();
  let size = 0;
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    const value = bytesOf(chunk);
    size += value.byteLength;
    if (size > maxBytes) throw tooLarge();
    hash.update(value);
    head.add(value);
    await write(value);
  }
  return { size, sha256: hash.digest("hex"), head: head.head };
}
