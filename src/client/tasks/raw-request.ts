// Requests whose answers the SDK client refuses to decode: on 2026-07-28 it knows the results
// "complete" and "input_required" only, so a tools/call that answers with a task handle
// (resultType "task", the io.modelcontextprotocol/tasks extension) and the extension's own methods
// are sent here, on the client's transport, with the envelope the client puts on every request; their
// responses are taken off the transport before the client sees them.
import type { Client, JSONRPCRequest, Transport } from "@modelcontextprotocol/client";
import { outboundEnvelope } from "../../common/sdk-internals.js";
import { ElicitError } from "../../schema/errors.js";

/** A JSON-RPC error the server answered a raw request with. */
export class RawRequestError extends ElicitError {
  constructor(
    private readonly serverCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super("server-refused", message);
  }

  override get rpcCode(): number {
    return this.serverCode;
  }
}

/** rawRequest was given params it cannot send: JSON-RPC's params (and their `_meta`) are objects. */
export class RawRequestParamsError extends ElicitError {
  constructor(method: string, problem: string) {
    super("request-params-invalid", `${method}: ${problem}; nothing was sent.`);
  }

  override get rpcCode(): number {
    return -32602;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v);

type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
type Pending = Map<string, { resolve: (m: Message) => void }>;

// Stays a WeakMap keyed by the SDK's transport (its onmessage wrapped once): rawRequest is a free function
// of an SDK Client, so no object of ours lives across calls to own the map, and the transport gets no field of ours.
const pendingBy = new WeakMap<Transport, Pending>();
let next = 0;

/** Our requests' responses, taken off `transport` before the client's own handler sees them. */
function pendingOn(transport: Transport): Pending {
  let pending = pendingBy.get(transport);
  if (pending) return pending;
  const mine: Pending = new Map();
  pending = mine;
  pendingBy.set(transport, mine);
  const theirs = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = (message as Message).id;
    const waiting = typeof id === "string" ? mine.get(id) : undefined;
    if (waiting && !("method" in message)) {
      mine.delete(id as string);
      return waiting.resolve(message as Message);
    }
    theirs?.(message, extra);
  };
  return mine;
}

/** Sends `method` with `params` (and the client's envelope) and resolves with the raw result. */
export async function rawRequest(
  client: Client,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  // Refused here, before the send: a JavaScript caller can pass anything, and the server would drop it.
  if (!isObject(params)) throw new RawRequestParamsError(method, `params must be an object, got ${kindOf(params)}`);
  if ("_meta" in params && !isObject(params._meta))
    throw new RawRequestParamsError(method, `params._meta must be an object, got ${kindOf(params._meta)}`);
  const transport = client.transport;
  if (!transport) throw new Error(`${method}: the client is not connected.`);
  signal?.throwIfAborted();
  const pending = pendingOn(transport);
  const id = `mcp-elicit-raw-${++next}`;
  const meta = { ...outboundEnvelope(client), ...(params._meta as object | undefined) };
  const request: JSONRPCRequest = { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } };
  let onAbort = () => {};
  const answered = new Promise<Message>((resolve, reject) => {
    onAbort = () => reject(signal?.reason as Error);
    pending.set(id, { resolve });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  // Awaited below, after the send: an abort while the send is pending must not be an unhandled rejection.
  answered.catch(() => {});
  try {
    await transport.send(request);
    return unwrap(await answered);
  } finally {
    // One signal serves every poll of a task: each request takes its listener off again.
    pending.delete(id);
    signal?.removeEventListener("abort", onAbort);
  }
}

function unwrap(response: Message): Record<string, unknown> {
  if (response.error) throw new RawRequestError(response.error.code, response.error.message, response.error.data);
  return response.result ?? {};
}
