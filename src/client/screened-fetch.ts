// The client's adapter of the screen (src/common/screen.ts) for Streamable HTTP: the transport's
// `fetch`, wrapped, so each message a server sends (a JSON body or an event of an SSE stream) is
// screened before the SDK's transport parses it. A malformed request is refused through `refuse`
// (the transport's own send: the -32600 is POSTed like any reply); a malformed reply is handed on
// as an error reply with its id, which ends exactly the call that waits for it.
import { parseJSONRPCMessage } from "@modelcontextprotocol/client";
import { screenInbound, type Screened } from "../common/screen.js";
import type { FetchLike } from "./resend.js";

export type Refusal = Extract<Screened, { kind: "refuse" }>["reply"];

export interface ScreenedFetchOptions {
  /** The fetch to wrap (default: globalThis.fetch, or another wrapper such as resendingFetch). */
  fetch?: FetchLike;
  /** Sends the -32600 answer to a malformed request: the transport's `send`, bound once it exists. */
  refuse: (reply: Refusal) => void;
  /** Hears each screened message's error, as the SDK's transport reported it (the transport's own `onerror`). */
  onerror?: (error: Error) => void;
}

const fromServer = (raw: unknown): Screened => screenInbound(raw, parseJSONRPCMessage, "server");

/** One event's lines with its data screened; undefined: leave the event as it was. */
function screenEvent(lines: string[], options: ScreenedFetchOptions): string[] | undefined {
  const isData = (line: string) => line === "data" || line.startsWith("data:");
  const event = lines.find((l) => l.startsWith("event:"));
  if (event !== undefined && event.slice(6).trim() !== "message") return undefined;
  const data = lines.filter(isData).map((l) => l.slice(5).replace(/^ /, ""));
  if (data.length === 0) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(data.join("\n"));
  } catch {
    return undefined; // the transport reports it
  }
  const screened = fromServer(raw);
  if (screened.kind === "pass") return undefined;
  options.onerror?.(screened.error);
  const rest = lines.filter((l) => !isData(l)); // the event id stays: a resumed stream starts after it
  if (screened.kind === "refuse") {
    options.refuse(screened.reply);
    return rest; // an event without data is never dispatched
  }
  return [...rest, `data: ${JSON.stringify(screened.message)}`];
}

/** An SSE body with each message event screened, event by event as they come. */
function screenSse(body: ReadableStream<Uint8Array>, options: ScreenedFetchOptions): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  let event: string[] = [];
  const lines = (text: string, controller: TransformStreamDefaultController<Uint8Array>, end: boolean) => {
    pending += text;
    const parts = pending.split("\n");
    pending = end ? "" : parts.pop()!;
    if (end && parts.at(-1) === "") parts.pop();
    let out = "";
    for (const part of parts) {
      const line = part.replace(/\r$/, "");
      if (line !== "") {
        event.push(line);
        continue;
      }
      out += [...(screenEvent(event, options) ?? event), ""].join("\n") + "\n";
      event = [];
    }
    if (end && event.length) out += event.join("\n") + "\n";
    if (out) controller.enqueue(encoder.encode(out));
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => lines(decoder.decode(chunk, { stream: true }), controller, false),
      flush: (controller) => lines(decoder.decode(), controller, true),
    }),
  );
}

/** A JSON body (one message or a batch) screened; undefined: leave it as it was. */
function screenJson(text: string, options: ScreenedFetchOptions): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const all = Array.isArray(raw) ? raw : [raw];
  const out: unknown[] = [];
  let changed = false;
  for (const message of all) {
    const screened = fromServer(message);
    if (screened.kind === "pass") {
      out.push(message);
      continue;
    }
    changed = true;
    options.onerror?.(screened.error);
    if (screened.kind === "fail") out.push(screened.message);
    else options.refuse(screened.reply);
  }
  if (!changed) return undefined;
  return JSON.stringify(Array.isArray(raw) ? out : (out[0] ?? []));
}

/**
 * Wraps `fetch` (StreamableHTTPClientTransport's `fetch` option) so what the SDK's transport would
 * drop is answered: a malformed request with -32600 and its id, a malformed reply as an error reply.
 */
export function screenedFetch(options: ScreenedFetchOptions): FetchLike {
  return async (url, init) => {
    const response = await (options.fetch ?? globalThis.fetch)(url, init);
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!response.ok || !response.body) return response;
    const rebuilt = (body: BodyInit) =>
      new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    if (type.startsWith("text/event-stream")) return rebuilt(screenSse(response.body, options));
    if (!type.startsWith("application/json")) return response;
    const text = await response.text();
    return rebuilt(screenJson(text, options) ?? text);
  };
}
