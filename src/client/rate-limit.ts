// A sliding-window limit on how many requests one server may put in front of the person.

export interface RateLimitOptions {
  /** Requests allowed per window (default 10). */
  max?: number;
  /** Window length in ms (default 60 s). */
  windowMs?: number;
}

export const DEFAULT_RATE_LIMIT = { max: 10, windowMs: 60_000 } as const;

export class RateLimiter {
  private times: number[] = [];
  readonly max: number;
  readonly windowMs: number;

  constructor(
    options: RateLimitOptions = {},
    private now: () => number = Date.now,
  ) {
    this.max = options.max ?? DEFAULT_RATE_LIMIT.max;
    this.windowMs = options.windowMs ?? DEFAULT_RATE_LIMIT.windowMs;
  }

  /** Records a request; false when it is over the limit (and so must not be shown). */
  take(): boolean {
    const t = this.now();
    while (this.times.length && this.times[0]! <= t - this.windowMs) this.times.shift();
    if (this.times.length >= this.max) return false;
    this.times.push(t);
    return true;
  }
}
