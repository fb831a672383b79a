// One 2026-07-28 tool call across its rounds: the sealed journal (state.ts) carries the answers, the
// call ledger (ledger.ts) makes old states harmless, and ReplayRun (replay.ts) runs the handler again,
// or resumes it where it waits when the retry comes back to this process (warm.ts).
import {
  inputRequired,
  type CallToolResult,
  type InputRequests,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { CallLedger } from "./ledger.js";
import { emptyJournal, ReplayRun, type Journal, type ReplayOutcome } from "./replay.js";
import type { GuardedCall } from "./guard.js";
import { checkTerms, digest, open, sealed, StateError, type SealOptions, type StateBinding } from "../base/sealed-state.js";
import type { Suspended, SuspendedRuns } from "./warm.js";

/** What the state guard hands a replayed call: its journal, and the result when the call already finished. */
interface OpenedCall {
  journal: Journal;
  done?: CallToolResult;
  /** The round these very answers already led to (a resend after a lost reply): sent again as it was. */
  next?: InputRequiredResult;
  /** The digest of the answers this request brought: recorded with the round they lead to. */
  answers?: string;
  /** The handler this process holds suspended on the state's round (a warm round): resumed, not replayed. */
  warm?: Suspended;
}

export class ReplayCalls {
  /**
   * How the state of a handler held warm is sealed: without remembering its text for reopening. Its retry
   * resumes the handler without opening it; the text kept for 512 more calls would only be garbage the
   * old generation collects (a full mark-compact in the instruction counts). A duplicate retry, or one
   * after eviction, decrypts it. Made at first use: the keys in `sealOptions` may be made only then.
   */
  private get heldSeal(): SealOptions {
    return (this.heldSealOptions ??= { ...this.sealOptions, recent: undefined });
  }
  private heldSealOptions?: SealOptions;

  constructor(
    private readonly ledger: CallLedger,
    private readonly sealOptions: SealOptions,
    private readonly bindingFor: (ctx: ServerContext, tool: string, args: unknown) => StateBinding,
    /** The handlers held for warm rounds; without it every retry replays. */
    private readonly suspended?: SuspendedRuns,
  ) {}

  /**
   * Opens a requestState (for the state guard) and checks it against the ledger: a finished call answers
   * with its result, an old round is refused, and so is a round already answered with other answers.
   */
  async open(ctx: ServerContext, tool: string, guarded: GuardedCall, state: string): Promise<OpenedCall> {
    const held = this.suspended?.peek(state);
    if (held) {
      // Issued by this process and held since: authentic as it is string-equal to what was sealed; its
      // terms are checked as open() checks them, and only then is the handler taken (a stranger's retry
      // with the state is refused without costing its owner the warm round).
      checkTerms(held.terms, this.binding(ctx, tool, guarded));
      const warm = this.suspended!.take(state);
      if (warm) return { ...(await this.admit(ctx, warm.run.journal)), warm };
    }
    const journal = open<Journal>(state, this.binding(ctx, tool, guarded), this.sealOptions);
    const admitted = await this.admit(ctx, journal as Journal);
    return admitted.done || admitted.next ? admitted : { journal, answers: admitted.answers };
  }

  /**
   * The call ledger's word on a state of `journal`'s round: the call's result if it finished, the next
   * round if these answers already led to it, else the round claimed, or refused.
   */
  private async admit(ctx: ServerContext, journal: Journal): Promise<OpenedCall> {
    const answers = digest(ctx.mcpReq.inputResponses ?? {});
    const { claimed, done, latest, next } = await this.ledger.admit(journal.call, journal.round, answers);
    if (done) return { journal, done };
    if (next) return { journal, next };
    if (journal.round < latest) {
      throw new StateError(
        "replayed",
        `it is from round ${journal.round} of this tool call, which has moved on to round ${latest}; use the latest requestState, or call the tool again.`,
      );
    }
    if (!claimed) {
      throw new StateError(
        "replayed",
        `round ${journal.round} of this tool call was already answered with other answers; a round takes one answer. Use the requestState that answer returned, or call the tool again.`,
      );
    }
    return { journal, answers };
  }

  /** Runs one round: the handler until it finishes (recorded), or until it waits on answers (sealed into the next state). */
  async run<Handle extends Record<string, unknown> = never>(
    ctx: ServerContext,
    tool: string,
    guarded: GuardedCall | undefined,
    handler: (run: ReplayRun) => Promise<CallToolResult>,
    /** Makes the call a task (its handle) when the handler calls ctx.detach(); without it, ctx.detach() returns at once. */
    detach?: (journal: Journal) => Promise<Handle>,
  ): Promise<CallToolResult | InputRequiredResult | Handle> {
    const opened = guarded?.opened as OpenedCall | undefined;
    if (opened?.done) return opened.done;
    // A held handler taken for such a resend is dropped: its round was answered elsewhere.
    if (opened?.next) return opened.next;
    let run: ReplayRun;
    let outcome: ReplayOutcome<CallToolResult>;
    if (opened?.warm) {
      // A warm round: the handler goes on in this request (its context points here now) with the answers.
      run = opened.warm.run;
      run.canDetach = !!detach;
      run.onResume?.(ctx);
      outcome = await run.resume<CallToolResult>({ ...(ctx.mcpReq.inputResponses as Record<string, unknown> | undefined) });
    } else {
      const journal = opened?.journal ?? emptyJournal();
      const incoming = { ...(ctx.mcpReq.inputResponses as Record<string, unknown> | undefined) };
      run = new ReplayRun(journal, (name, fn, recorded) => this.ledger.step(journal.call, name, fn, recorded), incoming, !!detach);
      const started = run;
      outcome = await run.run(() => handler(started));
    }
    const journal = run.journal;
    if (outcome.kind === "detach") {
      // The same state sent again gets the same task, not a second one.
      const handle = await detach!(outcome.journal);
      if (opened) await this.ledger.recordResult(journal.call, handle, journal.round);
      return handle;
    }
    if (outcome.kind === "done") {
      // A call that ends in its first run never issued a state, so nothing can come back for its result.
      if (opened) await this.ledger.recordResult(journal.call, outcome.result, journal.round);
      return outcome.result;
    }
    journal.round++;
    // Bound to the arguments as sent (the guard saw them before any schema parsing).
    const binding = this.binding(ctx, tool, guarded ?? { args: {} });
    const http = ctx.http !== undefined;
    const holds = this.suspended?.holds(http) === true;
    const { token, terms } = sealed(outcome.journal, binding, holds ? this.heldSeal : this.sealOptions);
    // The run's pending requests are already { method, params } by key: handed over as they are. Their
    // params are typed loosely here (Record<string, unknown>); the inputs built and checked each one.
    const next = inputRequired({ inputRequests: outcome.inputRequests as InputRequests, requestState: token });
    // Round 1 needs no record: "no round recorded" refuses the same states (none older than round 1 exist),
    // and a first request is never resent. A later one is recorded with what it answers: the same answers
    // sent again (the reply was lost) get this very round, whether this process or another takes them.
    if (journal.round > 1)
      await this.ledger.recordRound(journal.call, journal.round, opened?.answers ? { answers: opened.answers, next } : undefined);
    // Held for a retry that comes back here; the state it sealed stays complete for one that does not.
    if (holds) this.suspended!.hold(token, run, terms, http);
    return next;
  }

  /** The binding of this request's state; the arguments' digest is kept on the guarded call, so a round hashes them once. */
  private binding(ctx: ServerContext, tool: string, guarded: GuardedCall): StateBinding {
    // bindingFor makes a fresh object: the digest is stored on it rather than spread into a copy (V8's slow path).
    const binding = this.bindingFor(ctx, tool, guarded.args);
    binding.argsDigest = guarded.argsDigest ??= digest(guarded.args);
    return binding;
  }
}
