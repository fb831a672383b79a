// A request for a session another live member holds is passed to that member (its address is in its
// heartbeat), so one session's requests all reach the transport that holds its streams and pending
// requests even when the balancer sends them elsewhere. Sticky routing saves this extra hop. Node only
// (serveHttp's fleet): the connect timeout needs node:http's socket events.
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";

/** Set on a forwarded request: the member it reaches answers it itself and never forwards it again. */
export const FORWARDED = "mcp-elicit-forwarded";

/** A member that does not accept the connection this fast is treated as unreachable. */
const CONNECT_TIMEOUT_MS = 2000;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer", "host"]);

/** Passes the request on: the member's answer, or undefined when it could not be reached. */
export function forward(request: Request, target: URL, body: unknown, from: string): Promise<Response | undefined> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  headers[FORWARDED] = from;
  if (text !== undefined) headers["content-length"] = String(Buffer.byteLength(text));
  else delete headers["content-length"];
  const url = new URL(request.url);
  return new Promise<Response | undefined>((resolve) => {
    const upstream = httpRequest(target, { method: request.method, headers, path: url.pathname + url.search }, (answer) => {
      const out = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || HOP_BY_HOP.has(name)) continue;
        for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
      }
      const status = answer.statusCode ?? 502;
      // The answer's stream breaking after it started breaks the client's stream too.
      const stream = status === 204 || status === 304 ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>);
      resolve(new Response(stream, { status, headers: out }));
    });
    // Only connecting is timed. Once connected the member has the request, and a busy one may take seconds
    // to answer: taking that for unreachable got the client a 503 "try again", and a second run of its call.
    const connecting = setTimeout(() => upstream.destroy(new Error("connect timeout")), CONNECT_TIMEOUT_MS);
    upstream.once("socket", (socket) => {
      if (socket.connecting) socket.once("connect", () => clearTimeout(connecting));
      else clearTimeout(connecting);
    });
    upstream.once("close", () => clearTimeout(connecting));
    // Before an answer started, the caller decides what to do instead (a resolved promise ignores this later).
    upstream.once("error", () => resolve(undefined));
    // The client leaving ends the hop too (an SSE stream would otherwise stay open upstream).
    request.signal.addEventListener("abort", () => upstream.destroy(), { once: true });
    upstream.end(text);
  });
}
