// What a task keeps in the store, so that it outlives the request that made it, the process that ran it
// and (with a shared store) the fleet member: one record per task, written only by whoever holds its
// lease (lease.ts fences those writes), plus small keys that others add atomically beside it.
//   task:<id>                 the record (below)
//   task:<id>:answer:<key>    the client's raw answer to one input request; the first one wins
//   task:<id>:lease           who is running the task now; expires when its runner dies
//   task:<id>:cancel          a tasks/cancel arrived
//   task-owner:<digest>       the owner's task ids (owner-index.ts), for 2025-11-25's tasks/list
import type { AuthInfo, CallToolResult } from "@modelcontextprotocol/server";
import type { KeyValueStore } from "../../store/types.js";
import type { InputRequest, Journal } from "../rounds/replay.js";
import { recordKey, recordTtl, TaskLease } from "./lease.js";
import { TaskOwnerIndex } from "./owner-index.js";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

export interface TaskRecord {
  taskId: string;
  /** The tool the task runs, and the arguments as the client sent them. */
  tool: string;
  args: unknown;
  /**
   * Who made it: the kit's principal, or for an anonymous caller its 2025-era HTTP session (owner.ts).
   * Every tasks/* request must come from the same owner.
   */
  owner: string;
  /** The creator's verified token as the handler saw it, less the token itself: every run acts for the creator, whoever polls. */
  auth?: CreatorAuth;
  /** The token of the lease that last claimed the record (lease.ts). */
  holder?: string;
  /** The revision the task was made on: 2026-07-28 (the extension) or 2025-11-25 (experimental tasks). */
  protocol: "2025-11-25" | "2026-07-28";
  /** The creating request's _meta envelope (its revision and declared capabilities), for every later run. */
  envelope: Record<string, unknown>;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** The replay journal: settled answers, finished steps, what was asked. */
  journal: Journal;
  /** The outstanding input requests, while input_required. */
  inputRequests?: Record<string, InputRequest>;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
}

/** The AuthInfo of the request that made a task, as stored: no token (a secret, and it expires), the resource as text. */
export type CreatorAuth = Omit<AuthInfo, "token" | "resource"> & { resource?: string };

export function creatorAuth(auth: AuthInfo | undefined): CreatorAuth | undefined {
  if (!auth) return undefined;
  const { token: _secret, resource, ...rest } = auth;
  return { ...rest, scopes: [...auth.scopes], ...(resource ? { resource: resource.href } : {}) };
}

/** The creator's AuthInfo for a run's context; `token` is empty: the creator's token is never kept. */
export function runAuth(auth: CreatorAuth): AuthInfo {
  const { resource, ...rest } = auth;
  return { ...rest, scopes: [...auth.scopes], token: "", ...(resource ? { resource: new URL(resource) } : {}) };
}

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

  /** Keeps the first answer given to an input request; later ones for the same key are ignored. */
  addAnswer(taskId: string, key: string, answer: unknown, ttlMs: number): Promise<boolean> {
    return this.store.add(`task:${taskId}:answer:${key}`, JSON.stringify(answer), ttlMs);
  }

  /** The answers given so far to `keys`, by key (absent keys are unanswered). */
  async answers(taskId: string, keys: string[]): Promise<Record<string, unknown>> {
    const texts = await Promise.all(keys.map((key) => this.store.get(`task:${taskId}:answer:${key}`)));
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
}
