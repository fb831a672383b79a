// The progress a host hears about one of its requests: the server's, under the host's own token, and,
// while a question of that request waits for the person on the gateway's page (or terminal), the
// gateway's own every KEEP_ALIVE_MS. A host that resets its request timeout on progress (the SDK
// client's resetTimeoutOnProgress) then keeps waiting for as long as the person takes; one that sent
// no progress token hears nothing, as the spec has it.
import type { Progress } from "@modelcontextprotocol/client";

/** How often the gateway tells the host that the person is still answering. */
export const KEEP_ALIVE_MS = 1000;

/** What the keep-alive says, in the host's progress message. */
export const KEEP_ALIVE_MESSAGE = "Waiting for the person to answer a question on the elicit gateway's page.";

export type ProgressToken = string | number;
type SendProgress = (params: Progress & { progressToken: ProgressToken }) => void;

export class HostProgress {
  /** The last progress value sent: each one sent after it is greater, as the spec requires. */
  private last: number | undefined;
  private answering = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly token: ProgressToken | undefined,
    private readonly send: SendProgress,
    private readonly everyMs = KEEP_ALIVE_MS,
  ) {}

  /** Whether the host asked for progress (only then can the gateway keep it waiting). */
  get asked(): boolean {
    return this.token !== undefined;
  }

  /** The server's progress, for the host: its values, raised where the gateway's own went past them. */
  fromServer = (progress: Progress): void => {
    if (this.token === undefined) return;
    const value = this.last === undefined || progress.progress > this.last ? progress.progress : this.last + 1;
    this.last = value;
    this.send({ progressToken: this.token, ...progress, progress: value });
  };

  /** A question of this request waits for the person; returns the function to call once it is answered. */
  personAnswering(): () => void {
    if (this.token === undefined) return () => {};
    if (this.answering++ === 0) {
      // Once now (the host's clock has run since its request), then every `everyMs`.
      this.tick();
      this.timer = setInterval(() => this.tick(), this.everyMs);
      this.timer.unref();
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.answering === 0) this.stop();
    };
  }

  /** The request ended: no more keep-alive. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    this.last = (this.last ?? 0) + 1;
    this.send({ progressToken: this.token!, progress: this.last, message: KEEP_ALIVE_MESSAGE });
  }
}
