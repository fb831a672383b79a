// The built-in sink for files of any size: each upload a file in one local directory. The body streams
// into a temporary file created exclusively (O_EXCL, mode 0600) under a generated name, its size, SHA-256
// and first bytes counted on the way; the moment the size passes the limit, or the body fails, the partial
// file is removed and nothing is stored. A complete file is linked into place under the upload's id.
// Unclaimed uploads are removed after the lifetime by a sweep that starts on first use, not at
// construction, and does not keep the process alive. A temporary file nobody has written to for
// `partialIdleMs` is one a crashed (or killed) process left, since a live upload keeps writing to its own:
// the sweep removes it then, not a lifetime later, so a restart mid-upload leaves no partial file behind.
//
// Node's fs is imported when the sink is first used, so a module that builds the sink still loads where
// there is no file system (a Worker); the sink itself needs one.
import type * as FsPromises from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { countedBody, type CountedBody } from "./counted-body.js";
import {
  checkMaxBytes,
  checkUploadId,
  DEFAULT_UPLOAD_LIFETIME_MS,
  FileTooLargeError,
  UploadExistsError,
  UploadNotFoundError,
  type FileSink,
  type StoredUpload,
} from "./sink.js";
import { sweepEvery } from "./sweep.js";

export interface DirectorySinkOptions {
  /** How long an unclaimed upload is kept, in ms (default one hour). */
  lifetimeMs?: number;
  /**
   * After how long without a write a temporary file counts as left by a process that died mid-upload,
   * in ms (default 10 minutes, capped at the lifetime). Keep it above the longest stall of a live upload.
   */
  partialIdleMs?: number;
}

const STORED = /^[A-Za-z0-9_-]{1,128}\.upload$/;
const PARTIAL = /^\.[A-Za-z0-9_-]{1,128}\.[0-9a-f]{16}\.part$/;
const READ_CHUNK = 64 * 1024;
const DEFAULT_PARTIAL_IDLE_MS = 10 * 60_000;

export function directorySink(dir: string, options: DirectorySinkOptions = {}): FileSink {
  if (typeof dir !== "string" || dir === "") throw new TypeError("directorySink needs a directory path.");
  const { lifetimeMs, partialIdleMs } = checkedTimes(options);
  let fsLoaded: Promise<typeof FsPromises> | undefined;
  // The directory is made (owner only) once; a directory that exists keeps its own mode.
  const fs = () =>
    (fsLoaded ??= import("node:fs/promises").then(async (fs) => {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      return fs;
    }));
  const at = (name: string) => `${dir.replace(/[\\/]+$/, "")}/${name}`;
  const stored = (id: string) => at(`${id}.upload`);
  const writing = new Set<string>(); // temporary files being written: never swept
  const expired = (mtimeMs: number) => mtimeMs + lifetimeMs <= Date.now();
  const over = (name: string, mtimeMs: number) => (PARTIAL.test(name) ? mtimeMs + partialIdleMs <= Date.now() : expired(mtimeMs));
  const sweeper = sweepEvery(partialIdleMs, async () => sweepDirectory(await fs(), dir, at, (path) => writing.has(path), over));

  return {
    async put(id, body, limits): Promise<StoredUpload> {
      checkUploadId(id);
      checkMaxBytes(limits.maxBytes);
      const files = await fs();
      sweeper.start();
      if (await exists(files, stored(id))) {
        await body.cancel().catch(() => {});
        throw new UploadExistsError(id);
      }
      const temp = at(`.${id}.${randomBytes(8).toString("hex")}.part`);
      const handle = await files.open(temp, "wx", 0o600);
      writing.add(temp);
      const reader = body.getReader();
      let open = true;
      let counted: CountedBody;
      try {
        const tooLarge = () => new FileTooLargeError(limits.maxBytes);
        counted = await countedBody(reader, limits.maxBytes, tooLarge, (value) => writeAll(handle, value));
        await handle.sync();
        open = false;
        await handle.close();
        await place(files, temp, stored(id), id);
      } catch (error) {
        await reader.cancel(error).catch(() => {}); // stops the sender: the rest of the body is not read
        if (open) await handle.close().catch(() => {});
        await files.rm(temp, { force: true });
        throw error;
      } finally {
        writing.delete(temp);
      }
      sweeper.start(); // again: a pass that ran while this file was written may have stopped the timer
      return { id, ...counted };
    },

    async open(id) {
      checkUploadId(id);
      const files = await fs();
      sweeper.start();
      const path = stored(id);
      const stat = await files.stat(path).catch(() => undefined);
      if (stat === undefined) throw new UploadNotFoundError(id);
      if (expired(stat.mtimeMs)) {
        await files.rm(path, { force: true });
        throw new UploadNotFoundError(id);
      }
      const handle = await files.open(path, "r").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") throw new UploadNotFoundError(id);
        throw error;
      });
      return readStream(handle);
    },

    async delete(id) {
      checkUploadId(id);
      const files = await fs();
      await files.rm(stored(id), { force: true });
    },
  };
}

