// One host request sent on to the server: as the host sent it, but for its progress token (the gateway
// puts its own on every request, HostProgress maps the server's progress back) and, for a 2026-07-28
// server, the log level a 2025 host set with logging/setLevel.
import {
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type JSONRPCRequest,
  type StandardSchemaV1,
} from "@modelcontextprotocol/server";
import type { CallToolRequest, Progress } from "@modelcontextprotocol/client";
import { CALL_TIMEOUT_MS } from "../../client/attach.js";
import type { Upstream } from "./upstreams.js";

export type Result = Record<string, unknown>;
type Params = Result & { _meta?: Record<string, unknown>; task?: unknown };

/** Takes any result as it is: the host checks what it receives, as it would without the gateway. */
export const AS_SENT: StandardSchemaV1<unknown, Result> = {
  "~standard": { version: 1, vendor: "mcp-elicit", validate: (value) => ({ value: value as Result }) },
};

/** The host's progress token of `request`, if it sent one. */
export function progressTokenOf(request: JSONRPCRequest): string | number | undefined {
  const token = (request.params?._meta as Record<string, unknown> | undefined)?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/** The params to send on: without the host's progress token, with the log level where the server takes it per request. */
function paramsFor(request: JSONRPCRequest, logLevel: unknown, modern: boolean): Params | undefined {
  if (request.params === undefined) return undefined;
  const params: Params = { ...request.params };
  if (params._meta && typeof params._meta === "object") {
    const { progressToken: _host, ...meta } = params._meta;
    if (Object.keys(meta).length) params._meta = meta;
    else delete params._meta;
  }
  if (logLevel !== undefined && modern) params._meta = { ...params._meta, [LOG_LEVEL_META_KEY]: logLevel };
  return params;
}

/** Sends the host's `request` to the server over `upstream`; the server's progress goes to `onprogress`. */
export async function forward(
  upstream: Upstream,
  request: JSONRPCRequest,
  logLevel: unknown,
  signal: AbortSignal,
  onprogress?: (progress: Progress) => void,
): Promise<Result> {
  const params = paramsFor(request, logLevel, upstream.protocol === "2026-07-28");
  const options = { signal, timeout: CALL_TIMEOUT_MS, resetTimeoutOnProgress: true, ...(onprogress ? { onprogress } : {}) };
  // A call goes through the handle: -32042 URL flows, tasks followed to their end, the clock that waits for the person.
  if (request.method === "tools/call" && params?.task === undefined)
    return upstream.elicitation.callTool(params as CallToolRequest["params"], options);
  try {
    return await upstream.client.request({ method: request.method, ...(params ? { params } : {}) }, AS_SENT, options);
  } catch (error) {
    // A 2025 method the server's revision does not have: the spec's answer for it.
    if (/not supported by the negotiated protocol version/.test((error as Error).message))
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Method not found: ${request.method} does not exist on ${upstream.protocol}, the revision the server speaks.`,
      );
    throw error;
  }
}
