// Tasks (the io.modelcontextprotocol/tasks extension): a tool call that answers at once with a task
// handle and runs on, asking its questions through tasks/get + tasks/update instead of the call's own
// rounds. A task is the replay of rounds (rounds/replay.ts) with its journal kept in the store rather
// than sealed into requestState: each run replays the handler from the start with the answers so far,
// so whichever process holds the task's lease can run it, after a restart or on another fleet member,
// and ctx.step (the call ledger) still runs each side effect once.
import { randomUUID } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { StepBusyError, StepUnknownError, type CallLedger } from "../rounds/ledger.js";
import { emptyJournal, ReplayRun, type Journal } from "../rounds/replay.js";
import { checkedAnswer } from "./answer-check.js";
import type { TaskLease } from "./lease.js";
import { creatorAuth, TERMINAL, TaskRecords, type TaskRecord } from "./records.js";
import { runContext } from "./run-context.js";
import { unref } from "../../common/unref.js";

/** Runs one task's handler once over `run`, with `ctx` as the handler's request context and the call's arguments as sent. */
export type TaskBody = (run: ReplayRun, ctx: ServerContext, args: unknown, protocol: TaskRecord["protocol"]) => Promise<CallToolResult>;

export interface TaskSettings {
  /** How long a task is kept from its creation (default 24 hours). */
  ttlMs: number;
  /** How often clients are asked to poll (default 1 s). */
  pollIntervalMs: number;
  /** The largest answer tasks/update stores, in bytes of its JSON (default 256 KiB). */
  maxAnswerBytes: number;
}

/** The Task fields of the extension's CreateTaskResult / DetailedTask. */
function taskView(record: TaskRecord) {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = record;
  return { taskId, status, ...(statusMessage ? { statusMessage } : {}), createdAt, lastUpdatedAt, ttlMs, pollIntervalMs };
}

/** The Task of 2025-11-25's experimental tasks (ttl and pollInterval, no inlined result). */
export function legacyView(record: TaskRecord) {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = record;
  return {
    taskId,
    status,
    ...(statusMessage ? { statusMessage } : {}),
    createdAt,
    lastUpdatedAt,
    ttl: ttlMs,
    pollInterval: pollIntervalMs,
  };
}

/** What a tools/call that made a task answers: the extension's handle, or 2025-11-25's `{ task }`. */
export function createdHandle(record: TaskRecord) {
  return record.protocol === "2026-07-28" ? { resultType: "task" as const, ...taskView(record) } : { task: legacyView(record) };
}

