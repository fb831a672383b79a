// The client's GET stream is where a Streamable HTTP server sends what belongs to no request (such as
// notifications/elicitation/complete after a -32042). The SDK client opens it in the background after
// initialize, and a notification sent before it is open is lost: tests that expect one wait for it.
import { deferred } from "./deferred.js";

/** A fetch for StreamableHTTPClientTransport that says when the GET stream is open, and can hold it back until `release()`. */
export function watchGetStream({ hold = false }: { hold?: boolean } = {}) {
  const opened = deferred();
  const released = deferred();
  if (!hold) released.resolve();
  const watched: typeof fetch = async (input, init) => {
    if ((init?.method ?? "GET").toUpperCase() !== "GET") return fetch(input, init);
    await released.promise;
    const response = await fetch(input, init);
    if (response.ok) opened.resolve();
    return response;
  };
  return { fetch: watched, opened: opened.promise, release: released.resolve };
}
