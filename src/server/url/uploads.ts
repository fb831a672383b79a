// The files a person uploaded for a "file" flow: each one's record (its name as given, sniffed type, size,
// SHA-256 and where the sink keeps it) in the kit's store under the flow, and the handle a tool gets for it.
// The upload route (pages/file.ts) records a part per file; once the last part is in, the list is written
// and the flow ends, so the tool that wakes on the end reads a complete list.
import type { KeyValueStore } from "../../store/types.js";
import type { FileSink } from "./files/sink.js";

/** One uploaded file as the tool receives it. */
export interface ElicitedFile {
  /** The name as the person's file was called, made inert (no control or bidi characters, no path separators). */
  readonly name: string;
  /** The type its content was found to be (not the browser's claim). */
  readonly type: string;
  /** Bytes. */
  readonly size: number;
  /** SHA-256 of the bytes, lowercase hex, computed while they streamed in. */
  readonly sha256: string;
  /** All the bytes (for a file you know is small; prefer stream() for large ones). */
  read(): Promise<Uint8Array>;
  /** The bytes as a stream, from the kit's file sink (opened on the first read). */
  stream(): ReadableStream<Uint8Array>;
  /** Deletes the stored bytes (the kit also deletes them once the flow's retention ends). */
  discard(): Promise<void>;
}

/** What the store keeps of one uploaded file. */
export interface UploadRecord {
  /** The sink's id for the bytes: random, never the person's name. */
  storedAs: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
}

const partKey = (flowId: string, index: number) => `url-file-part:${flowId}:${index}`;
const listKey = (flowId: string) => `url-file-list:${flowId}`;

export class Uploads {
  constructor(
    private readonly store: KeyValueStore,
    readonly sink: FileSink,
  ) {}

  /** Records file `index` of the flow: false when that part was already sent. */
  addPart(flowId: string, index: number, record: UploadRecord, ttlMs: number): Promise<boolean> {
    return this.store.add(partKey(flowId, index), JSON.stringify(record), ttlMs);
  }

  /** The parts 0..total-1 when all are in, else undefined. */
  async parts(flowId: string, total: number): Promise<UploadRecord[] | undefined> {
    const parts = await Promise.all(Array.from({ length: total }, (_, i) => this.store.get(partKey(flowId, i))));
    if (parts.some((p) => p === undefined)) return undefined;
    return parts.map((p) => JSON.parse(p!) as UploadRecord);
  }

  /** Writes the flow's final list (before the flow ends, so its waiter reads it). */
  async complete(flowId: string, records: UploadRecord[], ttlMs: number): Promise<void> {
    await this.store.set(listKey(flowId), JSON.stringify(records), ttlMs);
  }

  /** Deletes the bytes and records of the flow (a flow that ended before its upload arrived keeps nothing). */
  async forget(flowId: string, records: UploadRecord[], total: number): Promise<void> {
    await Promise.all(records.map((r) => this.sink.delete(r.storedAs).catch(() => {})));
    await Promise.all(Array.from({ length: total }, (_, i) => this.store.delete(partKey(flowId, i))));
    await this.store.delete(listKey(flowId));
  }

  /** The files of a completed flow, as handles. */
  async files(flowId: string): Promise<ElicitedFile[]> {
    const raw = await this.store.get(listKey(flowId));
    const records = raw === undefined ? [] : (JSON.parse(raw) as UploadRecord[]);
    return records.map((record) => this.handle(record));
  }

  private handle(record: UploadRecord): ElicitedFile {
    const { sink } = this;
    const stream = () => {
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          reader ??= (await sink.open(record.storedAs)).getReader();
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader?.cancel(reason),
      });
    };
    return {
      name: record.name,
      type: record.type,
      size: record.size,
      sha256: record.sha256,
      stream,
      async read() {
        const chunks: Uint8Array[] = [];
        const reader = stream().getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
        return new Uint8Array(Buffer.concat(chunks));
      },
      discard: () => sink.delete(record.storedAs),
    };
  }
}
