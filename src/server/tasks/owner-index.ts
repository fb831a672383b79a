// Which tasks each owner has, so that 2025-11-25's tasks/list reads one key and the owner's own
// records, never every record in the store (a scan that is whole-store on memory, SQLite and Redis).
//   task-owner:<digest of the owner>   JSON [[taskId, expiresAt ms], ...]
// An entry lives exactly as long as its task's record: expired entries are dropped on the next write
// and never listed, and the key itself expires with the owner's last task. Concurrent creations by
// one owner are merged with the store's atomic add and swap (the one that read a stale list retries).
import { createHash } from "node:crypto";
import type { KeyValueStore } from "../../store/types.js";

type Entry = [taskId: string, expiresAt: number];

/** Bounds the retries of one owner's concurrent writes; each failed swap means another write won. */
const MAX_TRIES = 100;

export class TaskOwnerIndex {
  constructor(private readonly store: KeyValueStore) {}

  /** Hashed: an owner may contain any character, and no owner's key is a prefix of another's. */
  private key(owner: string): string {
    return `task-owner:${createHash("sha256").update(owner).digest("base64url")}`;
  }

  private static live(text: string | undefined, now: number): Entry[] {
    return text === undefined ? [] : (JSON.parse(text) as Entry[]).filter(([, expiresAt]) => expiresAt > now);
  }

  /** Adds a task to its owner's list until `expiresAt` (when its record expires). */
  async add(owner: string, taskId: string, expiresAt: number): Promise<void> {
    const key = this.key(owner);
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const text = await this.store.get(key);
      const now = Date.now();
      const entries = [...TaskOwnerIndex.live(text, now), [taskId, expiresAt] as Entry];
      const ttl = Math.max(...entries.map(([, at]) => at)) - now;
      const value = JSON.stringify(entries);
      if (text === undefined ? await this.store.add(key, value, ttl) : await this.store.swap(key, text, value, ttl)) return;
    }
    throw new Error(`The task list of one owner changed ${MAX_TRIES} times while a task was added to it; try again.`);
  }

  /** The owner's tasks that have not expired, oldest first. */
  async ids(owner: string): Promise<string[]> {
    return TaskOwnerIndex.live(await this.store.get(this.key(owner)), Date.now()).map(([taskId]) => taskId);
  }
}
