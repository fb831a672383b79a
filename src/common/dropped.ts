// Messages the SDK drops: a reply that is neither a result nor an error with a code, a request whose
// params are not an object. The SDK reports them only through `onerror` ("Unknown message type: …")
// and otherwise acts as if nothing came, so the peer waits for an answer, or we wait for one, until a
// timeout. Both sides use this to notice such a message and end the wait at once.

const PREFIX = "Unknown message type: ";

export type DroppedMessage =
  | { kind: "request"; id: string | number; method: string }
  | { kind: "response"; id: unknown }
  /** A message with an id that a transport could not parse (which one, the SDK does not say). */
  | { kind: "unparsed" }
  | { kind: "other" };

type Issue = { code?: unknown; path?: unknown[]; errors?: Issue[][] };

/**
 * Whether `error` is a transport's failed parse of a message that had a valid id: the SDK's
 * JSON-RPC message schema is a union, and no branch of its error complains about the id. Where our
 * code owns the raw message (src/common/screen.ts) this never reaches `onerror`; the SDK's
 * StdioClientTransport reads the child's stdout itself, so there only this is heard.
 */
function unparsedWithId(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== "ZodError") return false;
  const issues = (error as Error & { issues?: Issue[] }).issues;
  if (!Array.isArray(issues) || issues.length !== 1) return false;
  const [union] = issues;
  if (union?.code !== "invalid_union" || union.path?.length !== 0 || !Array.isArray(union.errors)) return false;
  return union.errors.every((branch) => Array.isArray(branch) && branch.every((issue) => issue.path?.[0] !== "id"));
}

/** What an SDK `onerror` error says was dropped, or undefined when it is about something else. */
export function droppedMessage(error: unknown): DroppedMessage | undefined {
  if (unparsedWithId(error)) return { kind: "unparsed" };
  const text = error instanceof Error ? error.message : undefined;
  if (!text?.startsWith(PREFIX)) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(text.slice(PREFIX.length));
  } catch {
    return { kind: "other" };
  }
  if (typeof message !== "object" || message === null) return { kind: "other" };
  const m = message as Record<string, unknown>;
  const id = m.id;
  if (typeof m.method === "string")
    return typeof id === "string" || typeof id === "number" ? { kind: "request", id, method: m.method } : { kind: "other" };
  return "id" in m ? { kind: "response", id } : { kind: "other" };
}

/** The JSON-RPC answer to a dropped request: -32600, since the SDK's handlers never saw it. */
export const invalidRequestReply = (dropped: { id: string | number; method: string }) => ({
  jsonrpc: "2.0" as const,
  id: dropped.id,
  error: {
    code: -32600,
    message: `Invalid request: ${dropped.method.slice(0, 100)} was malformed (params and _meta must be objects) and was not processed.`,
  },
});

type ErrorHandler = (error: Error) => void;
type ErrorHooked = { onerror?: ErrorHandler | undefined };

/**
 * Our handler and what it wraps, for each wrapper `onerror` has handed out. Module-wide on purpose: a wrapper is a
 * plain function that may be set back on any Protocol (its own after a save and restore, or another's), and each
 * must unwrap it to its author's handler; a function has no field of ours to keep that in.
 */
const wrapped = new WeakMap<ErrorHandler, ErrorHandler | undefined>();

/**
 * Makes `onDropped` hear every dropped message on a Protocol, whatever its author later assigns to
 * `onerror`. The SDK calls `this.onerror` for every error, so `onerror` becomes an accessor on the
 * instance: setting it keeps the author's handler, reading it gives that handler with ours in front.
 * An author who chains the handler they read calls ours twice per error: each error is heard once.
 */
export function onDropped(target: ErrorHooked, onDropped: (dropped: DroppedMessage) => void): void {
  // The errors this hook has heard, owned by the hook; weak, so an error is not kept once everyone dropped it.
  const heard = new WeakSet<Error>();
  const ours = (error: Error) => {
    if (typeof error === "object" && error !== null) {
      if (heard.has(error)) return;
      heard.add(error);
    }
    const dropped = droppedMessage(error);
    if (dropped) onDropped(dropped);
  };
  const wrap = (author: ErrorHandler | undefined): ErrorHandler => {
    const handler = (error: Error) => {
      ours(error);
      author?.(error);
    };
    wrapped.set(handler, author);
    return handler;
  };
  // A wrapper set back (saved, then restored) is unwrapped, so nothing runs twice.
  const unwrap = (value: ErrorHandler | undefined) => (value && wrapped.has(value) ? wrapped.get(value) : value);
  let author = unwrap(target.onerror);
  let current = wrap(author);
  // Configurable: a second copy of this package in the process hooks the same Protocol the same way.
  Object.defineProperty(target, "onerror", {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (value: ErrorHandler | undefined) => {
      author = unwrap(value);
      current = wrap(author);
    },
  });
}

/** A client or server Protocol, as far as the watch needs it: any transport that sends JSON-RPC messages takes our reply. */
type Peer = {
  onerror?: ((error: Error) => void) | undefined;
  transport?: { send(message: ReturnType<typeof invalidRequestReply>): Promise<void> } | undefined;
};

/** The waits on one connection that a dropped reply ends. */
export class DroppedWatch {
  private waiting = new Set<(error: Error) => void>();

  /** Runs `send`; when a reply on this connection is dropped first, its signal aborts (the SDK withdraws the request) and it rejects with `error()`. */
  async race<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let end!: (error: Error) => void;
    const dropped = new Promise<never>((_resolve, reject) => {
      end = (error) => {
        reject(error);
        controller.abort(error);
      };
    });
    this.waiting.add(end);
    try {
      return await Promise.race([send(controller.signal), dropped]);
    } finally {
      this.waiting.delete(end);
    }
  }

  /** Ends every wait: which request the dropped reply answered, the SDK does not say. */
  endAll(error: Error): void {
    for (const end of [...this.waiting]) end(error);
  }
}

// The watch of each Protocol. It stays keyed by the peer: the peer is the SDK's object, which has no field of ours,
// and the server side finds the watch from the McpServer alone (each tool it registers, each 2025 request it asks).
const watches = new WeakMap<object, DroppedWatch>();

/**
 * Watches a client or server Protocol (idempotent): a dropped request gets -32600, a dropped reply
 * ends the connection's waits with `replyError()`; with `unparsedEndsWaits`, so does a message with
 * an id that the transport could not parse (it may be the reply a call waits for).
 */
export function watchDropped(peer: Peer, replyError: () => Error, options: { unparsedEndsWaits?: boolean } = {}): DroppedWatch {
  let watch = watches.get(peer);
  if (watch) return watch;
  const created = (watch = new DroppedWatch());
  watches.set(peer, created);
  onDropped(peer, (dropped) => {
    if (dropped.kind === "request") void peer.transport?.send(invalidRequestReply(dropped)).catch(() => {});
    if (dropped.kind === "response" || (dropped.kind === "unparsed" && options.unparsedEndsWaits)) created.endAll(replyError());
  });
  return created;
}
