// Whether a promise made while one request is handled may be settled while another is. Not on Cloudflare
// Workers (workerd), which cancels the second request ("A promise was resolved or rejected from a different
// request context"), except inside a Durable Object, whose requests share one context. Warm rounds (a
// retry settling the questions a held handler waits on) and 2025-era questions (the answer arrives in
// another POST than the call) both need it.

/** Whether this runtime lets any request settle a promise another request made (false on workerd). */
export function promisesCrossRequests(): boolean {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent !== "Cloudflare-Workers";
}

// Stays a module WeakSet: set by mcp-elicit/cloudflare on the SDK server it made, read by any kit that serves it; not ours to add a field to.
const inDurableObjects = new WeakSet<object>();

/** Marks a server made inside a Durable Object (mcp-elicit/cloudflare's sessionObjectHandler), where its requests share one context. */
export function servedInDurableObject(server: object): void {
  inDurableObjects.add(server);
}

/** Whether a question `server` sends can be answered by a later request. */
export function answersCrossRequests(server: object): boolean {
  return promisesCrossRequests() || inDurableObjects.has(server);
}
