// One read of a request's body: the Node stream is read once (bounded), parsed once, and the era is
// decided from the parsed message and the protocol headers by the SDK's own classifier, so neither
// the routing nor the transports convert, clone or parse the request again.
import type { IncomingMessage } from "node:http";
import { classifyInboundRequest, DEFAULT_MAX_REQUEST_BODY_SIZE } from "@modelcontextprotocol/server";
import { screenBody, type Refusal } from "../transport/screen.js";

export type ReadBody =
  /** `dropped`: the SDK's error for a malformed reply that goes on as an error reply (for `onerror`). */
  | { kind: "ok"; era: "legacy" | "modern"; parsed: unknown; dropped?: Error }
  /** A POST whose body is empty or not JSON (2025-era serving answers it, as the SDK's entry routes it). */
  | { kind: "unparseable" }
  | { kind: "too-large"; limit: number }
  /** A malformed request the SDK would drop without an answer: send `reply` (-32600 with its id). */
  | { kind: "refuse"; reply: Refusal; dropped: Error };

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

async function readText(req: IncomingMessage, limit: number): Promise<string | undefined> {
  if (Number(header(req, "content-length")) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

/** Reads and classifies one request on the MCP endpoint. */
export async function readBody(req: IncomingMessage, limit = DEFAULT_MAX_REQUEST_BODY_SIZE): Promise<ReadBody> {
  const httpMethod = (req.method ?? "GET").toUpperCase();
  let parsed: unknown;
  let dropped: Error | undefined;
  if (httpMethod === "POST") {
    const text = await readText(req, limit);
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
  const outcome = classifyInboundRequest({
    httpMethod,
    protocolVersionHeader: header(req, "mcp-protocol-version"),
    mcpMethodHeader: header(req, "mcp-method"),
    mcpNameHeader: header(req, "mcp-name"),
    ...(parsed !== undefined && { body: parsed }),
  });
  // Ladder rejections belong to the modern path, which answers them (as isLegacyRequest routes them).
  return { kind: "ok", era: outcome.kind === "legacy" ? "legacy" : "modern", parsed, ...(dropped && { dropped }) };
}
