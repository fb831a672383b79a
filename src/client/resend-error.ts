// The error of a 2026-07-28 round that could not be delivered again: which server, for how long, why.
import { ElicitError } from "../schema/errors.js";

/** A round that could not be delivered again within the deadline: says which server, for how long and why. */
export class ServerGoneError extends ElicitError {
  constructor(
    readonly server: string,
    readonly reason: string,
    readonly attempts: number,
    readonly elapsedMs: number,
  ) {
    super(
      "server-gone",
      `The server at ${server} went away during the tool call and did not answer within ${Math.round(elapsedMs / 1000)} s ` +
        `(${attempts} ${attempts === 1 ? "attempt" : "attempts"} to send the same answers again; last: ${reason}). ` +
        `The tool call did not complete, and whether the server acted on these answers is not known.`,
    );
  }
}
