// What every attach* function returns: a handle to the feature it installed on the client, with
// its own operations and `detach()`, which removes its handlers again (the capability it declared
// stays declared for the current connection: capabilities are fixed at initialize).
export interface Attached {
  /** Removes the handlers this feature installed on the client; its requests are then answered by the SDK's default (method not found). */
  detach(): void;
}

/** A server's request as a client received it (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export interface ServerQuestion {
  method: string;
  params: Record<string, unknown>;
  /** Its id as the client got it: a JSON-RPC id, or on 2026-07-28 the server's key for it in `inputRequests`. */
  id?: string | number;
}

/**
 * Hands a server's request to another client before this one answers it (a gateway's host): the
 * other client's result, or undefined to answer here. Called after this client's own checks of the
 * request, so what it hands on is a request this client would have accepted.
 */
export type Forward = (question: ServerQuestion, signal: AbortSignal) => Promise<Record<string, unknown>> | undefined;
