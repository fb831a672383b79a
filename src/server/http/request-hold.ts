// The session one HTTP request holds open, so that it cannot expire under the request: held from the
// request's headers on (its body may still be arriving), released however the request ends (answer read
// to its end or cancelled, client gone).
import type { Session } from "../fleet/session.js";
import { afterBody } from "./responses.js";

export class RequestHold {
  private held: Session | undefined;
  /** Whether the request got past the checks to its session: only then does its end count as activity. */
  private admitted = false;

  /** `close` forgets a session left without an id (a POST that did not initialize one). */
  constructor(
    private readonly request: Request,
    private readonly close: (session: Session) => void,
  ) {
    // The client leaving releases the session too; the listener is removed once the request ends, since a
    // runtime may keep the signal (and so the session) long after (Hono's Node adapter does).
    request.signal?.addEventListener("abort", this.finish, { once: true });
  }

  /** Counts the request as open on `session` (not once its client has left: a message still handled is not kept open). */
  hold(session: Session): void {
    if (this.request.signal?.aborted === true || this.held === session) return;
    this.release();
    this.held = session;
    session.transport.activity.open++;
  }

  /** The request reached its session: held, and its end will count as activity. */
  admit(session: Session): void {
    this.hold(session);
    this.admitted = true;
    session.transport.activity.touch();
  }

  /** The response to send: held until its stream ends or is cancelled (an SSE stream stays open), else released now. */
  settle(response: Response): Response {
    if (this.held) return afterBody(response, this.finish);
    this.finish();
    return response;
  }

  private readonly finish = (): void => {
    this.request.signal?.removeEventListener("abort", this.finish);
    this.release();
  };

  private release(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    const { transport } = held;
    transport.activity.open--;
    if (this.admitted) transport.activity.touch();
    // A POST without a session id that did not initialize one leaves nothing to keep.
    if (transport.sessionId === undefined) this.close(held);
  }
}
