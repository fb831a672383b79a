// What every attach* function returns: a handle to the feature it installed on the client, with
// its own operations and `detach()`, which removes its handlers again (the capability it declared
// stays declared for the current connection: capabilities are fixed at initialize).
export interface Attached {
  /** Removes the handlers this feature installed on the client; its requests are then answered by the SDK's default (method not found). */
  detach(): void;
}
