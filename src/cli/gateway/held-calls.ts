// A 2026-07-28 host's tool call, held open in the gateway while the host answers its questions. The
// host sees rounds (input_required, then the same call again with inputResponses and requestState);
// the call to the server runs on in this process and is never replayed: each round hands the host's
// answers to the questions waiting in it, and ends at the next questions or at the call's result.
import { randomBytes } from "node:crypto";
import { inputRequired, ProtocolError, ProtocolErrorCode, type InputRequests } from "@modelcontextprotocol/server";
import type { ServerQuestion } from "../../client/attached.js";
import { quoteText } from "../../schema/excerpt.js";
import { checkHostAnswer, invalidAnswer, type CheckedAnswer } from "./host-answer.js";

type Result = Record<string, unknown>;

interface Question {
  question: ServerQuestion;
  resolve(result: Result): void;
  reject(error: Error): void;
  /** Sent to the host in the last input_required, not answered yet. */
  sent: boolean;
}

const newToken = () => randomBytes(32).toString("base64url");

/** Checks the host's answer to a question before it goes to the server. */
export type CheckAnswer = (question: ServerQuestion, answer: unknown) => CheckedAnswer;

/** How long a held call waits for the host to come back with answers (default 30 minutes). */
export const HELD_IDLE_MS = 30 * 60_000;

