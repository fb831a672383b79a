// The clock of a tool call, aware of the person: it stops while a form, a URL step or a sampling review
// is in front of them (their time is not the server's silence), starts again from where it stopped when
// they answer, and starts over on each progress notification. A ceiling bounds the whole call, the
// person's time included. The SDK's own per-request timer is set out of reach and this clock aborts the
// call through its signal instead (the SDK then withdraws the request as it does on its own timeout).
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";

/** How long a tool call may go without an answer or progress, the person's time not counted (default). */
export const CALL_TIMEOUT_MS = 30 * 60_000;
/** How long a tool call may take in all, the person's time included (default). */
export const CALL_CEILING_MS = 24 * 60 * 60_000;
/** setTimeout's longest delay: given to the SDK so that its own timer never fires first. */
export const SDK_TIMER_OUT_OF_REACH = 2 ** 31 - 1;

/** Whether a person is being asked on one client: a count of the questions in front of them. */
export class PersonAsked {
  private count = 0;
  private readonly listeners = new Set<(asked: boolean) => void>();

  get asked(): boolean {
    return this.count > 0;
  }

  /** Runs `ask` (a UI showing something to the person) with the clocks of this client's calls stopped. */
  async during<T>(ask: () => Promise<T>): Promise<T> {
    if (this.count++ === 0) this.emit(true);
    try {
      return await ask();
    } finally {
      if (--this.count === 0) this.emit(false);
    }
  }

  /** Calls `listener` when the first question opens (true) and the last one closes (false). */
  watch(listener: (asked: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(asked: boolean): void {
    for (const listener of [...this.listeners]) listener(asked);
  }
}

// Stays a WeakMap keyed by the SDK Client: attachElicitation and attachSampling are separate functions of
// a Client the host made, no object of ours spans both to own the PersonAsked, and the Client gets no field of ours.
const byClient = new WeakMap<object, PersonAsked>();

/** The one PersonAsked of a client, shared by attachElicitation and attachSampling. */
export function personAskedOn(client: object): PersonAsked {
  let person = byClient.get(client);
  if (!person) byClient.set(client, (person = new PersonAsked()));
  return person;
}

/** `ui` with `methods` run through `person.during`: what they show stops the clocks. Other members pass through. */
export function pausingUI<T extends object>(ui: T, person: PersonAsked, methods: ReadonlyArray<keyof T>): T {
  return new Proxy(ui, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      return methods.includes(key as keyof T) ? (...args: unknown[]) => person.during(async () => bound(...args)) : bound;
    },
  });
}

export interface CallClockOptions {
  /** Silence allowed, the person's time not counted (ms). */
  timeoutMs: number;
  /** The whole call at most, the person's time included (ms). */
  ceilingMs: number;
  /** Whether progress starts the clock over (default true). */
  resetOnProgress?: boolean;
}

const duration = (ms: number) =>
  ms % 60_000 === 0 && ms >= 60_000 ? `${ms / 60_000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;

/** One call's clock; `signal` aborts with an SdkError(RequestTimeout) that says which bound was reached. */
export class CallClock {
  private readonly controller = new AbortController();
  private remaining: number;
  private startedAt = 0;
  private idle: NodeJS.Timeout | undefined;
  private readonly ceiling: NodeJS.Timeout;
  private readonly unwatch: () => void;

  constructor(
    person: PersonAsked,
    private readonly options: CallClockOptions,
  ) {
    for (const [name, value] of [
      ["timeout", options.timeoutMs],
      ["maxTotalTimeout", options.ceilingMs],
    ] as const)
      if (!(typeof value === "number" && value > 0))
        throw new TypeError(`callTool: ${name} must be a number of milliseconds greater than 0; got ${String(value)}.`);
    this.remaining = options.timeoutMs;
    this.ceiling = setTimeout(
      () =>
        this.fire(
          `Request timed out: the call took longer than its ceiling of ${duration(options.ceilingMs)}, the time you took to answer included (maxTotalTimeout).`,
          { maxTotalTimeout: options.ceilingMs },
        ),
      Math.min(options.ceilingMs, SDK_TIMER_OUT_OF_REACH),
    );
    this.unwatch = person.watch((asked) => (asked ? this.pause() : this.run()));
    if (!person.asked) this.run();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A progress notification: the server is alive, the clock starts over. */
  progress(): void {
    if (this.options.resetOnProgress === false || this.controller.signal.aborted) return;
    this.remaining = this.options.timeoutMs;
    if (this.idle) this.run();
  }

  dispose(): void {
    clearTimeout(this.idle);
    clearTimeout(this.ceiling);
    this.idle = undefined;
    this.unwatch();
  }

  private run(): void {
    clearTimeout(this.idle);
    if (this.controller.signal.aborted) return;
    this.startedAt = Date.now();
    this.idle = setTimeout(
      () =>
        this.fire(
          `Request timed out: no answer and no progress from the server for ${duration(this.options.timeoutMs)} (the time you took to answer is not counted; see the timeout option).`,
          { timeout: this.options.timeoutMs },
        ),
      Math.min(this.remaining, SDK_TIMER_OUT_OF_REACH),
    );
  }

  private pause(): void {
    if (!this.idle) return;
    clearTimeout(this.idle);
    this.idle = undefined;
    this.remaining = Math.max(0, this.remaining - (Date.now() - this.startedAt));
  }

  private fire(message: string, data: Record<string, number>): void {
    this.dispose();
    this.controller.abort(new SdkError(SdkErrorCode.RequestTimeout, message, data));
  }
}
