// Replay of a tool handler across 2026-07-28 round trips. A retry that comes back to the process that
// asked resumes the suspended run in memory (resume(), a warm round: warm.ts); any other retry runs the
// handler again, each input request it makes answered from the journal when the answer is known, and
// otherwise suspending the run. Requests made in the same tick (Promise.all) go out together in one round.
import { randomUUID } from "node:crypto";
import type { ServerContext } from "@modelcontextprotocol/server";
import { isSharedEncoding } from "../../schema/compiled.js";
import { setOwn } from "../../schema/own.js";
import { sha256 } from "../base/sealed-state.js";
import type { InputMethod, Settle } from "../inputs/delivery.js";
import { ElicitError } from "../../schema/errors.js";

/** What travels (sealed) in requestState between rounds: nothing the client could not know already. */
export interface Journal {
  /** This tool call's id, the same in every round: the key of its entries in the call ledger. */
  call: string;
  /** How many rounds were issued before this one (0 on the first run). */
  round: number;
  /**
   * Settled answers by input key, e.g. "elicit-1": what each answer became once checked (an accepted
   * form's validated content, or why it was refused), never the client's raw text.
   */
  answers: Record<string, unknown>;
  /**
   * The ctx.step calls that finished, as digests of their names. Their values stay on the server, in
   * the call ledger: a step may hold what the client must never learn.
   */
  steps: string[];
  /** Keys asked in the last round, with a fingerprint of what was asked. */
  asked: Record<string, string>;
}

export const emptyJournal = (): Journal => ({ call: randomUUID(), round: 0, answers: {}, steps: [], asked: {} });

/**
 * How a step's function is run: the call ledger's, which runs it once per call and keeps its value.
 * `recorded` says the journal holds that it finished, so its value must be there.
 */
export type StepRunner = <T>(name: string, fn: () => Promise<T>, recorded: boolean) => Promise<T>;

export interface InputRequest {
  method: InputMethod;
  params: Record<string, unknown>;
}

const KEY_PREFIX: Record<InputMethod, string> = {
  "elicitation/create": "elicit",
  "sampling/createMessage": "sample",
  "roots/list": "roots",
};

/** The journal's name for a step: fixed-size, so a name made from a value does not show in the token's length. */
export const stepId = (name: string) => sha256(`step\u0000${name}`).slice(0, 16);

export type ReplayOutcome<R> =
  | { kind: "done"; result: R }
  | { kind: "input_required"; inputRequests: Record<string, InputRequest>; journal: Journal }
  /** The handler asked to go on as a task (ctx.detach) with every question so far answered. */
  | { kind: "detach"; journal: Journal };

/** Thrown into nothing: a suspended run's promise simply never settles and is dropped. */
const never = <T>() => new Promise<T>(() => {});

/** A question of this run that waits for its answer: settled in place when a warm round brings it. */
interface Waiter {
  request: InputRequest;
  settle: Settle<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Thrown when a replayed handler asks something other than what it asked before. */
export class ReplayMismatchError extends ElicitError {
  constructor(key: string) {
    super(
      "replay-mismatch",
      `The tool asked something different for "${key}" than in the previous round; handlers must ask the same questions in the same order for the same answers (use ctx.step for anything non-deterministic).`,
    );
  }
}

/** One run of a handler against a journal; create a fresh one per retry. */
export class ReplayRun {
  private counters: Partial<Record<InputMethod, number>> = {};
  private used = new Set<string>();
  private pending: Record<string, InputRequest> = {};
  private stepsInFlight = 0;
  private suspend?: (outcome: ReplayOutcome<unknown>) => void;
  private fail?: (error: unknown) => void;
  private ended = false;
  private flushScheduled = false;
  private detached = false;
  /** The questions the handler waits on, in the order asked: what a warm round answers. */
  private waiters = new Map<string, Waiter>();
  /** Set by the handler's context: points it at the request a warm round resumes it in (its signal, its envelope). */
  onResume?: (ctx: ServerContext) => void;