export class HeldCall {
  /** The requestState of the latest round, which the host echoes: unguessable, new each round, known only to this process and the host. */
  token = newToken();
  readonly abort = new AbortController();
  /** Where the call's progress goes: the host request waiting in the latest round. */
  progress?: (progress: Record<string, unknown>) => void;
  private readonly questions = new Map<string, Question>();
  private waiters: Array<() => void> = [];
  private outcome: { value: Result } | { error: unknown } | undefined;
  private next = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly forget: (call: HeldCall) => void,
    private readonly rekey: (call: HeldCall, old: string) => void,
    private readonly check: CheckAnswer,
  ) {}

  /** A question for the host, answered by a later round. */
  ask(question: ServerQuestion, signal: AbortSignal): Promise<Result> {
    // The server's own key for it where it gave one (a 2026-07-28 server's inputRequests), else one of ours.
    let key = typeof question.id === "string" ? question.id : `q${++this.next}`;
    while (this.questions.has(key)) key = `q${++this.next}`;
    return new Promise<Result>((resolve, reject) => {
      const withdrawn = () => {
        this.questions.delete(key);
        reject(signal.reason instanceof Error ? signal.reason : new Error("The server withdrew the question."));
      };
      if (signal.aborted) return withdrawn();
      signal.addEventListener("abort", withdrawn, { once: true });
      const done = () => signal.removeEventListener("abort", withdrawn);
      this.questions.set(key, {
        question,
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
        sent: false,
      });
      this.wake();
    });
  }

  /** Whether `key` names a question sent in the latest round and not answered yet. */
  asks(key: string): boolean {
    return this.questions.get(key)?.sent === true;
  }

  /** The call to the server ended. */
  settle(outcome: { value: Result } | { error: unknown }): void {
    this.outcome = outcome;
    this.wake();
  }

  /**
   * The host's answers to the questions last sent; one it did not answer is asked again. Each answer is
   * checked first: when one is invalid, none is taken (-32602, naming the question, the field and the
   * rule), and every question stays open for the host to answer again with the same requestState.
   */
  answer(responses: Record<string, unknown> | undefined): void {
    const taken: Array<[string, Question, Result]> = [];
    const problems: string[] = [];
    for (const [key, q] of this.questions) {
      if (!q.sent) continue;
      const response = responses && Object.hasOwn(responses, key) ? responses[key] : undefined;
      if (response === null || typeof response !== "object" || Array.isArray(response)) continue;
      const checked = this.check(q.question, response);
      if (checked.ok) taken.push([key, q, checked.answer]);
      else problems.push(...checked.problems.map((p) => `inputResponses[${quoteText(key)}]: ${p}`));
    }
    if (problems.length) throw invalidAnswer(problems);
    for (const [key, q, answer] of taken) {
      this.questions.delete(key);
      q.resolve(answer);
    }
    for (const q of this.questions.values()) q.sent = false;
  }

  /** What this round answers the host: the next questions (input_required) or the call's result. */
  async round(signal: AbortSignal): Promise<Result> {
    clearTimeout(this.idle);
    // The host cancelling a round cancels the call: the server hears it as it would have without the gateway.
    const cancel = () => this.end(signal.reason ?? "The host cancelled the call.");
    if (signal.aborted) cancel();
    signal.addEventListener("abort", cancel, { once: true });
    try {
      return await this.answerOrAsk(signal);
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  }

  private async answerOrAsk(signal: AbortSignal): Promise<Result> {
    for (;;) {
      if (this.outcome) {
        this.forget(this);
        if ("error" in this.outcome) throw this.outcome.error;
        return this.outcome.value;
      }
      if ([...this.questions.values()].some((q) => !q.sent)) {
        // Questions the server sends together (one input_required of its own) reach the host together.
        await new Promise((resolve) => setImmediate(resolve));
        const inputRequests: Record<string, { method: string; params: Record<string, unknown> }> = {};
        for (const [key, q] of this.questions) {
          q.sent = true;
          inputRequests[key] = { method: q.question.method, params: q.question.params };
        }
        this.idle = setTimeout(() => this.end(new Error("The host did not answer the gateway's questions in time.")), this.idleMs);
        this.idle.unref();
        // Each round its own state: a retry of an earlier round no longer names the call.
        const old = this.token;
        this.token = newToken();
        this.rekey(this, old);
        // The questions are the server's, as the gateway's SDK client checked them (elicitation/create,
        // sampling/createMessage, roots/list): ServerQuestion keeps their method as a string.
        return { ...inputRequired({ inputRequests: inputRequests as InputRequests, requestState: this.token }) };
      }
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const waiter = () => (signal.removeEventListener("abort", onAbort), resolve());
        const onAbort = () => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        this.waiters.push(waiter);
      });
    }
  }

  /** The host cancelled, did not come back, or the gateway stops: the call to the server is cancelled. */
  end(why: unknown): void {
    this.forget(this);
    // The reason as given (a host's cancel reason goes on to the server as it sent it).
    this.abort.abort(why);
    for (const q of this.questions.values()) q.reject(new Error(String(why)));
    this.questions.clear();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

/** The calls held for 2026-07-28 hosts, by the requestState each round carries. */
export class HeldCalls {
  private readonly calls = new Map<string, HeldCall>();

  constructor(
    private readonly idleMs = HELD_IDLE_MS,
    // Held calls are 2026-07-28 hosts' calls: their answers are checked as that revision's.
    private readonly check: CheckAnswer = (question, answer) => checkHostAnswer(question, answer, "2026-07-28"),
  ) {}

  /** Starts `run` (the call to the server) as a held call; its questions go to the host in rounds. */
  start(run: (call: HeldCall) => Promise<Result>): HeldCall {
    const call = new HeldCall(
      this.idleMs,
      (c) => this.calls.delete(c.token),
      (c, old) => {
        this.calls.delete(old);
        this.calls.set(c.token, c);
      },
      this.check,
    );
    this.calls.set(call.token, call);
    run(call).then(
      (value) => call.settle({ value }),
      (error: unknown) => call.settle({ error }),
    );
    return call;
  }

  /** The held call a retry names; -32602 when there is none (it ended, timed out, or the gateway restarted). */
  resume(requestState: unknown): HeldCall {
    const call = typeof requestState === "string" ? this.calls.get(requestState) : undefined;
    if (!call)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "Invalid requestState: the gateway holds no call for it (it ended, waited too long for answers, or the gateway restarted); call the tool again.",
      );
    return call;
  }

  /** Cancels every held call (the gateway stops). */
  close(): void {
    for (const call of [...this.calls.values()]) call.end(new Error("The gateway stopped."));
  }
}
