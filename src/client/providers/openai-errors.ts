// Failures of an OpenAI-compatible API → ProviderError with one clear sentence.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { clip } from "./clip.js";
import { ProviderError, type ProviderTarget } from "./provider.js";

const MAX_PROVIDER_MESSAGE = 500;

export function translateError(error: unknown, target: ProviderTarget, timeoutMs: number): ProviderError {
  if (error instanceof ProviderError) return error;
  // Subclasses first: the abort and timeout errors are APIErrors too.
  if (error instanceof APIUserAbortError) {
    return new ProviderError({ kind: "aborted", detail: "The model request was cancelled", ...target });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError({ kind: "timeout", detail: `The model provider did not answer within ${timeoutMs} ms`, ...target });
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError({
      kind: "network",
      detail: `Cannot reach the model provider: ${connectionReason(error)}`,
      ...target,
      cause: error,
    });
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const inner = error.error as { message?: unknown } | undefined;
    const providerMessage =
      typeof inner?.message === "string" && inner.message.trim() !== "" ? clip(inner.message.trim(), MAX_PROVIDER_MESSAGE) : undefined;
    const detail = `The model provider answered HTTP ${error.status}: ${providerMessage ?? "(no error message)"}`;
    return new ProviderError({ kind: "http", detail, status: error.status, ...(providerMessage ? { providerMessage } : {}), ...target });
  }
  // E.g. a 200 whose body is not JSON: the SDK's own parse error, in our words.
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({
    kind: "bad_response",
    detail: `The model provider's answer could not be used: ${clip(message, MAX_PROVIDER_MESSAGE)}`,
    ...target,
    cause: error,
  });
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found (DNS lookup failed)",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed by the server",
  CERT_HAS_EXPIRED: "TLS certificate expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed TLS certificate",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate not trusted",
};

/** fetch hides the cause ("fetch failed") a few levels down; the system error code is what helps. */
function connectionReason(error: Error): string {
  let deepest: unknown = error;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return REASONS[code] ? `${REASONS[code]} (${code})` : `${e.message} (${code})`;
    deepest = e;
  }
  return deepest instanceof Error ? deepest.message : String(deepest);
}

/**
 * Wraps fetch so error bodies reach the SDK in OpenAI's `{error: {message}}` shape. Compatible servers
 * answer errors as `{error: "…"}` (Ollama), `{message: "…"}` (vLLM), `{detail: …}` (FastAPI) or plain
 * text, and the SDK would otherwise drop the message of any JSON body without an `error` object.
 */
export function normalizeErrorBodies(inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok) return response;
    const text = await response.text();
    const message = errorMessageOf(text);
    const headers = new Headers(response.headers);
    // The body is decoded and rewritten, so the original length and encoding no longer hold.
    headers.delete("content-length");
    headers.delete("content-encoding");
    headers.set("content-type", "application/json");
    const body = message === null ? text : JSON.stringify({ error: { message } });
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** null: already OpenAI-shaped, keep the body as is. */
function errorMessageOf(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return clip(text.trim(), MAX_PROVIDER_MESSAGE);
  }
  if (typeof json !== "object" || json === null) return clip(text.trim(), MAX_PROVIDER_MESSAGE);
  const { error, message, detail } = json as Record<string, unknown>;
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") return null;
  for (const candidate of [error, message, detail]) {
    if (typeof candidate === "string" && candidate.trim() !== "") return clip(candidate.trim(), MAX_PROVIDER_MESSAGE);
  }
  if (detail !== undefined) return clip(JSON.stringify(detail), MAX_PROVIDER_MESSAGE);
  return clip(text.trim(), MAX_PROVIDER_MESSAGE);
}
