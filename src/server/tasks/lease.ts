// A run's hold on a task: the lease key says someone runs it (and lapses when that runner dies), and
// the record names the lease's token (`holder`), so the store fences every write. Each write of the
// record is a swap against the text this holder last read or wrote: once another runner has claimed
// the record after this lease lapsed, every later save, renewal and release of this one changes
// nothing. So a runner that stalled past its lease (a paused process, a partition from the store)
// cannot undo what the next runner did, nor end a task that the next runner is running.
import { randomUUID } from "node:crypto";
import type { KeyValueStore } from "../../store/types.js";
import type { TaskRecord } from "./task-record.js";

/** How often a claim is tried again when the record changed between its read and its swap. */
const CLAIM_TRIES = 5;

export const leaseKey = (taskId: string) => `task:${taskId}:lease`;
export const recordKey = (taskId: string) => `task:${taskId}`;

/** The store TTL of a record: its task's TTL from creation, plus a minute for late polls. */
export const recordTtl = (record: TaskRecord) => Math.max(Date.parse(record.createdAt) + record.ttlMs - Date.now(), 0) + 60_000;

export class TaskLease {
  private constructor(
    private readonly store: KeyValueStore,
    private readonly leaseMs: number,
    readonly token: string,
    /** The record as this lease claimed it: the run works on this copy. */
    readonly record: TaskRecord,
    /** The record's text in the store as this holder last wrote it: what every save swaps against. */
    private text: string,
  ) {}

  /**
   * Takes the task's lease and claims its record, atomically each: undefined when someone else holds
   * the lease, the task is gone, or the record kept changing under the claim (a lapsed holder still
   * writing); the next poll tries again.
   */
  static async take(store: KeyValueStore, taskId: string, leaseMs: number): Promise<TaskLease | undefined> {
    const token = randomUUID();
    if (!(await store.add(leaseKey(taskId), token, leaseMs))) return undefined;
    for (let tries = 0; tries < CLAIM_TRIES; tries++) {
      const text = await store.get(recordKey(taskId));
      if (text === undefined) break;
      const record = { ...(JSON.parse(text) as TaskRecord), holder: token };
      const claimed = JSON.stringify(record);
      if (await store.swap(recordKey(taskId), text, claimed, recordTtl(record)))
        return new TaskLease(store, leaseMs, token, record, claimed);
    }
    await store.swap(leaseKey(taskId), token, undefined, leaseMs);
    return undefined;
  }

  /** Writes `record` if this lease still holds it; false (nothing written) when another runner claimed it since. */
  async save(record: TaskRecord): Promise<boolean> {
    record.holder = this.token;
    record.lastUpdatedAt = new Date().toISOString();
    const next = JSON.stringify(record);
    if (!(await this.store.swap(recordKey(record.taskId), this.text, next, recordTtl(record)))) return false;
    this.text = next;
    return true;
  }

  /** Extends the lease if it is still this one's; false when it lapsed (another runner may hold it now). */
  renew(): Promise<boolean> {
    return this.store.swap(leaseKey(this.record.taskId), this.token, this.token, this.leaseMs);
  }

  /** Lets the lease go, unless it already passed to another runner. */
  async release(): Promise<void> {
    await this.store.swap(leaseKey(this.record.taskId), this.token, undefined, this.leaseMs);
  }
}
