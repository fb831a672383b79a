// Where an uploaded file's bytes go. A sink takes the body as a stream and counts its size, SHA-256 and
// first bytes while it streams, so no sink ever holds a whole large file; it stores under the id it is
// given (a generated one, never the person's file name) and forgets what nobody claimed after its lifetime.
// Two are built in: `directorySink` (files on a local disk, any size) and `storeSink` (small files in the
// kit's KeyValueStore). An object store fits the same interface: put streams to it, open reads it back.
import { ElicitError } from "../../../schema/errors.js";

/** What a sink stored: enough for the tool's handle without reading the bytes again. */
export interface StoredUpload {
  /** The id the bytes were stored under (the caller's, generated: never the person's file name). */
  id: string;
  /** Bytes stored. */
  size: number;
  /** SHA-256 of the bytes, lowercase hex. */
  sha256: string;
  /** The first bytes (up to HEAD_BYTES), for sniffing the type. */
  head: Uint8Array;
}

export interface FileSink {
  /**
   * Stores `body` under `id`. Rejects with FileTooLargeError as soon as more than `limits.maxBytes`
   * arrived, and with the body's own error when it fails or is aborted: in both cases nothing is stored.
   * Rejects with UploadExistsError when something is already stored under `id` (checked before the body
   * is read, and again atomically when it is stored).
   */
  put(id: string, body: ReadableStream<Uint8Array>, limits: { maxBytes: number }): Promise<StoredUpload>;
  /**
   * The stored bytes; rejects with UploadNotFoundError when nothing (or nothing live) is stored under `id`.
   * An upload's lifetime counts from when it was stored; reading it does not extend it, so the tool
   * copies what it keeps and deletes the upload when done.
   */
  open(id: string): Promise<ReadableStream<Uint8Array>>;
  /** Forgets `id`'s bytes; nothing happens when there are none. */
  delete(id: string): Promise<void>;
}

/** How many first bytes a StoredUpload keeps: what `file-type` needs to recognize most formats. */
export const HEAD_BYTES = 4100;

/** Default time an unclaimed upload is kept: one hour. */
export const DEFAULT_UPLOAD_LIFETIME_MS = 60 * 60 * 1000;

/** The body was longer than the limit; nothing was stored. */
export class FileTooLargeError extends ElicitError {
  constructor(
    readonly maxBytes: number,
    message = `The file is larger than the limit of ${formatBytes(maxBytes)}.`,
  ) {
    super("file-too-large", message);
  }
}

/** Nothing is stored under the id: never stored, deleted, or past its lifetime. */
export class UploadNotFoundError extends ElicitError {
  constructor(readonly id: string) {
    super("upload-not-found", `No upload is stored under "${id}" (never stored, deleted, or past its lifetime).`);
  }
}

/** Something is already stored under the id: a sink never replaces an upload (a second upload to a flow is refused). */
export class UploadExistsError extends ElicitError {
  constructor(readonly id: string) {
    super("upload-exists", `An upload is already stored under "${id}".`);
  }
}

/** Ids become file and key names: the sink takes only generated-looking ones. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

export function checkUploadId(id: string): void {
  if (typeof id !== "string" || !ID.test(id))
    throw new TypeError(`An upload id must be 1 to 128 characters of A-Z, a-z, 0-9, "_" or "-" (a generated id, never a file name).`);
}

export function checkMaxBytes(maxBytes: number): void {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0)
    throw new TypeError(`limits.maxBytes must be a non-negative integer, not ${String(maxBytes)}.`);
}

/** "50 MB", "1 MiB", "512 bytes": limits as a person reads them (binary units when the number is one). */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [2 ** 30, "GiB"],
    [2 ** 20, "MiB"],
    [2 ** 10, "KiB"],
  ];
  for (const [size, unit] of units) if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  const decimal: [number, string][] = [
    [1e9, "GB"],
    [1e6, "MB"],
    [1e3, "kB"],
  ];
  for (const [size, unit] of decimal) if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  return `${bytes} bytes`;
}

/** A body's chunk, checked: a stream of anything but bytes is refused rather than stored as something else. */
export function bytesOf(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  throw new TypeError("An upload's body must be a stream of Uint8Array chunks.");
}

/** Keeps the first HEAD_BYTES of a stream, chunk by chunk. */
export class HeadCollector {
  private readonly bytes = new Uint8Array(HEAD_BYTES);
  private length = 0;
  add(chunk: Uint8Array) {
    if (this.length >= HEAD_BYTES) return;
    const take = Math.min(chunk.byteLength, HEAD_BYTES - this.length);
    this.bytes.set(chunk.subarray(0, take), this.length);
    this.length += take;
  }
  get head(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}
