// What a task keeps in the store, so that it outlives the request that made it, the process that ran it
// and (with a shared store) the fleet member: one record per task, written only by whoever holds its
// lease (lease.ts fences those writes), plus small keys that others add atomically beside it.
//   task:<id>                 the record (task-record.ts)
//   task:<id>:answer:<key>    the client's answer to one input request, checked (answer-check.ts); the first
//                             one wins; deleted once a run has settled it into the journal, or the task ended
//   task:<id>:lease           who is running the task now; expires when its runner dies
//   task:<id>:cancel          a tasks/cancel arrived
//   task-owner:<digest>       the owner's task ids (owner-index.ts), for 2025-11-25's tasks/list
import type { KeyValueStore } from "../../store/types.js";
import { recordKey, recordTtl, TaskLease } from "./lease.js";
import { TaskOwnerIndex } from "./owner-index.js";
import type { TaskRecord } from "./task-record.js";

export { creatorAuth, runAuth, TERMINAL, type CreatorAuth, type TaskRecord, type TaskStatus } from "./task-record.js";

/** The store side of tasks; every method is one or two store operations. */
export class TaskRecords {
  constructor(
    private readonly store: KeyValueStore,
    /** How long a runner's lease lasts without renewal: a dead runner's task is picked up after this. */
    readonly leaseMs: number,
  ) {
    this.owners = new TaskOwnerIndex(store);
  }

  private readonly owners: TaskOwnerIndex;

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.store.get(recordKey(taskId));
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  }

  /** Stores a new task and adds it to its owner's index, both for as long as its TTL from creation says (plus a minute for late polls). */
  async create(record: TaskRecord): Promise<void> {
    const ttl = recordTtl(record);
    if (!(await this.store.add(recordKey(record.taskId), JSON.stringify(record), ttl))) throw new Error("A task with this id exists.");
    await this.owners.add(record.owner, record.taskId, Date.now() + ttl);
  }

  /** Keeps the first answer given to an input request (its checked JSON text); later ones for the same key are ignored. */
  addAnswer(taskId: string, key: string, text: string, ttlMs: number): Promise<boolean> {
    return this.store.add(answerKey(taskId, key), text, ttlMs);
  }

  /** Forgets the answers to `keys`: a run settled them into the journal, or the task ended. */
  async dropAnswers(taskId: string, keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.store.delete(answerKey(taskId, key))));
  }

  /** The answers given so far to `keys`, by key (absent keys are unanswered). */
  async answers(taskId: string, keys: string[]): Promise<Record<string, unknown>> {
    const texts = await Promise.all(keys.map((key) => this.store.get(answerKey(taskId, key))));
    const answers: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      if (texts[i] !== undefined) Object.defineProperty(answers, key, { value: JSON.parse(texts[i]!), enumerable: true });
    });
    return answers;
  }

  /** Takes the task's lease and claims its record (lease.ts): undefined when someone else runs it now. */
  lease(taskId: string): Promise<TaskLease | undefined> {
    return TaskLease.take(this.store, taskId, this.leaseMs);
  }

  /** The ids of `owner`'s tasks (2025-11-25's tasks/list), from the owner's index. */
  ownedIds(owner: string): Promise<string[]> {
    return this.owners.ids(owner);
  }

  requestCancel(taskId: string, ttlMs: number): Promise<unknown> {
    return this.store.set(`task:${taskId}:cancel`, "1", ttlMs);
  }

  async cancelRequested(taskId: string): Promise<boolean> {
    return (await this.store.get(`task:${taskId}:cancel`)) !== undefined;
  }

  /** Forgets a cancel request once the task has ended (its record says how). */
  dropCancel(taskId: string): Promise<void> {
    return this.store.delete(`task:${taskId}:cancel`);
  }
}

const answerKey = (taskId: string, key: string) => `task:${taskId}:answer:${key}`;