  constructor(
    readonly journal: Journal,
    private readonly runStep: StepRunner,
    /** The client's answers to the last round's keys, raw: each is settled when the handler reaches it. */
    private incoming: Record<string, unknown> = {},
    /** ctx.detach ends the round with a task (the client takes tasks); otherwise it has nothing to do. */
    public canDetach = false,
  ) {}

  /**
   * ctx.detach: the rest of the call runs as a task. In a round of a call that can become one, the round
   * ends here and the call answers with a task, whose first run replays the handler to this point; in a
   * task's run, or for a client without tasks, it returns at once.
   */
  detach(): Promise<void> {
    if (!this.canDetach) return Promise.resolve();
    this.detached = true;
    this.scheduleFlush();
    return never<void>();
  }

  /** Whether `key` has an answer, journaled or just arrived. */
  answered(key: string): boolean {
    return Object.hasOwn(this.journal.answers, key) || (Object.hasOwn(this.journal.asked, key) && Object.hasOwn(this.incoming, key));
  }

  /**
   * An input request: the journaled answer, or the client's new one once `settle` accepted it (then
   * journaled as settle returned it), or a suspension until the client answers. An answer `settle`
   * throws on is not journaled: the error reaches the tool, and the question can be asked again.
   */
  request<T>(method: InputMethod, params: Record<string, unknown>, settle: Settle<T>, explicitKey?: string): Promise<T> {
    const n = (this.counters[method] = (this.counters[method] ?? 0) + 1);
    const key = explicitKey ?? `${KEY_PREFIX[method]}-${n}`;
    if (this.used.has(key)) throw new Error(`Input key "${key}" is used twice in one tool call; give each question its own key.`);
    this.used.add(key);
    // The same handler code builds the same params object, so plain JSON order is stable here.
    const fingerprint = sha256(method + paramsText(params)).slice(0, 16);
    if (this.answered(key)) {
      const asked = this.journal.asked[key];
      // A state sealed before fingerprints took the form's digest hashed the params' whole JSON text.
      if (asked !== fingerprint && asked !== sha256(method + JSON.stringify(params)).slice(0, 16)) throw new ReplayMismatchError(key);
      if (Object.hasOwn(this.journal.answers, key)) return Promise.resolve(this.journal.answers[key] as T);
      let settled: T;
      try {
        settled = settle(this.incoming[key]);
      } catch (error) {
        return Promise.reject(error as Error);
      }
      setOwn(this.journal.answers, key, settled);
      return Promise.resolve(settled);
    }
    setOwn(this.journal.asked, key, fingerprint);
    const request = { method, params };
    setOwn(this.pending, key, request);
    this.scheduleFlush();
    return new Promise<T>((resolve, reject) => {
      this.waiters.set(key, { request, settle, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Runs `fn` once across all rounds; later rounds get the value the ledger recorded. */
  async step<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    const id = stepId(name);
    const recorded = this.journal.steps.includes(id);
    this.stepsInFlight++;
    try {
      const value = await this.runStep(
        name,
        async () => {
          const v = await fn();
          if (v !== undefined && !isJsonSafe(v)) {
            throw new TypeError(`ctx.step("${name}") must return JSON-serialisable data, since it is recorded across round trips.`);
          }
          return v;
        },
        recorded,
      );
      if (!this.journal.steps.includes(id)) this.journal.steps.push(id);
      return value;
    } finally {
      this.stepsInFlight--;
      if (Object.keys(this.pending).length) this.scheduleFlush();
    }
  }

  /** Runs the handler until it completes or waits on answers nobody has given yet. */
  run<R>(handler: () => Promise<R>): Promise<ReplayOutcome<R>> {
    const round = this.nextRound<R>();
    // Whichever round is current when the handler ends hears of it.
    handler().then(
      (result) => {
        this.ended = true;
        this.suspend!({ kind: "done", result });
      },
      (error: unknown) => {
        this.ended = true;
        this.fail!(error);
      },
    );
    return round;
  }

  /**
   * Whether a warm round can resume this run: it waits on questions, and its handler has not ended
   * meanwhile (a handler that went on without its answers, e.g. a race it lost, is replayed instead).
   */
  get resumable(): boolean {
    return !this.ended && this.waiters.size > 0;
  }

  /**
   * A warm round: the client's answers to the suspended run's questions, settled in the order asked and
   * handed to the handler where it waits; it goes on from there until it completes or waits again. A
   * question left unanswered is asked again, as a replay would ask it.
   */
  resume<R>(incoming: Record<string, unknown>): Promise<ReplayOutcome<R>> {
    const round = this.nextRound<R>();
    this.incoming = incoming;
    this.pending = {};
    this.detached = false;
    for (const [key, waiter] of [...this.waiters]) {
      if (!Object.hasOwn(incoming, key)) {
        setOwn(this.pending, key, waiter.request);
        continue;
      }
      this.waiters.delete(key);
      let settled: unknown;
      try {
        settled = waiter.settle(incoming[key]);
      } catch (error) {
        waiter.reject(error);
        continue;
      }
      setOwn(this.journal.answers, key, settled);
      waiter.resolve(settled);
    }
    if (Object.keys(this.pending).length) this.scheduleFlush();
    return round;
  }

  /** The promise of the round that starts now: settled by the handler's end, or by its next suspension. */
  private nextRound<R>(): Promise<ReplayOutcome<R>> {
    return new Promise<ReplayOutcome<R>>((resolve, reject) => {
      // One run's rounds all end with its handler's result, of the R its run() was given.
      this.suspend = resolve as (o: ReplayOutcome<unknown>) => void;
      this.fail = reject;
    });
  }

  // The round closes once the microtask queue has drained with no step still running, so requests
  // started together are batched and no in-flight side effect is lost. A tick queued from a microtask
  // runs only after the queue is empty (Node drains microtasks before the tick queue goes on), and
  // costs no turn of the event loop as setImmediate did: about a tenth of a round's CPU.
  private scheduleFlush() {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => process.nextTick(() => this.flush()));
  }

  private flush() {
    this.flushScheduled = false;
    if (this.stepsInFlight > 0) return; // the step's finally re-schedules
    for (const key of Object.keys(this.journal.asked)) {
      if (!Object.hasOwn(this.journal.answers, key) && !Object.hasOwn(this.pending, key)) delete this.journal.asked[key];
    }
    // Questions asked together with ctx.detach() go to the task: its first run asks them again.
    if (this.detached) this.suspend?.({ kind: "detach", journal: this.journal });
    else this.suspend?.({ kind: "input_required", inputRequests: this.pending, journal: this.journal });
  }
}

// The digest of each shared encoding a request carried (compiled.ts), kept as long as the encoding lives.
// Stays a module WeakMap: keyed by src/schema's encodings, shared by every run that asks the same form.
const encodedDigests = new WeakMap<object, string>();

/** A short stand-in for a form's encoding: its digest, worked out once per encoding object. */
function encodedStandIn(value: object): string | undefined {
  let digest = encodedDigests.get(value);
  if (digest === undefined) {
    if (!isSharedEncoding(value)) return undefined;
    encodedDigests.set(value, (digest = `#${sha256(JSON.stringify(value))}`));
  }
  return digest;
}

/**
 * The text a request's fingerprint hashes: JSON.stringify(params), except that a compiled form's
 * encoding (most of an elicitation's params) is written as the digest of its JSON. The stand-in starts
 * with "#", which no JSON value does, so it cannot be mistaken for one; and the text stays short, so
 * fingerprinting a replayed question does not build and hash the whole form again on every round.
 */
function paramsText(params: Record<string, unknown>): string {
  let text = "";
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    const value = params[key];
    let json: string | undefined;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") json = JSON.stringify(value);
    else if (typeof value === "object" && value !== null) json = encodedStandIn(value);
    // Anything else (undefined, toJSON, nested params) takes the plain path.
    if (json === undefined) return JSON.stringify(params);
    text += `${text ? "," : "{"}${JSON.stringify(key)}:${json}`;
  }
  return text ? `${text}}` : JSON.stringify(params);
}

function isJsonSafe(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
}
