// What a task keeps in the store, so that it outlives the request that made it, the process that ran it
// and (with a shared store) the fleet member: one record per task, written only by whoever holds its
// lease, plus small keys that others add atomically beside it.
//   task:<id>                 the record (below)
//   task:<id>:answer:<key>    the client's raw answer to one input request; the first one wins
//   task:<id>:lease           who is running the task now; expires when its runner dies
//   task:<id>:cancel          a tasks/cancel arrived
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { KeyValueStore } from "../../store/types.js";
import type { InputRequest, Journal } from "../rounds/replay.js";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

export interface TaskRecord {
  taskId: string;
  /** The tool the task runs, and the arguments as the client sent them. */
  tool: string;
  args: unknown;
  /** Who made it (the kit's principal): every tasks/* request must come from the same caller. */
  owner: string;
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

/** The store side of tasks; every method is one or two store operations. */
export class TaskRecords {
  constructor(
    private readonly store: KeyValueStore,
    /** How long a runner's lease lasts without renewal: a dead runner's task is picked up after this. */
    readonly leaseMs: number,
  ) {}

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.store.get(`task:${taskId}`);
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  }

  /** Writes the record; it lives as long as its TTL from creation says (plus a minute for late polls). */
  save(record: TaskRecord): Promise<void> {
    record.lastUpdatedAt = new Date().toISOString();
    const left = Date.parse(record.createdAt) + record.ttlMs - Date.now();
    return this.store.set(`task:${record.taskId}`, JSON.stringify(record), Math.max(left, 0) + 60_000);
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

  /** Takes the task's lease for `runner`, atomically: false when someone else runs it now. */
  lease(taskId: string, runner: string): Promise<boolean> {
    return this.store.add(`task:${taskId}:lease`, runner, this.leaseMs);
  }

  renewLease(taskId: string, runner: string): Promise<void> {
    return this.store.set(`task:${taskId}:lease`, runner, this.leaseMs);
  }

  releaseLease(taskId: string): Promise<void> {
    return this.store.delete(`task:${taskId}:lease`);
  }

  /** The ids of the tasks in the store (2025-11-25's tasks/list; records only, not their side keys). */
  async ids(): Promise<string[]> {
    return (await this.store.keys("task:")).map((key) => key.slice(5)).filter((id) => !id.includes(":"));
  }

  requestCancel(taskId: string, ttlMs: number): Promise<unknown> {
    return this.store.set(`task:${taskId}:cancel`, "1", ttlMs);
  }

  async cancelRequested(taskId: string): Promise<boolean> {
    return (await this.store.get(`task:${taskId}:cancel`)) !== undefined;
  }
}
