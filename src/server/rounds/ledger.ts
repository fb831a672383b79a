// The call ledger of 2026-07-28: requestState travels through the client, so an old state can come
// back (a replay, a retry of a round long gone). The sealed journal alone cannot tell; this small
// server-side record can. Per tool call (a random id sealed in the journal) it keeps:
//   round:<call>       the latest round issued, with what it answered: the digest of the answers that led
//                      to it and the input_required result sent then. An earlier round is refused, except
//                      the round just before with those very answers (a resend after a lost reply): it
//                      gets that result again, so the person's answers are not lost. One record per call,
//                      overwritten each round: a few KB while the call runs (the next round's questions
//                      and its requestState), nothing once it ends.
//   claim:<call>:<round> the digest of the answers a round was first submitted with: one round, one answer
//   step:<call>:<name>  each ctx.step result, so a side effect runs once per call, whatever is replayed;
//                      the only copy of it (the sealed journal names the step, never its value)
//   done:<call>        the final result, returned again for any later state of a finished call
// Once a call is done its round and claim records are let go: the result answers every later state of
// the call first, read after the claim (admit()), so a claim won in the moment between finds it.
// So a finished call keeps one record for its window instead of one per round and claim: what the
// memory store keeps on the V8 heap for half an hour, which every full collection marks again.
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import type { KeyValueStore } from "../../store/types.js";
import { ElicitError } from "../../schema/errors.js";

/** A ctx.step claimed by a request that is still running it. */
const RUNNING = "\u0000running";
const POLL_MS = 25;

export class StepBusyError extends ElicitError {
  constructor(name: string) {
    super("step-busy", `ctx.step("${name}") is still running for this tool call in another request; retry with the latest requestState.`);
  }
}

/** The journal says a step finished, but its value is gone: the ledger's store forgot the call. */
export class StepLostError extends ElicitError {
  constructor(name: string) {
    super(
      "step-lost",
      `ctx.step("${name}") already ran for this tool call, but the server no longer has its result (it restarted without a durable store, or the record expired); call the tool again.`,
    );
  }
}

/** A 2025-era call finished by another server instance found a step its dead instance had started and not ended. */
export class StepUnknownError extends ElicitError {
  constructor(name: string) {
    super(
      "step-unknown",
      `ctx.step("${name}") was running on the server instance that stopped; whether it happened is unknown, so it is not run again. Call the tool again if it is safe to repeat.`,
    );
  }
}

const ignore = () => {};

/** What answering a round led to: the next round, sent as `next` to the answers whose digest is `answers`. */
export interface LedRound {
  answers: string;
  next: InputRequiredResult;
}

/**
 * The round record's text: `<round>`, or `<round> <answers' digest> <next round's JSON>` (a digest is
 * base64url, without spaces). The number leads, so reading the latest round never parses the JSON.
 */
const roundText = (round: number, led?: LedRound) => (led ? `${round} ${led.answers} ${JSON.stringify(led.next)}` : String(round));
const roundOf = (text: string | undefined) => (text === undefined ? 0 : Number.parseInt(text, 10));

/** The next round a round record says `answers` led to, or undefined (other answers, or a record without it). */
function ledFrom(record: string, answers: string): InputRequiredResult | undefined {
  const first = record.indexOf(" ");
  const second = first < 0 ? -1 : record.indexOf(" ", first + 1);
  if (second < 0 || record.slice(first + 1, second) !== answers) return undefined;
  return JSON.parse(record.slice(second + 1)) as InputRequiredResult;
}

export class CallLedger {
  constructor(
    private readonly store: KeyValueStore,
    /** How long entries live: as long as a requestState can (its TTL), plus a margin. */
    private readonly ttlMs: number,
    /** How long a replay waits for a step another request is running (default 30 s). */
    private readonly stepWaitMs = 30_000,
  ) {}

  /** The latest round issued for the call (0 when none was). */
  async latestRound(call: string): Promise<number> {
    return roundOf(await this.store.get(`round:${call}`));
  }

