// One read of a request's body: read once (bounded), parsed once, and the era is decided from the
// parsed message and the protocol headers by the SDK's own classifier, so neither the routing nor the
// transports read, clone or parse the request again. Web-standard: the same on Node, Workers, Deno, Bun.
import { classifyInboundRequest, DEFAULT_MAX_REQUEST_BODY_SIZE, isJsonContentType } from "@modelcontextprotocol/server";
import { screenBody, type Refusal } from "../transport/screen-body.js";
import { jsonError } from "./responses.js";

export type ReadBody =
  /** `dropped`: the SDK's error for a malformed reply that goes on as an error reply (for `onerror`). */
  | { kind: "ok"; era: "legacy" | "modern"; parsed: unknown; dropped?: Error }
  /** A POST whose body is empty or not JSON (2025-era serving answers it, as the SDK's entry routes it). */
  | { kind: "unparseable" }
  | { kind: "too-large"; limit: number }
  /** A malformed request the SDK would drop without an answer: send `reply` (-32600 with its id). */
  | { kind: "refuse"; reply: Refusal; dropped: Error };

async function readText(request: Request, limit: number): Promise<string | undefined> {
  if (Number(request.headers.get("content-length")) > limit) return undefined;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Reads and classifies one request on the MCP endpoint. */
export async function readBody(request: Request, limit = DEFAULT_MAX_REQUEST_BODY_SIZE): Promise<ReadBody> {
  const httpMethod = request.method.toUpperCase();
  let parsed: unknown;
  let dropped: Error | undefined;
  if (httpMethod === "POST") {
    const text = await readText(request, limit);
    if (text === undefined) return { kind: "too-large", limit };
    try {
      parsed = text.length === 0 ? undefined : JSON.parse(text);
    } catch {
      return { kind: "unparseable" };
    }
    if (parsed === undefined) return { kind: "unparseable" };
    // Screened before the era is decided: a malformed reply goes on (and is routed) as an error reply.
    const screened = screenBody(parsed);
    if ("refuse" in screened) return { kind: "refuse", reply: screened.refuse, dropped: screened.error };
    parsed = screened.parsed;
    dropped = screened.error;
  }
  const header = (name: string) => request.headers.get(name) ?? undefined;
  const outcome = classifyInboundRequest({
    httpMethod,
    protocolVersionHeader: header("mcp-protocol-version"),
    mcpMethodHeader: header("mcp-method"),
    mcpNameHeader: header("mcp-name"),
    ...(parsed !== undefined && { body: parsed }),
  });
  // Ladder rejections belong to the modern path, which answers them (as isLegacyRequest routes them).
  return { kind: "ok", era: outcome.kind === "legacy" ? "legacy" : "modern", parsed, ...(dropped && { dropped }) };
}

/** The request's message and era, or the answer refusing its body (413, 415, a parse error, -32600 with its id). */
export async function readMessage(
  request: Request,
  onerror: (error: Error) => void,
): Promise<Response | { era: "legacy" | "modern"; parsed: unknown }> {
  const body = await readBody(request);
  if (body.kind === "too-large")
    return jsonError(413, -32000, `Payload Too Large: Request body must not exceed ${body.limit} bytes`, null, { connection: "close" });
  if (body.kind === "unparseable")
    return isJsonContentType(request.headers.get("content-type"))
      ? jsonError(400, -32700, "Parse error: Invalid JSON")
      : jsonError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  // A malformed request is answered -32600 with its id (screened above; a malformed reply goes on as an error reply).
  if (body.dropped) onerror(body.dropped); // as the SDK's transport reported it
  if (body.kind === "refuse") return jsonError(200, body.reply.error.code, body.reply.error.message, body.reply.id);
  return body;
}