/** The sink's lifetime and partial-file idle time, checked. */
function checkedTimes(options: DirectorySinkOptions): { lifetimeMs: number; partialIdleMs: number } {
  const lifetimeMs = options.lifetimeMs ?? DEFAULT_UPLOAD_LIFETIME_MS;
  if (!(lifetimeMs > 0) || !Number.isFinite(lifetimeMs))
    throw new TypeError(`lifetimeMs must be a positive number of ms, not ${String(lifetimeMs)}.`);
  const partialIdleMs = Math.min(options.partialIdleMs ?? DEFAULT_PARTIAL_IDLE_MS, lifetimeMs);
  if (!(partialIdleMs > 0) || !Number.isFinite(partialIdleMs))
    throw new TypeError(`partialIdleMs must be a positive number of ms, not ${String(options.partialIdleMs)}.`);
  return { lifetimeMs, partialIdleMs };
}

/**
 * One sweep pass over the sink's files (stored uploads and temporary files; a shared directory's other
 * files stay): those being written are kept, those `over` by their last write removed. Resolves to how
 * many are left to watch.
 */
async function sweepDirectory(
  files: typeof FsPromises,
  dir: string,
  at: (name: string) => string,
  beingWritten: (path: string) => boolean,
  over: (name: string, mtimeMs: number) => boolean,
): Promise<number> {
  const names = await files.readdir(dir).catch(() => [] as string[]);
  let kept = 0;
  for (const name of names) {
    if (!STORED.test(name) && !PARTIAL.test(name)) continue;
    const path = at(name);
    if (beingWritten(path)) {
      kept++;
      continue;
    }
    const stat = await files.stat(path).catch(() => undefined);
    if (stat === undefined) continue;
    if (over(name, stat.mtimeMs)) await files.rm(path, { force: true });
    else kept++;
  }
  return kept;
}

/** Links the complete file into place: an existing upload under the id is never replaced. */
async function place(files: typeof FsPromises, temp: string, target: string, id: string) {
  try {
    await files.link(temp, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new UploadExistsError(id);
    // A file system without hard links: rename, after checking (not atomically) that nothing is there.
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS" && code !== "EXDEV") throw error;
    if (await exists(files, target)) throw new UploadExistsError(id);
    await files.rename(temp, target);
    return;
  }
  await files.rm(temp, { force: true });
}

const exists = (files: typeof FsPromises, path: string) =>
  files.stat(path).then(
    () => true,
    () => false,
  );

async function writeAll(handle: FileHandle, chunk: Uint8Array) {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

/** The file as a web stream, read a chunk at a time; the handle is closed at the end or on cancel. */
function readStream(handle: FileHandle): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buffer = new Uint8Array(READ_CHUNK);
        const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
        if (bytesRead === 0) {
          await handle.close();
          controller.close();
        } else controller.enqueue(buffer.subarray(0, bytesRead));
      } catch (error) {
        await handle.close().catch(() => {});
        controller.error(error);
      }
    },
    async cancel() {
      await handle.close();
    },
  });
}
