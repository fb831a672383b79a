// Messages the SDK's transports would drop, screened before their parse. A transport parses each
// line or body with the SDK's JSON-RPC schema and reports a failure to `onerror` with the id lost, so
// a malformed request is never answered and a malformed reply never ends its call: the peer, or we,
// wait for a timeout. Here the id is taken from the raw message first: a malformed request gets
// -32600 with its id, and a malformed reply is handed on as an error reply with its id, which ends
// exactly the call that waits for it. One behaviour; the adapters per transport call `screenInbound`.
import { shapeProblem, describeProblem, type ShapeLimits } from "../schema/limits.js";

/** Deep enough for any real message, far from where the SDK's recursive checks overflow the stack. */
export const TRANSPORT_LIMITS: ShapeLimits = { maxDepth: 1000, maxNodes: Number.MAX_SAFE_INTEGER };

/** The error code a malformed reply is handed on with (the call's own error, not the peer's). */
export const MALFORMED_REPLY_CODE = -32603;

type Id = string | number;
type Reply = { jsonrpc: "2.0"; id: Id; error: { code: number; message: string; data?: Record<string, unknown> } };

export type Screened =
  /** Well formed: the transport's own parse takes it. */
  | { kind: "pass"; message: unknown }
  /** A malformed request: answer `reply` to the peer (the SDK would not answer at all). */
  | { kind: "refuse"; reply: Reply; error: Error }
  /** A malformed reply: hand `message` (an error reply with the same id) on in its place. */
  | { kind: "fail"; message: Reply; error: Error };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is Id => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/** Why a message is malformed, in a few words for the error (never its content). */
function fault(m: Record<string, unknown>, request: boolean): string {
  if (m.jsonrpc !== "2.0") return `"jsonrpc" is not "2.0"`;
  if (request) {
    if ("params" in m && !isObject(m.params)) return "params is not an object";
    if (isObject(m.params) && "_meta" in m.params && !isObject(m.params._meta)) return "params._meta is not an object";
    return "it is not a JSON-RPC request";
  }
  if ("result" in m && "error" in m) return "it has both a result and an error";
  if ("result" in m && !isObject(m.result)) return "its result is not an object";
  if ("error" in m) return "its error is not an object with a numeric code and a message";
  return "it has neither a result nor an error";
}

/**
 * Screens one raw inbound message (parsed JSON). `wellFormed` is the SDK's own parse (it throws when
 * the transport would drop the message); `peer` names the other side in the error a reply ends with.
 */
export function screenInbound(raw: unknown, wellFormed: (raw: unknown) => unknown, peer: "server" | "client"): Screened {
  // Checked first and without recursion: a 20,000-deep message would overflow the SDK's checks.
  const shape = shapeProblem(raw, TRANSPORT_LIMITS);
  // What the transport would have reported to `onerror` (the SDK's parse error), for the adapters to report still.
  let error: Error = new Error(`A message was dropped: it is ${shape ? describeProblem(shape) : "malformed"}.`);
  if (!shape) {
    try {
      wellFormed(raw);
      return { kind: "pass", message: raw };
    } catch (thrown) {
      if (thrown instanceof Error) error = thrown;
    }
  }
  if (!isObject(raw) || !isId(raw.id)) return { kind: "pass", message: raw }; // no id to answer: the SDK reports it
  const id = raw.id;
  if (typeof raw.method === "string") {
    const why = shape ? `it is ${describeProblem(shape)}` : fault(raw, true);
    return {
      kind: "refuse",
      reply: {
        jsonrpc: "2.0",
        id,
        error: { code: -32600, message: `Invalid request: ${raw.method.slice(0, 100)} was malformed (${why}) and was not processed.` },
      },
      error,
    };
  }
  const why = shape ? `it is ${describeProblem(shape)}` : fault(raw, false);
  return {
    kind: "fail",
    message: {
      jsonrpc: "2.0",
      id,
      error: {
        code: MALFORMED_REPLY_CODE,
        message: `The ${peer}'s reply was malformed (${why}), so it was dropped and no answer can come.`,
        data: { malformedReply: true },
      },
    },
    error,
  };
}

/** Whether an error a call ended with is a malformed reply screened here (its `data` says so). */
export function isMalformedReplyError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  return code === MALFORMED_REPLY_CODE && isObject(data) && data.malformedReply === true;
}