/** A JSON-RPC error for a task that failed: the handler's ProtocolError as it is, anything else -32603. */
function rpcError(error: unknown): NonNullable<TaskRecord["error"]> {
  if (error instanceof ProtocolError)
    return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  return { code: ProtocolErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
}

export class Tasks {
  private readonly bodies = new Map<string, TaskBody>();
  /** Runs in this process, by task id: tasks/cancel aborts them at once. */
  private readonly running = new Map<string, AbortController>();
  /** Who waits for a task's next change in this process (2025-11-25's tasks/result). */
  private readonly waiters = new Map<string, Set<() => void>>();
  constructor(
    private readonly records: TaskRecords,
    private readonly ledger: CallLedger,
    private readonly settings: TaskSettings,
  ) {}

  /** Makes `tool`'s handler runnable as a task (the kit's registerTool does, for tools with `task`). */
  define(tool: string, body: TaskBody): void {
    this.bodies.set(tool, body);
  }

  /**
   * Creates a task for a call and starts it. Resolves once the task is stored, so a tasks/get that
   * follows the CreateTaskResult finds it. `journal`: the answers the call already gathered in rounds.
   */
  async create(
    ctx: ServerContext,
    tool: string,
    args: unknown,
    owner: string,
    {
      journal = emptyJournal(),
      protocol = "2026-07-28",
      clientCapabilities,
    }: { journal?: Journal; protocol?: TaskRecord["protocol"]; clientCapabilities?: object } = {},
  ) {
    const capabilities = clientCapabilities ? { [CLIENT_CAPABILITIES_META_KEY]: clientCapabilities } : {};
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: randomUUID(),
      tool,
      args,
      owner,
      ...(ctx.http?.authInfo ? { auth: creatorAuth(ctx.http.authInfo) } : {}),
      protocol,
      // A 2025 session declared its capabilities once: they are kept as a 2026 request would carry them.
      envelope: { ...(ctx.mcpReq.envelope as Record<string, unknown> | undefined), ...capabilities },
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.settings.ttlMs,
      pollIntervalMs: this.settings.pollIntervalMs,
      // Questions asked but not answered in the call's rounds are asked again by the task's first run.
      journal: {
        ...journal,
        asked: Object.fromEntries(Object.entries(journal.asked).filter(([key]) => Object.hasOwn(journal.answers, key))),
      },
    };
    await this.records.create(record);
    void this.kick(record.taskId, ctx);
    return createdHandle(record);
  }

  /** The caller's task, as stored (2025-11-25's tasks/get, tasks/result and tasks/cancel shape it themselves). */
  async record(taskId: string, owner: string): Promise<TaskRecord> {
    return this.owned(taskId, owner);
  }

  /**
   * A poll of the caller's task (tasks/get on either revision, each look of tasks/result): the task as
   * stored, and a run started when it has work and nobody runs it (a working task whose runner died,
   * an answered one whose run has not started or died).
   */
  async poll(ctx: ServerContext, taskId: string, owner: string): Promise<TaskRecord> {
    const record = await this.owned(taskId, owner);
    if (record.status === "working" || (record.status === "input_required" && (await this.pending(record)).length === 0))
      void this.kick(taskId, ctx);
    return record;
  }

  /** The keys of the task's input requests still without an answer. */
  async pending(record: TaskRecord): Promise<string[]> {
    const keys = Object.keys(record.inputRequests ?? {});
    const answered = await this.records.answers(record.taskId, keys);
    return keys.filter((k) => !Object.hasOwn(answered, k));
  }

  /** The caller's tasks (2025-11-25's tasks/list). */
  async list(owner: string): Promise<TaskRecord[]> {
    const records = await Promise.all((await this.records.ownedIds(owner)).map((id) => this.records.get(id)));
    return records.filter((r): r is TaskRecord => r?.owner === owner).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * Resolves when the task's record may have changed, or after `ms`: at once in
   * this process (its runs tell), at the next look for runs elsewhere in a fleet.
   */
  async changed(taskId: string, ms: number, signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        const set = this.waiters.get(taskId);
        // Waiting on a task another process runs leaves no empty set behind.
        if (set?.delete(done) && set.size === 0) this.waiters.delete(taskId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      let set = this.waiters.get(taskId);
      if (!set) this.waiters.set(taskId, (set = new Set()));
      set.add(done);
    });
  }

  /** tasks/get: the task as the extension's DetailedTask; a working task whose runner died is picked up. */
  async get(ctx: ServerContext, taskId: string, owner: string) {
    const record = await this.poll(ctx, taskId, owner);
    const view = taskView(record);
    switch (record.status) {
      case "input_required": {
        const keys = await this.pending(record);
        // All answered: the poll started the run on them (or someone runs it), so the task is working.
        if (keys.length === 0) return { ...view, status: "working" as const };
        return { ...view, inputRequests: Object.fromEntries(keys.map((k) => [k, record.inputRequests![k]])) };
      }
      case "completed":
        return { ...view, result: record.result! };
      case "failed":
        return { ...view, error: record.error! };
      default:
        return view;
    }
  }

  /**
   * tasks/update: keeps the answers to outstanding requests (others are ignored, as the extension says)
   * and runs on. Every answer is checked against its question and bounded first (answer-check.ts): one
   * refused answer refuses the update (-32602), and nothing of it is stored.
   */
  async update(ctx: ServerContext, taskId: string, owner: string, inputResponses: Record<string, unknown>): Promise<void> {
    const record = await this.owned(taskId, owner);
    if (record.status !== "input_required") return;
    const outstanding = record.inputRequests ?? {};
    const texts = Object.keys(inputResponses)
      .filter((key) => Object.hasOwn(outstanding, key))
      .map((key) => [key, checkedAnswer(key, outstanding[key]!, inputResponses[key], this.settings.maxAnswerBytes)] as const);
    const ttl = Date.parse(record.createdAt) + record.ttlMs - Date.now() + 60_000;
    await Promise.all(texts.map(([key, text]) => this.records.addAnswer(taskId, key, text, Math.max(ttl, 60_000))));
    void this.kick(taskId, ctx);
  }

  /** tasks/cancel: acknowledged at once; a running handler's signal aborts, and the task ends cancelled. */
  async cancel(ctx: ServerContext, taskId: string, owner: string): Promise<void> {
    const record = await this.owned(taskId, owner);
    if (TERMINAL.includes(record.status)) return;
    await this.records.requestCancel(taskId, record.ttlMs + 60_000);
    this.running.get(taskId)?.abort(new Error("The task was cancelled."));
    void this.kick(taskId, ctx);
  }

  private async owned(taskId: string, owner: string): Promise<TaskRecord> {
    const record = typeof taskId === "string" ? await this.records.get(taskId) : undefined;
    // Another caller's task is "not found" too: its existence is not told.
    if (!record || record.owner !== owner)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
    return record;
  }

  /**
   * Runs the task if it has work to do and nobody else is running it: a new or orphaned working task,
   * an input_required one whose every request is answered, or one cancelled. Never throws: a failure to
   * reach the store leaves the task for the next poll.
   */
  private async kick(taskId: string, ctx: ServerContext): Promise<void> {
    try {
      if (this.running.has(taskId)) return;
      const lease = await this.records.lease(taskId);
      if (!lease) return;
      let next: Next = "idle";
      try {
        next = await this.runOnce(lease, ctx);
      } finally {
        await lease.release();
      }
      // Answers or a cancel may have come while the lease was held: look again.
      if (next === "again") void this.kick(taskId, ctx);
      // A step another runner holds: tried again after a poll interval (tasks/get kicks it sooner).
      if (next === "later") unref(setTimeout(() => void this.kick(taskId, ctx), this.settings.pollIntervalMs));
    } catch {
      // Left as it is; the next tasks/get or tasks/update tries again.
    }
  }

  /** One run under the lease: what to do next. Every save goes through the lease, so a run that lost it writes nothing. */
  private async runOnce(lease: TaskLease, ctx: ServerContext): Promise<Next> {
    const { record } = lease;
    const taskId = record.taskId;
    if (TERMINAL.includes(record.status)) return "idle";
    const cancelled = await this.records.cancelRequested(taskId);
    // A working record names the answers its run took (a run that died is run again with them).
    const keys = record.status === "input_required" ? Object.keys(record.inputRequests ?? {}) : (record.answering ?? []);
    const incoming = await this.records.answers(taskId, keys);
    if (cancelled) return this.finish(lease, { status: "cancelled", statusMessage: "Cancelled at the client's request." });
    if (record.status === "input_required" && keys.some((k) => !Object.hasOwn(incoming, k))) return "idle";
    const body = this.bodies.get(record.tool);
    if (!body) return "idle"; // a process without this tool (a fleet mid-deploy): another one runs it
    // The run is stored before it starts: should this process die, the record says working (with the
    // answers it takes), and the next poll after the lease lapses runs it again.
    record.status = "working";
    delete record.inputRequests;
    if (keys.length > 0) record.answering = keys;
    if (!(await lease.save(record))) return "idle";

    const abort = new AbortController();
    const held = this.holdLease(lease, abort);
    this.running.set(taskId, abort);
    try {
      return await this.runBody(lease, ctx, body, incoming, abort.signal, held);
    } finally {
      held.stop();
      this.running.delete(taskId);
    }
  }

  /**
   * Renews the run's lease while it runs, aborting the run when the lease passes to another runner or a
   * cancel comes through the store (sent to another process of the fleet). `lost`: the lease passed.
   */
  private holdLease(lease: TaskLease, abort: AbortController): { readonly lost: boolean; stop(): void } {
    const taskId = lease.record.taskId;
    let lost = false;
    const renew = setInterval(() => {
      void lease.renew().then(
        (held) => !held && ((lost = true), abort.abort(new Error("The task's lease passed to another runner."))),
        () => {},
      );
      void this.records.cancelRequested(taskId).then(
        (yes) => yes && abort.abort(new Error("The task was cancelled.")),
        () => {},
      );
    }, this.records.leaseMs / 3);
    unref(renew); // the run keeps its process alive if anything does, not its lease
    return {
      get lost() {
        return lost;
      },
      stop: () => clearInterval(renew),
    };
  }

  /** Runs the task's handler once on the answers it took, and saves how the run ended. */
  private async runBody(
    lease: TaskLease,
    ctx: ServerContext,
    body: TaskBody,
    incoming: Record<string, unknown>,
    signal: AbortSignal,
    held: { readonly lost: boolean },
  ): Promise<Next> {
    const { record } = lease;
    let busy: string | undefined;
    const run = new ReplayRun(
      record.journal,
      (name, fn, recorded) =>
        this.ledger.step(record.journal.call, name, fn, recorded).catch((error: unknown) => {
          if (error instanceof StepBusyError) busy = name;
          throw error;
        }),
      incoming,
    );
    let outcome;
    // Progress is saved in order, and before the run's end is: a late save cannot undo the end.
    let saving = Promise.resolve();
    const progress = (message: string) => {
      record.statusMessage = message;
      return (saving = saving.then(async () => void (await lease.save(record))).catch(() => {}));
    };
    try {
      outcome = await run.run(() => body(run, runContext(ctx, record, signal, progress), record.args, record.protocol));
    } catch (error) {
      outcome = { kind: "error" as const, error };
    }
    await saving;
    if (held.lost) return "idle"; // the runner that holds the task now ends it
    // Whatever the handler made of a step another runner still runs, the step has not happened here:
    // the task stays working and runs again later, when that step has its value.
    if (busy !== undefined) {
      const since = record.stepBusySince ?? new Date().toISOString();
      // A runner stalled this long is taken for dead: whether its step happened is unknown, so it is not run here.
      if (Date.now() - Date.parse(since) > ORPHANED_STEP_LEASES * this.records.leaseMs)
        return this.finish(lease, { status: "completed", result: new StepUnknownError(busy).toResult() });
      const waiting = `Waiting for the step "${busy}", still running elsewhere.`;
      await lease.save({ ...record, status: "working", statusMessage: waiting, stepBusySince: since });
      return "later";
    }
    if (signal.aborted || (await this.records.cancelRequested(record.taskId)))
      return this.finish(lease, { status: "cancelled", statusMessage: "Cancelled at the client's request." });
    if (outcome.kind === "error")
      return this.finish(lease, { status: "failed", statusMessage: "The tool failed.", error: rpcError(outcome.error) });
    if (outcome.kind === "done") return this.finish(lease, { status: "completed", result: outcome.result });
    if (outcome.kind === "detach") throw new Error("A task's run cannot detach."); // canDetach is false in tasks
    record.journal = outcome.journal;
    return this.finish(lease, { status: "input_required", inputRequests: outcome.inputRequests });
  }

  /**
   * Saves the run's end, if this run still holds the task, and wakes whoever waits on it here. The
   * answers the run took are settled in the journal by now, so they are dropped; an ended task drops
   * every answer (beside its record and in its journal) and its cancel request too. A death between the save and the drops leaves them until
   * they expire with the task.
   */
  private async finish(lease: TaskLease, change: Partial<TaskRecord>): Promise<Next> {
    const { answering = [], inputRequests = {}, taskId } = lease.record;
    const next: TaskRecord = { ...lease.record, statusMessage: undefined, stepBusySince: undefined, answering: undefined, ...change };
    const ended = TERMINAL.includes(next.status);
    // Nothing replays an ended task: its record keeps the result, not the answers that led to it.
    if (ended) next.journal = { ...next.journal, answers: {}, asked: {} };
    if (!(await lease.save(next))) return "idle";
    await Promise.all([
      this.records.dropAnswers(taskId, ended ? [...new Set([...answering, ...Object.keys(inputRequests)])] : answering),
      ended ? this.records.dropCancel(taskId) : undefined,
    ]).catch(() => {}); // left to expire with the task
    const waiting = this.waiters.get(next.taskId);
    this.waiters.delete(next.taskId);
    waiting?.forEach((wake) => wake());
    return next.status === "input_required" ? "again" : "idle";
  }
}

/** How many leases runs wait for a step whose runner's lease lapsed, before taking that runner for dead. */
const ORPHANED_STEP_LEASES = 10;

/** After a run: nothing to do now, look again at once (answers may have come meanwhile), or retry after a while. */
type Next = "idle" | "again" | "later";