  /** Records that round `round` was issued; `led`: the answers that led to it and what was sent, for a resend of them. */
  async recordRound(call: string, round: number, led?: LedRound): Promise<void> {
    // Two requests answering the same round both issue round+1; the first one's record stays (either
    // answer continues the call), and a lower number never overwrites.
    if ((await this.latestRound(call)) < round) await this.store.set(`round:${call}`, roundText(round, led), this.ttlMs);
  }

  /** The call's final result (when it finished) and its latest round's record, read together: one wait, not two. */
  async status(call: string): Promise<{ done?: CallToolResult; latest: number; record?: string }> {
    const [done, record] = await Promise.all([this.store.get(`done:${call}`), this.store.get(`round:${call}`)]);
    return { done: done === undefined ? undefined : (JSON.parse(done) as CallToolResult), latest: roundOf(record), record };
  }

  /**
   * Records the call's final result (or the task handle it became), then lets go of its records of rounds 1 to `rounds` (the round it
   * finished in): from now on the result answers any state of the call. The result is written first, so a
   * request that wins a claim just let go then finds the result (admit).
   */
  async recordResult(call: string, result: CallToolResult | Record<string, unknown>, rounds = 0): Promise<void> {
    await this.store.add(`done:${call}`, JSON.stringify(result), this.ttlMs);
    // Not waited for: the result already answers, and a record a failed delete leaves only expires later.
    if (rounds > 1) this.store.delete(`round:${call}`).catch(ignore);
    for (let round = 1; round <= rounds; round++) this.store.delete(`claim:${call}:${round}`).catch(ignore);
  }

  /**
   * Claims a round of the call for one set of answers (`answers`: their digest), atomically: the first
   * submission of a state wins; the same answers again (a retry after a lost reply) are let through,
   * other answers are not (`claimed` false). So concurrent submissions of one state never run the
   * handler with different answers. Then the call's status, read after the claim: a call that finished
   * before it (its claims let go by recordResult) is seen finished, and a claim won on it is let go again.
   * `next`: these answers already led to the latest round, which is what answers them again.
   */
  async admit(
    call: string,
    round: number,
    answers: string,
  ): Promise<{ claimed: boolean; done?: CallToolResult; latest: number; next?: InputRequiredResult }> {
    const key = `claim:${call}:${round}`;
    const claimed = (await this.store.add(key, answers, this.ttlMs)) || (await this.store.get(key)) === answers;
    const { done, latest, record } = await this.status(call);
    if (done && claimed) await this.store.delete(key);
    if (done) return { claimed, done, latest };
    const next = claimed && latest === round + 1 ? ledFrom(record!, answers) : undefined;
    return next ? { claimed, latest, next } : { claimed, latest };
  }

  /**
   * Runs `fn` once for this call and step name, across rounds, replays, restarts and (with a shared
   * store) instances: the first request claims the step, later ones get its recorded value. `recorded`:
   * the call's journal says the step finished, so running it now would run it twice. `orphaned`: the run
   * that started this call is gone (its instance died), so a step still claimed was claimed by it.
   */
  async step<T>(call: string, name: string, fn: () => T | Promise<T>, recorded = false, orphaned = false): Promise<T> {
    const key = `step:${call}:${name}`;
    const deadline = Date.now() + this.stepWaitMs;
    for (;;) {
      const kept = await this.store.get(key);
      if (kept !== undefined && kept !== RUNNING) return (JSON.parse(kept) as { value: T }).value;
      if (kept === undefined && recorded) throw new StepLostError(name);
      if (kept === RUNNING && orphaned) throw new StepUnknownError(name);
      if (kept === undefined && (await this.store.add(key, RUNNING, this.ttlMs))) break;
      if (Date.now() > deadline) throw new StepBusyError(name);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    try {
      const value = await fn();
      await this.store.set(key, JSON.stringify({ value }), this.ttlMs);
      return value;
    } catch (error) {
      // A step that failed did not happen: the next round may try it again.
      await this.store.delete(key);
      throw error;
    }
  }
}
