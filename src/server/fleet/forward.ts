// A request for a session another live member holds is passed to that member (its address is in its
// heartbeat), so one session's requests all reach the transport that holds its streams and pending
// requests even when the balancer sends them elsewhere. Sticky routing saves this extra hop.
import { request, type IncomingMessage, type ServerResponse } from "node:http";

/** Set on a forwarded request: the member it reaches answers it itself and never forwards it again. */
export const FORWARDED = "mcp-elicit-forwarded";

/** A member that does not accept the connection this fast is treated as unreachable. */
const CONNECT_TIMEOUT_MS = 2000;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer", "host"]);

/** Passes the request on; false when the member could not be reached (nothing was written to `res` then). */
export function forward(req: IncomingMessage, res: ServerResponse, target: URL, body: unknown, from: string): Promise<boolean> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  headers[FORWARDED] = from;
  if (text !== undefined) headers["content-length"] = String(Buffer.byteLength(text));
  else delete headers["content-length"];
  return new Promise<boolean>((resolve) => {
    const upstream = request(target, { method: req.method, headers, path: req.url }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.once("end", () => resolve(true)).once("error", () => (res.destroy(), resolve(true)));
    });
    // Only connecting is timed. Once connected the member has the request, and a busy one may take seconds
    // to answer: taking that for unreachable got the client a 503 "try again", and a second run of its call.
    const connecting = setTimeout(() => upstream.destroy(new Error("connect timeout")), CONNECT_TIMEOUT_MS);
    upstream.once("socket", (socket) => {
      if (socket.connecting) socket.once("connect", () => clearTimeout(connecting));
      else clearTimeout(connecting);
    });
    upstream.once("close", () => clearTimeout(connecting));
    upstream.once("error", () => {
      // Before an answer started, the caller decides what to do instead; after, the client sees the stream break.
      if (res.headersSent) res.destroy();
      resolve(res.headersSent);
    });
    // The client leaving ends the hop too (an SSE stream would otherwise stay open upstream).
    res.once("close", () => upstream.destroy());
    upstream.end(text);
  });
}
